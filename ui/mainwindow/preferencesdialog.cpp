// SPDX-License-Identifier: Apache-2.0
#include <ui/mainwindow/preferencesdialog.h>

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace plume {

namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;

QSpinBox *mebibytes(QWidget *parent, int minimum, const char *name)
{
    auto *box = new QSpinBox(parent);
    box->setObjectName(name);
    box->setRange(minimum, 1 << 30);
    box->setSingleStep(256);
    box->setSuffix(" MiB");
    return box;
}

} // namespace

PreferencesDialog::PreferencesDialog(const CacheSettings &settings, QWidget *parent)
    : QDialog(parent)
{
    setObjectName("preferencesDialog");
    setWindowTitle("Preferences");
    auto *form = new QFormLayout;
    mMemory = mebibytes(this, 64, "cacheMemory");
    mMemory->setToolTip("Simulated frames kept in memory; older ones spill to the disk cache.");
    mDisk = mebibytes(this, 0, "cacheDisk");
    mDisk->setToolTip("Frames spilled to disk, beside the scene file (or in the user's cache "
                      "folder for unsaved scenes). 0: no disk cache, older frames are dropped.");
    mInterval = new QSpinBox(this);
    mInterval->setObjectName("checkpointInterval");
    mInterval->setRange(0, 10000);
    mInterval->setSuffix(" frames");
    mInterval->setSpecialValueText("off");
    mInterval->setToolTip("A checkpoint of the solver every this many frames: an edit on an "
                          "earlier frame resumes from the nearest one instead of frame 0.");
    mCheckpoints = mebibytes(this, 0, "checkpointMemory");
    mCheckpoints->setToolTip("Checkpoints kept in memory; when full, the one whose neighbours "
                             "are closest goes.");
    form->addRow("Frame cache memory", mMemory);
    form->addRow("Disk cache", mDisk);
    form->addRow("Checkpoint every", mInterval);
    form->addRow("Checkpoint memory", mCheckpoints);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel
                                             | QDialogButtonBox::RestoreDefaults,
                                         this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this,
            [this] { setSettings(CacheSettings::defaults()); });
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    auto *note = new QLabel("Smaller budgets spill or drop frames and checkpoints at once. All "
                            "of them go with another scene or Simulation > Clear Cache.",
                            this);
    note->setWordWrap(true);
    layout->addWidget(note);
    layout->addWidget(buttons);
    setSettings(settings);
}

void PreferencesDialog::setSettings(const CacheSettings &s)
{
    mMemory->setValue(int(s.memoryBytes / kMiB));
    mDisk->setValue(int(s.diskBytes / kMiB));
    mInterval->setValue(s.checkpointInterval);
    mCheckpoints->setValue(int(s.checkpointBytes / kMiB));
}

CacheSettings PreferencesDialog::settings() const
{
    CacheSettings s;
    s.memoryBytes = std::size_t(mMemory->value()) * kMiB;
    s.diskBytes = std::size_t(mDisk->value()) * kMiB;
    s.checkpointInterval = mInterval->value();
    s.checkpointBytes = std::size_t(mCheckpoints->value()) * kMiB;
    return s;
}

} // namespace plume
