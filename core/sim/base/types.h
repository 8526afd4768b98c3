// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/param.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <string>

namespace plume::sim {

/// Integer triple: grid sizes and cell indices. In 2D, z is 1 (sizes) or 0 (indices).
struct Int3
{
    int x = 1;
    int y = 1;
    int z = 1;

    friend bool operator==(const Int3 &, const Int3 &) = default;
    int operator[](int axis) const { return axis == 0 ? x : (axis == 1 ? y : z); }
    int &operator[](int axis) { return axis == 0 ? x : (axis == 1 ? y : z); }
    std::int64_t volume() const { return std::int64_t(x) * y * z; }
};

/// Small float vector for positions (world units) and velocities (world units per second).
struct Vec3
{
    float x = 0.f;
    float y = 0.f;
    float z = 0.f;

    friend bool operator==(const Vec3 &, const Vec3 &) = default;
    float operator[](int axis) const { return axis == 0 ? x : (axis == 1 ? y : z); }
    float &operator[](int axis) { return axis == 0 ? x : (axis == 1 ? y : z); }

    friend Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
    friend Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
    friend Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
    friend Vec3 operator*(float s, Vec3 a) { return {a.x * s, a.y * s, a.z * s}; }
    friend float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
    friend Vec3 cross(Vec3 a, Vec3 b)
    {
        return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    }
    friend float length(Vec3 a) { return std::sqrt(dot(a, a)); }
};

/// How a face of the domain box treats the fluid.
enum class Boundary : std::uint8_t {
    Wall,     ///< closed: no flow through the face, scalars have zero gradient
    Open,     ///< outflow: pressure is zero outside, quantities leave freely
    Periodic, ///< wrap-around: what leaves one face enters the opposite one
};

/// Faces in the order -x, +x, -y, +y, -z, +z.
enum class Face : int { XMin = 0, XMax, YMin, YMax, ZMin, ZMax };

/// "xmin", "xmax", "ymin", ... for a face: the keys of domain.boundaries in a scene file.
inline const char *faceName(int f)
{
    static const char *const names[6] = {"xmin", "xmax", "ymin", "ymax", "zmin", "zmax"};
    return names[f];
}

/// Boundary mode per face. Periodic must be set on both faces of an axis.
using Boundaries = std::array<Boundary, 6>;

inline Boundaries allBoundaries(Boundary b) { return {b, b, b, b, b, b}; }

/// Stable string names (used in messages, files and command lines).
inline constexpr EnumNames<Boundary, 3> kBoundaryNames{{"wall", "open", "periodic"}};
inline const char *toString(Boundary b) { return kBoundaryNames.name(b); }

/// Outcome of an operation that can fail: empty message means success.
/// Library code reports errors through this instead of throwing or aborting.
struct Status
{
    std::string error;

    bool ok() const { return error.empty(); }
    explicit operator bool() const { return ok(); }
    static Status success() { return {}; }
    static Status failure(std::string message) { return {std::move(message)}; }
};

} // namespace plume::sim
