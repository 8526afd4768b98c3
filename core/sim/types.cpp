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
    for (Boundary b : {Boundary::Wall, Boundary::Open, Boundary::Periodic}) {
        if (s == toString(b)) {
            out = b;
            return true;
        }
    }
    return false;
}

} // namespace plume::sim
