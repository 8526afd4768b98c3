#version 330 core
// SPDX-License-Identifier: Apache-2.0
// Front-to-back emission-absorption ray march with the light model of core/render's
// volumemarch.cpp (docs/render.md), formula for formula: each sample scatters the light
// attenuated on its way (the transmittance channel), in four octaves of multiple scattering
// (lightmodel.h scatteredLight), the sky above and the ground below (illumination.h, coarse)
// and the light of emission around it (coarse); hot gas and flame emit blackbody light
// (emissionColor in renderer.h); the first solid cell is an opaque Lambert surface. The result
// goes through the exposure and the tone curve of exported PNGs (lightmodel.h toneMap).
in vec2 vNdc;
out vec4 fragColor;
uniform mat4 uInvViewProj;
uniform vec3 uBoxMin;
uniform vec3 uBoxMax;
uniform vec3 uTexel;
uniform float uCell;
// What every march sample reads, in one fetch: density, solid (0 or 1), the transmittance
// towards the light (precomputed per frame at the cells, lightvolume.h: 0 in and behind solids,
// exp(-densityScale * integral of density) elsewhere) and temperature.
uniform sampler3D uMarch;
uniform sampler3D uDye;
uniform sampler3D uFlame;
uniform sampler1D uBlackbody;
uniform int uHasVolume;
uniform int uHasFlame;
uniform int uHasDye;
uniform int uHasSolids;
uniform vec3 uLightDir;
uniform vec3 uLight;
uniform float uAmbient;
uniform vec3 uSmoke;
uniform float uDensityScale;
uniform float uStep;
uniform float uEmission;
uniform float uEmissionMin;
uniform float uEmissionMax;
uniform float uFlameIntensity;
uniform float uAmbientTemperature;
uniform float uBlackbodyTexels;
uniform vec3 uBgBottom;
uniform vec3 uBgTop;
uniform vec3 uMarchMin;
uniform vec3 uMarchMax;
uniform int uMarchEmpty;
// The light model (lightmodel.h, illumination.h).
uniform sampler3D uSky;  // coarse: RG = sky (up) and ground (down) visibility
uniform sampler3D uGlow; // coarse: emission light per unit albedo
uniform int uHasSky;
uniform int uHasGlow;
uniform vec3 uCoarseScale; // fine uvw to coarse uvw
uniform vec3 uSkyHalf;     // ambient * skyColor / 2
uniform vec3 uGroundHalf;  // ambient * groundColor / 2
uniform float uAnisotropy;
uniform float uMultiple;
uniform float uOctaveContribution;
uniform float uOctaveEccentricity;
uniform float uEmissionScatter;
uniform float uExposure; // 2^exposure
uniform int uToneCurve;  // 0 filmic, 1 clip
uniform float uKnee;

vec3 toUvw(vec3 p) { return (p - uBoxMin) / (uBoxMax - uBoxMin); }

// Henyey-Greenstein times 4 pi (lightmodel.h phaseHG).
float phaseHG(float cosTheta, float g)
{
    float d = 1.0 + g * g - 2.0 * g * cosTheta;
    return (1.0 - g * g) / (d * sqrt(d));
}

// lightmodel.h toneMap.
float tone(float x)
{
    if (!(x > 0.0))
        return 0.0;
    if (uToneCurve == 1 || x <= uKnee)
        return min(x, 1.0);
    float room = 1.0 - uKnee;
    return 1.0 - room * exp(-(x - uKnee) / room);
}

float linearToSrgb(float c)
{
    return c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1.0 / 2.4) - 0.055;
}

bool boxHit(vec3 o, vec3 d, out float t0, out float t1)
{
    vec3 inv = 1.0 / d;
    vec3 a = (uBoxMin - o) * inv;
    vec3 b = (uBoxMax - o) * inv;
    vec3 lo = min(a, b);
    vec3 hi = max(a, b);
    t0 = max(max(lo.x, lo.y), max(lo.z, 0.0));
    t1 = min(min(hi.x, hi.y), hi.z);
    return t1 > t0;
}

// The samples [first, last] of a march from t0 in steps of uStep that can fall inside the box
// outside which nothing shows (marchbounds.h); the others add nothing and are skipped. One
// sample of slack either side covers rounding.
bool marchRange(vec3 o, vec3 d, float t0, int steps, out int first, out int last)
{
    first = 0;
    last = -1;
    if (uMarchEmpty != 0)
        return false;
    vec3 inv = 1.0 / d;
    vec3 a = (uMarchMin - o) * inv;
    vec3 b = (uMarchMax - o) * inv;
    vec3 lo = min(a, b);
    vec3 hi = max(a, b);
    float ta = max(max(lo.x, lo.y), lo.z);
    float tb = min(min(hi.x, hi.y), hi.z);
    if (!(tb >= ta))
        return false;
    float n = float(steps);
    first = int(clamp(floor((ta - t0) / uStep - 0.5) - 1.0, 0.0, n));
    last = int(clamp(ceil((tb - t0) / uStep - 0.5) + 1.0, -1.0, n - 1.0));
    return first <= last;
}

float solid(vec3 uvw) { return uHasSolids != 0 ? texture(uMarch, uvw).g : 0.0; }

// Transmittance from p to the light.
float shadow(vec3 p) { return texture(uMarch, toUvw(p)).b; }

