// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/types.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <vector>

namespace plume::sim {

/// Sets flush-to-zero and denormals-are-zero on the calling thread. The setting is per thread,
/// so every kernel chunk calls it: denormal floats otherwise cost up to a third of the time.
void enableFlushToZero();

/// While alive, kernels started from this thread run serially on it (no TBB tasks). Tests use
/// it to prove that serial and parallel runs give the same bytes.
class SerialScope
{
public:
    SerialScope();
    ~SerialScope();
    SerialScope(const SerialScope &) = delete;
    SerialScope &operator=(const SerialScope &) = delete;

private:
    bool mPrevious;
};

/// True when the calling thread is inside a SerialScope.
bool serialRequested();

/// While alive, kernels anywhere in the process run on at most `threads` threads (0 or less: no
/// limit): plume-cli's --threads. The newest limit wins while it lives (TBB's global control,
/// behind this file's door like every other use of oneTBB).
class ThreadLimit
{
public:
    explicit ThreadLimit(int threads);
    ~ThreadLimit();
    ThreadLimit(const ThreadLimit &) = delete;
    ThreadLimit &operator=(const ThreadLimit &) = delete;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

/// Kernels started inside run() use at most `threads` threads (0 or less: all cores), for
/// one caller among others in the same process (the Python module's simulations and bakes):
/// a TBB task arena.
class ThreadArena
{
public:
    explicit ThreadArena(int threads);
    ~ThreadArena();
    ThreadArena(const ThreadArena &) = delete;
    ThreadArena &operator=(const ThreadArena &) = delete;

    /// Runs `work` on the calling thread inside the arena; returns when it is done.
    void run(const std::function<void()> &work) const;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

namespace detail {
/// Calls chunk(context, begin, end) for chunks of the row range [0, rows) on TBB's threads
/// (parallel.cpp, so that TBB's headers and its partitioner live in one place).
void runRowChunks(std::int64_t rows, void (*chunk)(void *, std::int64_t, std::int64_t),
                  void *context);

/// Calls rowBody(begin, end) for chunks of the row range [0, rows); serially or with TBB.
template<class F>
void forRowChunks(std::int64_t rows, F &&rowBody)
{
    if (rows <= 0)
        return;
    if (serialRequested() || rows == 1) {
        enableFlushToZero();
        rowBody(std::int64_t(0), rows);
        return;
    }
    using Body = std::remove_reference_t<F>;
    runRowChunks(
        rows,
        [](void *body, std::int64_t b, std::int64_t e) { (*static_cast<Body *>(body))(b, e); },
        const_cast<void *>(static_cast<const void *>(std::addressof(rowBody))));
}
} // namespace detail

/// Runs body(j, k) once for every row of a box of `size` (rows are x-lines: j in [0, size.y),
/// k in [0, size.z)). The body loops over i itself. Rows run in parallel; every row must write
/// only its own outputs, so the result never depends on the thread count.
template<class F>
void forEachRow(Int3 size, F &&body)
{
    const std::int64_t ny = size.y;
    detail::forRowChunks(std::int64_t(size.y) * size.z, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t r = b; r < e; ++r)
            body(int(r % ny), int(r / ny));
    });
}

/// Whether a box is too small to be worth starting tasks for kernels of a few operations per
/// cell (the coarse multigrid levels): under 8192 cells. Such kernels run it in a SerialScope;
/// rows compute the same bits either way.
inline bool tooSmallForTasks(Int3 size) { return std::int64_t(size.x) * size.y * size.z < 8192; }

/// forEachRow for kernels of a few operations per cell: small boxes stay on the calling thread.
template<class F>
void forEachRowLight(Int3 size, F &&body)
{
    if (!tooSmallForTasks(size)) {
        forEachRow(size, body);
        return;
    }
    SerialScope serial;
    forEachRow(size, body);
}

/// Runs body(k) for every z-slab k in [0, nz). For kernels whose work items are whole slabs.
template<class F>
void forEachSlab(int nz, F &&body)
{
    detail::forRowChunks(nz, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t k = b; k < e; ++k)
            body(int(k));
    });
}

/// Runs body(n) for every n in [0, count): coarse, independent jobs such as a checkpoint's
/// compressed chunks, each its own work item.
template<class F>
void forEachJob(std::int64_t count, F &&body)
{
    detail::forRowChunks(count, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t n = b; n < e; ++n)
            body(n);
    });
}

/// Runs body(n) for every n in [0, count), in parallel chunks (flat loops over arrays).
template<class F>
void forEachIndex(std::int64_t count, F &&body)
{
    constexpr std::int64_t kChunk = 4096;
    const std::int64_t chunks = (count + kChunk - 1) / kChunk;
    detail::forRowChunks(chunks, [&](std::int64_t b, std::int64_t e) {
        const std::int64_t end = std::min(count, e * kChunk);
        for (std::int64_t n = b * kChunk; n < end; ++n)
            body(n);
    });
}

/// Ordered sum over rows: rowSum(j, k) returns the row's partial sum (computed left to right),
/// and the partials are added in row order. The result is the same with any thread count.
template<class F>
double sumRows(Int3 size, F &&rowSum)
{
    const std::int64_t ny = size.y;
    const std::int64_t rows = std::int64_t(size.y) * size.z;
    std::vector<double> partial(std::size_t(rows > 0 ? rows : 0), 0.0);
    detail::forRowChunks(rows, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t r = b; r < e; ++r)
            partial[std::size_t(r)] = rowSum(int(r % ny), int(r / ny));
    });
    double total = 0.0;
    for (double p : partial)
        total += p;
    return total;
}

/// Largest of rowMax(j, k) over all rows (order-independent), or `initial` for an empty box.
template<class F>
double maxRows(Int3 size, F &&rowMax, double initial = 0.0)
{
    const std::int64_t ny = size.y;
    const std::int64_t rows = std::int64_t(size.y) * size.z;
    std::vector<double> partial(std::size_t(rows > 0 ? rows : 0), initial);
    detail::forRowChunks(rows, [&](std::int64_t b, std::int64_t e) {
        for (std::int64_t r = b; r < e; ++r)
            partial[std::size_t(r)] = rowMax(int(r % ny), int(r / ny));
    });
    double m = initial;
    for (double p : partial)
        m = p > m ? p : m;
    return m;
}

} // namespace plume::sim
