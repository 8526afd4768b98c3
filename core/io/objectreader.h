// SPDX-License-Identifier: Apache-2.0
#pragma once
// Internal to core/io: reading one JSON object of a scene file with typed getters that check
// each value against its Param range and record the first error as "<file>: <JSON path>:
// expected <what>, got <value>", and keys nobody read as warnings (kept for saving). The scene
// reader's section readers (scenereader.cpp) are built from these.

#include <core/io/jsonpath.h>
#include <core/io/readwarning.h>
#include <core/scene/animated.h>
#include <core/sim/base/param.h>
#include <core/sim/base/types.h>

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <cfloat>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define PLUME_READER_MXCSR 1
#endif

namespace plume::objectreader {

using sim::Param;
using sim::Vec3;

/// Denormal numbers (below 2.2e-308 as doubles, 1.2e-38 as floats), what rounds to them and -0
/// are read as 0, so a scene never holds one: solver kernels flush denormals to zero on their
/// thread (sim::enableFlushToZero), where Qt's JSON parser refuses a number like 1e-310,
/// float(1e-40) gives 0 and the writer writes them as 0; and "-0" would read back as 0. The
/// reader itself runs under KeepDenormals, so that a file reads the same on every thread.
template<class T>
T zeroIfDenormal(T v)
{
    return std::abs(v) < std::numeric_limits<T>::min() ? T(0) : v;
}

/// While alive, the calling thread keeps denormal numbers (no flush-to-zero, no
/// denormals-are-zero).
class KeepDenormals
{
public:
#ifdef PLUME_READER_MXCSR
    KeepDenormals()
        : mCsr(_mm_getcsr())
    {
        _mm_setcsr(mCsr & ~0x8040u);
    } // FTZ, DAZ bits
    ~KeepDenormals() { _mm_setcsr(mCsr); }

private:
    unsigned mCsr;
#endif
};

/// The file being read: its name, the first error, the warnings.
struct Context
{
    QString file;
    std::string directory;
    std::string error;
    std::vector<ReadWarning> warnings;

    bool failed() const { return !error.empty(); }
    /// Records a warning about `path`: "<file>: <path>: <what>".
    void warn(ReadWarningKind kind, const std::string &path, const std::string &what)
    {
        warnings.push_back({kind, path, where(path) + ": " + what});
    }
    std::string where(const std::string &path) const
    {
        return file.toStdString() + ": " + (path.empty() ? std::string("(top level)") : path);
    }
    /// Records the first error: "<file>: <path>: expected <what>, got <value>".
    void fail(const std::string &path, const std::string &expected, const QJsonValue &got)
    {
        if (!failed())
            error = where(path) + ": expected " + expected + ", got " + describeJson(got);
    }
    void failMessage(const std::string &path, const std::string &message)
    {
        if (!failed())
            error = where(path) + ": " + message;
    }
};

/// Reads one JSON object: typed getters with ranges, tracking which keys were read; the rest
/// are unknown keys, returned by finish() and reported as warnings.
class ObjectReader
{
public:
    ObjectReader(Context &ctx, const QJsonValue &value, std::string path)
        : mCtx(ctx)
        , mPath(std::move(path))
    {
        if (!value.isObject())
            mCtx.fail(mPath, "an object", value);
        mObject = value.toObject();
    }

    bool ok() const { return !mCtx.failed(); }
    Context &context() { return mCtx; }
    std::string path(const char *key) const { return mPath.empty() ? key : mPath + "." + key; }
    bool has(const char *key) const { return mObject.contains(QLatin1String(key)); }

    /// The value of `key` (undefined when missing), now counted as known.
    QJsonValue take(const char *key)
    {
        mKnown.insert(QString::fromLatin1(key));
        return mObject.value(QLatin1String(key));
    }

    void require(const char *key)
    {
        if (ok() && !has(key))
            mCtx.failMessage(path(key), "missing; this key is required");
    }

    /// A number (float, double) or integer (int, std::uint32_t) within `p`, at `p.key`.
    template<class T>
    void number(const Param &p, T &out)
    {
        if (ok() && has(p.key))
            readNumber(take(p.key), path(p.key), out, p);
    }

    void boolean(const char *key, bool &out)
    {
        if (!ok() || !has(key))
            return;
        const QJsonValue v = take(key);
        if (!v.isBool())
            return mCtx.fail(path(key), "true or false", v);
        out = v.toBool();
    }

    void string(const char *key, std::string &out, bool nonEmpty)
    {
        if (!ok() || !has(key))
            return;
        const QJsonValue v = take(key);
        if (!v.isString() || (nonEmpty && v.toString().isEmpty()))
            return mCtx.fail(path(key), nonEmpty ? "a non-empty string" : "a string", v);
        out = v.toString().toStdString();
    }

    /// [x, y, z], or [x, y] keeping out.z; each component within `p`.
    void vec3(const Param &p, Vec3 &out)
    {
        if (ok() && has(p.key))
            readVec3(take(p.key), path(p.key), out, p);
    }

    template<class E, std::size_t N>
    void enumeration(const char *key, E &out, const sim::EnumNames<E, N> &names)
    {
        if (!ok() || !has(key))
            return;
        const QJsonValue v = take(key);
        if (!v.isString() || !names.parse(v.toString().toStdString(), out))
            mCtx.fail(path(key), names.expected(), v);
    }

