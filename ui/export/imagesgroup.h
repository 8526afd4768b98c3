// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/export/exportgroup.h>

class QComboBox;
class QSpinBox;

namespace plume {

class PassesEditor;

/// The export dialog's "Image sequence" section: whether the bake writes <base>.####.png (or
/// .exr), every how many frames, their alpha, bit depth and emission, and the passes.
class ImagesGroup : public ExportGroup
{
    Q_OBJECT

public:
    explicit ImagesGroup(QWidget *parent = nullptr);

    void setThreeD(bool threeD) override;
    /// images, but for their frames and file name (the dialog's).
    void apply(BakeSettings &settings) const override;

protected:
    void loadWidgets(const BakeSettings &settings) override;

private:
    QSpinBox *mStep;
    QComboBox *mAlpha;
    QComboBox *mDepth;
    QComboBox *mEmission;
    PassesEditor *mPasses;
};

} // namespace plume
