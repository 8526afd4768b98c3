// SPDX-License-Identifier: Apache-2.0
#include <ui/export/wedgegroup.h>

#include <ui/export/exportwidgets.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <climits>

namespace plume {

using namespace exportwidgets;

namespace {

constexpr int kKeyColumn = 0;
constexpr int kValuesColumn = 1;

} // namespace

WedgeGroup::WedgeGroup(QWidget *parent)
    : QGroupBox("Variations (wedge)", parent)
{
    setObjectName("wedgeGroup");
    setCheckable(true);
    setChecked(false);
    setToolTip("Bake variations of the scene: each row varies one setting. Export writes "
               "<scene>_w<k>.plume and <scene>_wedge.json into the folder and bakes each "
               "variation into <folder>/<scene>_w<k>/ (docs/wedges.md).");
    mTable = new QTableWidget(0, 2);
    mTable->setObjectName("wedgeTable");
    mTable->setHorizontalHeaderLabels({"Key", "Values (a,b,c or A:B:N)"});
    mTable->horizontalHeader()->setSectionResizeMode(kKeyColumn, QHeaderView::Stretch);
    mTable->horizontalHeader()->setSectionResizeMode(kValuesColumn, QHeaderView::Stretch);
    mTable->verticalHeader()->setVisible(false);
    mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    mTable->setSelectionMode(QAbstractItemView::SingleSelection);
    mTable->setMinimumHeight(110);
    mAdd = new QPushButton("Add Key");
    mAdd->setObjectName("wedgeAdd");
    mRemove = new QPushButton("Remove Key");
    mRemove->setObjectName("wedgeRemove");
    mRemove->setFocusPolicy(Qt::NoFocus); // the row being edited keeps the focus: it goes
    connect(mAdd, &QPushButton::clicked, this, [this] { addRow(); });
    connect(mRemove, &QPushButton::clicked, this, &WedgeGroup::removeRow);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(mAdd);
    buttons->addWidget(mRemove);
    buttons->addStretch();

    mRandom = checkBox("wedgeRandom", "Random");
    mRandom->setToolTip("Instead of every combination: N variations, each key drawn uniformly "
                        "from its range A:B or its list, the same for the same seed");
    mRandomCount = spinBox("wedgeRandomCount", 1, kMaxWedgeVariations);
    mRandomCount->setValue(8);
    mSeed = spinBox("wedgeSeed", 0, INT_MAX);
    auto *random = new QHBoxLayout;
    random->addWidget(mRandom);
    random->addWidget(new QLabel("N"));
    random->addWidget(mRandomCount);
    random->addWidget(new QLabel("seed"));
    random->addWidget(mSeed);
    random->addStretch();

    mStatus = new QLabel;
    mStatus->setObjectName("wedgeStatus");
    mStatus->setWordWrap(true);
    mStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(mTable);
    layout->addLayout(buttons);
    layout->addLayout(random);
    layout->addWidget(mStatus);

    connect(this, &QGroupBox::toggled, this, &WedgeGroup::edited);
    connect(mRandom, &QCheckBox::toggled, this, &WedgeGroup::edited);
    for (QSpinBox *box : {mRandomCount, mSeed})
        connect(box, &QSpinBox::valueChanged, this, &WedgeGroup::edited);
    edited();
}

void WedgeGroup::setScene(const Scene *scene, const QString &fileName)
{
    mScene = scene;
    mFileName = fileName;
    mKeys.clear();
    if (scene) {
        for (const std::string &key : wedgeKeys(*scene))
            mKeys << QString::fromStdString(key);
    }
    edited();
}

/// What a new row offers: the first of the settings artists wedge most that no row varies yet,
/// else the scene's first key no row varies.
QString WedgeGroup::defaultKey() const
{
    QStringList used;
    for (int row = 0; row < mTable->rowCount(); ++row)
        if (auto *box = qobject_cast<QComboBox *>(mTable->cellWidget(row, kKeyColumn)))
            used << box->currentText();
    for (const char *key : {"simulation.vorticity", "simulation.buoyancyTemperature",
                            "simulation.densityDissipation", "simulation.combustion.burnRate"})
        if (mKeys.contains(key) && !used.contains(key))
            return key;
    for (const QString &key : mKeys)
        if (!used.contains(key))
            return key;
    return mKeys.isEmpty() ? QString() : mKeys.first();
}

void WedgeGroup::addRow(const QString &key, const QString &values)
{
    const int row = mTable->rowCount();
    mTable->insertRow(row);
    auto *keyBox = new QComboBox;
    keyBox->setObjectName("wedgeKey");
    keyBox->setEditable(true);
    keyBox->setInsertPolicy(QComboBox::NoInsert);
    keyBox->addItems(mKeys);
    keyBox->completer()->setCompletionMode(QCompleter::PopupCompletion);
    keyBox->completer()->setFilterMode(Qt::MatchContains);
    keyBox->setCurrentText(key.isEmpty() ? defaultKey() : key);
    keyBox->setToolTip("A scene-format key: simulation.vorticity, items[name].emitter.fuel, "
                       "items[name].offset[1] (docs/wedges.md)");
    auto *valuesEdit = new QLineEdit(values);
    valuesEdit->setObjectName("wedgeValues");
    valuesEdit->setPlaceholderText("0.1,0.2,0.4 or 4:12:3");
    mTable->setCellWidget(row, kKeyColumn, keyBox);
    mTable->setCellWidget(row, kValuesColumn, valuesEdit);
    connect(keyBox, &QComboBox::currentTextChanged, this, &WedgeGroup::edited);
    connect(valuesEdit, &QLineEdit::textChanged, this, &WedgeGroup::edited);
    edited();
}

void WedgeGroup::removeRow()
{
    if (mTable->rowCount() == 0)
        return;
    int row = mTable->currentRow();
    for (int r = 0; r < mTable->rowCount(); ++r) {
        for (int c : {kKeyColumn, kValuesColumn}) {
            QWidget *w = mTable->cellWidget(r, c);
            if (w && (w->hasFocus() || w->isAncestorOf(QApplication::focusWidget())))
                row = r;
        }
    }
    mTable->removeRow(row >= 0 ? row : mTable->rowCount() - 1);
    edited();
}

int WedgeGroup::rowCount() const { return mTable->rowCount(); }

bool WedgeGroup::spec(WedgeSpec &out, QString &error) const
{
    out = WedgeSpec{};
    if (mTable->rowCount() == 0) {
        error = "Add a key to vary.";
        return false;
    }
    for (int r = 0; r < mTable->rowCount(); ++r) {
        const auto *key = qobject_cast<QComboBox *>(mTable->cellWidget(r, kKeyColumn));
        const auto *values = qobject_cast<QLineEdit *>(mTable->cellWidget(r, kValuesColumn));
        auto axis = parseWedgeAxis(key->currentText().trimmed().toStdString() + "="
                                   + values->text().toStdString());
        if (!axis) {
            error = QString("Row %1: %2").arg(r + 1).arg(QString::fromStdString(axis.error()));
            return false;
        }
        out.axes.push_back(axis.take());
    }
    if (mRandom->isChecked())
        out.random = WedgeRandom{mRandomCount->value(), std::uint32_t(mSeed->value())};
    return true;
}

void WedgeGroup::edited()
{
    for (QWidget *w : {static_cast<QWidget *>(mRandomCount), static_cast<QWidget *>(mSeed)})
        w->setEnabled(mRandom->isChecked());
    WedgeSpec s;
    QString error;
    mCount = 0;
    if (spec(s, error) && mScene) {
        error = QString::fromStdString(checkWedge(*mScene, s, mFileName).error);
        if (error.isEmpty())
            mCount = int(wedgeCount(s));
    } else if (error.isEmpty()) {
        error = "No scene.";
    }
    mProblem = isChecked() ? error : QString();
    if (!error.isEmpty()) {
        // Red only while the section is on: off, it is a hint.
        mStatus->setStyleSheet(isChecked() ? "color: #c0392b" : "");
        mStatus->setText(error);
    } else {
        mStatus->setStyleSheet({});
        mStatus->setText(mCount == 1 ? QString("1 variation")
                                     : QString("%1 variations").arg(mCount));
    }
    Q_EMIT changed();
}

} // namespace plume
