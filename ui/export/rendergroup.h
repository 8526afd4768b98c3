// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/export/exportgroup.h>

class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace plume {

/// The export dialog's "Render" section: the look of the flipbook and the images
/// (RenderSettings): frame size, the 2D look or the 3D look and camera, the level surface's iso
/// value, the field and colour map of the field look, emission and flame intensity. Options
/// that the scene's dimension or the look chosen do not use are disabled.
class RenderGroup : public ExportGroup
{
    Q_OBJECT

public:
    explicit RenderGroup(QWidget *parent = nullptr);

    /// 2D scenes have the 2D looks; 3D scenes the 3D looks and the camera.
    void setThreeD(bool threeD) override;
    /// render (what it does not show stays as it is) and levelSurfaceIso.
    void apply(BakeSettings &settings) const override;

protected:
    void loadWidgets(const BakeSettings &settings) override;
    void updateEnabled() override;

private:
    QSpinBox *mWidth;
    QSpinBox *mHeight;
    QComboBox *mLook;
    QComboBox *mLook3D;
    QDoubleSpinBox *mSurfaceIso;
    QComboBox *mField;
    QComboBox *mColorMap;
    QDoubleSpinBox *mFieldMin;
    QDoubleSpinBox *mFieldMax;
    QComboBox *mProjection;
    QDoubleSpinBox *mYaw;
    QDoubleSpinBox *mPitch;
    QDoubleSpinBox *mFov;
    QDoubleSpinBox *mZoom;
    QDoubleSpinBox *mEmissionIntensity;
    QDoubleSpinBox *mFlameIntensity;
    bool mThreeD = true;
};

} // namespace plume
