// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/export/exportgroup.h>
#include <ui/export/exportwidgets.h>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;

namespace plume {

/// The export dialog's "Render" section: the look of the flipbook and the images
/// (RenderSettings): frame size, the 2D look or the 3D look and camera, the level surface's iso
/// value, the field and colour map of the field look; then the light model (docs/render.md) in
/// three parts: Light (the sun's direction, colour and intensity, the sky and ground colours,
/// ambient), Smoke (albedo, density scale, anisotropy, multiple scattering, emission and flame
/// intensity, emission scattering) and Image (exposure and tone curve of the PNG files and the
/// preview). Every editor has a tooltip in artist terms. Options that the scene's dimension or
/// the look chosen do not use are disabled (the field and texture looks keep their exact
/// colours: no exposure or tone curve, tone.h).
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
    void createLightRows(QFormLayout *form);
    void createSmokeRows(QFormLayout *form);
    void createImageRows(QFormLayout *form);

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
    QComboBox *mFraming;
    QDoubleSpinBox *mFramingPadding;
    // Light
    exportwidgets::VectorBoxes mLightDirection;
    exportwidgets::VectorBoxes mLightColor;
    QDoubleSpinBox *mLightIntensity;
    exportwidgets::VectorBoxes mSkyColor;
    exportwidgets::VectorBoxes mGroundColor;
    QDoubleSpinBox *mAmbient;
    // Smoke
    exportwidgets::VectorBoxes mSmokeColor;
    QDoubleSpinBox *mDensityScale;
    QDoubleSpinBox *mAnisotropy;
    QDoubleSpinBox *mMultipleScattering;
    QDoubleSpinBox *mEmissionIntensity;
    QDoubleSpinBox *mFlameIntensity;
    QDoubleSpinBox *mEmissionScattering;
    // Image
    QDoubleSpinBox *mExposure;
    QComboBox *mToneCurve;
    bool mThreeD = true;
};

} // namespace plume
