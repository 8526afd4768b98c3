// SPDX-License-Identifier: Apache-2.0
// Mike Ash, "Fluid Simulation for Dummies" (2006): the 3D FluidCube port of Stam's solver,
// transcribed with its bugs fixed so that it follows the conventions of Stam's paper. Every
// deviation from the published FluidCube code:
//  1. Grid: interior N cells per axis plus one ghost layer, (N+2)^3 floats, interior indices
//     1..N; IX(i,j,k) = i + (N+2)*j + (N+2)^2*k. Ash's N is the padded size (interior 1..N-2)
//     while diffuse/advect scale by N-2 and project by N: fixed by using interior N throughout.
//  2. diffuse: a = dt*diff*N*N with interior N (Ash: (N-2)^2, the same thing); c = 1+6a.
//  3. advect: dt0 = dt*N and the clamp [0.5, N+0.5] with interior N (Ash clamps at padded
//     N+0.5, which reads past the array); floorf + float indices replaced by (int) as in Stam
//     (identical for the clamped, positive positions).
//  4. project: div = -0.5f*(...)/N and u -= 0.5f*N*(...) with interior N (Ash divides and
//     multiplies by the padded size; a reader's comment mistakes /N for a bug: h = 1/N, and
//     -0.5*h*(...) is Stam's formula).
//  5. lin_solve: divides by c like Stam (Ash multiplies by 1/c), sums the neighbours in Stam's
//     order -x, +x, -y, +y then -z, +z (Ash: +x first), and runs the caller's number of sweeps:
//     Stam's 20 for the comparison with StamSolver, Ash's published 4 (kAshSweeps) in plume-bench
//     --reference.
//  6. set_bnd: faces as Ash (the component b = 1, 2, 3 is negated on its own faces). Edges,
//     which Ash leaves unset, are the mean of their two adjacent face ghosts; corners are
//     (a+b+c)/3 of their three adjacent edge ghosts (Ash: 0.33f*(...), and one corner reads
//     IX(0,0,N), outside the face it means).
//  7. The step is Stam's vel_step/dens_step with add_source (Ash's FluidCubeStep has no
//     sources, diffuses into the *0 arrays, and the constructor truncates diff/visc to int).
// Loops keep Ash's order: k outer, then j, then i.

#include <reference/stam_reference.h>

