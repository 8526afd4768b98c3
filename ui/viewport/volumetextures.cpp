// SPDX-License-Identifier: Apache-2.0
// The volume view's textures filled from a frame's volume (volumetextures.h): each only when
// what it is computed from changed, so a redraw without a new frame uploads nothing.
#include <ui/viewport/volumetextures.h>

#include <core/render/blackbody.h>
#include <core/render/illumination.h>
#include <core/render/lightmodel.h>
#include <core/render/lightvolume.h>

#include <QOpenGLFunctions_3_3_Core>

#include <algorithm>
#include <vector>

namespace plume {

// The blackbody table the shader reads emission colours from, once per context.
void VolumeView::uploadBlackbody()
{
    std::vector<float> rgb(3 * kBlackbodyTexels);
    for (int n = 0; n < kBlackbodyTexels; ++n) {
        const float t = float(n) / float(kBlackbodyTexels - 1);
        const sim::Vec3 c = blackbodyColor(kEmissionMinKelvin
                                           + (kEmissionMaxKelvin - kEmissionMinKelvin) * t);
        for (int ch = 0; ch < 3; ++ch)
            rgb[std::size_t(3 * n + ch)] = c[ch];
    }
    mGl->glGenTextures(1, &mTex->blackbody);
    mGl->glBindTexture(GL_TEXTURE_1D, mTex->blackbody);
    mGl->glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    mGl->glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    mGl->glTexParameteri(GL_TEXTURE_1D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    mGl->glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    mGl->glTexImage1D(GL_TEXTURE_1D, 0, GL_RGB32F, kBlackbodyTexels, 0, GL_RGB, GL_FLOAT,
                      rgb.data());
    mGl->glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    mGl->glBindTexture(GL_TEXTURE_1D, 0);
}

// Refills the textures from the shown frame's volume: storage is (re)made only when a size
// changes, otherwise glTexSubImage3D reuses it. The march texture's light channel is filled,
// and the texture uploaded, by uploadLight, which drawing calls next.
void VolumeView::upload()
{
    mDirty = false;
    const FrameVolume &v = *mFrame->volume;
    const sim::ScalarGrid &density = v.field(DisplayField::Density);
    const sim::Int3 n = density.size();
    const bool resize = !(n == mTex->size);
    const std::size_t cells = std::size_t(n.x) * n.y * n.z;
    const sim::ScalarGrid &temp = v.field(DisplayField::Temperature);
    const float *t = temp.count() == cells ? temp.data() : nullptr;
    mTex->hasSolids = v.solids.count() == cells && v.solids.anySolid();
    const std::uint8_t *solid = mTex->hasSolids ? v.solids.data() : nullptr;
    mTex->march4.resize(4 * cells);
    float *m = mTex->march4.data();
    const float *rho = density.data();
    for (std::size_t c = 0; c < cells; ++c) {
        m[4 * c] = rho[c];
        m[4 * c + 1] = solid ? float(solid[c]) : 0.f;
        m[4 * c + 3] = t ? t[c] : 0.f;
    }
    mTex->lightOf.reset();
    mTex->illuminationOf.reset();
    mGl->glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    if (resize) { // storage only: uploadLight fills it, light channel included
        mGl->glBindTexture(GL_TEXTURE_3D, mTex->march);
        mGl->glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA32F, n.x, n.y, n.z, 0, GL_RGBA, GL_FLOAT,
                          nullptr);
    }
    // Dye and flame, when the volume has them; otherwise their texture keeps a zero texel
    // (uploadEmpty), which the shader does not read.
    auto fill =
        [&](unsigned id, bool &holds, bool has, GLint internal, GLenum format, const float *data) {
        if (!has && !holds)
            return;
        if (!has) {
            uploadEmpty(id, internal, format);
            holds = false;
            return;
        }
        mGl->glBindTexture(GL_TEXTURE_3D, id);
        if (holds && !resize)
            mGl->glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 0, n.x, n.y, n.z, format, GL_FLOAT, data);
        else
            mGl->glTexImage3D(GL_TEXTURE_3D, 0, internal, n.x, n.y, n.z, 0, format, GL_FLOAT, data);
        holds = has;
    };
    const bool dye = v.field(DisplayField::DyeRed).count() == cells;
    if (dye) {
        mTex->rgb.resize(3 * cells);
        const float *r = v.field(DisplayField::DyeRed).data();
        const float *g = v.field(DisplayField::DyeGreen).data();
        const float *b = v.field(DisplayField::DyeBlue).data();
        for (std::size_t c = 0; c < cells; ++c) {
            mTex->rgb[3 * c] = r[c];
            mTex->rgb[3 * c + 1] = g[c];
            mTex->rgb[3 * c + 2] = b[c];
        }
    }
    fill(mTex->dye, mTex->hasDye, dye, GL_RGB32F, GL_RGB, mTex->rgb.data());
    const sim::ScalarGrid &flame = v.field(DisplayField::Flame); // with combustion only
    fill(mTex->flame, mTex->hasFlame, flame.count() == cells, GL_R32F, GL_RED, flame.data());
    mGl->glPixelStorei(GL_UNPACK_ALIGNMENT, 4); // the default, which QPainter's glyphs expect
    mGl->glBindTexture(GL_TEXTURE_3D, 0);
    mTex->size = n;
    mUploaded = mFrame->volume;
    ++mUploads;
}

