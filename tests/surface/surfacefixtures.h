// SPDX-License-Identifier: Apache-2.0
#pragma once

// Synthetic particles and densities for the surface tests.

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>
#include <core/sim/base/particles.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>

namespace plume::test {

inline constexpr sim::Vec3 kBallCentre{0.515625f, 0.5f, 0.5f};
inline constexpr float kBallRadius = 0.3f;
inline constexpr float kParticleRadius = 0.01f;

/// The radius of the ball whose volume is the particles' own: each particle of a lattice at
/// spacing 2 * radius stands for a cube of that side.
double particleVolumeRadius(const sim::ParticleSet &particles);

/// The unit cube in n^3 cells.
sim::Domain unitDomain(int n);

/// Particles on a lattice of spacing 2 * radius, jittered by up to 0.2 radius (a fixed
/// sequence), whose centres lie within ballRadius - radius of `centre`. Velocity: a rotation about
/// +y (speed 2 * distance from the axis).
sim::ParticleSet particleBall(sim::Vec3 centre, float ballRadius, float radius);

/// Density max(0, 1 - |x - centre| / radius) at the cell centres.
sim::ScalarGrid coneDensity(const sim::Domain &domain, sim::Vec3 centre, float radius);

struct ObjCounts
{
    std::size_t vertices = 0, normals = 0, faces = 0;
    sim::Vec3 firstVertex;
    std::array<std::uint32_t, 3> firstFace{};
};

/// Counts the v, vn and f lines of an OBJ file and parses its first vertex and face.
ObjCounts readObj(const std::filesystem::path &path);

} // namespace plume::test
