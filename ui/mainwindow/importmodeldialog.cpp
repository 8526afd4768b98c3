// SPDX-License-Identifier: Apache-2.0
#include <ui/mainwindow/importmodeldialog.h>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace plume {

ImportModelDialog::ImportModelDialog(const QString &summary, const ModelImportOptions &defaults,
                                     QWidget *parent)
    : QDialog(parent)
    , mName(new QLineEdit(QString::fromStdString(defaults.name)))
    , mKind(new QComboBox)
    , mFit(new QRadioButton("Scale to fit a quarter of the domain, centred"))
    , mKeep(new QRadioButton("Keep the file's units (file coordinates are world units)"))
{
    setObjectName("importModelDialog");
    setWindowTitle("Import Model");
    mName->setObjectName("modelName");
    mKind->setObjectName("modelKind");
    mFit->setObjectName("modelFit");
    mKeep->setObjectName("modelKeepUnits");
    mKind->addItem("Obstacle", int(ItemKind::Obstacle));
    mKind->addItem("Emitter", int(ItemKind::Emitter));
    mKind->setCurrentIndex(defaults.kind == ItemKind::Emitter ? 1 : 0);
    (defaults.fit ? mFit : mKeep)->setChecked(true);

    auto *layout = new QVBoxLayout(this);
    auto *about = new QLabel(summary);
    about->setObjectName("modelSummary");
    about->setWordWrap(true);
    layout->addWidget(about);
    auto *form = new QFormLayout;
    form->addRow("Name", mName);
    form->addRow("Kind", mKind);
    layout->addLayout(form);
    layout->addWidget(mFit);
    layout->addWidget(mKeep);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(mName, &QLineEdit::textChanged, this, [this, buttons](const QString &text) {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(!text.trimmed().isEmpty());
    });
}

ModelImportOptions ImportModelDialog::options() const
{
    ModelImportOptions o;
    o.name = mName->text().trimmed().toStdString();
    o.kind = ItemKind(mKind->currentData().toInt());
    o.fit = mFit->isChecked();
    return o;
}

} // namespace plume