// A single zero texel in the bound texture `id`, for a field the volume does not have.
void VolumeView::uploadEmpty(unsigned id, int internal, unsigned format)
{
    const float zero[4] = {0.f, 0.f, 0.f, 0.f}; // enough for the widest format, RGBA
    mGl->glBindTexture(GL_TEXTURE_3D, id);
    mGl->glTexImage3D(GL_TEXTURE_3D, 0, internal, 1, 1, 1, 0, format, GL_FLOAT, zero);
}

// The light's transmittance at the cells of the uploaded volume, recomputed when the volume,
// the light's direction or the extinction changed (light editing redraws without a new frame).
void VolumeView::uploadLight(sim::Vec3 direction, float densityScale)
{
    if (mTex->lightOf == mUploaded && mTex->lightDirection == direction
        && mTex->lightScale == densityScale)
        return;
    const FrameVolume &v = *mUploaded;
    const sim::ScalarGrid light = lightTransmittance(v.field(DisplayField::Density),
                                                     mTex->hasSolids ? &v.solids : nullptr,
                                                     direction, densityScale,
                                                     mFrame->domain.cellSize);
    const sim::Int3 n = light.size();
    const float *l = light.data();
    float *m = mTex->march4.data();
    for (std::size_t c = 0; c < light.count(); ++c)
        m[4 * c + 2] = l[c];
    mGl->glBindTexture(GL_TEXTURE_3D, mTex->march); // its storage is made by upload()
    mGl->glTexSubImage3D(GL_TEXTURE_3D, 0, 0, 0, 0, n.x, n.y, n.z, GL_RGBA, GL_FLOAT, m);
    mGl->glBindTexture(GL_TEXTURE_3D, 0);
    mTex->lightOf = mUploaded;
    mTex->lightDirection = direction;
    mTex->lightScale = densityScale;
}

namespace {

/// The look with only what the sky and emission light depend on (illumination.h); equal looks
/// need no new computation.
RenderSettings illuminationLook(const RenderSettings &look, bool smoke)
{
    RenderSettings l;
    l.lightIntensity = 0.f; // the sun is uploadLight's
    l.densityScale = look.densityScale;
    const bool sky = smoke && look.ambient > 0.f;
    l.ambient = sky ? 1.f : 0.f; // the sky's visibility does not depend on its brightness
    l.skyColor = sky && look.skyColor != sim::Vec3{} ? sim::Vec3{1.f, 1.f, 1.f} : sim::Vec3{};
    l.groundColor = sky && look.groundColor != sim::Vec3{} ? sim::Vec3{1.f, 1.f, 1.f} : sim::Vec3{};
    const bool glow = smoke && look.emissionScattering > 0.f;
    l.emissionScattering = glow ? 1.f : 0.f; // a strength: the shader scales by it
    l.emissionIntensity = glow ? look.emissionIntensity : 0.f;
    l.flameIntensity = glow ? look.flameIntensity : 0.f;
    l.emissionMin = look.emissionMin;
    l.emissionMax = look.emissionMax;
    return l;
}

} // namespace

