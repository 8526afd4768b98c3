// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/param.h>

#include <QJsonObject>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace plume {

/// How an animated value moves between two keys. Stored as "linear" and "smooth".
enum class Interpolation : std::uint8_t {
    Linear, ///< straight line between the keys
    Smooth, ///< smoothstep ease (3u^2 - 2u^3): zero slope at every key, never overshoots
};

inline constexpr sim::EnumNames<Interpolation, 2> kInterpolationNames{{"linear", "smooth"}};
inline const char *toString(Interpolation i) { return kInterpolationNames.name(i); }

/// One key: a value at a time given in frames (fractional frames allowed).
template<class T>
struct Key
{
    double frame = 0.0;
    T value{};
    QJsonObject extra; ///< keys this version does not know, kept for saving

    friend bool operator==(const Key &, const Key &) = default;
};

/// A value that is either constant (no keys) or keyframed. Keys are sorted by strictly
/// increasing frame; before the first key the first value holds, after the last the last.
/// T needs a + b and a * float (float and sim::Vec3 qualify).
template<class T>
struct Animated
{
    T value{}; ///< the value when there are no keys
    Interpolation interpolation = Interpolation::Linear;
    std::vector<Key<T>> keys;
    QJsonObject extra; ///< unknown keys of the keyframe object

    Animated() = default;
    Animated(T constant)
        : value(constant)
    {} // NOLINT: a constant converts implicitly

    bool isAnimated() const { return !keys.empty(); }

    /// The value at `frame`: the constant, or the interpolated keys, clamped at both ends.
    T at(double frame) const
    {
        if (keys.empty())
            return value;
        if (frame <= keys.front().frame)
            return keys.front().value;
        if (frame >= keys.back().frame)
            return keys.back().value;
        const auto next = std::upper_bound(keys.begin(), keys.end(), frame,
                                           [](double f, const Key<T> &k) { return f < k.frame; });
        const Key<T> &a = *(next - 1);
        const Key<T> &b = *next;
        float u = float((frame - a.frame) / (b.frame - a.frame));
        if (interpolation == Interpolation::Smooth)
            u = u * u * (3.f - 2.f * u);
        return a.value + (b.value - a.value) * u;
    }

    friend bool operator==(const Animated &, const Animated &) = default;
};

} // namespace plume
