// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/parallel.h>

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>

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