// The sky's visibility and the emission light at the coarse cells of the uploaded volume
// (illumination.h), recomputed when the volume or what they depend on changed.
void VolumeView::uploadIllumination(const RenderSettings &look, float ambientTemperature,
                                    bool smoke)
{
    const RenderSettings l = illuminationLook(look, smoke);
    if (mTex->illuminationOf == mUploaded && mTex->illuminationLook == l
        && mTex->illuminationAmbient == ambientTemperature)
        return;
    const FrameVolume &v = *mUploaded;
    const sim::ScalarGrid &density = v.field(DisplayField::Density);
    // The renderer reads temperature above ambient; the volume holds it as simulated.
    sim::ScalarGrid above;
    const sim::ScalarGrid &temp = v.field(DisplayField::Temperature);
    const bool hot = l.emissionScattering > 0.f && temp.count() == density.count();
    if (hot) {
        above = temp;
        for (std::size_t c = 0; c < above.count(); ++c)
            above.data()[c] -= ambientTemperature;
    }
    const sim::ScalarGrid &flame = v.field(DisplayField::Flame);
    const Illumination light =
        computeIllumination({density, nullptr, hot ? &above : nullptr,
                             hot && flame.count() == density.count() ? &flame : nullptr},
                            l, mFrame->domain.cellSize);
    mGl->glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    mTex->hasSky = light.hasSky();
    mTex->hasGlow = light.hasEmission();
    mTex->coarseFactor = light.coarseFactor;
    if (mTex->hasSky) {
        const sim::Int3 m = light.skyUp.size();
        std::vector<float> rg(2 * light.skyUp.count());
        for (std::size_t c = 0; c < light.skyUp.count(); ++c) {
            rg[2 * c] = light.skyUp.data()[c];
            rg[2 * c + 1] = light.skyDown.data()[c];
        }
        mGl->glBindTexture(GL_TEXTURE_3D, mTex->sky);
        mGl->glTexImage3D(GL_TEXTURE_3D, 0, GL_RG32F, m.x, m.y, m.z, 0, GL_RG, GL_FLOAT, rg.data());
        mTex->coarse = m;
    } else {
        uploadEmpty(mTex->sky, GL_RG32F, GL_RG);
    }
    if (mTex->hasGlow) {
        const sim::Int3 m = light.emission[0].size();
        std::vector<float> rgb(3 * light.emission[0].count());
        for (std::size_t c = 0; c < light.emission[0].count(); ++c)
            for (int ch = 0; ch < 3; ++ch)
                rgb[3 * c + std::size_t(ch)] = light.emission[std::size_t(ch)].data()[c];
        mGl->glBindTexture(GL_TEXTURE_3D, mTex->glow);
        mGl->glTexImage3D(GL_TEXTURE_3D, 0, GL_RGB32F, m.x, m.y, m.z, 0, GL_RGB, GL_FLOAT,
                          rgb.data());
        mTex->coarse = m;
    } else {
        uploadEmpty(mTex->glow, GL_RGB32F, GL_RGB);
    }
    mGl->glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    mGl->glBindTexture(GL_TEXTURE_3D, 0);
    mTex->illuminationOf = mUploaded;
    mTex->illuminationLook = l;
    mTex->illuminationAmbient = ambientTemperature;
}

// The box outside which the uploaded volume shows nothing: smoke, solids, with `hot` gas
// hotter than `hotAbove` and with `flame` burning cells. Recomputed when the volume or these
// change (a look edit redraws without a new frame).
} // namespace plume
