// SPDX-License-Identifier: Apache-2.0
#include <ui/document/changeevent.h>

namespace plume {

bool ChangeEvent::changesSimulation(const Scene &scene) const
{
    switch (type) {
    case Type::ItemChanged:
        return index < 0 || index >= int(scene.items.size())
               || plume::changesSimulation(scene.items[std::size_t(index)], item);
    case Type::Simulation: return plume::changesSimulation(simulation);
    case Type::Domain: return !domain.empty();
    case Type::SceneName:
    case Type::Exports: return false;
    case Type::Reset:
    case Type::ItemAdded:
    case Type::ItemRemoved: return true;
    }
    return true;
}

bool ChangeEvent::touchesItem(int itemIndex) const
{
    switch (type) {
    case Type::Reset:
    case Type::ItemAdded:
    case Type::ItemRemoved: return true;
    case Type::ItemChanged: return index == itemIndex;
    default: return false;
    }
}

} // namespace plume
