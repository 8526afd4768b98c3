// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/parallel.h>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <optional>

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define PLUME_HAVE_MXCSR 1
#endif

namespace plume::sim {

namespace {
thread_local bool tSerial = false;
}

void enableFlushToZero()
{
#ifdef PLUME_HAVE_MXCSR
    // FTZ (bit 15) and DAZ (bit 6).
    constexpr unsigned kFtzDaz = 0x8040u;
    const unsigned csr = _mm_getcsr();
    if ((csr & kFtzDaz) != kFtzDaz)
        _mm_setcsr(csr | kFtzDaz);
#endif
}

SerialScope::SerialScope()
    : mPrevious(tSerial)
{
    tSerial = true;
}

SerialScope::~SerialScope() { tSerial = mPrevious; }

bool serialRequested() { return tSerial; }

struct ThreadLimit::Impl
{
    std::optional<oneapi::tbb::global_control> control;
};

ThreadLimit::ThreadLimit(int threads)
    : d(std::make_unique<Impl>())
{
    if (threads > 0)
        d->control.emplace(oneapi::tbb::global_control::max_allowed_parallelism,
                           std::size_t(threads));
}

ThreadLimit::~ThreadLimit() = default;

struct ThreadArena::Impl
{
    mutable oneapi::tbb::task_arena arena;
    explicit Impl(int threads)
        : arena(threads > 0 ? threads : oneapi::tbb::task_arena::automatic)
    {}
};

ThreadArena::ThreadArena(int threads)
    : d(std::make_unique<Impl>(threads))
{}

ThreadArena::~ThreadArena() = default;

void ThreadArena::run(const std::function<void()> &work) const { d->arena.execute(work); }

namespace detail {

void runRowChunks(std::int64_t rows, void (*chunk)(void *, std::int64_t, std::int64_t),
                  void *context)
{
    oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::int64_t>(0, rows),
                              [&](const oneapi::tbb::blocked_range<std::int64_t> &r) {
        enableFlushToZero();
        chunk(context, r.begin(), r.end());
    });
}

} // namespace detail

} // namespace plume::sim
