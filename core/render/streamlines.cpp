// SPDX-License-Identifier: Apache-2.0
#include <core/render/streamlines.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace plume {

namespace {

/// A point in cell coordinates (cell (i, j) spans [i, i+1) x [j, j+1)).
struct P
{
    float x = 0.f;
    float y = 0.f;
};

P operator+(P a, P b) { return {a.x + b.x, a.y + b.y}; }
P operator*(P a, float s) { return {a.x * s, a.y * s}; }
float distance(P a, P b) { return std::hypot(a.x - b.x, a.y - b.y); }

/// Points in buckets of one d_sep, for "is any point within r (<= d_sep) of p?". Each point
/// carries its arc position along its line, so a line can ignore its own nearby part.
class PointGrid
{
public:
    PointGrid(sim::Int3 cells, float bucket)
        : mBucket(bucket)
        , mNx(std::max(1, int(std::ceil(float(cells.x) / bucket))))
        , mNy(std::max(1, int(std::ceil(float(cells.y) / bucket))))
        , mBuckets(std::size_t(mNx) * std::size_t(mNy))
    {}

    void add(P p, float arc)
    {
        const std::size_t b = bucketOf(p);
        if (mBuckets[b].empty())
            mUsed.push_back(b);
        mBuckets[b].push_back({p, arc});
    }

    /// Whether a point closer than r to p exists, leaving out points whose arc position is
    /// within `skip` of `arc` (skip < 0: none left out).
    bool near(P p, float r, float arc = 0.f, float skip = -1.f) const
    {
        const int bi = column(p.x), bj = row(p.y);
        const float r2 = r * r;
        for (int j = std::max(0, bj - 1); j <= std::min(mNy - 1, bj + 1); ++j)
            for (int i = std::max(0, bi - 1); i <= std::min(mNx - 1, bi + 1); ++i)
                for (const Entry &e : mBuckets[std::size_t(i) + std::size_t(mNx) * j]) {
                    const float dx = e.p.x - p.x, dy = e.p.y - p.y;
                    if (dx * dx + dy * dy < r2 && (skip < 0.f || std::abs(e.arc - arc) >= skip))
                        return true;
                }
        return false;
    }

    void clear()
    {
        for (std::size_t b : mUsed)
            mBuckets[b].clear();
        mUsed.clear();
    }

private:
    struct Entry
    {
        P p;
        float arc;
    };
    int column(float x) const { return std::clamp(int(std::floor(x / mBucket)), 0, mNx - 1); }
    int row(float y) const { return std::clamp(int(std::floor(y / mBucket)), 0, mNy - 1); }
    std::size_t bucketOf(P p) const
    {
        return std::size_t(column(p.x)) + std::size_t(mNx) * row(p.y);
    }

    float mBucket;
    int mNx;
    int mNy;
    std::vector<std::vector<Entry>> mBuckets;
    std::vector<std::size_t> mUsed;
};

/// The velocity field in cell coordinates: bilinear between cell centres, clamped at the edges.
struct Flow
{
    const sim::ScalarGrid &u;
    const sim::ScalarGrid &v;
    const sim::FlagGrid *solids;
    int nx;
    int ny;

    P velocity(P p) const
    {
        const float fx = std::clamp(p.x - 0.5f, 0.f, float(nx - 1));
        const float fy = std::clamp(p.y - 0.5f, 0.f, float(ny - 1));
        const int i0 = std::min(int(fx), nx - 1), j0 = std::min(int(fy), ny - 1);
        const int i1 = std::min(i0 + 1, nx - 1), j1 = std::min(j0 + 1, ny - 1);
        const float tx = fx - float(i0), ty = fy - float(j0);
        auto lerp2 = [&](const sim::ScalarGrid &g) {
            const float a = g(i0, j0, 0) + tx * (g(i1, j0, 0) - g(i0, j0, 0));
            const float b = g(i0, j1, 0) + tx * (g(i1, j1, 0) - g(i0, j1, 0));
            return a + ty * (b - a);
        };
        return {lerp2(u), lerp2(v)};
    }
    bool inside(P p) const
    {
        return p.x >= 0.f && p.y >= 0.f && p.x <= float(nx) && p.y <= float(ny);
    }
    bool solid(P p) const
    {
        if (!solids)
            return false;
        const int i = std::clamp(int(std::floor(p.x)), 0, nx - 1);
        const int j = std::clamp(int(std::floor(p.y)), 0, ny - 1);
        return solids->isSolid(i, j, 0);
    }
};

class Tracer
{
public:
    Tracer(const Flow &flow, const StreamlineOptions &o, sim::Int3 cells)
        : mFlow(flow)
        , mOptions(o)
        , mSep(o.separation)
        , mTest(o.separation * o.testRatio)
        , mOthers(cells, o.separation)
        , mOwn(cells, o.separation)
    {}

    /// Seeds a line at p when p is a valid seed; true when a line was added.
    bool trySeed(P p, std::vector<std::vector<P>> &lines, std::vector<char> &closed)
    {
        if (!mFlow.inside(p) || mFlow.solid(p) || !direction(p) || mOthers.near(p, 0.999f * mSep))
            return false;
        bool isClosed = false;
        std::vector<P> line = trace(p, isClosed);
        if (float(line.size() - 1) * mOptions.step < mTest)
            return false;
        for (const P &q : line)
            mOthers.add(q, 0.f);
        lines.push_back(std::move(line));
        closed.push_back(isClosed);
        return true;
    }

private:
    /// The unit flow direction at p, or none where the flow stagnates.
    std::optional<P> direction(P p) const
    {
        const P w = mFlow.velocity(p);
        const float s = std::hypot(w.x, w.y);
        if (!(s >= mOptions.minSpeed) || s == 0.f)
            return std::nullopt;
        return P{w.x / s, w.y / s};
    }

