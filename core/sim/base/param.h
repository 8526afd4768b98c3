// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstddef>
#include <limits>
#include <string>
#include <string_view>

// The one table per setting: every number a scene file, plume-cli or a spin box can set is a
// `Param` (key and allowed interval), and every enum written as a string has an `EnumNames`
// table. Both are declared next to the struct that holds the setting (e.g. `simParams` after
// `SimParams` in params.h); the struct's member initialisers are the defaults. The scene
// reader, the solver's checks, plume-cli and the editors read ranges, names and the
// "expected ..." texts from here, so a limit is written once.

namespace plume::sim {

inline constexpr double kUnbounded = std::numeric_limits<double>::infinity();

/// A numeric setting: its key in files and its allowed interval, plus how an editor shows it.
/// Vector settings give the range of each component.
struct Param
{
    const char *key = "";     ///< JSON key within its object (and plume-cli's name for it)
    double min = -kUnbounded; ///< lowest allowed value; -kUnbounded: no lower limit
    double max = kUnbounded;  ///< highest allowed value; kUnbounded: no upper limit
    bool openMin = false;     ///< min itself is excluded
    bool openMax = false;     ///< max itself is excluded
    bool integer = false;     ///< whole numbers only
    /// Editors: the spin-box ends where the range has none (a spin box needs finite ends).
    double softMin = -1e4;
    double softMax = 1e4;
    int decimals = 3; ///< editors: digits after the point

    /// Finite, inside the interval, and whole when `integer`.
    bool contains(double v) const;
    /// What is expected, for messages: "a number > 0", "an integer in [1, 1000]",
    /// "a finite number". `noun` replaces "number"/"integer" (e.g. "frame").
    std::string describe(const char *noun = nullptr) const;
    /// Editors: the lowest and highest value a spin box offers. An open end moves in by one
    /// step of `decimals` (integers: by 1); a missing end is the soft one.
    double lowest() const;
    double highest() const;

    /// The interval above `v` (or from `v` on, when `inclusive`), for limits that depend on
    /// another value (frameEnd >= frameStart, fieldMax > fieldMin).
    static Param above(double v, bool inclusive, bool integer = false);
};

/// A number as messages show it: integers in full (4294967295), others in shortest form.
std::string formatNumber(double v);

/// The stable strings of an enum whose values are 0 .. N-1, in that order, and at most one
/// alias (a second name that reads as `aliasOf`, e.g. "circle" for a sphere). Files, command
/// lines, combo boxes and messages all use these names.
template<class E, std::size_t N>
struct EnumNames
{
    std::array<const char *, N> names;
    const char *alias = nullptr;
    E aliasOf{};

    static constexpr std::size_t size() { return N; }
    static constexpr E value(std::size_t i) { return E(i); }

    /// The name of `v`; "unknown" for a value outside the table.
    constexpr const char *name(E v) const
    {
        const auto i = std::size_t(v);
        return i < N ? names[i] : "unknown";
    }

    /// Finds `s` among the names (and the alias); false when unknown.
    bool parse(std::string_view s, E &out) const
    {
        for (std::size_t i = 0; i < N; ++i) {
            if (s == names[i]) {
                out = E(i);
                return true;
            }
        }
        if (alias && s == alias) {
            out = aliasOf;
            return true;
        }
        return false;
    }

    /// "a, b, c": every name (the alias right after its value), `skip` left out.
    std::string list(std::string_view separator = ", ", const E *skip = nullptr) const
    {
        std::string text;
        for (std::size_t i = 0; i < N; ++i) {
            if (skip && E(i) == *skip)
                continue;
            text += (text.empty() ? "" : std::string(separator)) + names[i];
            if (alias && E(i) == aliasOf)
                text += std::string(separator) + alias;
        }
        return text;
    }

    /// "one of a, b, c", for messages.
    std::string expected() const { return "one of " + list(); }
};

} // namespace plume::sim
