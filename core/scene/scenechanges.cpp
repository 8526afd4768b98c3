// SPDX-License-Identifier: Apache-2.0
#include <core/scene/scenechanges.h>

namespace plume {

DomainChanges changedProperties(const DomainSettings &before, const DomainSettings &after)
{
    using P = DomainSettings::Property;
    DomainChanges c;
    if (before.dimension != after.dimension)
        c.add(P::Dimension);
    if (before.size != after.size)
        c.add(P::Size);
    if (before.origin != after.origin)
        c.add(P::Origin);
    if (before.resolution != after.resolution)
        c.add(P::Resolution);
    if (before.boundaries != after.boundaries || before.boundariesExtra != after.boundariesExtra)
        c.add(P::Boundaries);
    if (before.preview != after.preview)
        c.add(P::Preview);
    return c;
}

SimulationChanges changedProperties(const SimulationSettings &before,
                                    const SimulationSettings &after)
{
    using P = SimulationSettings::Property;
    SimulationChanges c;
    if (before.params != after.params || before.pressureExtra != after.pressureExtra
        || before.combustionExtra != after.combustionExtra || before.oceanExtra != after.oceanExtra
        || before.sphExtra != after.sphExtra)
        c.add(P::Params);
    if (before.time != after.time)
        c.add(P::Time);
    if (before.frameStart != after.frameStart)
        c.add(P::FrameStart);
    if (before.frameEnd != after.frameEnd)
        c.add(P::FrameEnd);
    if (before.seed != after.seed)
        c.add(P::Seed);
    const LiquidTextureSettings &a = before.liquidTexture, &b = after.liquidTexture;
    if (a.enabled() != b.enabled() || (b.enabled() && a.period != b.period))
        c.add(P::TextureCoordinates);
    if (a.file != b.file || a.blend != b.blend || a.tiling != b.tiling || a.extra != b.extra
        || (!b.enabled() && a.period != b.period))
        c.add(P::TextureLook);
    return c;
}

ItemChanges changedProperties(const Item &before, const Item &after)
{
    using P = Item::Property;
    ItemChanges c;
    if (before.name != after.name)
        c.add(P::Name);
    if (before.enabled != after.enabled)
        c.add(P::Enabled);
    if (before.activeStart != after.activeStart || before.activeEnd != after.activeEnd
        || before.activeExtra != after.activeExtra)
        c.add(P::Active);
    if (before.kind != after.kind)
        c.add(P::Kind);
    if (before.shape != after.shape)
        c.add(P::Shape);
    if (before.offset != after.offset)
        c.add(P::Offset);
    if (before.rotation != after.rotation)
        c.add(P::Rotation);
    if (before.scale != after.scale)
        c.add(P::Scale);
    if (before.emitter != after.emitter)
        c.add(P::Emitter);
    if (before.obstacle != after.obstacle)
        c.add(P::Obstacle);
    if (before.force != after.force)
        c.add(P::Force);
    if (before.hidden != after.hidden)
        c.add(P::Hidden);
    if (before.locked != after.locked)
        c.add(P::Locked);
    return c;
}

bool changesSimulation(const Item &item, ItemChanges changes)
{
    using P = Item::Property;
    const bool seededByName = item.kind == ItemKind::ForceField
                              && (item.force.type == sim::ForceType::Turbulence
                                  || item.force.type == sim::ForceType::Disturbance);
    return !changes.within({P::Name, P::Hidden, P::Locked})
           || (seededByName && changes.has(P::Name));
}

bool changesSimulation(SimulationChanges changes)
{
    using P = SimulationSettings::Property;
    return !changes.within({P::FrameStart, P::FrameEnd, P::TextureLook});
}

} // namespace plume
