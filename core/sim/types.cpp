#include "types.h"

namespace plume::sim {

const char *toString(Boundary b)
{
    switch (b) {
    case Boundary::Wall: return "wall";
    case Boundary::Open: return "open";
    case Boundary::Periodic: return "periodic";
    }
    return "unknown";
}

bool boundaryFromString(const std::string &s, Boundary &out)
{
    return enumFromString(s, out, {Boundary::Wall, Boundary::Open, Boundary::Periodic});
}

} // namespace plume::sim
