// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scenechanges.h>

namespace plume {

/// What a document edit changed, sent with Document::changed so that panels, the viewport and
/// the simulation refresh only what they must.
struct ChangeEvent
{
    enum class Type {
        Reset,       ///< a new scene replaced the old one (new, open, revert)
        ItemAdded,   ///< `index` is the new item's position
        ItemRemoved, ///< `index` is where the item was
        ItemChanged, ///< the item at `index` changed: `item` says what
        Domain,      ///< domain settings: `domain` says which
        Simulation,  ///< solver parameters, time stepping, frame range, seed: `simulation` says
                     ///< which
        SceneName,
        Exports, ///< export presets (render look, flipbook, images)
    };

    Type type = Type::Reset;
    int index = -1;
    /// The properties that changed, for the event types that name them (every property for a
    /// Reset, and for an item that was added or removed).
    ItemChanges item = ItemChanges::all();
    DomainChanges domain = DomainChanges::all();
    SimulationChanges simulation = SimulationChanges::all();

    static ChangeEvent reset() { return {Type::Reset}; }
    static ChangeEvent itemChanged(int index, ItemChanges what)
    {
        return {Type::ItemChanged, index, what, {}, {}};
    }
    static ChangeEvent domainChanged(DomainChanges what)
    {
        return {Type::Domain, -1, {}, what, {}};
    }
    static ChangeEvent simulationChanged(SimulationChanges what)
    {
        return {Type::Simulation, -1, {}, {}, what};
    }

    /// True when the live simulation of `scene` (the scene after the edit) must hear of this
    /// edit: a scene name, an item's name (but a turbulence field's, which seeds its noise), the
    /// frame range and the export presets do not change what it computes.
    bool changesSimulation(const Scene &scene) const;
    /// True when the item at `index` is the one that changed, or every item may have.
    bool touchesItem(int itemIndex) const;
};

} // namespace plume
