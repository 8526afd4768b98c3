// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/export/exportgroup.h>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace plume {

class PassesEditor;

/// The export dialog's "Flipbook atlas" section (docs/flipbook.md): whether the bake writes
/// <base>_flipbook.png and its sidecar, the atlas's tiles, step and padding, its alpha, bit
/// depth and emission, the motion-vector atlas, the loop blend and the passes.
class FlipbookGroup : public ExportGroup
{
    Q_OBJECT

public:
    explicit FlipbookGroup(QWidget *parent = nullptr);

    void setThreeD(bool threeD) override;
    /// flipbook, but for its frames and file name (the dialog's).
    void apply(BakeSettings &settings) const override;

protected:
    void loadWidgets(const BakeSettings &settings) override;
    void updateEnabled() override;

private:
    QSpinBox *mRows;
    QSpinBox *mColumns;
    QSpinBox *mStep;
    QSpinBox *mPadding;
    QComboBox *mAlpha;
    QComboBox *mDepth;
    QComboBox *mEmission;
    QCheckBox *mMotion;
    QDoubleSpinBox *mMotionRange;
    QSpinBox *mLoop;
    PassesEditor *mPasses;
};

} // namespace plume
