// SPDX-License-Identifier: Apache-2.0
#pragma once

// The smoothing kernels of Mueller, Charypar and Gross, "Particle-Based Fluid Simulation for
// Interactive Applications" (SCA 2003), normalised in 2D and 3D (docs/sph.md derives the
// constants). Every kernel is zero for r >= h. Arguments are squared distances or distances.

#include <cmath>
#include <numbers>

namespace plume::sim {

struct SphKernels
{
    float h = 1.f;
    float h2 = 1.f;
    float poly6 = 0.f;          ///< W_poly6 = poly6 (h^2 - r^2)^3
    float poly6Gradient = 0.f;  ///< grad W_poly6 = poly6Gradient r (h^2 - r^2)^2 (negative)
    float poly6Laplacian = 0.f; ///< lap W_poly6 = poly6Laplacian (h^2 - r^2)(a h^2 - b r^2)
    float poly6LapA = 0.f, poly6LapB = 0.f;
    float spiky = 0.f;         ///< W_spiky = spiky (h - r)^3
    float spikyGradient = 0.f; ///< grad W_spiky = spikyGradient (h - r)^2 r / |r| (negative)
    float viscosity = 0.f;     ///< lap W_viscosity = viscosity (h - r)
    /// W_viscosity = viscosityW (-r^3 / (2 h^3) + r^2 / h^2 + h / (2 r) - 1), 3D only: in 2D the
    /// Laplacian's constant comes from the second-moment condition instead (docs/sph.md).
    float viscosityW = 0.f;

    SphKernels() = default;
    SphKernels(float radius, int dimensions)
        : h(radius)
        , h2(radius * radius)
    {
        const double pi = std::numbers::pi;
        const double r = radius;
        if (dimensions == 2) {
            poly6 = float(4.0 / (pi * std::pow(r, 8)));
            poly6Gradient = float(-24.0 / (pi * std::pow(r, 8)));
            poly6Laplacian = float(-48.0 / (pi * std::pow(r, 8)));
            poly6LapA = 1.f;
            poly6LapB = 3.f;
            spiky = float(10.0 / (pi * std::pow(r, 5)));
            spikyGradient = float(-30.0 / (pi * std::pow(r, 5)));
            viscosity = float(40.0 / (pi * std::pow(r, 5)));
            viscosityW = 0.f;
        } else {
            poly6 = float(315.0 / (64.0 * pi * std::pow(r, 9)));
            poly6Gradient = float(-945.0 / (32.0 * pi * std::pow(r, 9)));
            poly6Laplacian = float(-945.0 / (32.0 * pi * std::pow(r, 9)));
            poly6LapA = 3.f;
            poly6LapB = 7.f;
            spiky = float(15.0 / (pi * std::pow(r, 6)));
            spikyGradient = float(-45.0 / (pi * std::pow(r, 6)));
            viscosity = float(45.0 / (pi * std::pow(r, 6)));
            viscosityW = float(15.0 / (2.0 * pi * std::pow(r, 3)));
        }
    }

    float densityW(float r2) const
    {
        if (r2 >= h2)
            return 0.f;
        const float d = h2 - r2;
        return poly6 * d * d * d;
    }
    /// The factor g with grad W_poly6(r) = g * r.
    float densityGradientFactor(float r2) const
    {
        if (r2 >= h2)
            return 0.f;
        const float d = h2 - r2;
        return poly6Gradient * d * d;
    }
    float densityLaplacian(float r2) const
    {
        if (r2 >= h2)
            return 0.f;
        return poly6Laplacian * (h2 - r2) * (poly6LapA * h2 - poly6LapB * r2);
    }
    float spikyW(float r) const
    {
        if (r >= h)
            return 0.f;
        const float d = h - r;
        return spiky * d * d * d;
    }
    /// The factor g with grad W_spiky(r) = g * r (0 at r = 0, where the direction is undefined).
    float pressureGradientFactor(float r) const
    {
        if (r >= h || r <= 0.f)
            return 0.f;
        const float d = h - r;
        return spikyGradient * d * d / r;
    }
    float viscosityLaplacian(float r) const { return r >= h ? 0.f : viscosity * (h - r); }
    float viscosityKernel(float r) const
    {
        if (r >= h || r <= 0.f)
            return 0.f;
        return viscosityW * (-r * r * r / (2.f * h2 * h) + r * r / h2 + h / (2.f * r) - 1.f);
    }
};

} // namespace plume::sim
