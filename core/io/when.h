// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to core/io: when the scene writer writes a key of a scene file's tables
// (scenefields.h). The reader reads every key that is there, whatever this says.

#include <cstdint>

namespace plume {

struct When
{
    enum class Mode : std::uint8_t {
        Always,  ///< every write
        Changed, ///< when the value differs from its default, or every key is asked for
        Only     ///< when `condition` holds, even when every key is asked for (no value else)
    };
    Mode mode = Mode::Always;
    bool condition = true;

    /// Written when `value` differs from `defaultValue` (or every key is asked for): keys added
    /// after files were first saved, so that files that keep the default stay byte-identical.
    template<class T>
    static When differs(const T &value, const T &defaultValue)
    {
        return {Mode::Changed, !(value == defaultValue)};
    }
    /// Written when `set` (or every key is asked for).
    static When changed(bool set) { return {Mode::Changed, set}; }
    /// Written only when `present`: a key that has no value to write otherwise (an open end).
    static When only(bool present) { return {Mode::Only, present}; }

    /// Whether a write asking for the set keys (`every` false) or every key writes it.
    bool writes(bool every) const
    {
        return mode == Mode::Always || (mode == Mode::Changed && (every || condition))
               || (mode == Mode::Only && condition);
    }
};

} // namespace plume
