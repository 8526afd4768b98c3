#pragma once

namespace plume {

/// What a document edit changed, sent with Document::changed so that panels, the viewport and
/// the simulation refresh only what they must.
struct ChangeEvent
{
    enum class Type {
        Reset,        ///< a new scene replaced the old one (new, open, revert)
        ItemAdded,    ///< `index` is the new item's position
        ItemRemoved,  ///< `index` is where the item was
        ItemChanged,  ///< the item at `index` changed (shape, settings, name, enabled...)
        Domain,       ///< domain settings (size, resolution, boundaries, dimension)
        Simulation,   ///< solver parameters, time stepping, frame range, seed
        SceneName,
        Exports,      ///< export presets (render look, flipbook, images)
    };

    Type type = Type::Reset;
    int index = -1;
};

} // namespace plume