    /// Unknown keys (kept for saving), each reported as a warning.
    QJsonObject finish()
    {
        QJsonObject extra;
        if (!ok())
            return extra;
        for (auto it = mObject.begin(); it != mObject.end(); ++it) {
            if (mKnown.count(it.key()))
                continue;
            extra.insert(it.key(), it.value());
            mCtx.warn(ReadWarningKind::UnknownKey, path(qPrintable(it.key())),
                      "unknown key (from a newer version?) kept as is");
        }
        return extra;
    }

    bool readNumber(const QJsonValue &v, const std::string &at, double &out, const Param &range)
    {
        const double d = zeroIfDenormal(v.toDouble());
        if (!v.isDouble() || !range.contains(d)) {
            mCtx.fail(at, range.describe(), v);
            return false;
        }
        out = d;
        return true;
    }

    template<class I, class = std::enable_if_t<std::is_integral_v<I>>>
    bool readNumber(const QJsonValue &v, const std::string &at, I &out, const Param &range)
    {
        Param whole = range;
        whole.integer = true;
        double d = 0.0;
        if (!readNumber(v, at, d, whole))
            return false;
        out = I(d);
        return true;
    }

    bool readNumber(const QJsonValue &v, const std::string &at, float &out, const Param &range)
    {
        double d = 0.0;
        if (!readNumber(v, at, d, range))
            return false;
        if (std::abs(d) > double(FLT_MAX)) {
            mCtx.fail(at, "a number of magnitude at most 3.4e38 (32-bit float)", v);
            return false;
        }
        // A tiny number becomes 0 as a float: the float that is stored must lie in the range
        // as well.
        const float f = zeroIfDenormal(float(d));
        if (!range.contains(double(f))) {
            mCtx.fail(at,
                      range.describe() + " as a 32-bit float (this one is "
                          + formatJsonNumber(double(f)) + " as a float)",
                      v);
            return false;
        }
        out = f;
        return true;
    }

    bool readVec3(const QJsonValue &v, const std::string &at, Vec3 &out, const Param &range)
    {
        const QJsonArray a = v.toArray();
        if (!v.isArray() || a.size() < 2 || a.size() > 3) {
            mCtx.fail(at, "an array of 2 or 3 numbers ([x, y] or [x, y, z])", v);
            return false;
        }
        Vec3 result = out;
        for (int c = 0; c < int(a.size()); ++c) {
            if (!readNumber(a[c], at + "[" + std::to_string(c) + "]", result[c], range))
                return false;
        }
        out = result;
        return true;
    }

private:
    Context &mCtx;
    std::string mPath;
    QJsonObject mObject;
    std::set<QString> mKnown;
};

/// Reads a value of T (float or Vec3) at `at` from a plain JSON value.
inline bool readValue(ObjectReader &r, const QJsonValue &v, const std::string &at, float &out,
                      const Param &range)
{
    return r.readNumber(v, at, out, range);
}

inline bool readValue(ObjectReader &r, const QJsonValue &v, const std::string &at, Vec3 &out,
                      const Param &range)
{
    return r.readVec3(v, at, out, range);
}

/// An animated value: a plain value, or {"interpolation", "keys": [{"frame", "value"}]}.
template<class T>
void readAnimated(ObjectReader &parent, const Param &range, Animated<T> &out)
{
    const char *key = range.key;
    if (!parent.ok() || !parent.has(key))
        return;
    const QJsonValue v = parent.take(key);
    const std::string at = parent.path(key);
    if (!v.isObject()) {
        T value = out.value;
        if (readValue(parent, v, at, value, range)) {
            out.value = value;
            out.keys.clear();
        }
        return;
    }
    ObjectReader r(parent.context(), v, at);
    r.enumeration("interpolation", out.interpolation, kInterpolationNames);
    r.require("keys");
    const QJsonValue keys = r.take("keys");
    if (!r.ok())
        return;
    if (!keys.isArray() || keys.toArray().isEmpty())
        return r.context().fail(r.path("keys"), "a non-empty array of {\"frame\", \"value\"}",
                                keys);
    out.keys.clear();
    const QJsonArray array = keys.toArray();
    for (int n = 0; n < int(array.size()) && r.ok(); ++n) {
        const std::string keyPath = r.path("keys") + "[" + std::to_string(n) + "]";
        ObjectReader k(r.context(), array[n], keyPath);
        Key<T> key;
        key.value = out.value;
        k.require("frame");
        k.require("value");
        k.number(Param{.key = "frame"}, key.frame);
        if (k.ok() && !out.keys.empty() && !(key.frame > out.keys.back().frame)) {
            const Param after = Param::above(out.keys.back().frame, false);
            return k.context().fail(k.path("frame"),
                                    after.describe("frame") + " (keys are sorted by frame)",
                                    array[n].toObject().value("frame"));
        }
        if (k.ok())
            readValue(k, k.take("value"), k.path("value"), key.value, range);
        key.extra = k.finish();
        out.keys.push_back(std::move(key));
    }
    out.extra = r.finish();
}

} // namespace plume::objectreader