// emissionColor: the blackbody colour at the temperature's kelvin, as bright as t^2 times
// the emission intensity plus the flame times the flame intensity.
vec3 emission(float temp, float flame)
{
    float t = clamp((temp - uEmissionMin) / (uEmissionMax - uEmissionMin), 0.0, 1.0);
    float brightness = t * t * max(uEmission, 0.0) + uFlameIntensity * max(flame, 0.0);
    vec3 c = texture(uBlackbody, (t * (uBlackbodyTexels - 1.0) + 0.5) / uBlackbodyTexels).rgb;
    return c * brightness;
}

// The outward normal from the filtered solid flags' gradient over two cells each way, smooth
// enough to shade a voxelised sphere as a sphere.
vec3 solidNormal(vec3 uvw, vec3 d)
{
    vec3 e = 2.0 * uTexel;
    vec3 g = vec3(solid(uvw + vec3(e.x, 0.0, 0.0)) - solid(uvw - vec3(e.x, 0.0, 0.0)),
                  solid(uvw + vec3(0.0, e.y, 0.0)) - solid(uvw - vec3(0.0, e.y, 0.0)),
                  solid(uvw + vec3(0.0, 0.0, e.z)) - solid(uvw - vec3(0.0, 0.0, e.z)));
    return length(g) > 1e-4 ? -normalize(g) : -d;
}

void main()
{
    vec4 a = uInvViewProj * vec4(vNdc, -1.0, 1.0);
    vec4 b = uInvViewProj * vec4(vNdc, 1.0, 1.0);
    vec3 o = a.xyz / a.w;
    vec3 d = normalize(b.xyz / b.w - o);
    vec3 bg = mix(uBgBottom, uBgTop, vNdc.y * 0.5 + 0.5);
    vec3 color = vec3(0.0);
    float trans = 1.0;
    float t0, t1;
    if (uHasVolume != 0 && boxHit(o, d, t0, t1)) {
        // A per-pixel offset of the first sample turns step banding into fine noise.
        t0 += uStep * fract(sin(dot(gl_FragCoord.xy, vec2(12.9898, 78.233))) * 43758.5453);
        int steps = int(ceil((t1 - t0) / uStep));
        int first, last;
        marchRange(o, d, t0, steps, first, last);
        float emissionRate = 0.5 * uDensityScale; // renderer.h kEmissionRate
        float phases[4];
        float g = uAnisotropy;
        for (int i = 0; i < 4; ++i) {
            phases[i] = phaseHG(dot(uLightDir, d), g);
            g *= uOctaveEccentricity;
        }
        for (int k = first; k <= last && trans > 0.003; ++k) {
            float ta = t0 + float(k) * uStep;
            float ds = min(uStep, t1 - ta);
            vec3 p = o + d * (ta + 0.5 * ds);
            vec3 uvw = toUvw(p);
            vec4 m = texture(uMarch, uvw);
            if (uHasSolids != 0 && m.g > 0.5) {
                // Bisect back to where the filtered solid flags cross 0.5, so the surface and
                // its normal do not depend on where the jittered step landed in the voxel.
                float lo = max(ta + 0.5 * ds - uStep, t0);
                float hi = ta + 0.5 * ds;
                for (int b = 0; b < 6; ++b) {
                    float mid = 0.5 * (lo + hi);
                    if (solid(toUvw(o + d * mid)) > 0.5)
                        hi = mid;
                    else
                        lo = mid;
                }
                p = o + d * hi;
                uvw = toUvw(p);
                vec3 n = solidNormal(uvw, d);
                float lambert = max(dot(n, uLightDir), 0.0) * shadow(p + n * (1.5 * uCell));
                color += trans * vec3(0.55, 0.6, 0.68) * (uLight * lambert + uAmbient);
                trans = 0.0;
                break;
            }
            if (uEmission > 0.0 || uHasFlame != 0) {
                float temp = m.a - uAmbientTemperature;
                float flame = uHasFlame != 0 ? texture(uFlame, uvw).r : 0.0;
                color += trans * (1.0 - exp(-emissionRate * ds)) * emission(temp, flame);
            }
            float rho = m.r;
            if (rho <= 1e-6)
                continue;
            float alpha = 1.0 - exp(-uDensityScale * rho * ds);
            vec3 albedo = uSmoke;
            if (uHasDye != 0)
                albedo = min(texture(uDye, uvw).rgb / rho, vec3(1.0));
            // The sun, single and multiply scattered (lightmodel.h scatteredLight).
            float t = m.b;
            float terms[4];
            terms[0] = phases[0] * t;
            for (int i = 1; i < 4; ++i) {
                t = sqrt(t);
                terms[i] = phases[i] * t;
            }
            vec3 ab = albedo * uOctaveContribution;
            vec3 ms = vec3(0.0);
            for (int i = 3; i >= 1; --i)
                ms = ab * (terms[i] + ms);
            vec3 light = uLight * (terms[0] + uMultiple * ms);
            vec3 uvwc = uvw * uCoarseScale;
            if (uHasSky != 0) {
                vec2 s = texture(uSky, uvwc).rg;
                light += uSkyHalf * s.r + uGroundHalf * s.g;
            }
            color += trans * alpha * albedo * light;
            if (uHasGlow != 0)
                color += trans * alpha * uEmissionScatter * albedo * texture(uGlow, uvwc).rgb;
            trans *= 1.0 - alpha;
        }
    }
    // The smoke through the exposure and tone curve (as exported PNGs), over the background.
    vec3 c = vec3(tone(color.r * uExposure), tone(color.g * uExposure), tone(color.b * uExposure))
             + trans * bg;
    c = clamp(c, 0.0, 1.0);
    fragColor = vec4(linearToSrgb(c.r), linearToSrgb(c.g), linearToSrgb(c.b), 1.0);
}
