// SPDX-License-Identifier: Apache-2.0
#pragma once

// Contracts between the solver's own stages (docs/sanitizers.md, "PLUME_ASSERT").
//
// PLUME_ASSERT(condition, message): when PLUME_ENABLE_ASSERTS is defined (CMake option
// PLUME_ASSERTS: on in builds with tests and in sanitizer builds), a false condition prints
// "file:line: PLUME_ASSERT(condition) failed: message" to stderr and calls std::abort(): a
// broken internal contract in a test build, the one place Plume aborts. Without it the
// condition is not evaluated (Release products: compiled out, no cost).
//
// PLUME_ASSERT_OR_RETURN(condition, message): the same contract at the top of a stage that
// returns void. In a product build a broken contract returns at once (the stage leaves its
// grids as they are) instead of reading or writing past a grid; with asserts it aborts.
//
// `message` is a string literal that says which contract broke, e.g. "buoyancy: the grids do
// not match the domain". Neither macro changes what a stage computes when the contract holds.

#include <cstdio>
#include <cstdlib>

namespace plume::sim::detail {

/// Reports a broken contract and aborts (PLUME_ASSERT's failure path).
[[noreturn]] inline void assertFailed(const char *file, int line, const char *condition,
                                      const char *message) noexcept
{
    std::fprintf(stderr, "%s:%d: PLUME_ASSERT(%s) failed: %s\n", file, line, condition, message);
    std::fflush(stderr);
    std::abort();
}

} // namespace plume::sim::detail

#if defined(PLUME_ENABLE_ASSERTS)
#define PLUME_ASSERT(condition, message)                                                           \
    ((condition) ? void(0)                                                                         \
                 : ::plume::sim::detail::assertFailed(__FILE__, __LINE__, #condition, message))
#define PLUME_ASSERT_OR_RETURN(condition, message) PLUME_ASSERT(condition, message)
#else
#define PLUME_ASSERT(condition, message) static_cast<void>(sizeof(!(condition)))
#define PLUME_ASSERT_OR_RETURN(condition, message)                                                 \
    do {                                                                                           \
        if (!(condition))                                                                          \
            return;                                                                                \
    } while (false)
#endif

namespace plume::sim {

/// Whether PLUME_ASSERT is compiled in (tests that check an assert skip without it).
constexpr bool kAssertsEnabled =
#if defined(PLUME_ENABLE_ASSERTS)
    true;
#else
    false;
#endif

} // namespace plume::sim
