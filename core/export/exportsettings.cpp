#include "exportsettings.h"

namespace plume {

const char *toString(AlphaMode v)
{
    switch (v) {
    case AlphaMode::Straight: return "straight";
    case AlphaMode::Premultiplied: return "premultiplied";
    }
    return "unknown";
}

const char *toString(EmissionOutput v)
{
    switch (v) {
    case EmissionOutput::None: return "none";
    case EmissionOutput::Combined: return "combined";
    case EmissionOutput::Separate: return "separate";
    }
    return "unknown";
}

bool alphaModeFromString(const std::string &s, AlphaMode &out)
{
    for (AlphaMode v : {AlphaMode::Straight, AlphaMode::Premultiplied}) {
        if (s == toString(v)) {
            out = v;
            return true;
        }
    }
    return false;
}

bool emissionOutputFromString(const std::string &s, EmissionOutput &out)
{
    for (EmissionOutput v : {EmissionOutput::None, EmissionOutput::Combined,
                             EmissionOutput::Separate}) {
        if (s == toString(v)) {
            out = v;
            return true;
        }
    }
    return false;
}

} // namespace plume
