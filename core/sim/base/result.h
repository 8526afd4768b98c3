// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/sim/base/types.h>

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace plume::sim {

/// A value, or why there is none: what a function that makes something and can fail returns
/// (one that makes nothing returns a Status). Library code's one convention for failure: no
/// null pointer, no bool with an error out-parameter. Made from a value, or from a failed
/// Status (`return Status::failure("...")`).
template<class T>
class Result
{
public:
    Result(T value)
        : mValue(std::move(value))
    {}
    /// A value convertible to T (a std::unique_ptr of a derived class).
    template<
        class U,
        class = std::enable_if_t<
            std::is_convertible_v<
                U &&,
                T> && !std::is_same_v<std::decay_t<U>, T> && !std::is_same_v<std::decay_t<U>, Status>>>
    Result(U &&value)
        : mValue(T(std::forward<U>(value)))
    {}
    /// A failure; a Status without a message still fails.
    Result(Status failure)
        : mError(failure.error.empty() ? std::string("failed") : std::move(failure.error))
    {}

    bool ok() const { return mValue.has_value(); }
    explicit operator bool() const { return ok(); }
    /// Why there is no value; empty when there is one.
    const std::string &error() const { return mError; }
    Status status() const { return ok() ? Status::success() : Status::failure(mError); }

    /// The value itself (the pointer, for a pointer); only when ok().
    T &value() & { return *mValue; }
    const T &value() const & { return *mValue; }
    /// The value; for a pointer (std::unique_ptr, std::shared_ptr) the pointee, so that a
    /// Result of a pointer reads like the pointer it holds: `createSolver(d, p)->step(dt)`.
    decltype(auto) operator*() &
    {
        if constexpr (kPointer)
            return **mValue;
        else
            return *mValue;
    }
    decltype(auto) operator*() const &
    {
        if constexpr (kPointer)
            return **mValue;
        else
            return *mValue;
    }
    /// The value's members; for a pointer, the pointee's.
    decltype(auto) operator->()
    {
        if constexpr (kPointer)
            return (*mValue);
        else
            return &*mValue;
    }
    decltype(auto) operator->() const
    {
        if constexpr (kPointer)
            return (*mValue);
        else
            return &*mValue;
    }
    /// Moves the value out; only when ok().
    T take() { return std::move(*mValue); }

private:
    static constexpr bool kPointer = requires(T & t) { t.operator->(); };

    std::optional<T> mValue;
    std::string mError;
};

} // namespace plume::sim
