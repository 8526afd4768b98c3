// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/document/modelimport.h>

#include <QDialog>

class QComboBox;
class QLineEdit;
class QRadioButton;

namespace plume {

/// File > Import Model's questions about a model just read: the item's name, whether it is an
/// obstacle or an emitter, and whether it is fitted into the domain or kept in the file's
/// units. `summary` (the model's triangles and whether it is closed) is shown above them.
class ImportModelDialog : public QDialog
{
    Q_OBJECT

public:
    ImportModelDialog(const QString &summary, const ModelImportOptions &defaults,
                      QWidget *parent = nullptr);

    /// The answers (the name trimmed; empty when the user cleared it).
    ModelImportOptions options() const;

private:
    QLineEdit *mName;
    QComboBox *mKind;
    QRadioButton *mFit;
    QRadioButton *mKeep;
};

} // namespace plume
