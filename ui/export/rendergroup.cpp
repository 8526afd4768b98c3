// SPDX-License-Identifier: Apache-2.0
#include <ui/export/rendergroup.h>

#include <core/export/tone.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QSpinBox>

namespace plume {

using namespace exportwidgets;

RenderGroup::RenderGroup(QWidget *parent)
    : ExportGroup("Render", "renderGroup", parent)
{
    auto *form = new QFormLayout(this);
    mWidth = spinBox("frameWidth", renderParams::width);
    mHeight = spinBox("frameHeight", renderParams::height);
    form->addRow("Frame size", sideBySide(mWidth, mHeight, "x"));
    mLook = comboBox("look", {{"Dye (density as alpha)", int(Look2D::Dye)},
                              {"Field with colour map", int(Look2D::Field)},
                              {"Liquid texture", int(Look2D::Texture)},
                              {"Level surface (lit liquid)", int(Look2D::Surface)}});
    form->addRow("Look (2D)", mLook);
    mLook3D = comboBox("look3d", {{"Smoke volume", int(Look3D::Volume)},
                                  {"Level surface (lit liquid)", int(Look3D::Surface)}});
    form->addRow("Look (3D)", mLook3D);
    mSurfaceIso = doubleBox("surfaceIso", renderParams::surfaceIso, 0.05);
    mSurfaceIso->setToolTip("Density on the level surface of grid smoke (docs/surfaces.md)");
    form->addRow("Surface iso value", mSurfaceIso);
    mField = new QComboBox;
    mField->setObjectName("field");
    for (sim::FieldKind f :
         {sim::FieldKind::Density, sim::FieldKind::Temperature, sim::FieldKind::Speed,
          sim::FieldKind::Vorticity, sim::FieldKind::Pressure, sim::FieldKind::Divergence,
          sim::FieldKind::VelocityX, sim::FieldKind::VelocityY})
        mField->addItem(toString(f), int(f));
    form->addRow("Field", mField);
    mColorMap = new QComboBox;
    mColorMap->setObjectName("colorMap");
    for (std::size_t m = 0; m < kColorMapNames.size(); ++m)
        mColorMap->addItem(kColorMapNames.names[m], int(m));
    form->addRow("Colour map", mColorMap);
    mFieldMin = doubleBox("fieldMin", renderParams::fieldMin, 0.1);
    mFieldMax = doubleBox("fieldMax", renderParams::fieldMax, 0.1);
    form->addRow("Field range", sideBySide(mFieldMin, mFieldMax, "to"));
    mProjection = comboBox("projection", {{"Orthographic", int(Projection::Orthographic)},
                                          {"Perspective", int(Projection::Perspective)}});
    form->addRow("Camera (3D)", mProjection);
    const QString degrees = QString::fromUtf8("\u00b0");
    mYaw = doubleBox("yaw", renderParams::yaw, 5, degrees);
    mPitch = doubleBox("pitch", renderParams::pitch, 5, degrees);
    form->addRow("Yaw, pitch", sideBySide(mYaw, mPitch));
    mFov = doubleBox("fov", renderParams::fov, 1, degrees);
    mZoom = doubleBox("zoom", renderParams::zoom, 0.1);
    form->addRow("Field of view, zoom", sideBySide(mFov, mZoom));
    mFraming = comboBox("framing", {{"Whole domain", int(Framing::Domain)},
                                    {"Effect (follows the smoke)", int(Framing::Effect)}});
    mFraming->setToolTip(
        "What the 3D camera fits into the frame. Whole domain: the simulation's box. Effect: the "
        "box of the visible smoke over every frame the bake renders, one camera for all, so the "
        "effect fills its flipbook tiles and no tile cuts it; the frames are rendered after the "
        "simulation (docs/flipbook.md, \"Framing\").");
    mFramingPadding = doubleBox("framingPadding", renderParams::framingPadding, 0.01);
    mFramingPadding->setToolTip("Effect framing: the share of the frame's width and height left "
                                "empty on each side of the smoke.");
    form->addRow("Framing, padding", sideBySide(mFraming, mFramingPadding));
    createLightRows(form);
    createSmokeRows(form);
    createImageRows(form);
    watchEdits();
}

// The sun, the sky and the ground (docs/render.md).
void RenderGroup::createLightRows(QFormLayout *form)
{
    namespace rp = renderParams;
    addSection(form, "lightSection", "Light");
    mLightDirection = vectorBoxes("lightDirection", rp::lightDirection, 0.1);
    mLightDirection.setToolTip(
        "Where the sun shines from: a direction towards it (x right, y up, z towards the front "
        "camera). Only the direction matters; [0, 1, 0] is straight overhead.");
    form->addRow("Light direction", mLightDirection.row());
    mLightColor = vectorBoxes("lightColor", rp::lightColor, 0.05);
    mLightColor.setToolTip("The sun's colour, linear RGB (1, 1, 1 is white).");
    form->addRow("Light colour", mLightColor.row());
    mLightIntensity = doubleBox("lightIntensity", rp::lightIntensity, 0.1);
    mLightIntensity->setToolTip(
        "How bright the sun is. 0 turns it off: the smoke is lit by the sky, the ground and its "
        "own glow alone, and casts no shadows.");
    form->addRow("Light intensity", mLightIntensity);
    mSkyColor = vectorBoxes("skyColor", rp::skyColor, 0.05);
    mSkyColor.setToolTip(
        "The colour of the light from the sky above, times Ambient. Bluish by default, so smoke "
        "in shadow turns cool; smoke shaded by smoke above it gets less of it.");
    form->addRow("Sky colour", mSkyColor.row());
    mGroundColor = vectorBoxes("groundColor", rp::groundColor, 0.05);
    mGroundColor.setToolTip(
        "The colour of the light bounced up from the ground below, times Ambient. Warm by "
        "default: it lights the undersides of the smoke.");
    form->addRow("Ground colour", mGroundColor.row());
    mAmbient = doubleBox("ambient", rp::ambient, 0.05);
    mAmbient->setToolTip(
        "How bright the sky and ground light are. 0: only the sun and the glow of fire light "
        "the smoke, and shadows go black. The surface look uses it as a plain ambient term.");
    form->addRow("Ambient", mAmbient);
}

// What the smoke does with the light, and its glow.
void RenderGroup::createSmokeRows(QFormLayout *form)
{
    namespace rp = renderParams;
    addSection(form, "smokeSection", "Smoke");
    mSmokeColor = vectorBoxes("smokeColor", rp::smokeColor, 0.05);
    mSmokeColor.setToolTip(
        "The smoke's colour (albedo): how much of the light it scatters, per channel. Near 1: "
        "white steam or clouds; near 0: black soot. Dye replaces it where there is dye; 2D "
        "draws it as the smoke's colour.");
    form->addRow("Smoke colour (albedo)", mSmokeColor.row());
    mDensityScale = doubleBox("densityScale", rp::densityScale, 1);
    mDensityScale->setToolTip(
        "How thick the smoke looks: higher is more opaque, with darker, deeper shadows; lower "
        "is wispier.");
    form->addRow("Density scale", mDensityScale);
    mAnisotropy = doubleBox("anisotropy", rp::anisotropy, 0.05);
    mAnisotropy->setToolTip(
        "Which way the smoke scatters light. Above 0: forwards, so smoke glows at its edges "
        "when the sun is behind it (silver linings); below 0: back towards the sun; 0: evenly. "
        "Smoke and clouds look right around 0.3 to 0.6.");
    form->addRow("Anisotropy", mAnisotropy);
    mMultipleScattering = doubleBox("multipleScattering", rp::multipleScattering, 0.1);
    mMultipleScattering->setToolTip(
        "Light bouncing many times inside the smoke: brightens and softens thick, pale smoke. "
        "0: one bounce only (darker, harder); 1: as a path tracer; more to exaggerate.");
    form->addRow("Multiple scattering", mMultipleScattering);
    mEmissionIntensity = doubleBox("emissionIntensity", rp::emissionIntensity, 0.1);
    mEmissionIntensity->setToolTip("How bright hot gas glows (docs/blackbody.md); 0: no glow.");
    form->addRow("Emission intensity", mEmissionIntensity);
    mFlameIntensity = doubleBox("flameIntensity", rp::flameIntensity, 0.5);
    mFlameIntensity->setToolTip("How bright the flames of burning fuel are; 0: no flame light.");
    form->addRow("Flame intensity", mFlameIntensity);
    mEmissionScattering = doubleBox("emissionScattering", rp::emissionScattering, 0.1);
    mEmissionScattering->setToolTip(
        "How much fire and hot gas light the smoke around them (the orange underside of a "
        "smoke column over a fire). 0: they glow without lighting anything; 1: as a path "
        "tracer; more for a stronger glow.");
    form->addRow("Emission scattering", mEmissionScattering);
}

// How the light becomes the PNG files' and the preview's pixels.
void RenderGroup::createImageRows(QFormLayout *form)
{
    addSection(form, "imageSection", "Image");
    mExposure = doubleBox("exposure", renderParams::exposure, 0.5, " stops");
    mExposure->setToolTip(
        "Brightens or darkens the images, in photographic stops: +1 doubles the light, -1 "
        "halves it. For the PNG files and the preview; EXR files stay linear. The field and "
        "texture looks keep their exact colours.");
    form->addRow("Exposure", mExposure);
    mToneCurve = comboBox("toneCurve", {{"Filmic (soft highlights)", int(ToneCurve::Filmic)},
                                        {"Clip (cut at white)", int(ToneCurve::Clip)}});
    mToneCurve->setToolTip(
        "How light brighter than white fits into the image. Filmic leaves everything up to "
        "0.6 as it is and rolls brighter light off smoothly, so fire keeps its colour; Clip "
        "cuts each channel at white, so bright orange turns yellow-white. For the PNG files "
        "and the preview; EXR files stay linear.");
    form->addRow("Tone curve", mToneCurve);
}

void RenderGroup::setThreeD(bool threeD)
{
    mThreeD = threeD;
    updateEnabled();
}

void RenderGroup::loadWidgets(const BakeSettings &s)
{
    const RenderSettings &r = s.render;
    mWidth->setValue(r.width);
    mHeight->setValue(r.height);
    select(mLook, int(r.look2D));
    select(mLook3D, int(r.look3D));
    mSurfaceIso->setValue(r.surfaceIso);
    select(mField, int(r.field));
    select(mColorMap, int(r.colorMap));
    mFieldMin->setValue(r.fieldMin);
    mFieldMax->setValue(r.fieldMax);
    select(mProjection, int(r.projection));
    mYaw->setValue(r.yaw);
    mPitch->setValue(r.pitch);
    mFov->setValue(r.fov);
    mZoom->setValue(r.zoom);
    select(mFraming, int(r.framing));
    mFramingPadding->setValue(r.framingPadding);
    mLightDirection.setValue(r.lightDirection);
    mLightColor.setValue(r.lightColor);
    mLightIntensity->setValue(r.lightIntensity);
    mSkyColor.setValue(r.skyColor);
    mGroundColor.setValue(r.groundColor);
    mAmbient->setValue(r.ambient);
    mSmokeColor.setValue(r.smokeColor);
    mDensityScale->setValue(r.densityScale);
    mAnisotropy->setValue(r.anisotropy);
    mMultipleScattering->setValue(r.multipleScattering);
    mEmissionIntensity->setValue(r.emissionIntensity);
    mFlameIntensity->setValue(r.flameIntensity);
    mEmissionScattering->setValue(r.emissionScattering);
    mExposure->setValue(r.exposure);
    select(mToneCurve, int(r.toneCurve));
}

void RenderGroup::apply(BakeSettings &s) const
{
    RenderSettings &r = s.render;
    r.width = mWidth->value();
    r.height = mHeight->value();
    r.look2D = Look2D(selected(mLook));
    r.look3D = Look3D(selected(mLook3D));
    r.surfaceIso = float(mSurfaceIso->value());
    r.field = sim::FieldKind(selected(mField));
    r.colorMap = ColorMap(selected(mColorMap));
    r.fieldMin = float(mFieldMin->value());
    r.fieldMax = float(mFieldMax->value());
    r.projection = Projection(selected(mProjection));
    r.yaw = float(mYaw->value());
    r.pitch = float(mPitch->value());
    r.fov = float(mFov->value());
    r.zoom = float(mZoom->value());
    r.framing = Framing(selected(mFraming));
    r.framingPadding = float(mFramingPadding->value());
    r.lightDirection = mLightDirection.value();
    r.lightColor = mLightColor.value();
    r.lightIntensity = float(mLightIntensity->value());
    r.skyColor = mSkyColor.value();
    r.groundColor = mGroundColor.value();
    r.ambient = float(mAmbient->value());
    r.smokeColor = mSmokeColor.value();
    r.densityScale = float(mDensityScale->value());
    r.anisotropy = float(mAnisotropy->value());
    r.multipleScattering = float(mMultipleScattering->value());
    r.emissionIntensity = float(mEmissionIntensity->value());
    r.flameIntensity = float(mFlameIntensity->value());
    r.emissionScattering = float(mEmissionScattering->value());
    r.exposure = float(mExposure->value());
    r.toneCurve = ToneCurve(selected(mToneCurve));
    s.levelSurfaceIso = r.surfaceIso;
}

void RenderGroup::updateEnabled()
{
    mLook->setEnabled(!mThreeD);
    mLook3D->setEnabled(mThreeD);
    for (QWidget *w : std::initializer_list<QWidget *>{mProjection, mYaw, mPitch, mZoom, mFraming})
        w->setEnabled(mThreeD);
    mFramingPadding->setEnabled(mThreeD && Framing(selected(mFraming)) == Framing::Effect);
    const bool field = !mThreeD && Look2D(selected(mLook)) == Look2D::Field;
    for (QWidget *w : std::initializer_list<QWidget *>{mField, mColorMap, mFieldMin, mFieldMax})
        w->setEnabled(field);
    const bool surface = mThreeD ? Look3D(selected(mLook3D)) == Look3D::Surface
                                 : Look2D(selected(mLook)) == Look2D::Surface;
    mSurfaceIso->setEnabled(surface);
    mFov->setEnabled(mThreeD && Projection(selected(mProjection)) == Projection::Perspective);
    // The sun lights the 3D looks and the 2D surface; the sky, the ground and the scattering
    // are the smoke volume's; the 2D dye look draws the smoke colour; six-way lightmaps of 2D
    // smoke use the density scale.
    const bool volume = mThreeD && Look3D(selected(mLook3D)) == Look3D::Volume;
    const Look2D look2D = Look2D(selected(mLook));
    for (const VectorBoxes &v : {mLightDirection, mLightColor})
        v.setEnabled(mThreeD || surface);
    for (QWidget *w : std::initializer_list<QWidget *>{mLightIntensity, mAmbient})
        w->setEnabled(mThreeD || surface);
    for (const VectorBoxes &v : {mSkyColor, mGroundColor})
        v.setEnabled(volume);
    for (QWidget *w :
         std::initializer_list<QWidget *>{mAnisotropy, mMultipleScattering, mEmissionScattering})
        w->setEnabled(volume);
    mSmokeColor.setEnabled(volume || (!mThreeD && look2D == Look2D::Dye));
    mDensityScale->setEnabled(volume || (!mThreeD && look2D == Look2D::Dye));
    RenderSettings look;
    look.look2D = look2D;
    const bool light = showsLight(look, !mThreeD);
    mExposure->setEnabled(light);
    mToneCurve->setEnabled(light);
}

} // namespace plume
