// SPDX-License-Identifier: Apache-2.0
#include <core/sim/run/plumeintegrals.h>

#include <core/sim/base/assert.h>
#include <core/sim/base/parallel.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace plume::sim {

namespace {

/// Per-row partial sums: rowSums(size, body) calls body(j, k, out) once per row (in parallel),
/// `out` that row's K doubles, and returns them in row order (r = j + size.y * k). Callers add
/// them up in that order, so the totals do not depend on the thread count.
template<std::size_t K, class F>
std::vector<std::array<double, K>> rowSums(Int3 size, F &&body)
{
    std::vector<std::array<double, K>> rows(std::size_t(size.y) * std::size_t(size.z));
    forEachRow(size, [&](int j, int k) {
        std::array<double, K> &out = rows[std::size_t(j) + std::size_t(size.y) * std::size_t(k)];
        out.fill(0.0);
        body(j, k, out);
    });
    return rows;
}

/// Centre of cell index `n` along an axis, world units.
double centre(float origin, float h, int n) { return double(origin) + (n + 0.5) * double(h); }

/// The front height from the slab totals (see PlumeIntegrals::frontHeight).
double frontOf(const Domain &domain, const std::vector<double> &slabs)
{
    const double h = domain.cellSize;
    const double largest = slabs.empty() ? 0.0 : *std::max_element(slabs.begin(), slabs.end());
    if (!(largest > 0))
        return domain.origin.y;
    const double t = kFrontFraction * largest;
    int j = int(slabs.size()) - 1;
    while (!(slabs[std::size_t(j)] > t))
        --j; // stops at the largest slab at the latest
    const double here = slabs[std::size_t(j)];
    const double above = j + 1 < int(slabs.size()) ? slabs[std::size_t(j) + 1] : 0.0;
    const double y = centre(domain.origin.y, domain.cellSize, j) + h * (here - t) / (here - above);
    return std::min(y, double(domain.origin.y) + double(domain.cells.y) * h);
}

/// L1 distance of two profiles of the same length.
double l1(const std::vector<double> &a, const std::vector<double> &b)
{
    double d = 0;
    for (std::size_t n = 0; n < a.size() && n < b.size(); ++n)
        d += std::abs(a[n] - b[n]);
    return d;
}

/// The scale of an integral's floor (EnsembleTolerance).
double floorScale(const Domain &domain, Integral integral, double mean)
{
    const Vec3 e = domain.extent();
    switch (integral) {
    case Integral::TotalSmoke:
    case Integral::KineticEnergy: return std::abs(mean);
    case Integral::FrontHeight:
    case Integral::CentroidY: return e.y;
    case Integral::CentroidX: return e.x;
    case Integral::CentroidZ: return e.z;
    case Integral::Spread: return domain.is2D() ? e.x : 0.5 * (double(e.x) + double(e.z));
    case Integral::Profile: return 1.0;
    }
    return 0.0;
}

} // namespace

