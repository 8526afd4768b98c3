// SPDX-License-Identifier: Apache-2.0
#pragma once

// Whether this test runs under ThreadSanitizer (scripts/run-tests --sanitize=thread), where every
// memory access costs 40 to 50 times what it costs in the Release build. There the heaviest cases
// take fewer steps or smaller grids: the same kernels on the same threads, which is what TSan
// checks. Their figures are checked at full size by the Release and ASan stages of CI, which run
// every case as written (docs/sanitizers.md).

namespace plume::test {

#if defined(__SANITIZE_THREAD__)
inline constexpr bool kThreadSanitizer = true;
#else
inline constexpr bool kThreadSanitizer = false;
#endif

/// `full` in an ordinary build, `reduced` under ThreadSanitizer.
template<class T>
constexpr T fullOrUnderTsan(T full, T reduced)
{
    return kThreadSanitizer ? reduced : full;
}

} // namespace plume::test
