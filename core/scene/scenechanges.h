// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>

#include <cstdint>

namespace plume {

/// A set of properties of one settings struct (values of its `Property` enum): what an edit
/// changed. Edits compare before and after (changedProperties below), so every way of editing
/// reports the same set.
template<class E>
class PropertySet
{
public:
    constexpr PropertySet() = default;
    constexpr PropertySet(std::initializer_list<E> properties)
    {
        for (E p : properties)
            add(p);
    }
    /// Every property: a new or removed object, or a change not described in detail.
    static constexpr PropertySet all()
    {
        PropertySet s;
        s.mBits = ~std::uint32_t(0);
        return s;
    }

    constexpr PropertySet &add(E p)
    {
        mBits |= bit(p);
        return *this;
    }
    constexpr bool has(E p) const { return (mBits & bit(p)) != 0; }
    constexpr bool empty() const { return mBits == 0; }
    /// True when nothing outside `allowed` changed.
    constexpr bool within(PropertySet allowed) const { return (mBits & ~allowed.mBits) == 0; }

    friend constexpr bool operator==(PropertySet, PropertySet) = default;

private:
    static constexpr std::uint32_t bit(E p) { return std::uint32_t(1) << unsigned(p); }
    std::uint32_t mBits = 0;
};

using DomainChanges = PropertySet<DomainSettings::Property>;
using SimulationChanges = PropertySet<SimulationSettings::Property>;
using ItemChanges = PropertySet<Item::Property>;

/// What differs between two versions of a struct. Keys this version does not know (`extra`)
/// count with the property they sit in, or not at all when they belong to the whole struct.
DomainChanges changedProperties(const DomainSettings &before, const DomainSettings &after);
SimulationChanges changedProperties(const SimulationSettings &before,
                                    const SimulationSettings &after);
ItemChanges changedProperties(const Item &before, const Item &after);

/// Whether changing `changes` of `item` changes what the app's live simulation computes. An
/// item's name only labels it, except for a turbulence field: its noise is seeded by the name
/// (itemSeed), so renaming it gives other noise. Hiding and locking are editor flags: they never
/// change what is simulated.
bool changesSimulation(const Item &item, ItemChanges changes);
/// The frame range says what a bake writes and where playback loops; the live simulation runs
/// from frame 0 whatever it is.
bool changesSimulation(SimulationChanges changes);

} // namespace plume
