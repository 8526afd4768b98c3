// SPDX-License-Identifier: Apache-2.0
#include <ui/simulation/framefile.h>

#include <blosc.h>

#include <algorithm>
#include <cstring>

namespace plume {

namespace {

constexpr std::uint32_t kMagic = 0x52464c50; // "PLFR"
constexpr std::uint32_t kVersion = 4;        // 2: ocean fields, texture offsets; 3: sph particles;
                                             // 4: the adaptive domain's active share
constexpr int kLevel = 5;               ///< Blosc level: fast, and smoke's empty space packs well
constexpr int kDecodeThreads = 2;       ///< reading happens while the user waits
constexpr std::int64_t kMaxSide = 4096; ///< sanity bound on a grid side read from a file
constexpr std::uint64_t kMaxParticleFloats = std::uint64_t(4) << 28; ///< likewise, particles

class Writer
{
public:
    template<class T>
    void put(const T &value)
    {
        mOut.append(reinterpret_cast<const char *>(&value), qsizetype(sizeof(T)));
    }

    /// Raw size, compressed size, compressed bytes.
    bool putCompressed(const void *data, std::size_t bytes, std::size_t typeSize)
    {
        put(std::uint64_t(bytes));
        const qsizetype at = mOut.size();
        put(std::uint64_t(0));
        if (bytes == 0)
            return true;
        if (bytes > std::size_t(BLOSC_MAX_BUFFERSIZE))
            return false;
        mOut.resize(at + 8 + qsizetype(bytes) + BLOSC_MAX_OVERHEAD);
        const int n = blosc_compress_ctx(kLevel, BLOSC_SHUFFLE, typeSize, bytes, data,
                                         mOut.data() + at + 8, bytes + BLOSC_MAX_OVERHEAD, "lz4", 0,
                                         1);
        if (n <= 0)
            return false;
        const std::uint64_t compressed = std::uint64_t(n);
        std::memcpy(mOut.data() + at, &compressed, 8);
        mOut.resize(at + 8 + n);
        return true;
    }

    bool putGrid(const sim::ScalarGrid &g)
    {
        put(g.size());
        put(g.offset());
        return putCompressed(g.data(), g.count() * sizeof(float), sizeof(float));
    }

    bool putFlags(const sim::FlagGrid &g)
    {
        put(g.size());
        return putCompressed(g.data(), g.count(), 1);
    }

    QByteArray take() { return std::move(mOut); }

private:
    QByteArray mOut;
};

class Reader
{
public:
    explicit Reader(QByteArrayView bytes)
        : mBytes(bytes)
    {}

    template<class T>
    bool get(T &value)
    {
        if (std::size_t(mBytes.size()) - mAt < sizeof(T))
            return false;
        std::memcpy(&value, mBytes.data() + mAt, sizeof(T));
        mAt += sizeof(T);
        return true;
    }

    bool getCompressed(void *out, std::size_t bytes)
    {
        std::uint64_t raw = 0, compressed = 0;
        if (!get(raw) || !get(compressed) || raw != bytes)
            return false;
        if (bytes == 0)
            return compressed == 0;
        if (compressed > std::size_t(mBytes.size()) - mAt || compressed < BLOSC_MIN_HEADER_LENGTH)
            return false;
        const char *src = mBytes.data() + mAt;
        std::size_t nbytes = 0, cbytes = 0, blocksize = 0;
        blosc_cbuffer_sizes(src, &nbytes, &cbytes, &blocksize);
        if (nbytes != bytes || cbytes != compressed)
            return false;
        if (blosc_decompress_ctx(src, out, bytes, kDecodeThreads) != int(bytes))
            return false;
        mAt += compressed;
        return true;
    }

    bool getGrid(sim::ScalarGrid &g)
    {
        sim::Int3 n;
        sim::Vec3 offset;
        if (!get(n) || !get(offset) || !sane(n))
            return false;
        g.reshape(n, offset);
        return getCompressed(g.data(), g.count() * sizeof(float));
    }

    bool getFlags(sim::FlagGrid &g)
    {
        sim::Int3 n;
        if (!get(n) || !sane(n))
            return false;
        g.reshape(n);
        return getCompressed(g.data(), g.count());
    }

    bool atEnd() const { return mAt == std::size_t(mBytes.size()); }

private:
    static bool sane(sim::Int3 n)
    {
        for (int a = 0; a < 3; ++a)
            if (n[a] < 0 || n[a] > kMaxSide)
                return false;
        return std::int64_t(n.x) * n.y * n.z <= sim::Domain::kDefaultMaxCells * 2;
    }

