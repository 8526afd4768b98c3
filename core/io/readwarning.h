// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstdint>
#include <string>

namespace plume {

/// What a scene reader's warning is about, as a code for programs (wedges, the Python module);
/// the warning's message is the sentence for a person.
enum class ReadWarningKind : std::uint8_t {
    UnknownKey,      ///< a key this version does not know, kept as is (from a newer version?)
    IgnoredByScheme, ///< a setting the scene's scheme does not use (upres, fuel, masks, ...)
};

/// The kind's name in the Python module and in messages for programs: "unknown-key",
/// "ignored-by-scheme".
inline const char *toString(ReadWarningKind kind)
{
    return kind == ReadWarningKind::UnknownKey ? "unknown-key" : "ignored-by-scheme";
}

/// One warning of the scene reader: the file still loads.
struct ReadWarning
{
    ReadWarningKind kind = ReadWarningKind::UnknownKey;
    std::string path;    ///< the JSON path, e.g. "items[2].force.mask"; "" for the top level
    std::string message; ///< "<file>: <path>: <what>", as plume-cli and the window show it
};

} // namespace plume
