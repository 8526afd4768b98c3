// SPDX-License-Identifier: Apache-2.0
// The upres solver's fine transport (docs/upres.md, "How it works"): each fine field traced
// along the interpolated velocity plus the noise, followed through what the sources, burning,
// dissipation and cooling did on the coarse grid, corrected to second order (MacCormack with
// its limiter) and pulled back towards the simulation's large scales. The step that calls these
// is in upressolver.cpp.
#include <core/sim/upres/upressolver.h>

#include <core/sim/upres/upresrows.h>

#include <algorithm>
#include <cmath>

namespace plume::sim {

using namespace upres;

void UpresSolver::traceFine(float dt, double time)
{
    const Domain &d = mInner->domain();
    const CellBox fineBox = scaled(mBox, mFactor);
    const Int3 size = fineBox.size();
    int traced[kFields], fields = 0; // the fields that exist
    for (int f = 0; f < kFields; ++f)
        if (present(f)) {
            traced[fields++] = f;
            mAdvected[f].reshapeForOverwrite(mBox.empty() ? Int3{0, 0, 0} : size, kCellCentre);
        } else {
            mAdvected[f] = ScalarGrid();
        }
    for (ScalarGrid &g : mMove)
        g.reshapeForOverwrite(mBox.empty() ? Int3{0, 0, 0} : size, kCellCentre);
    if (mBox.empty())
        return;
    const detail::GridMap fineMap = detail::gridMap(mFields[0], mFine);
    const bool k3D = !d.is2D();
    const int axes = d.dimensions();
    const detail::GridMap map = detail::gridMap(mVelocity[0], d);
    const UpresSettings &up = mParams.upres;
    const float t1 = float(time + dt);
    float weight[2] = {setWeight(t1, up.lifetime, 0), setWeight(t1, up.lifetime, 1)};
    // The blend of two independent noises is scaled back to the length of one.
    const float norm = 1.f / std::sqrt(weight[0] * weight[0] + weight[1] * weight[1]);
    weight[0] *= norm;
    weight[1] *= norm;
    // Octaves: one per halving of the cell size below the grid (2x: one; 3x and 4x: two).
    const int octaves = mFactor.x >= 3 ? 2 : 1;
    const float wavelengthCells = up.noiseWavelength(d.cellSize) / d.cellSize;
    const float tileScale = NoiseTile::kWavelength / wavelengthCells; // tile samples per cell
    float octaveAmplitude[2], octaveScale[2];
    for (int o = 0; o < octaves; ++o) {
        octaveAmplitude[o] = up.strength * std::pow(2.f, -5.f / 6.f * float(o + 1));
        octaveScale[o] = tileScale * float(1 << o);
    }
    const float toCells = dt / d.cellSize;
    const Vec3 inv{1.f / float(mFactor.x), 1.f / float(mFactor.y), 1.f / float(mFactor.z)};
    // A velocity times toFine is the step's move in fine cells along each axis.
    const Vec3 toFine{toCells * float(mFactor.x), toCells * float(mFactor.y),
                      toCells * float(mFactor.z)};
    const bool noise = up.strength > 0.f;
    // Below this amplitude the noise moves a fine cell's departure point less than 1 % of a fine
    // cell (the tile's vectors are at most about 3 long), so it is not read.
    const float minAmplitude = 0.01f * d.cellSize * inv.x / (3.f * std::max(dt, 1e-30f));

    // The cell-centred grids read at each fine cell: velocity, amplitude, two coordinate sets.
    const float *grids[10];
    int count = 0;
    for (int a = 0; a < axes; ++a)
        grids[count++] = mVelocity[a].data();
    const int amplitudeAt = count;
    grids[count++] = mAmplitude.data();
    const int coordsAt = count;
    if (noise)
        for (int set = 0; set < 2; ++set)
            for (int a = 0; a < axes; ++a)
                grids[count++] = mCoords[set][a].data();
    // The coarse samples one fine row reads along x: from the first fine cell's lower
    // neighbour to the last's upper one.
    const int lo = detail::locate(map.axis[0], (float(fineBox.lo.x) + 0.5f) * inv.x).i0;
    const int hi = detail::locate(map.axis[0], (float(fineBox.hi.x) - 0.5f) * inv.x).i1;
    const int span = map.axis[0].periodic ? d.cells.x : std::max(lo, hi) + 1;

    forEachRow(size, [&](int jj, int kk) {
        const int J = fineBox.lo.y + jj, K = fineBox.lo.z + kk;
        // Each grid interpolated in y and z to this fine row: a line of coarse samples along x.
        const RowStencil rows(map, (float(J) + 0.5f) * inv.y, (float(K) + 0.5f) * inv.z, k3D);
        std::vector<float> lines(std::size_t(count) * std::size_t(span));
        const int first = map.axis[0].periodic ? 0 : std::min(lo, hi);
        for (int g = 0; g < count; ++g)
            rows.line(grids[g], first, span, lines.data() + std::size_t(g) * std::size_t(span));
        auto at = [&](int g, const detail::Lerp &lx) {
            const float *line = lines.data() + std::size_t(g) * std::size_t(span);
            return line[lx.i0] + lx.f * (line[lx.i1] - line[lx.i0]);
        };
        const std::size_t row = mAdvected[0].index(0, jj, kk);
        const float y = (float(J) + 0.5f) * inv.y, z = (float(K) + 0.5f) * inv.z;
        const std::uint8_t *active = mActive.data()
                                     + mAmplitude.index(0, J / mFactor.y, K / mFactor.z);
        // Runs of fine cells: each cell's move (in fine cells) first, then every field
        // interpolated at the departure points of the whole run (sampling.h's batch form).
        std::uint8_t live[detail::kRun];
        detail::StencilRun stencils;
        for (int start = 0; start < size.x; start += detail::kRun) {
            const int runLength = std::min(detail::kRun, size.x - start);
            // Each cell's move in fine cells, kept for the correction (correctTrace).
            float *dx = mMove[0].data() + row + std::size_t(start);
            float *dy = mMove[1].data() + row + std::size_t(start);
            float *dz = mMove[2].data() + row + std::size_t(start);
            int anyLive = 0;
            for (int m = 0; m < runLength; ++m) {
                const FineColumn &column = mColumns[std::size_t(start + m)];
                live[m] = active[column.cell];
                anyLive |= live[m];
                dx[m] = dy[m] = dz[m] = 0.f;
                if (!live[m]) // far from smoke: the fields are 0
                    continue;
                // The fine cell's centre in coarse cell coordinates.
                const int I = fineBox.lo.x + start + m;
                const Vec3 x{(float(I) + 0.5f) * inv.x, y, z};
                const detail::Lerp lx{column.i0, column.i1, column.f};
                Vec3 u;
                for (int a = 0; a < axes; ++a)
                    u[a] = at(a, lx);
                const float amplitude = at(amplitudeAt, lx);
                if (noise && amplitude > minAmplitude) {
                    Vec3 n{};
                    for (int set = 0; set < 2; ++set) {
                        if (weight[set] <= 0.f)
                            continue;
                        // The noise coordinate: where this point was when the set started.
                        Vec3 p = x;
                        for (int a = 0; a < axes; ++a)
                            p[a] += at(coordsAt + set * axes + a, lx);
                        for (int o = 0; o < octaves; ++o) {
                            const Vec3 q = p * octaveScale[o] + kTileOffset[set]
                                           + kOctaveOffset * float(o);
                            n = n + mTile.at(q) * (weight[set] * octaveAmplitude[o]);
                        }
                    }
                    u = u + n * amplitude;
                }
                dx[m] = u.x * toFine.x;
                dy[m] = u.y * toFine.y;
                dz[m] = k3D ? u.z * toFine.z : 0.f;
            }
            for (int f = 0; f < fields; ++f) {
                float *out = mAdvected[traced[f]].data() + row + std::size_t(start);
                if (!anyLive)
                    std::fill(out, out + runLength, 0.f);
            }
            if (!anyLive)
                continue;
            // Each fine field at the departure points (fine cell coordinates).
            if (k3D)
                detail::stencilRun<true>(fineMap, fineBox.lo.x + start, kCellCentre,
                                         float(J) + 0.5f, float(K) + 0.5f, -1.f, dx, dy, dz,
                                         runLength, stencils);
            else
                detail::stencilRun<false>(fineMap, fineBox.lo.x + start, kCellCentre,
                                          float(J) + 0.5f, 0.5f, -1.f, dx, dy, dz, runLength,
                                          stencils);
            for (int f = 0; f < fields; ++f) {
                float *out = mAdvected[traced[f]].data() + row + std::size_t(start);
                if (k3D)
                    detail::interpolateRun<true>(mFields[traced[f]].data(), stencils, runLength,
                                                 out);
                else
                    detail::interpolateRun<false>(mFields[traced[f]].data(), stencils, runLength,
                                                  out);
                for (int m = 0; m < runLength; ++m)
                    out[m] = live[m] ? out[m] : 0.f;
            }
        }
    });
}

void UpresSolver::follow(int f, const ScalarGrid &before, const ScalarGrid &after)
{
    // At each fine cell, with b and c the solver's field before and after interpolated there:
    // c = r * b + a, with r in [0, 1] what the solver kept (dissipation, burnt fuel) and a what
    // it added (sources, the burning's heat and soot). The fine value takes the same: losses
    // scale the fine detail without blurring it, gains add to it. Interpolating b and c before
    // dividing keeps a uniform decay exact up to the smoke's edge.
    if (mBox.empty())
        return;
    const Domain &d = mInner->domain();
    ScalarGrid &field = mFields[f];
    const bool k3D = !d.is2D();
    const CellBox fineBox = scaled(mBox, mFactor);
    const detail::GridMap map = detail::gridMap(before, d);
    const Vec3 inv{1.f / float(mFactor.x), 1.f / float(mFactor.y), 1.f / float(mFactor.z)};
    const int nx = d.cells.x;
    forEachRow(fineBox.size(), [&](int jj, int kk) {
        const int J = fineBox.lo.y + jj, K = fineBox.lo.z + kk;
        const RowStencil rows(map, (float(J) + 0.5f) * inv.y, (float(K) + 0.5f) * inv.z, k3D);
        std::vector<float> line(2 * std::size_t(nx));
        float *was = line.data(), *is = line.data() + nx;
        rows.line(before.data(), 0, nx, was);
        rows.line(after.data(), 0, nx, is);
        float *out = field.data() + field.index(fineBox.lo.x, J, K);
        for (std::size_t ii = 0; ii < mColumns.size(); ++ii) {
            const FineColumn &col = mColumns[ii];
            const float b = col.at(was), c = col.at(is);
            const float r = std::abs(b) > kActiveThreshold ? std::clamp(c / b, 0.f, 1.f) : 1.f;
            out[ii] = out[ii] * r + (c - r * b);
        }
    });
}

void UpresSolver::correctTrace(int f)
{
    // MacCormack (Selle, Fedkiw, Kim, Liu and Rossignac 2008) on the fine grid: the traced
    // field, traced forward again along each cell's move, differs from the field before by
    // twice the trace's error; half of that is taken back, and the result kept within the
    // corners the trace read (their limiter), so no new extrema appear.
    const Domain &d = mInner->domain();
    const CellBox fineBox = scaled(mBox, mFactor);
    const Int3 size = fineBox.size();
    if (mBox.empty())
        return;
    const bool k3D = !d.is2D();
    const ScalarGrid &before = mFields[f];
    const ScalarGrid &traced = mAdvected[f];
    mCorrected.reshapeForOverwrite(size, kCellCentre);
    const detail::GridMap fineMap = detail::gridMap(before, mFine);
    // The traced field covers the box only; a periodic axis only when the box spans it.
    const detail::GridMap boxMap = detail::gridMap(traced, mFine);
    forEachRow(size, [&](int jj, int kk) {
        const int J = fineBox.lo.y + jj, K = fineBox.lo.z + kk;
        const std::size_t row = traced.index(0, jj, kk);
        const std::uint8_t *active = mActive.data()
                                     + mAmplitude.index(0, J / mFactor.y, K / mFactor.z);
        detail::StencilRun from, to;
        float lo[detail::kRun], hi[detail::kRun], back[detail::kRun];
        for (int start = 0; start < size.x; start += detail::kRun) {
            const int runLength = std::min(detail::kRun, size.x - start);
            float *out = mCorrected.data() + row + std::size_t(start);
            const float *forward = traced.data() + row + std::size_t(start);
            int anyLive = 0;
            for (int m = 0; m < runLength; ++m)
                anyLive |= active[mColumns[std::size_t(start + m)].cell];
            if (!anyLive) {
                std::fill(out, out + runLength, 0.f);
                continue;
            }
            const float *dx = mMove[0].data() + row + std::size_t(start);
            const float *dy = mMove[1].data() + row + std::size_t(start);
            const float *dz = mMove[2].data() + row + std::size_t(start);
            const float *at = before.data() + before.index(fineBox.lo.x + start, J, K);
            if (k3D) {
                detail::stencilRun<true>(fineMap, fineBox.lo.x + start, kCellCentre,
                                         float(J) + 0.5f, float(K) + 0.5f, -1.f, dx, dy, dz,
                                         runLength, from);
                detail::cornerRangeRun<true>(before.data(), from, runLength, lo, hi);
                detail::stencilRun<true>(boxMap, start, kCellCentre, float(jj) + 0.5f,
                                         float(kk) + 0.5f, 1.f, dx, dy, dz, runLength, to);
                detail::interpolateRun<true>(traced.data(), to, runLength, back);
            } else {
                detail::stencilRun<false>(fineMap, fineBox.lo.x + start, kCellCentre,
                                          float(J) + 0.5f, 0.5f, -1.f, dx, dy, dz, runLength, from);
                detail::cornerRangeRun<false>(before.data(), from, runLength, lo, hi);
                detail::stencilRun<false>(boxMap, start, kCellCentre, float(jj) + 0.5f, 0.5f, 1.f,
                                          dx, dy, dz, runLength, to);
                detail::interpolateRun<false>(traced.data(), to, runLength, back);
            }
            for (int m = 0; m < runLength; ++m) {
                const float v = forward[m] + 0.5f * (at[m] - back[m]);
                out[m] = active[mColumns[std::size_t(start + m)].cell] ? std::clamp(v, lo[m], hi[m])
                                                                       : 0.f;
            }
        }
    });
    ScalarGrid &field = mFields[f];
    forEachRow(size, [&](int jj, int kk) {
        const float *src = mCorrected.data() + mCorrected.index(0, jj, kk);
        std::copy(src, src + size.x,
                  field.data() + field.index(fineBox.lo.x, fineBox.lo.y + jj, fineBox.lo.z + kk));
    });
}

void UpresSolver::match(int f)
{
    const Domain &d = mInner->domain();
    ScalarGrid &field = mFields[f];
    const ScalarGrid &coarse = mCoarse[f];
    mDifference.reshape(d.cells, kCellCentre, 0.f);
    if (mBox.empty())
        return;
    const bool k3D = !d.is2D();
    const CellBox fineBox = scaled(mBox, mFactor);
    const Int3 size = fineBox.size();

    // Per cell of the box: the solver's value minus the mean of its fine cells.
    const Int3 F = mFactor;
    const float perCell = 1.f / float(F.volume());
    forEachBoxRow(mBox, [&](int j, int k) {
        for (int i = mBox.lo.x; i < mBox.hi.x; ++i) {
            float sum = 0.f;
            for (int c = 0; c < F.z; ++c)
                for (int b = 0; b < F.y; ++b) {
                    const float *r = field.data() + field.index(i * F.x, j * F.y + b, k * F.z + c);
                    for (int a = 0; a < F.x; ++a)
                        sum += r[a];
                }
            mDifference(i, j, k) = coarse(i, j, k) - sum * perCell;
        }
    });
    // Only the difference's large scales are taken back, slowly (kMatchSeconds): at a front
    // the fine field is sharper than the solver's, so the difference there is a pair of
    // opposite signs a cell apart, which its [1 2 1] / 4 blur along each axis cancels.
    blur(mDifference, 1);

    // The solver's range over the box: the fine field stays within it (and 0).
    const double hi = maxRows(mBox.size(), [&](int jj, int kk) {
        const float *r = coarse.data() + coarse.index(mBox.lo.x, mBox.lo.y + jj, mBox.lo.z + kk);
        float m = 0.f;
        for (int i = 0; i < mBox.size().x; ++i)
            m = std::max(m, r[i]);
        return double(m);
    });
    const double lo = -maxRows(mBox.size(), [&](int jj, int kk) {
        const float *r = coarse.data() + coarse.index(mBox.lo.x, mBox.lo.y + jj, mBox.lo.z + kk);
        float m = 0.f;
        for (int i = 0; i < mBox.size().x; ++i)
            m = std::max(m, -r[i]);
        return double(m);
    });

    // The fine field plus its share of the interpolated difference, clamped; 0 in solids and
    // far from smoke.
    const FlagGrid &solids = mInner->solids();
    const bool anySolid = solids.anySolid();
    const detail::GridMap map = detail::gridMap(mDifference, d);
    const Vec3 inv{1.f / float(F.x), 1.f / float(F.y), 1.f / float(F.z)};
    const float lower = float(lo), upper = float(hi);
    const float rate = 1.f - std::exp(-mDt / kMatchSeconds);
    const int nx = d.cells.x;
    forEachRow(size, [&](int jj, int kk) {
        const int J = fineBox.lo.y + jj, K = fineBox.lo.z + kk;
        const RowStencil rows(map, (float(J) + 0.5f) * inv.y, (float(K) + 0.5f) * inv.z, k3D);
        std::vector<float> line(static_cast<std::size_t>(nx));
        rows.line(mDifference.data(), 0, nx, line.data());
        float *out = field.data() + field.index(fineBox.lo.x, J, K);
        const std::uint8_t *active = mActive.data() + coarse.index(0, J / F.y, K / F.z);
        const int coarseJ = J / F.y, coarseK = K / F.z;
        for (int ii = 0; ii < size.x; ++ii) {
            const FineColumn &lx = mColumns[std::size_t(ii)];
            if (!active[lx.cell] || (anySolid && solids.isSolid(lx.cell, coarseJ, coarseK))) {
                out[ii] = 0.f;
                continue;
            }
            out[ii] = std::clamp(out[ii] + rate * lx.at(line.data()), lower, upper);
        }
    });
}

void UpresSolver::blur(ScalarGrid &g, int passes)
{
    const Domain &d = mInner->domain();
    ScalarGrid &blurred = mAmplitudeScratch;
    for (int pass = 0; pass < passes; ++pass)
        for (int a = 0; a < d.dimensions(); ++a) {
            blurred.reshape(d.cells, kCellCentre, 0.f);
            const std::size_t stride = a == 0 ? 1 : (a == 1 ? g.strideY() : g.strideZ());
            forEachBoxRow(mBox, [&](int j, int k) {
                for (int i = mBox.lo.x; i < mBox.hi.x; ++i) {
                    const Int3 c{i, j, k};
                    const std::size_t at = g.index(i, j, k);
                    const float mid = g[at];
                    const float below = c[a] > mBox.lo[a] ? g[at - stride] : mid;
                    const float above = c[a] + 1 < mBox.hi[a] ? g[at + stride] : mid;
                    blurred[at] = 0.25f * below + 0.5f * mid + 0.25f * above;
                }
            });
            g.swap(blurred);
        }
}

void UpresSolver::clearLeftCells(int f)
{
    if (mPrevBox.empty())
        return;
    const CellBox prev = scaled(mPrevBox, mFactor);
    const CellBox now = scaled(mBox, mFactor);
    ScalarGrid &field = mFields[f];
    forEachBoxRow(prev, [&](int j, int k) {
        float *row = field.data() + field.index(0, j, k);
        const bool rowInside = !now.empty() && j >= now.lo.y && j < now.hi.y && k >= now.lo.z
                               && k < now.hi.z;
        for (int i = prev.lo.x; i < prev.hi.x; ++i)
            if (!rowInside || i < now.lo.x || i >= now.hi.x)
                row[i] = 0.f;
    });
}

} // namespace plume::sim
