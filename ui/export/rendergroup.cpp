// SPDX-License-Identifier: Apache-2.0
#include <ui/export/rendergroup.h>

#include <ui/export/exportwidgets.h>

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
    mEmissionIntensity = doubleBox("emissionIntensity", renderParams::emissionIntensity, 0.1);
    form->addRow("Emission intensity", mEmissionIntensity);
    mFlameIntensity = doubleBox("flameIntensity", renderParams::flameIntensity, 0.5);
    form->addRow("Flame intensity", mFlameIntensity);
    watchEdits();
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
    mEmissionIntensity->setValue(r.emissionIntensity);
    mFlameIntensity->setValue(r.flameIntensity);
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
    r.emissionIntensity = float(mEmissionIntensity->value());
    r.flameIntensity = float(mFlameIntensity->value());
    s.levelSurfaceIso = r.surfaceIso;
}

void RenderGroup::updateEnabled()
{
    mLook->setEnabled(!mThreeD);
    mLook3D->setEnabled(mThreeD);
    for (QWidget *w : std::initializer_list<QWidget *>{mProjection, mYaw, mPitch, mZoom})
        w->setEnabled(mThreeD);
    const bool field = !mThreeD && Look2D(selected(mLook)) == Look2D::Field;
    for (QWidget *w : std::initializer_list<QWidget *>{mField, mColorMap, mFieldMin, mFieldMax})
        w->setEnabled(field);
    const bool surface = mThreeD ? Look3D(selected(mLook3D)) == Look3D::Surface
                                 : Look2D(selected(mLook)) == Look2D::Surface;
    mSurfaceIso->setEnabled(surface);
    mFov->setEnabled(mThreeD && Projection(selected(mProjection)) == Projection::Perspective);
}

} // namespace plume
