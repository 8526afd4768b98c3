// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/param.h>

#include <charconv>
#include <cmath>
#include <cstdio>

namespace plume::sim {

bool Param::contains(double v) const
{
    return std::isfinite(v) && (openMin ? v > min : v >= min) && (openMax ? v < max : v <= max)
           && (!integer || v == std::floor(v));
}

std::string Param::describe(const char *noun) const
{
    const std::string what = noun ? noun : (integer ? "integer" : "number");
    const bool vowel = std::string("aeiou").find(what[0]) != std::string::npos;
    const std::string a = std::string(vowel ? "an " : "a ") + what;
    const bool hasMin = min > -kUnbounded, hasMax = max < kUnbounded;
    if (!hasMin && !hasMax)
        return "a finite " + what;
    if (!hasMax)
        return a + (openMin ? " > " : " >= ") + formatNumber(min);
    if (!hasMin)
        return a + (openMax ? " < " : " <= ") + formatNumber(max);
    return a + " in " + (openMin ? "(" : "[") + formatNumber(min) + ", " + formatNumber(max)
           + (openMax ? ")" : "]");
}

double Param::lowest() const
{
    if (min == -kUnbounded)
        return softMin;
    return openMin ? min + (integer ? 1.0 : std::pow(10.0, -decimals)) : min;
}

double Param::highest() const
{
    if (max == kUnbounded)
        return softMax;
    return openMax ? max - (integer ? 1.0 : std::pow(10.0, -decimals)) : max;
}

Param Param::above(double v, bool inclusive, bool integer)
{
    Param p;
    p.min = v;
    p.openMin = !inclusive;
    p.integer = integer;
    return p;
}

std::string formatNumber(double v)
{
    char buf[64];
    if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        *std::to_chars(buf, buf + sizeof buf - 1, v).ptr = '\0';
    return buf;
}

} // namespace plume::sim
