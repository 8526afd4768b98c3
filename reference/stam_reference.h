// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reference transcriptions of the published stam solvers: tst_sim_stam checks StamSolver's
// Paper sweep order against them, and plume-bench --reference times them next to Plume. Arrays are
// padded with one ghost layer: (N+2)^2 floats in 2D, (N+2)^3 in 3D, indexed as the papers' IX
// macros do.
namespace stamref {

// Jos Stam, "Real-Time Fluid Dynamics for Games" (GDC 2003), "The Code" (stam_reference.cpp).
void vel_step(int N, float *u, float *v, float *u0, float *v0, float visc, float dt);
void dens_step(int N, float *x, float *x0, float *u, float *v, float diff, float dt);

// Mike Ash's 3D FluidCube port with its bugs fixed to Stam's conventions
// (stam_reference3d.cpp lists every deviation).
// `sweeps`: Gauss-Seidel sweeps per lin_solve (Stam's 20, Ash's kAshSweeps).
inline constexpr int kStamSweeps = 20;
inline constexpr int kAshSweeps = 4;
void vel_step3(int N, float *u, float *v, float *w, float *u0, float *v0, float *w0, float visc,
               float dt, int sweeps = kStamSweeps);
void dens_step3(int N, float *x, float *x0, float *u, float *v, float *w, float diff, float dt,
                int sweeps = kStamSweeps);

} // namespace stamref
