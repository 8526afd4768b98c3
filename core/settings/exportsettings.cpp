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
    return sim::enumFromString(s, out, {AlphaMode::Straight, AlphaMode::Premultiplied});
}

bool emissionOutputFromString(const std::string &s, EmissionOutput &out)
{
    return sim::enumFromString(s, out,
                          {EmissionOutput::None, EmissionOutput::Combined,
                           EmissionOutput::Separate});
}

} // namespace plume