    /// One RK4 step of arc length h (negative: against the flow).
    std::optional<P> step(P p, float h) const
    {
        const auto k1 = direction(p);
        if (!k1)
            return std::nullopt;
        const auto k2 = direction(p + *k1 * (0.5f * h));
        if (!k2)
            return std::nullopt;
        const auto k3 = direction(p + *k2 * (0.5f * h));
        if (!k3)
            return std::nullopt;
        const auto k4 = direction(p + *k3 * h);
        if (!k4)
            return std::nullopt;
        return p + (*k1 + *k2 * 2.f + *k3 * 2.f + *k4) * (h / 6.f);
    }

    /// The line through `seed`, traced forward then backward, in flow order.
    std::vector<P> trace(P seed, bool &closed)
    {
        const float h = mOptions.step;
        mOwn.clear();
        mOwn.add(seed, 0.f);
        std::vector<P> halves[2];
        closed = false;
        for (int side = 0; side < 2 && !closed; ++side) {
            const float sign = side == 0 ? 1.f : -1.f;
            P p = seed;
            float arc = 0.f;
            bool closing = false; // forward, near the seed again after a loop
            float lastToSeed = 0.f;
            for (int k = 0; k < mOptions.maxSteps; ++k) {
                const auto q = step(p, sign * h);
                if (!q || !mFlow.inside(*q) || mFlow.solid(*q) || !direction(*q))
                    break;
                arc += h;
                const float toSeed = distance(*q, seed);
                if (side == 0 && !closing && arc > 4.f * mTest && toSeed < mTest)
                    closing = true;
                else if (closing && toSeed > lastToSeed)
                    break; // passes by the seed without meeting it: a spiral
                lastToSeed = toSeed;
                if (closing && toSeed < h) {
                    halves[0].push_back(seed);
                    closed = true;
                    break;
                }
                if (mOthers.near(*q, mTest))
                    break;
                if (!closing && mOwn.near(*q, mTest, sign * arc, 3.f * mTest))
                    break;
                mOwn.add(*q, sign * arc);
                halves[side].push_back(*q);
                p = *q;
            }
        }
        std::vector<P> line(halves[1].rbegin(), halves[1].rend());
        line.push_back(seed);
        line.insert(line.end(), halves[0].begin(), halves[0].end());
        return line;
    }

    const Flow &mFlow;
    const StreamlineOptions &mOptions;
    float mSep;
    float mTest;
    PointGrid mOthers; ///< every point of the lines kept so far
    PointGrid mOwn;    ///< the line being traced
};

} // namespace

StreamlineOptions viewStreamlineOptions(sim::Int3 cells)
{
    StreamlineOptions o;
    o.separation = std::max(1.5f, float(std::max(cells.x, cells.y)) / 40.f);
    o.step = std::clamp(0.25f * o.separation, 0.5f, 1.f);
    return o;
}

std::vector<Streamline> computeStreamlines(const sim::ScalarGrid &u, const sim::ScalarGrid &v,
                                           const sim::FlagGrid *solids, const sim::Domain &domain,
                                           const StreamlineOptions &options)
{
    const sim::Int3 n = domain.cells;
    const bool usable = n.x > 0 && n.y > 0 && u.size().x == n.x && u.size().y == n.y
                        && v.size().x == n.x && v.size().y == n.y && u.count() > 0 && v.count() > 0;
    if (!usable || !(options.separation > 0.f) || !(options.testRatio > 0.f)
        || !(options.step > 0.f) || options.maxSteps < 1)
        return {};
    if (solids && (solids->size().x != n.x || solids->size().y != n.y))
        solids = nullptr;
    const Flow flow{u, v, solids, n.x, n.y};
    Tracer tracer(flow, options, n);
    std::vector<std::vector<P>> lines;
    std::vector<char> closed;
    const float sep = options.separation;
    // Seeds beside the lines found so far, in order; `next` is the first line not yet used.
    std::size_t next = 0;
    // Seeds every quarter d_sep along a line: closer ones would find the same gaps.
    const std::size_t every = std::size_t(std::max(1.f, 0.25f * sep / options.step));
    auto seedBesideLines = [&] {
        for (; next < lines.size(); ++next)
            for (std::size_t k = 0; k < lines[next].size(); k += every) {
                const std::vector<P> &line = lines[next];
                const P a = line[k == 0 ? 0 : k - 1];
                const P b = line[std::min(k + 1, line.size() - 1)];
                const float len = distance(a, b);
                if (len <= 0.f)
                    continue;
                const P normal{-(b.y - a.y) / len, (b.x - a.x) / len};
                // `lines` may grow inside: read the point before seeding.
                const P p = line[k];
                tracer.trySeed(p + normal * sep, lines, closed);
                tracer.trySeed(p + normal * -sep, lines, closed);
            }
    };
    for (float y = 0.5f * sep; y < float(n.y); y += sep)
        for (float x = 0.5f * sep; x < float(n.x); x += sep)
            if (tracer.trySeed({x, y}, lines, closed))
                seedBesideLines();

    std::vector<Streamline> out(lines.size());
    for (std::size_t l = 0; l < lines.size(); ++l) {
        Streamline &s = out[l];
        s.closed = closed[l];
        s.points.reserve(lines[l].size());
        s.speeds.reserve(lines[l].size());
        for (const P &p : lines[l]) {
            const P w = flow.velocity(p);
            s.points.push_back(domain.toWorld({p.x, p.y, 0.f}));
            s.points.back().z = domain.origin.z;
            s.speeds.push_back(std::hypot(w.x, w.y));
        }
    }
    return out;
}

} // namespace plume
