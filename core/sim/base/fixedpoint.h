// SPDX-License-Identifier: Apache-2.0
#pragma once

// Q12.20 fixed-point numbers for the stam scheme's "fixed" numeric mode (docs/fixed-point.md):
// Stam (2003) notes that his solver runs on devices without floating point in fixed point.

#include <core/sim/base/types.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace plume::sim {

/// A Q12.20 fixed-point number: a signed 32-bit integer counting 2^-20ths. Representable:
/// -2047.999999 .. +2047.999999 in steps of 2^-20 (9.5e-7). Q16.16 (range 32768, steps 1.5e-5)
/// misses the paper demo's 1 % bound (2.1 % after 100 steps, measured) and Q14.18 only just
/// meets it (0.97 %); Q12.20 gives 0.18 % (docs/fixed-point.md). Sums and products are formed
/// in 64 bits and then checked: a result outside that range, a division by zero and any operation
/// on an out-of-range value give the out-of-range value (raw INT32_MIN), which sticks like a
/// NaN, so the solver reports it as a blow-up instead of wrapping silently.
///
/// Rounding: products round to nearest with ties towards +infinity ((a b + 2^19) >> 20);
/// quotients and conversions from float round to nearest with ties away from zero. Sums and
/// differences are exact.
class Fixed
{
public:
    static constexpr int kFractionBits = 20;
    static_assert(kFractionBits > 0 && kFractionBits < 31);
    static constexpr std::int32_t kOneRaw = std::int32_t(1) << kFractionBits;
    static constexpr std::int32_t kMaxRaw = std::numeric_limits<std::int32_t>::max();
    static constexpr std::int32_t kOutOfRangeRaw = std::numeric_limits<std::int32_t>::min();
    /// The largest representable magnitude, 2047.999999.
    static constexpr double kMax = double(kMaxRaw) / kOneRaw;

    constexpr Fixed() = default;
    constexpr explicit Fixed(int v)
        : mRaw(checked(std::int64_t(v) * kOneRaw).mRaw)
    {}
    /// Nearest value; NaN, infinities and magnitudes beyond kMax are out of range.
    constexpr explicit Fixed(float v)
    {
        const double scaled = double(v) * kOneRaw;
        if (!(scaled > -double(kMaxRaw) - 0.5 && scaled < double(kMaxRaw) + 0.5))
            mRaw = kOutOfRangeRaw;
        else
            mRaw = std::int32_t(scaled >= 0 ? scaled + 0.5 : scaled - 0.5);
    }
    static constexpr Fixed fromRaw(std::int32_t raw)
    {
        Fixed f;
        f.mRaw = raw;
        return f;
    }
    static constexpr Fixed outOfRangeValue() { return fromRaw(kOutOfRangeRaw); }

    constexpr std::int32_t raw() const { return mRaw; }
    constexpr bool outOfRange() const { return mRaw == kOutOfRangeRaw; }
    /// The value as a float (nearest; NaN when out of range).
    constexpr float toFloat() const
    {
        return outOfRange() ? std::numeric_limits<float>::quiet_NaN()
                            : float(double(mRaw) / kOneRaw);
    }
    /// Largest integer not above the value.
    constexpr int floorToInt() const { return mRaw >> kFractionBits; }
    /// The integer part (towards zero), as int(float) gives it.
    constexpr int truncToInt() const { return mRaw / kOneRaw; }

    friend constexpr Fixed operator+(Fixed a, Fixed b)
    {
        return a.outOfRange() || b.outOfRange() ? outOfRangeValue()
                                                : checked(std::int64_t(a.mRaw) + b.mRaw);
    }
    friend constexpr Fixed operator-(Fixed a, Fixed b)
    {
        return a.outOfRange() || b.outOfRange() ? outOfRangeValue()
                                                : checked(std::int64_t(a.mRaw) - b.mRaw);
    }
    friend constexpr Fixed operator-(Fixed a) { return a.outOfRange() ? a : fromRaw(-a.mRaw); }
    friend constexpr Fixed operator*(Fixed a, Fixed b)
    {
        if (a.outOfRange() || b.outOfRange())
            return outOfRangeValue();
        const std::int64_t p = std::int64_t(a.mRaw) * b.mRaw;
        return checked((p + (std::int64_t(1) << (kFractionBits - 1))) >> kFractionBits);
    }
    friend constexpr Fixed operator/(Fixed a, Fixed b)
    {
        if (a.outOfRange() || b.outOfRange() || b.mRaw == 0)
            return outOfRangeValue();
        const std::int64_t n = std::int64_t(a.mRaw) * kOneRaw;
        const std::int64_t d = b.mRaw;
        std::int64_t q = n / d;
        const std::int64_t r = n % d;
        if (2 * (r < 0 ? -r : r) >= (d < 0 ? -d : d))
            q += (n < 0) == (d < 0) ? 1 : -1;
        return checked(q);
    }
    Fixed &operator+=(Fixed b) { return *this = *this + b; }
    Fixed &operator-=(Fixed b) { return *this = *this - b; }
    Fixed &operator*=(Fixed b) { return *this = *this * b; }

    friend constexpr bool operator==(Fixed a, Fixed b) = default;
    friend constexpr auto operator<=>(Fixed a, Fixed b) { return a.mRaw <=> b.mRaw; }

private:
    static constexpr Fixed checked(std::int64_t raw)
    {
        return raw > kMaxRaw || raw < -std::int64_t(kMaxRaw) ? outOfRangeValue()
                                                             : fromRaw(std::int32_t(raw));
    }

    std::int32_t mRaw = 0;
};

// The operations the stam kernels use on either number type.
inline float toFloat(float x) { return x; }
inline float toFloat(Fixed x) { return x.toFloat(); }
inline bool outOfRange(float) { return false; }
inline bool outOfRange(Fixed x) { return x.outOfRange(); }

/// A dense array of Fixed over a box of samples, laid out as ScalarGrid (x fastest), with the
/// part of ScalarGrid's interface that the stam scheme uses.
class FixedGrid
{
public:
    void reshape(Int3 size, Vec3 offset, Fixed value = Fixed());
    void fill(Fixed value);

    Int3 size() const { return mSize; }
    Vec3 offset() const { return mOffset; }
    std::size_t count() const { return mData.size(); }
    std::size_t bytes() const { return mData.capacity() * sizeof(Fixed); }

    Fixed &operator[](std::size_t n) { return mData[n]; }
    Fixed operator[](std::size_t n) const { return mData[n]; }
    Fixed *data() { return mData.data(); }
    const Fixed *data() const { return mData.data(); }

    void swap(FixedGrid &other) noexcept;

private:
    Int3 mSize{0, 0, 0};
    Vec3 mOffset{0.5f, 0.5f, 0.5f};
    std::vector<Fixed> mData;
};

static_assert(sizeof(Fixed) == sizeof(std::int32_t), "checkpoints store Fixed as its int32 bits");

} // namespace plume::sim
