// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/bake/bakesettings.h>

#include <QGroupBox>

class QCheckBox;
class QFormLayout;
class QLineEdit;

namespace plume {

/// The export dialog's "Output" section: the folder the files go to (with a browse button),
/// their base name, and which outputs the bake writes: the boxes of the output sections
/// (ExportGroup::toggle) and the flow map's, the one output without options of its own (2D;
/// like plume-cli's --flow-map it is not stored in the presets).
class OutputGroup : public QGroupBox
{
    Q_OBJECT

public:
    explicit OutputGroup(QWidget *parent = nullptr);

    /// Adds an output's box under the others (addOutput(flowMapBox()) places the flow map's).
    void addOutput(QCheckBox *box);
    QCheckBox *flowMapBox() const { return mFlowMapOn; }
    /// 3D scenes have no flow map.
    void setThreeD(bool threeD);

    /// Trimmed.
    QString folder() const;
    void setFolder(const QString &folder);
    /// Trimmed.
    QString baseName() const;
    void setBaseName(const QString &baseName);

    /// outputDirectory, baseName and flowMap.
    void apply(BakeSettings &settings) const;

signals:
    void changed();

private:
    void browse();

    QFormLayout *mForm;
    QLineEdit *mDirectory;
    QLineEdit *mBaseName;
    QCheckBox *mFlowMapOn;
};

} // namespace plume