    QByteArrayView mBytes;
    std::size_t mAt = 0;
};

/// The z-slice `k` of a 3D grid (an empty grid stays empty).
sim::ScalarGrid zSlice(const sim::ScalarGrid &full, int k)
{
    sim::ScalarGrid out;
    const sim::Int3 n = full.size();
    if (full.count() == 0)
        return out;
    out.reshape({n.x, n.y, 1}, full.offset());
    std::copy_n(full.data() + full.strideZ() * std::size_t(k), full.strideZ(), out.data());
    return out;
}

} // namespace

QByteArray encodeFrame(const FrameData &frame, std::uint64_t tag)
{
    Writer w;
    w.put(kMagic);
    w.put(kVersion);
    w.put(tag);
    w.put(std::int32_t(frame.frame));
    w.put(frame.time);
    w.put(frame.domain.cells);
    w.put(frame.domain.cellSize);
    w.put(frame.domain.origin);
    w.put(frame.domain.boundaries);
    w.put(frame.msPerStep);
    w.put(frame.activeShare);
    w.put(std::int32_t(frame.substeps));
    w.put(std::int32_t(frame.pressureIterations));
    w.put(frame.pressureResidual);
    w.put(std::uint32_t(frame.pressureTrouble.size()));
    for (char c : frame.pressureTrouble)
        w.put(c);
    for (int f = 0; f < int(DisplayField::Count); ++f) {
        w.put(frame.minimum[f]);
        w.put(frame.maximum[f]);
    }
    const FrameVolume *volume = frame.volume.get();
    w.put(std::uint8_t(volume ? 1 : 0));
    for (int f = 0; f < int(DisplayField::Count); ++f)
        if (!w.putGrid(volume ? volume->fields[f] : frame.fields[f]))
            return {};
    if (!w.putFlags(volume ? volume->solids : frame.solids))
        return {};
    w.put(frame.particleRadius);
    w.put(frame.maxParticleSpeed);
    w.put(std::uint64_t(frame.particles.size()));
    if (!w.putCompressed(frame.particles.data(), frame.particles.size() * sizeof(float),
                         sizeof(float)))
        return {};
    return w.take();
}

FramePtr decodeFrame(QByteArrayView bytes, std::uint64_t tag, int frameNumber, std::string *error)
{
    auto failed = [error](const char *why) {
        if (error)
            *error = why;
        return nullptr;
    };
    Reader r(bytes);
    std::uint32_t magic = 0, version = 0;
    std::uint64_t fileTag = 0;
    std::int32_t number = 0;
    if (!r.get(magic) || magic != kMagic)
        return failed("not a Plume frame cache file");
    if (!r.get(version) || version != kVersion)
        return failed("a frame cache file of another format version");
    if (!r.get(fileTag) || !r.get(number) || fileTag != tag || number != frameNumber)
        return failed("a frame of another scene, session or frame number");
    auto frame = std::make_shared<FrameData>();
    frame->frame = number;
    std::int32_t substeps = 0, iterations = 0;
    std::uint32_t troubleSize = 0;
    bool ok = r.get(frame->time) && r.get(frame->domain.cells) && r.get(frame->domain.cellSize)
              && r.get(frame->domain.origin) && r.get(frame->domain.boundaries)
              && r.get(frame->msPerStep) && r.get(frame->activeShare) && r.get(substeps)
              && r.get(iterations) && r.get(frame->pressureResidual) && r.get(troubleSize)
              && troubleSize <= std::size_t(bytes.size());
    frame->substeps = substeps;
    frame->pressureIterations = iterations;
    for (std::uint32_t c = 0; ok && c < troubleSize; ++c) {
        char ch = 0;
        ok = r.get(ch);
        frame->pressureTrouble.push_back(ch);
    }
    for (int f = 0; ok && f < int(DisplayField::Count); ++f)
        ok = r.get(frame->minimum[f]) && r.get(frame->maximum[f]);
    std::uint8_t hasVolume = 0;
    ok = ok && r.get(hasVolume) && hasVolume <= 1;
    if (!ok)
        return failed("a truncated or damaged frame cache file");
    std::shared_ptr<FrameVolume> volume = hasVolume ? std::make_shared<FrameVolume>() : nullptr;
    for (int f = 0; ok && f < int(DisplayField::Count); ++f)
        ok = r.getGrid(volume ? volume->fields[f] : frame->fields[f]);
    ok = ok && r.getFlags(volume ? volume->solids : frame->solids);
    std::uint64_t particleFloats = 0;
    ok = ok && r.get(frame->particleRadius) && r.get(frame->maxParticleSpeed)
         && r.get(particleFloats) && particleFloats <= kMaxParticleFloats
         && particleFloats % 4 == 0;
    if (ok) {
        frame->particles.resize(std::size_t(particleFloats));
        ok = r.getCompressed(frame->particles.data(), frame->particles.size() * sizeof(float));
    }
    ok = ok && r.atEnd();
    const sim::Int3 n = frame->domain.cells;
    if (ok && volume) {
        // The slices the window shows without the volume: the middle z layer, as capture cuts.
        for (const sim::ScalarGrid &g : volume->fields)
            ok = ok && (g.count() == 0 || g.size() == n);
        ok = ok && volume->solids.size() == n;
        const int k = n.z / 2;
        for (int f = 0; ok && f < int(DisplayField::Count); ++f)
            frame->fields[f] = zSlice(volume->fields[f], k);
        if (ok) {
            frame->solids.reshape({n.x, n.y, 1});
            std::copy_n(volume->solids.data() + std::size_t(n.x) * n.y * k, std::size_t(n.x) * n.y,
                        frame->solids.data());
            frame->volume = std::move(volume);
        }
    }
    if (!ok)
        return failed("a truncated or damaged frame cache file");
    return frame;
}

} // namespace plume
