// SPDX-License-Identifier: Apache-2.0
// PropertiesPanel's generic editors: a label and a spin box, check box, combo box, text field,
// vector or note, each with its tooltip (propertyhelp.h), a refresher that shows the document's
// value, and a setter that makes the edit (an undo command). The wheel turns a value only in
// the editor that has focus: over an unfocused one it scrolls the panel, so scrolling through
// the properties never edits the scene.
#include <ui/panels/propertiespanel.h>

#include <ui/panels/propertyhelp.h>

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>
#include <climits>
#include <cmath>

namespace plume {

namespace {

/// Hands wheel events over an editor without focus to the panel's scroll bar.
class WheelGuard : public QObject
{
public:
    explicit WheelGuard(QAbstractScrollArea *panel)
        : QObject(panel)
        , mPanel(panel)
    {}

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        auto *w = qobject_cast<QWidget *>(watched);
        if (event->type() != QEvent::Wheel || !w || w->hasFocus())
            return false;
        QCoreApplication::sendEvent(mPanel->verticalScrollBar(), event);
        return true;
    }

private:
    QAbstractScrollArea *mPanel;
};

} // namespace

void PropertiesPanel::guardWheel(QWidget *editor)
{
    if (!mWheelGuard)
        mWheelGuard = new WheelGuard(this);
    editor->setFocusPolicy(Qt::StrongFocus); // not focused by the wheel either
    editor->installEventFilter(mWheelGuard);
}

void PropertiesPanel::addDouble(QFormLayout *form, const QString &label,
                                std::function<double()> get, std::function<void(double)> set,
                                const sim::Param &range)
{
    auto *box = new QDoubleSpinBox;
    guardWheel(box);
    box->setObjectName(QString::fromLatin1(range.key));
    box->setDecimals(range.decimals);
    box->setRange(range.lowest(), range.highest());
    box->setSingleStep(std::pow(10.0, -std::max(0, range.decimals - 1)));
    box->setKeyboardTracking(false);
    form->addRow(label, box);
    box->setToolTip(propertyTip(form, label));
    mRefreshers[std::size_t(mBuilding)].push_back([box, get] {
        const QSignalBlocker block(box);
        box->setValue(get());
    });
    connect(box, &QDoubleSpinBox::valueChanged, this, [this, set](double v) {
        if (!mRefreshing)
            set(v);
    });
}

void PropertiesPanel::addInt(QFormLayout *form, const QString &label, std::function<int()> get,
                             std::function<void(int)> set, const sim::Param &range)
{
    auto *box = new QSpinBox;
    guardWheel(box);
    box->setObjectName(QString::fromLatin1(range.key));
    // A QSpinBox holds an int: the seed's range ends at INT_MAX here.
    box->setRange(int(std::max(range.lowest(), double(INT_MIN))),
                  int(std::min(range.highest(), double(INT_MAX))));
    box->setKeyboardTracking(false);
    form->addRow(label, box);
    box->setToolTip(propertyTip(form, label));
    mRefreshers[std::size_t(mBuilding)].push_back([box, get] {
        const QSignalBlocker block(box);
        box->setValue(get());
    });
    connect(box, &QSpinBox::valueChanged, this, [this, set](int v) {
        if (!mRefreshing)
            set(v);
    });
}

void PropertiesPanel::addBool(QFormLayout *form, const QString &label, std::function<bool()> get,
                              std::function<void(bool)> set)
{
    auto *box = new QCheckBox;
    form->addRow(label, box);
    box->setToolTip(propertyTip(form, label));
    mRefreshers[std::size_t(mBuilding)].push_back([box, get] {
        const QSignalBlocker block(box);
        box->setChecked(get());
    });
    connect(box, &QCheckBox::toggled, this, [this, set](bool v) {
        if (!mRefreshing)
            set(v);
    });
}

void PropertiesPanel::addChoice(QFormLayout *form, const QString &label, const QStringList &choices,
                                std::function<int()> get, std::function<void(int)> set)
{
    auto *box = new QComboBox;
    guardWheel(box);
    box->addItems(choices);
    form->addRow(label, box);
    box->setToolTip(propertyTip(form, label));
    mRefreshers[std::size_t(mBuilding)].push_back([box, get] {
        const QSignalBlocker block(box);
        box->setCurrentIndex(get());
    });
    connect(box, &QComboBox::currentIndexChanged, this, [this, set](int v) {
        if (!mRefreshing && v >= 0)
            set(v);
    });
}

void PropertiesPanel::addText(QFormLayout *form, const QString &label, std::function<QString()> get,
                              std::function<void(QString)> set)
{
    auto *edit = new QLineEdit;
    form->addRow(label, edit);
    edit->setToolTip(propertyTip(form, label));
    mRefreshers[std::size_t(mBuilding)].push_back([edit, get] {
        const QSignalBlocker block(edit);
        edit->setText(get());
    });
    connect(edit, &QLineEdit::editingFinished, this, [this, edit, set, get] {
        if (mRefreshing)
            return;
        set(edit->text());
        const QSignalBlocker block(edit);
        edit->setText(get()); // a refused name goes back
    });
}

void PropertiesPanel::addVec(QFormLayout *form, const QString &label,
                             std::function<sim::Vec3()> get, std::function<void(sim::Vec3)> set,
                             int components, const sim::Param &range)
{
    auto *row = new QWidget;
    auto *h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    std::vector<QDoubleSpinBox *> boxes;
    for (int c = 0; c < components; ++c) {
        auto *box = new QDoubleSpinBox;
        guardWheel(box);
        box->setObjectName(QString::fromLatin1(range.key));
        box->setDecimals(range.decimals);
        box->setRange(range.lowest(), range.highest());
        box->setSingleStep(0.01);
        box->setKeyboardTracking(false);
        h->addWidget(box);
        boxes.push_back(box);
    }
    form->addRow(label, row);
    row->setToolTip(propertyTip(form, label));
    mRefreshers[std::size_t(mBuilding)].push_back([boxes, get] {
        const sim::Vec3 v = get();
        for (std::size_t c = 0; c < boxes.size(); ++c) {
            const QSignalBlocker block(boxes[c]);
            boxes[c]->setValue(v[int(c)]);
        }
    });
    for (std::size_t c = 0; c < boxes.size(); ++c)
        connect(boxes[c], &QDoubleSpinBox::valueChanged, this, [this, get, set, c](double x) {
            if (mRefreshing)
                return;
            sim::Vec3 v = get();
            v[int(c)] = float(x);
            set(v);
        });
}

QLabel *PropertiesPanel::addNote(QFormLayout *form, const QString &label,
                                 std::function<QString()> get)
{
    auto *note = new QLabel;
    form->addRow(label, note);
    note->setToolTip(propertyTip(form, label));
    mRefreshers[std::size_t(mBuilding)].push_back([note, get] { note->setText(get()); });
    return note;
}

} // namespace plume