PlumeIntegrals densityIntegrals(const Domain &domain, const ScalarGrid &density)
{
    PlumeIntegrals r;
    const Int3 n = domain.cells;
    r.frontHeight = domain.origin.y;
    for (int a = 0; a < 3; ++a)
        r.centroid[std::size_t(a)] = double(domain.origin[a]) + 0.5 * double(domain.extent()[a]);
    r.profile.assign(std::size_t(std::max(0, n.y)), 0.0);
    PLUME_ASSERT(density.size() == n, "plume integrals: the density does not match the domain");
    if (density.size() != n)
        return r;
    const float h = domain.cellSize;
    const double volume = double(h) * h * h;

    // Pass 1: per row, sum rho and sum rho x; y and z are constant along a row.
    const auto first = rowSums<2>(n, [&](int j, int k, std::array<double, 2> &out) {
        const float *row = density.data() + density.index(0, j, k);
        for (int i = 0; i < n.x; ++i) {
            out[0] += row[i];
            out[1] += double(row[i]) * centre(domain.origin.x, h, i);
        }
    });
    double total = 0, mx = 0, my = 0, mz = 0;
    for (int k = 0; k < n.z; ++k) {
        for (int j = 0; j < n.y; ++j) {
            const std::array<double, 2> &p = first[std::size_t(j) + std::size_t(n.y) * k];
            total += p[0];
            mx += p[1];
            my += p[0] * centre(domain.origin.y, h, j);
            mz += p[0] * centre(domain.origin.z, h, k);
            r.profile[std::size_t(j)] += p[0] * volume;
        }
    }
    r.totalSmoke = total * volume;
    r.frontHeight = frontOf(domain, r.profile);
    if (!(total > 0)) {
        std::fill(r.profile.begin(), r.profile.end(), 0.0);
        return r;
    }
    for (double &s : r.profile)
        s /= r.totalSmoke;
    r.centroid = {mx / total, my / total, mz / total};

    // Pass 2: the horizontal second moments about the centroid.
    const double cx = r.centroid[0], cz = r.centroid[2];
    const auto second = rowSums<1>(n, [&](int j, int k, std::array<double, 1> &out) {
        const float *row = density.data() + density.index(0, j, k);
        for (int i = 0; i < n.x; ++i) {
            const double dx = centre(domain.origin.x, h, i) - cx;
            out[0] += double(row[i]) * dx * dx;
        }
    });
    double sxx = 0, szz = 0;
    for (int k = 0; k < n.z; ++k) {
        const double dz = centre(domain.origin.z, h, k) - cz;
        for (int j = 0; j < n.y; ++j) {
            sxx += second[std::size_t(j) + std::size_t(n.y) * k][0];
            szz += first[std::size_t(j) + std::size_t(n.y) * k][0] * dz * dz;
        }
    }
    const double variance = domain.is2D() ? sxx / total : 0.5 * (sxx + szz) / total;
    r.spread = std::sqrt(std::max(0.0, variance));
    return r;
}

double kineticEnergy(const MacGrid &velocity, float cellSize, const CellBox &cells)
{
    const Int3 all = velocity.cells();
    const bool within = cells.lo.x >= 0 && cells.lo.y >= 0 && cells.lo.z >= 0 && cells.hi.x <= all.x
                        && cells.hi.y <= all.y && cells.hi.z <= all.z;
    PLUME_ASSERT(within, "plume integrals: the box is not within the velocity's cells");
    if (!within || cells.empty())
        return 0.0;
    const Int3 size = cells.size();
    const auto rows = rowSums<1>(size, [&](int j, int k, std::array<double, 1> &out) {
        for (int i = 0; i < size.x; ++i) {
            const Vec3 u = velocity.atCentre(cells.lo.x + i, cells.lo.y + j, cells.lo.z + k);
            out[0] += double(u.x) * u.x + double(u.y) * u.y + double(u.z) * u.z;
        }
    });
    double sum = 0;
    for (const std::array<double, 1> &p : rows)
        sum += p[0];
    return 0.5 * sum * double(cellSize) * cellSize * cellSize;
}

double kineticEnergy(const MacGrid &velocity, float cellSize)
{
    return kineticEnergy(velocity, cellSize, CellBox{{0, 0, 0}, velocity.cells()});
}

PlumeIntegrals plumeIntegrals(const Domain &domain, const ScalarGrid &density,
                              const MacGrid &velocity)
{
    PlumeIntegrals r = densityIntegrals(domain, density);
    PLUME_ASSERT(velocity.cells() == domain.cells,
                 "plume integrals: the velocity does not match the domain");
    if (velocity.cells() == domain.cells)
        r.kineticEnergy = kineticEnergy(velocity, domain.cellSize);
    return r;
}

const char *toString(Integral integral)
{
    switch (integral) {
    case Integral::TotalSmoke: return "total smoke";
    case Integral::FrontHeight: return "front";
    case Integral::CentroidX: return "centroid x";
    case Integral::CentroidY: return "centroid y";
    case Integral::CentroidZ: return "centroid z";
    case Integral::Spread: return "spread";
    case Integral::KineticEnergy: return "kinetic energy";
    case Integral::Profile: return "profile L1";
    }
    return "?";
}

double integralValue(const PlumeIntegrals &integrals, Integral integral)
{
    switch (integral) {
    case Integral::TotalSmoke: return integrals.totalSmoke;
    case Integral::FrontHeight: return integrals.frontHeight;
    case Integral::CentroidX: return integrals.centroid[0];
    case Integral::CentroidY: return integrals.centroid[1];
    case Integral::CentroidZ: return integrals.centroid[2];
    case Integral::Spread: return integrals.spread;
    case Integral::KineticEnergy: return integrals.kineticEnergy;
    case Integral::Profile: return 0.0;
    }
    return 0.0;
}

