// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/wedge.h>
#include <core/scene/scene.h>

#include <QGroupBox>
#include <QString>

class QCheckBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace plume {

/// The export dialog's "Variations" section (docs/wedges.md): while checked, Export bakes a
/// wedge of the scene, one variation after another, instead of the scene itself. A row per key
/// (picked from the scene's numbers and items, or typed) and its values (`a,b,c` or `A:B:N`),
/// the product or `Random` N variations with a seed. Below the rows: the number of variations,
/// or the refusal (core/bake/wedge.h's checkWedge, the scene reader's message), updated on
/// every edit. Holds nothing of the document: the rows are not stored in the scene.
class WedgeGroup : public QGroupBox
{
    Q_OBJECT

public:
    explicit WedgeGroup(QWidget *parent = nullptr);

    /// The scene the keys are offered from and checked against (not owned; it must outlive
    /// the group), and its file name for the reader's messages.
    void setScene(const Scene *scene, const QString &fileName);

    bool isOn() const { return isChecked(); }
    /// Adds a row; the tests' and the dialog's way to fill it.
    void addRow(const QString &key = {}, const QString &values = {});
    /// The key a new row starts with (the most wedged setting not varied yet).
    QString defaultKey() const;
    /// Removes the row with the keyboard focus or the current row, else the last.
    void removeRow();
    int rowCount() const;

    /// The rows as a spec, or why they are not one (syntax only).
    bool spec(WedgeSpec &out, QString &error) const;
    /// Why the wedge cannot be made (syntax, count, keys and values against the scene), or
    /// empty; shown under the rows.
    QString problem() const { return mProblem; }
    /// The number of variations, 0 while there is a problem.
    int count() const { return mCount; }

    QTableWidget *table() const { return mTable; }
    QLabel *status() const { return mStatus; }

signals:
    void changed();

private:
    void edited();

    const Scene *mScene = nullptr;
    QString mFileName;
    QStringList mKeys; ///< offered in each row's key box
    QTableWidget *mTable;
    QPushButton *mAdd;
    QPushButton *mRemove;
    QCheckBox *mRandom;
    QSpinBox *mRandomCount;
    QSpinBox *mSeed;
    QLabel *mStatus;
    QString mProblem;
    int mCount = 0;
};

} // namespace plume
