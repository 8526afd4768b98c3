// SPDX-License-Identifier: Apache-2.0
#include <ui/panels/propertyhelp.h>

#include <QFormLayout>
#include <QGroupBox>
#include <QHash>

namespace plume {

namespace {

struct Help
{
    const char *key;  ///< "Section/Label" or "Label"
    const char *unit; ///< empty: no unit (a count, a choice, a factor)
    const char *text;
};

// The units are docs/scene-format.md's: lengths in world units, times in seconds, rates per
// second; temperature is in the scene's own units (ambient: Simulation > Ambient temperature).
const Help kHelp[] = {
    // Item
    {"Name", "", "unique within the scene; bakes and the outliner show it"},
    {"Enabled", "", "a disabled item does nothing"},
    {"Kind", "", "emitter (adds smoke, heat, dye, fuel), obstacle (solid) or force field"},
    {"Active from (frame)", "frames", "the item acts from this frame..."},
    {"Active to (frame, -1 = forever)", "frames", "...to this one, inclusive; -1: no end"},
    {"Offset", "units", "translation of the shape (and of a force's centre); animatable"},
    {"Rotation (deg)", "degrees about x, y, z",
     "turns the shape about its pivot (2D shapes: z only)"},
    {"Scale", "factor per axis", "sizes the shape about its pivot, 0.001 to 10000"},
    // Shapes
    {"Centre", "units", "world position of the centre"},
    {"Radius", "units", "radius of the disc, sphere or capsule"},
    {"Half size", "units", "half the box's size along x, y, z"},
    {"Shape/Rotation (deg)", "degrees",
     "box: counter-clockwise about z; model: its own rotation about x, y, z"},
    {"Start", "units", "world position of the capsule's first end"},
    {"End", "units", "world position of the capsule's second end"},
    {"Points", "", "the painted stroke's points (paint with a brush to add more)"},
    {"Radius (all points)", "units", "sets the radius of every point of the stroke"},
    {"Pressure (all points)", "0 to 1", "coverage weight of every point of the stroke"},
    {"File", "", "the image or model file, relative to the scene file's folder"},
    {"Min", "units", "world x, y of the image's low corner"},
    {"Max", "units", "world x, y of the image's high corner"},
    {"Channel", "", "which channel of the image is the coverage: luminance or alpha"},
    {"Invert", "", "coverage = 1 - channel"},
    {"Region", "", "force fields only: the whole domain"},
    // Mesh
    {"Model", "", "the model file's triangles and whether it is closed"},
    {"Translation", "units", "moves the model's vertices (after scale and rotation)"},
    {"Shape/Scale", "factor per axis", "the model's own scale, before its rotation"},
    {"Fill", "", "volume: the closed model's inside is solid; surface: a shell"},
    {"Thickness", "units", "the shell's thickness (at least two cells are used)"},
    // Obstacle
    {"No-slip (drags the fluid along)", "",
     "a moving obstacle drags the fluid along its surface too"},
    // Emitter
    {"Density /s", "density per second", "smoke added inside the shape"},
    {"Temperature /s", "temperature per second", "heat added, above ambient; hot gas rises"},
    {"Dye /s", "linear RGB per second", "dye colour added"},
    {"Fuel /s", "fuel per second", "fuel added (smoke scheme); it burns to heat and soot"},
    {"Fuel ignites", "", "emitted fuel burns at once, whatever its temperature"},
    {"Velocity mode", "",
     "none; force: Velocity is an acceleration; inflow: Velocity is the velocity set inside"},
    {"Velocity", "units/s^2 (force) or units/s (inflow)", "what Velocity mode says"},
    {"Rate", "factor", "multiplies density, temperature, dye and fuel; animatable"},
    {"Noise amplitude", "0 to 1, a fraction of the rate",
     "a puffy, flickering source: rates and velocity times max(0, 1 + amplitude x noise), the "
     "noise between -1 and 1; 0: off; animatable (smoke scheme)"},
    {"Noise size", "units",
     "feature size of the source's noise (several cells, or it looks grainy)"},
    {"Noise speed", "periods per second", "how fast the source's noise changes; 0: frozen"},
    {"Noise seed", "integer", "another seed gives other puffs (mixed with the scene's seed)"},
    // Force
    {"Type", "",
     "directional, vortex, radial, turbulence, drag, disturbance (random kicks on blocks that "
     "break smooth fronts into billows) or shredding (stretches and tears flame along the "
     "temperature gradient)"},
    {"Strength", "units/s^2 (drag: 1/s)",
     "acceleration of the field (shredding: > 0 stretches, < 0 squashes); animatable"},
    {"Direction", "vector", "push direction (directional); vortex axis (3D)"},
    {"Force/Centre", "units", "vortex and radial centre; moves with the offset"},
    {"Force/Scale", "units",
     "turbulence feature size; disturbance block size; shredding: the edge over which a "
     "temperature change of 1 gets the full strength"},
    {"Time scale", "per second",
     "turbulence: noise periods per second; disturbance: new kick directions per second"},
    {"Falloff", "units", "soft edge outside the shape (smoothstep)"},
    {"Mask", "",
     "where the force acts, read from a field (smoke scheme): none (everywhere in the shape), "
     "density, temperature (above ambient), flame, fuel, speed or vorticity"},
    {"Mask from", "the field's units (speed: units/s, vorticity: 1/s)",
     "this value of the field gives weight 0 (the ramp's start)"},
    {"Mask to", "the field's units (speed: units/s, vorticity: 1/s)",
     "this value gives weight 1 (the ramp's end); below from if the mask should fall"},
    {"Mask ramp", "position value pairs in [0, 1]",
     "shapes the weight between from and to, e.g. \"0 0, 1 1\" (linear) or \"0 0, 0.5 1, 1 0\""},
    // Domain
    {"Scene name", "", "used for output file names"},
    {"Dimension", "", "2D is one cell deep; 3D a box"},
    {"Size", "units", "world size of the box (z ignored in 2D)"},
    {"Origin", "units", "world position of the box's low corner"},
    {"Resolution", "cells", "cells along the longest axis, 8 to 16384"},
    {"Preview", "",
     "the window simulates at full, half or quarter resolution while you "
     "author; bakes always use the full resolution"},
    {"Boundary x min", "", "the -x face: wall (closed), open (outflow) or periodic"},
    {"Boundary x max", "", "the +x face: wall (closed), open (outflow) or periodic"},
    {"Boundary y min", "", "the -y face: wall (closed), open (outflow) or periodic"},
    {"Boundary y max", "", "the +y face: wall (closed), open (outflow) or periodic"},
    {"Boundary z min", "", "the -z face (3D): wall (closed), open (outflow) or periodic"},
    {"Boundary z max", "", "the +z face (3D): wall (closed), open (outflow) or periodic"},
    // Simulation
    {"Scheme", "", "smoke (production MAC grid), stam (Stam's Stable Fluids) or ocean (FFT waves)"},
    {"Frame rate", "frames/s", "frames per second of simulated time"},
    {"Substeps", "", "steps per frame when CFL is 0"},
    {"CFL (0 = fixed substeps)", "cells",
     "> 0: substeps are chosen so no cell moves more than this many cells per step"},
    {"Max substeps", "", "upper bound on CFL substeps per frame"},
    {"Frame start", "frame", "first frame to bake"},
    {"Frame end", "frame", "last frame to bake, inclusive"},
    {"Seed", "", "turbulence seed; each force field mixes in its name"},
    {"Viscosity", "units^2/s", "momentum diffusion: thicker flow"},
    {"Diffusion", "units^2/s", "density, temperature and dye diffusion"},
    {"Density dissipation", "1/s", "exponential decay rate of density"},
    {"Temperature dissipation", "1/s", "exponential decay rate of temperature"},
    {"Velocity dissipation", "1/s", "exponential decay rate of velocity"},
    {"Up", "vector", "the buoyancy direction"},
    {"Ambient temperature", "temperature", "temperature with no buoyancy"},
    {"Buoyancy (density)", "units/s^2 per unit density", "smoke sinks by this acceleration"},
    {"Buoyancy (temperature)", "units/s^2 per unit temperature",
     "hot gas rises by this acceleration per degree above ambient"},
    {"Vorticity", "epsilon", "vorticity confinement: puts back small swirls"},
    {"Vorticity length", "units",
     "the confinement's length L (f = epsilon L (N x omega)): the same swirls at any resolution; "
     "0: one cell (weakens as the resolution rises)"},
    {"Vorticity mask", "",
     "where the confinement acts, read from a field: none (everywhere), density, temperature, "
     "flame, fuel, speed or vorticity"},
    {"Vorticity mask from", "the field's units", "this value of the field gives weight 0"},
    {"Vorticity mask to", "the field's units", "this value gives weight 1"},
    {"Vorticity mask ramp", "position value pairs in [0, 1]",
     "shapes the weight between from and to, e.g. \"0 0, 1 1\""},
    {"Advection", "",
     "how density, temperature and dye move: linear (soft), cubic (sharp, no grain), MacCormack "
     "or BFECC (sharpest, some grain); docs/advection.md"},
    {"Velocity advection", "",
     "how the velocity moves itself: linear (smooth flow, no grain; the default) or a higher "
     "order, which keeps swirls but adds grid-scale noise; docs/advection.md"},
    {"Accounting density", "", "mass-conserving density advection"},
    {"Adaptive domain", "",
     "solve only in a box around the smoke, with a coarse far field (faster; up to 1024^3 "
     "cells, baked past 512^3 with plume-cli; docs/adaptive.md)"},
    {"Pressure tolerance", "relative residual", "when the pressure solve stops, 0 to 1"},
    {"Pressure max iterations", "iterations", "upper bound on conjugate-gradient iterations"},
    {"Multigrid", "", "multigrid preconditioner for the pressure solve (fewer iterations)"},
    {"Stam iterations", "sweeps", "Gauss-Seidel sweeps per solve (stam scheme)"},
    {"Stam sweep", "", "Gauss-Seidel order: the paper's or red-black (stam scheme)"},
    {"Stam numbers", "", "float, or Q12.20 fixed point (stam scheme; docs/fixed-point.md)"},
    // Combustion
    {"Ignition temperature", "temperature above ambient", "fuel this hot burns"},
    {"Upres factor", "fine cells per cell and axis",
     "smoke scheme: density, temperature, dye and fire on a grid 2, 3 or 4 times finer, with "
     "sub-grid turbulence; 1: off. Bakes use it; the window previews it with View > Preview "
     "Upres (docs/upres.md)"},
    {"Upres strength", "factor",
     "scales the sub-grid turbulence (Kim et al.'s amplitude from the flow's finest band); 0: "
     "the fine fields only follow the flow"},
    {"Upres noise size", "units",
     "wavelength of the largest noise octave; 0: four cells of the simulation"},
    {"Upres lifetime s", "s",
     "how long the noise follows the flow before it fades out for fresh noise: shorter is less "
     "stretched"},
    {"Burn rate /s", "1/s", "a burning cell burns 1 - exp(-rate dt) of its fuel per step"},
    {"Heat release", "temperature per unit fuel", "heat made by burning"},
    {"Smoke per fuel", "density per unit fuel", "soot made by burning"},
    {"Flame cooling /s", "1/s", "decay rate of the visible flame"},
    {"Expansion", "volume per unit fuel", "gas made by burning (pushes the flow outwards)"},
    // Ocean
    {"Wind speed m/s", "m/s", "wind speed V; the largest waves are about V^2/g long"},
    {"Wind direction", "degrees", "from +x towards +y, where the wind blows to"},
    {"Amplitude", "Phillips constant", "overall wave height"},
    {"Small waves m", "m", "waves much shorter than this are damped"},
    {"Choppiness", "factor", "horizontal displacement: sharper crests, folds make foam"},
    {"Loop period s", "s", "the waves repeat exactly after this time"},
    {"Gravity m/s2", "m/s^2", "g: deep-water waves travel at omega = sqrt(g k)"},
    {"Wave seed", "", "random amplitudes and phases"},
    // Liquid (sph): the emitter's choice and the scheme's section (docs/sph.md)
    {"Liquid (sph)", "",
     "sph scheme: none, fill (the shape fills with liquid when the item becomes active) or emit "
     "(a hose: rate shape volumes of liquid per second at the emitter's velocity)"},
    {"Liquid (sph)/Rest density", "mass per unit volume", "rho0: the liquid's density at rest"},
    {"Liquid (sph)/Sound speed (stiffness)", "units/s",
     "c: stiffness of the equation of state; the density varies by about (v / c)^2"},
    {"Liquid (sph)/Viscosity", "units^2/s", "nu: kinematic viscosity (Mueller's term)"},
    {"Liquid (sph)/Artificial viscosity", "factor",
     "alpha: adds alpha h c to the viscosity, which keeps the stiff liquid stable"},
    {"Liquid (sph)/Surface tension", "", "sigma: the colour-field force that rounds drops; 0: off"},
    {"Liquid (sph)/Spacing (cells)", "cells",
     "rest distance between particles (0.5: two per cell and axis)"},
    {"Liquid (sph)/Kernel radius (spacings)", "spacings",
     "h: how far a particle's neighbours reach"},
    {"Liquid (sph)/Time step safety", "factor", "steps satisfy dt <= safety h / (c + speed)"},
    {"Liquid (sph)/Gravity", "units/s^2", "pulls the liquid along -up"},
    {"Liquid (sph)/Max particles", "", "emitters stop adding particles beyond this"},
    // Liquid texture
    {"Image", "", "the image carried by the flow (2D), relative to the scene file's folder"},
    {"Period (frames)", "frames", "frames between resets of one coordinate set (even)"},
    {"Blend", "", "cross-fade weights: linear (triangle) or smooth (sin^2)"},
    {"Tiling", "repeats", "times the image repeats across the domain's width"},
};

// The tools (Tool::name()), with Tool Options' units.
const Help kTools[] = {
    {"Emitter Brush", "",
     "drag to paint smoke: a stroke emitting 3 density/s and 6 temperature/s times Tool "
     "Options' strength, in its dye colour, as wide as the brush radius (world units)"},
    {"Obstacle Brush", "",
     "drag to paint a solid stroke as wide as the brush radius (world units)"},
    {"Force Brush", "",
     "drag to paint a force field pushing along the drag at 10 units/s^2 times Tool Options' "
     "strength, as wide as the brush radius (world units)"},
    {"Eraser", "",
     "drag a disc of the brush radius (world units) over items: stroke points under it go, "
     "other shapes it touches are deleted"},
    {"Circle", "",
     "drag from the centre out to make a circle (a sphere in 3D); Tool Options says whether it "
     "is an emitter, an obstacle or a force field"},
    {"Box", "",
     "drag corner to corner to make a box; Tool Options says whether it is an emitter, an "
     "obstacle or a force field"},
    {"Capsule", "",
     "drag from one end to the other to make a capsule of the brush radius (world units)"},
};

const QHash<QString, const Help *> &table()
{
    static const QHash<QString, const Help *> t = [] {
        QHash<QString, const Help *> out;
        for (const Help &h : kHelp)
            out.insert(QString::fromUtf8(h.key), &h);
        return out;
    }();
    return t;
}

} // namespace

QString propertyTip(const QString &section, const QString &label)
{
    const Help *h = table().value(section + "/" + label, nullptr);
    if (!h)
        h = table().value(label, nullptr);
    if (!h)
        return {};
    const QString unit = QString::fromUtf8(h->unit);
    return QString("%1%2: %3")
        .arg(label, unit.isEmpty() ? QString() : " (" + unit + ")", QString::fromUtf8(h->text));
}

QString toolHelp(const QString &tool, const QString &shortcut, const QString &hint)
{
    for (const Help &h : kTools)
        if (tool == QString::fromUtf8(h.key))
            return QString("%1 (%2): %3").arg(tool, shortcut, QString::fromUtf8(h.text));
    return QString("%1 (%2)").arg(hint.isEmpty() ? tool : hint, shortcut);
}

QString propertyTip(const QFormLayout *form, const QString &label)
{
    const auto *box = form ? qobject_cast<const QGroupBox *>(form->parentWidget()) : nullptr;
    return propertyTip(box ? box->title() : QString(), label);
}

} // namespace plume