bool FrameCheck::inside() const
{
    return std::all_of(checks.begin(), checks.end(),
                       [](const IntegralCheck &c) { return c.inside; });
}

FrameCheck checkFrame(const Domain &domain, std::span<const PlumeIntegrals> members,
                      const PlumeIntegrals &candidate, const EnsembleTolerance &tolerance)
{
    FrameCheck out;
    const std::size_t count = members.size();
    PLUME_ASSERT(count >= 2, "plume integrals: an ensemble needs at least 2 members");
    if (count < 2) {
        for (IntegralCheck &c : out.checks)
            c.inside = false;
        return out;
    }
    const double m = tolerance.rangeMargin;
    for (int n = 0; n < kIntegralCount - 1; ++n) {
        const Integral integral = Integral(n);
        IntegralCheck &c = out.checks[std::size_t(n)];
        c.min = std::numeric_limits<double>::infinity();
        c.max = -c.min;
        double mean = 0;
        for (const PlumeIntegrals &p : members) {
            const double v = integralValue(p, integral);
            c.min = std::min(c.min, v);
            c.max = std::max(c.max, v);
            mean += v;
        }
        mean /= double(count);
        const double widen = m * (c.max - c.min)
                             + tolerance.relativeFloor * floorScale(domain, integral, mean);
        c.low = c.min - widen;
        c.high = c.max + widen;
        c.value = integralValue(candidate, integral);
        c.inside = c.value >= c.low && c.value <= c.high;
    }

    // The profile: leave-one-out L1 distances of the members, the candidate's to the mean.
    const std::size_t rows = candidate.profile.size();
    std::vector<double> sum(rows, 0.0);
    bool sameLength = true;
    for (const PlumeIntegrals &p : members) {
        sameLength = sameLength && p.profile.size() == rows;
        for (std::size_t j = 0; j < rows && j < p.profile.size(); ++j)
            sum[j] += p.profile[j];
    }
    IntegralCheck &c = out.checks[std::size_t(Integral::Profile)];
    PLUME_ASSERT(sameLength, "plume integrals: the profiles differ in length");
    if (!sameLength) {
        c.inside = false;
        return out;
    }
    std::vector<double> mean(rows), others(rows);
    for (std::size_t j = 0; j < rows; ++j)
        mean[j] = sum[j] / double(count);
    c.min = std::numeric_limits<double>::infinity();
    c.max = 0;
    for (const PlumeIntegrals &p : members) {
        for (std::size_t j = 0; j < rows; ++j)
            others[j] = (sum[j] - p.profile[j]) / double(count - 1);
        const double d = l1(p.profile, others);
        c.min = std::min(c.min, d);
        c.max = std::max(c.max, d);
    }
    c.low = 0;
    c.high = (1 + m) * c.max + tolerance.relativeFloor * floorScale(domain, Integral::Profile, 0);
    c.value = l1(candidate.profile, mean);
    c.inside = c.value <= c.high;
    return out;
}

EnsembleVerdict compareWithEnsemble(const Domain &domain,
                                    const std::vector<std::vector<PlumeIntegrals>> &members,
                                    const std::vector<PlumeIntegrals> &candidate,
                                    const EnsembleTolerance &tolerance)
{
    EnsembleVerdict verdict;
    if (members.size() < 2)
        return verdict;
    std::size_t reached = candidate.size();
    for (const std::vector<PlumeIntegrals> &run : members)
        reached = std::min(reached, run.size());
    const int first = std::max(1, tolerance.firstFrame);
    const int last = std::min(tolerance.lastFrame, int(reached));
    std::vector<PlumeIntegrals> frame(members.size());
    for (int f = first; f <= last; ++f) {
        for (std::size_t r = 0; r < members.size(); ++r)
            frame[r] = members[r][std::size_t(f - 1)];
        FrameCheck check = checkFrame(domain, frame, candidate[std::size_t(f - 1)], tolerance);
        check.frame = f;
        for (const IntegralCheck &c : check.checks)
            verdict.outside += c.inside ? 0 : 1;
        verdict.frames.push_back(check);
    }
    return verdict;
}

} // namespace plume::sim