namespace stamref {
namespace {

#define IX(i, j, k) ((i) + (N + 2) * (j) + (N + 2) * (N + 2) * (k))
#define SWAP(x0, x)                                                                                \
    {                                                                                              \
        float *tmp = x0;                                                                           \
        x0 = x;                                                                                    \
        x = tmp;                                                                                   \
    }

void add_source3(int N, float *x, float *s, float dt)
{
    int size = (N + 2) * (N + 2) * (N + 2);
    for (int i = 0; i < size; i++)
        x[i] += dt * s[i];
}

void set_bnd3(int N, int b, float *x)
{
    for (int j = 1; j <= N; j++) {
        for (int i = 1; i <= N; i++) {
            x[IX(i, j, 0)] = b == 3 ? -x[IX(i, j, 1)] : x[IX(i, j, 1)];
            x[IX(i, j, N + 1)] = b == 3 ? -x[IX(i, j, N)] : x[IX(i, j, N)];
        }
    }
    for (int k = 1; k <= N; k++) {
        for (int i = 1; i <= N; i++) {
            x[IX(i, 0, k)] = b == 2 ? -x[IX(i, 1, k)] : x[IX(i, 1, k)];
            x[IX(i, N + 1, k)] = b == 2 ? -x[IX(i, N, k)] : x[IX(i, N, k)];
        }
    }
    for (int k = 1; k <= N; k++) {
        for (int j = 1; j <= N; j++) {
            x[IX(0, j, k)] = b == 1 ? -x[IX(1, j, k)] : x[IX(1, j, k)];
            x[IX(N + 1, j, k)] = b == 1 ? -x[IX(N, j, k)] : x[IX(N, j, k)];
        }
    }
    for (int k = 1; k <= N; k++) {
        x[IX(0, 0, k)] = 0.5f * (x[IX(1, 0, k)] + x[IX(0, 1, k)]);
        x[IX(0, N + 1, k)] = 0.5f * (x[IX(1, N + 1, k)] + x[IX(0, N, k)]);
        x[IX(N + 1, 0, k)] = 0.5f * (x[IX(N, 0, k)] + x[IX(N + 1, 1, k)]);
        x[IX(N + 1, N + 1, k)] = 0.5f * (x[IX(N, N + 1, k)] + x[IX(N + 1, N, k)]);
    }
    for (int i = 1; i <= N; i++) {
        x[IX(i, 0, 0)] = 0.5f * (x[IX(i, 1, 0)] + x[IX(i, 0, 1)]);
        x[IX(i, 0, N + 1)] = 0.5f * (x[IX(i, 1, N + 1)] + x[IX(i, 0, N)]);
        x[IX(i, N + 1, 0)] = 0.5f * (x[IX(i, N, 0)] + x[IX(i, N + 1, 1)]);
        x[IX(i, N + 1, N + 1)] = 0.5f * (x[IX(i, N, N + 1)] + x[IX(i, N + 1, N)]);
    }
    for (int j = 1; j <= N; j++) {
        x[IX(0, j, 0)] = 0.5f * (x[IX(1, j, 0)] + x[IX(0, j, 1)]);
        x[IX(0, j, N + 1)] = 0.5f * (x[IX(1, j, N + 1)] + x[IX(0, j, N)]);
        x[IX(N + 1, j, 0)] = 0.5f * (x[IX(N, j, 0)] + x[IX(N + 1, j, 1)]);
        x[IX(N + 1, j, N + 1)] = 0.5f * (x[IX(N, j, N + 1)] + x[IX(N + 1, j, N)]);
    }
    x[IX(0, 0, 0)] = (x[IX(1, 0, 0)] + x[IX(0, 1, 0)] + x[IX(0, 0, 1)]) / 3.f;
    x[IX(0, 0, N + 1)] = (x[IX(1, 0, N + 1)] + x[IX(0, 1, N + 1)] + x[IX(0, 0, N)]) / 3.f;
    x[IX(0, N + 1, 0)] = (x[IX(1, N + 1, 0)] + x[IX(0, N, 0)] + x[IX(0, N + 1, 1)]) / 3.f;
    x[IX(0, N + 1, N + 1)] = (x[IX(1, N + 1, N + 1)] + x[IX(0, N, N + 1)] + x[IX(0, N + 1, N)])
                             / 3.f;
    x[IX(N + 1, 0, 0)] = (x[IX(N, 0, 0)] + x[IX(N + 1, 1, 0)] + x[IX(N + 1, 0, 1)]) / 3.f;
    x[IX(N + 1, 0, N + 1)] = (x[IX(N, 0, N + 1)] + x[IX(N + 1, 1, N + 1)] + x[IX(N + 1, 0, N)])
                             / 3.f;
    x[IX(N + 1, N + 1, 0)] = (x[IX(N, N + 1, 0)] + x[IX(N + 1, N, 0)] + x[IX(N + 1, N + 1, 1)])
                             / 3.f;
    x[IX(N + 1, N + 1, N + 1)] = (x[IX(N, N + 1, N + 1)] + x[IX(N + 1, N, N + 1)]
                                  + x[IX(N + 1, N + 1, N)])
                                 / 3.f;
}

void lin_solve3(int N, int b, float *x, float *x0, float a, float c, int sweeps)
{
    for (int n = 0; n < sweeps; n++) {
        for (int k = 1; k <= N; k++) {
            for (int j = 1; j <= N; j++) {
                for (int i = 1; i <= N; i++) {
                    x[IX(i, j, k)] = (x0[IX(i, j, k)]
                                      + a
                                            * (x[IX(i - 1, j, k)] + x[IX(i + 1, j, k)]
                                               + x[IX(i, j - 1, k)] + x[IX(i, j + 1, k)]
                                               + x[IX(i, j, k - 1)] + x[IX(i, j, k + 1)]))
                                     / c;
                }
            }
        }
        set_bnd3(N, b, x);
    }
}

void diffuse3(int N, int b, float *x, float *x0, float diff, float dt, int sweeps)
{
    float a = dt * diff * N * N;
    lin_solve3(N, b, x, x0, a, 1 + 6 * a, sweeps);
}

void advect3(int N, int b, float *d, float *d0, float *u, float *v, float *w, float dt)
{
    float dt0 = dt * N;
    for (int k = 1; k <= N; k++) {
        for (int j = 1; j <= N; j++) {
            for (int i = 1; i <= N; i++) {
                float x = i - dt0 * u[IX(i, j, k)];
                float y = j - dt0 * v[IX(i, j, k)];
                float z = k - dt0 * w[IX(i, j, k)];
                if (x < 0.5f)
                    x = 0.5f;
                if (x > N + 0.5f)
                    x = N + 0.5f;
                if (y < 0.5f)
                    y = 0.5f;
                if (y > N + 0.5f)
                    y = N + 0.5f;
                if (z < 0.5f)
                    z = 0.5f;
                if (z > N + 0.5f)
                    z = N + 0.5f;
                int i0 = (int)x, i1 = i0 + 1;
                int j0 = (int)y, j1 = j0 + 1;
                int k0 = (int)z, k1 = k0 + 1;
                float s1 = x - i0, s0 = 1.0f - s1;
                float t1 = y - j0, t0 = 1.0f - t1;
                float u1 = z - k0, u0 = 1.0f - u1;
                d[IX(i, j, k)] =
                    s0
                        * (t0 * (u0 * d0[IX(i0, j0, k0)] + u1 * d0[IX(i0, j0, k1)])
                           + (t1 * (u0 * d0[IX(i0, j1, k0)] + u1 * d0[IX(i0, j1, k1)])))
                    + s1
                          * (t0 * (u0 * d0[IX(i1, j0, k0)] + u1 * d0[IX(i1, j0, k1)])
                             + (t1 * (u0 * d0[IX(i1, j1, k0)] + u1 * d0[IX(i1, j1, k1)])));
            }
        }
    }
    set_bnd3(N, b, d);
}

void project3(int N, float *u, float *v, float *w, float *p, float *div, int sweeps)
{
    for (int k = 1; k <= N; k++) {
        for (int j = 1; j <= N; j++) {
            for (int i = 1; i <= N; i++) {
                div[IX(i, j, k)] = -0.5f
                                   * (u[IX(i + 1, j, k)] - u[IX(i - 1, j, k)] + v[IX(i, j + 1, k)]
                                      - v[IX(i, j - 1, k)] + w[IX(i, j, k + 1)]
                                      - w[IX(i, j, k - 1)])
                                   / N;
                p[IX(i, j, k)] = 0;
            }
        }
    }
    set_bnd3(N, 0, div);
    set_bnd3(N, 0, p);
    lin_solve3(N, 0, p, div, 1, 6, sweeps);
    for (int k = 1; k <= N; k++) {
        for (int j = 1; j <= N; j++) {
            for (int i = 1; i <= N; i++) {
                u[IX(i, j, k)] -= 0.5f * N * (p[IX(i + 1, j, k)] - p[IX(i - 1, j, k)]);
                v[IX(i, j, k)] -= 0.5f * N * (p[IX(i, j + 1, k)] - p[IX(i, j - 1, k)]);
                w[IX(i, j, k)] -= 0.5f * N * (p[IX(i, j, k + 1)] - p[IX(i, j, k - 1)]);
            }
        }
    }
    set_bnd3(N, 1, u);
    set_bnd3(N, 2, v);
    set_bnd3(N, 3, w);
}

} // namespace

void dens_step3(int N, float *x, float *x0, float *u, float *v, float *w, float diff, float dt,
                int sweeps)
{
    add_source3(N, x, x0, dt);
    SWAP(x0, x);
    diffuse3(N, 0, x, x0, diff, dt, sweeps);
    SWAP(x0, x);
    advect3(N, 0, x, x0, u, v, w, dt);
}

void vel_step3(int N, float *u, float *v, float *w, float *u0, float *v0, float *w0, float visc,
               float dt, int sweeps)
{
    add_source3(N, u, u0, dt);
    add_source3(N, v, v0, dt);
    add_source3(N, w, w0, dt);
    SWAP(u0, u);
    diffuse3(N, 1, u, u0, visc, dt, sweeps);
    SWAP(v0, v);
    diffuse3(N, 2, v, v0, visc, dt, sweeps);
    SWAP(w0, w);
    diffuse3(N, 3, w, w0, visc, dt, sweeps);
    project3(N, u, v, w, u0, v0, sweeps);
    SWAP(u0, u);
    SWAP(v0, v);
    SWAP(w0, w);
    advect3(N, 1, u, u0, u0, v0, w0, dt);
    advect3(N, 2, v, v0, u0, v0, w0, dt);
    advect3(N, 3, w, w0, u0, v0, w0, dt);
    project3(N, u, v, w, u0, v0, sweeps);
}

#undef IX
#undef SWAP

} // namespace stamref
