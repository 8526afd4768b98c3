// SPDX-License-Identifier: Apache-2.0
#include <core/sim/run/checkpoint.h>

#include <core/sim/base/parallel.h>
#include <core/sim/base/param.h>

#include <blosc.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace plume::sim {

static_assert(std::endian::native == std::endian::little,
              "checkpoints are little-endian and written by copying memory");

namespace {

constexpr char kMagic[8] = {'P', 'L', 'U', 'M', 'E', 'C', 'K', 'P'};
/// Magic, version and checksum: what the checksum does not cover.
constexpr std::size_t kPrefixBytes = 16;
/// Raw bytes per Blosc chunk: chunks compress in parallel; a multiple of every type size.
constexpr std::size_t kChunkBytes = std::size_t(2) << 20;
/// Blosc's compression level and codec (docs/checkpoints.md has the measurements).
constexpr int kLevel = 5;
constexpr const char *kCodec = "lz4";

/// FixedGrid: a fixed-point stam grid (Q12.20), stored as its int32 bits.
enum class Kind : std::uint8_t { Grid, Flags, Value, FixedGrid };

/// The raw bytes of a field and their element size.
struct RawView
{
    const std::uint8_t *data = nullptr;
    std::size_t bytes = 0;
    std::size_t typeSize = 1;
};

Kind kindOf(const StateField &f)
{
    if (f.fixedGrid)
        return Kind::FixedGrid;
    return f.grid ? Kind::Grid : (f.flags ? Kind::Flags : Kind::Value);
}

RawView viewOf(const StateField &f)
{
    if (f.grid)
        return {reinterpret_cast<const std::uint8_t *>(f.grid->data()),
                f.grid->count() * sizeof(float), sizeof(float)};
    if (f.fixedGrid)
        return {reinterpret_cast<const std::uint8_t *>(f.fixedGrid->data()),
                f.fixedGrid->count() * sizeof(Fixed), sizeof(Fixed)};
    if (f.flags)
        return {f.flags->data(), f.flags->count(), 1};
    return {reinterpret_cast<const std::uint8_t *>(f.value), 1, 1};
}

Int3 sizeOf(const StateField &f)
{
    if (f.grid)
        return f.grid->size();
    if (f.fixedGrid)
        return f.fixedGrid->size();
    if (f.flags)
        return f.flags->size();
    return {1, 1, 1};
}

class Writer
{
public:
    explicit Writer(std::vector<std::uint8_t> &out)
        : mOut(out)
    {}
    template<class T>
    void put(const T &v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes(&v, sizeof v);
    }
    void bytes(const void *data, std::size_t n)
    {
        const std::size_t at = mOut.size();
        mOut.resize(at + n);
        if (n > 0)
            std::memcpy(mOut.data() + at, data, n);
    }
    void int3(Int3 v) { put(std::array<std::int32_t, 3>{v.x, v.y, v.z}); }
    void vec3(Vec3 v) { put(std::array<float, 3>{v.x, v.y, v.z}); }

private:
    std::vector<std::uint8_t> &mOut;
};

class Reader
{
public:
    explicit Reader(std::span<const std::uint8_t> data, std::size_t pos)
        : mData(data)
        , mPos(pos)
    {}
    template<class T>
    T get()
    {
        static_assert(std::is_trivially_copyable_v<T>);
        T v{};
        if (const auto s = take(sizeof v); !s.empty())
            std::memcpy(&v, s.data(), sizeof v);
        return v;
    }
    std::span<const std::uint8_t> take(std::size_t n)
    {
        if (!mOk || n > mData.size() - mPos) {
            mOk = false;
            return {};
        }
        const auto s = mData.subspan(mPos, n);
        mPos += n;
        return s;
    }
    Int3 int3()
    {
        const auto a = get<std::array<std::int32_t, 3>>();
        return {a[0], a[1], a[2]};
    }
    Vec3 vec3()
    {
        const auto a = get<std::array<float, 3>>();
        return {a[0], a[1], a[2]};
    }
    bool ok() const { return mOk; }
    bool atEnd() const { return mPos == mData.size(); }

private:
    std::span<const std::uint8_t> mData;
    std::size_t mPos;
    bool mOk = true;
};

/// A field as the container holds it.
struct FieldRecord
{
    std::string name;
    Kind kind = Kind::Grid;
    Int3 size;
    Vec3 offset;
    std::uint64_t rawBytes = 0;
    std::vector<std::span<const std::uint8_t>> chunks; ///< Blosc buffers
};

std::string cellsText(Int3 c)
{
    return std::to_string(c.x) + " x " + std::to_string(c.y) + " x " + std::to_string(c.z);
}

std::string hexText(std::uint64_t v)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
    return buf;
}

Status damaged(const std::string &what)
{
    return Status::failure("the checkpoint is damaged: " + what);
}

/// Checks the container (magic, version, length, checksum, structure) and reads its header and
/// field table; the chunks are left compressed.
Status parse(std::span<const std::uint8_t> data, CheckpointInfo &info,
             std::vector<FieldRecord> &fields)
{
    if (data.size() < sizeof kMagic || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0)
        return Status::failure("not a Plume checkpoint (it does not start with PLUMECKP)");
    if (data.size() < kPrefixBytes + 8)
        return Status::failure("the checkpoint is truncated: " + std::to_string(data.size())
                               + " bytes, too short for its header");
    Reader prefix(data, sizeof kMagic);
    info.version = prefix.get<std::uint32_t>();
    const auto crc = prefix.get<std::uint32_t>();
    const auto total = prefix.get<std::uint64_t>();
    if (info.version == 0 || info.version > Checkpoint::kVersion)
        return Status::failure("the checkpoint has format version " + std::to_string(info.version)
                               + "; this Plume reads version "
                               + std::to_string(Checkpoint::kVersion));
    if (total > data.size())
        return Status::failure("the checkpoint is truncated: " + std::to_string(data.size())
                               + " of " + std::to_string(total) + " bytes");
    if (total < data.size())
        return damaged(std::to_string(data.size() - total) + " bytes follow its end");
    const std::uint32_t actual = std::uint32_t(
        crc32_z(0, data.data() + kPrefixBytes, std::size_t(data.size() - kPrefixBytes)));
    if (actual != crc)
        return damaged("checksum " + hexText(actual).substr(8) + " instead of "
                       + hexText(crc).substr(8));

    Reader r(data, kPrefixBytes + 8);
    info.sceneHash = r.get<std::uint64_t>();
    const auto scheme = r.get<std::uint8_t>();
    info.domain.cells = r.int3();
    info.domain.cellSize = r.get<float>();
    info.domain.origin = r.vec3();
    bool boundariesOk = true;
    for (Boundary &b : info.domain.boundaries) {
        const auto v = r.get<std::uint8_t>();
        boundariesOk = boundariesOk && v <= std::uint8_t(Boundary::Periodic);
        b = Boundary(v);
    }
    info.frame = r.get<std::int32_t>();
    info.steps = r.get<std::int64_t>();
    info.time.frameRate = r.get<float>();
    info.time.substeps = r.get<std::int32_t>();
    info.time.cfl = r.get<float>();
    info.time.maxSubsteps = r.get<std::int32_t>();
    const auto count = r.get<std::uint32_t>();
    if (!r.ok() || scheme > std::uint8_t(Scheme::Sph) || !boundariesOk || info.frame < 0
        || info.steps < 0)
        return damaged("its header holds impossible values");
    info.scheme = Scheme(scheme);
    info.stateBytes = 0;
    fields.clear();
    for (std::uint32_t n = 0; n < count && r.ok(); ++n) {
        FieldRecord f;
        const auto nameLength = r.get<std::uint8_t>();
        const auto name = r.take(nameLength);
        f.name.assign(name.begin(), name.end());
        f.kind = Kind(r.get<std::uint8_t>());
        f.size = r.int3();
        f.offset = r.vec3();
        f.rawBytes = r.get<std::uint64_t>();
        const auto chunks = r.get<std::uint32_t>();
        std::uint64_t sum = 0;
        for (std::uint32_t c = 0; c < chunks && r.ok(); ++c) {
            const auto bytes = r.get<std::uint64_t>();
            const auto chunk = r.take(std::size_t(bytes));
            std::size_t raw = 0;
            if (!r.ok() || blosc_cbuffer_validate(chunk.data(), chunk.size(), &raw) != 0)
                return damaged("field '" + f.name + "' has an invalid compressed chunk");
            sum += raw;
            f.chunks.push_back(chunk);
        }
        if (!r.ok() || f.kind > Kind::FixedGrid || sum != f.rawBytes)
            return damaged("field " + std::to_string(n) + " ('" + f.name + "') is malformed");
        info.stateBytes += f.rawBytes;
        fields.push_back(std::move(f));
    }
    if (!r.ok() || !r.atEnd())
        return damaged("its field table does not end where the file does");
    info.fields.clear();
    for (const FieldRecord &f : fields) {
        std::uint64_t stored = 0;
        for (const auto &chunk : f.chunks)
            stored += chunk.size();
        info.fields.push_back({f.name, f.rawBytes, stored});
    }
    return Status::success();
}

/// Why a checkpoint's domain or scheme does not fit `solver`, or an empty string.
std::string gridMismatch(const CheckpointInfo &info, const Solver &solver)
{
    const Domain &d = solver.domain();
    auto differs = [](const std::string &what, const std::string &saved, const std::string &here) {
        return "the checkpoint is for " + what + " " + saved + "; this simulation has " + here;
    };
    if (info.scheme != solver.params().scheme)
        return differs("the scheme", toString(info.scheme), toString(solver.params().scheme));
    if (info.domain.cells != d.cells)
        return differs("a domain of", cellsText(info.domain.cells) + " cells",
                       cellsText(d.cells) + " cells");
    if (info.domain.cellSize != d.cellSize)
        return differs("cell size", formatNumber(info.domain.cellSize), formatNumber(d.cellSize));
    if (info.domain.origin != d.origin)
        return "the checkpoint is for a domain at another origin";
    for (int f = 0; f < 6; ++f) {
        if (info.domain.boundaries[f] != d.boundaries[f])
            return differs("boundary " + std::to_string(f) + " (x-, x+, y-, y+, z-, z+)",
                           toString(info.domain.boundaries[f]), toString(d.boundaries[f]));
    }
    return {};
}

/// Why a saved field cannot replace `f`, or an empty string.
std::string fieldMismatch(const FieldRecord &r, const StateField &f)
{
    const std::string name = "field '" + r.name + "'";
    if (r.kind != kindOf(f))
        return name + " is of another kind";
    if (r.kind == Kind::Value)
        return r.rawBytes == 1 ? std::string() : name + " is not one byte";
    const bool empty = r.size == Int3{0, 0, 0};
    const bool row = f.anyLength && r.kind == Kind::Grid && r.size.x >= 0 && r.size.y == 1
                     && r.size.z == 1;
    const bool shaped = f.anyShape && r.kind == Kind::Grid && r.size.x >= 0 && r.size.y >= 0
                        && r.size.z >= 0;
    if (!(r.size == f.size || (f.optional && empty) || row || shaped))
        return name + " has " + cellsText(r.size) + " samples; the solver's has "
               + cellsText(f.size);
    const bool grid = r.kind == Kind::Grid || r.kind == Kind::FixedGrid;
    const std::uint64_t element = grid ? sizeof(float) : 1;
    if (r.rawBytes != std::uint64_t(std::max<std::int64_t>(r.size.volume(), 0)) * element)
        return name + " holds " + std::to_string(r.rawBytes) + " bytes for " + cellsText(r.size)
               + " samples";
    if (grid && !(r.offset == f.offset))
        return name + " has another staggering";
    return {};
}

} // namespace

std::vector<StateField> Checkpoint::allFields(Simulation &sim)
{
    std::vector<StateField> fields = sim.mSolver->stateFields();
    for (const StateField &f : sim.mCoords.stateFields(sim.mSolver->domain().cells))
        fields.push_back(f);
    return fields;
}

Status Checkpoint::save(const Simulation &sim, std::uint64_t sceneHash,
                        std::vector<std::uint8_t> &out)
{
    if (!sim.mFailure.empty())
        return Status::failure("a simulation that failed cannot be checkpointed: " + sim.mFailure);
    // stateFields() hands out pointers to the fields; they are only read here.
    const std::vector<StateField> fields = allFields(const_cast<Simulation &>(sim));
    struct Job
    {
        std::size_t field = 0;
        std::size_t begin = 0, bytes = 0;
        std::vector<std::uint8_t> packed;
    };
    try {
        std::vector<RawView> views;
        std::vector<Job> jobs;
        for (std::size_t f = 0; f < fields.size(); ++f) {
            views.push_back(viewOf(fields[f]));
            for (std::size_t at = 0; at < views.back().bytes; at += kChunkBytes)
                jobs.push_back({f, at, std::min(kChunkBytes, views.back().bytes - at), {}});
        }
        std::atomic<bool> failed{false};
        forEachJob(std::int64_t(jobs.size()), [&](std::int64_t j) {
            Job &job = jobs[j];
            const RawView &v = views[job.field];
            try {
                job.packed.resize(job.bytes + BLOSC_MAX_OVERHEAD);
            } catch (const std::bad_alloc &) {
                failed = true;
                return;
            }
            const int n = blosc_compress_ctx(kLevel, BLOSC_SHUFFLE, v.typeSize, job.bytes,
                                             v.data + job.begin, job.packed.data(),
                                             job.packed.size(), kCodec, 0, 1);
            if (n <= 0) {
                failed = true;
            } else {
                // Give back the room for the raw bytes: a big sparse state (the adaptive domain's
                // whole-domain solid flags) compresses to a sliver of it.
                job.packed.resize(std::size_t(n));
                job.packed.shrink_to_fit();
            }
        });
        if (failed)
            return Status::failure("compressing the checkpoint failed (out of memory?)");

        out.clear();
        std::size_t packed = 0;
        for (const Job &job : jobs)
            packed += job.packed.size();
        out.reserve(packed + 4096 + 64 * (fields.size() + jobs.size())); // no regrowth below
        Writer w(out);
        const Domain &d = sim.mSolver->domain();
        w.bytes(kMagic, sizeof kMagic);
        w.put(kVersion);
        w.put(std::uint32_t(0)); // checksum, below
        w.put(std::uint64_t(0)); // total bytes, below
        w.put(sceneHash);
        w.put(std::uint8_t(sim.mSolver->params().scheme));
        w.int3(d.cells);
        w.put(d.cellSize);
        w.vec3(d.origin);
        for (Boundary b : d.boundaries)
            w.put(std::uint8_t(b));
        w.put(std::int32_t(sim.mFrame));
        w.put(std::int64_t(sim.mSteps));
        w.put(sim.mTime.frameRate);
        w.put(std::int32_t(sim.mTime.substeps));
        w.put(sim.mTime.cfl);
        w.put(std::int32_t(sim.mTime.maxSubsteps));
        w.put(std::uint32_t(fields.size()));
        std::size_t j = 0;
        for (std::size_t f = 0; f < fields.size(); ++f) {
            const std::string name = fields[f].name;
            w.put(std::uint8_t(name.size()));
            w.bytes(name.data(), name.size());
            w.put(std::uint8_t(kindOf(fields[f])));
            w.int3(sizeOf(fields[f]));
            w.vec3(fields[f].offset); // restore checks a grid's own offset against it
            w.put(std::uint64_t(views[f].bytes));
            const std::size_t first = j;
            while (j < jobs.size() && jobs[j].field == f)
                ++j;
            w.put(std::uint32_t(j - first));
            for (std::size_t c = first; c < j; ++c) {
                w.put(std::uint64_t(jobs[c].packed.size()));
                w.bytes(jobs[c].packed.data(), jobs[c].packed.size());
            }
        }
        const std::uint64_t total = out.size();
        std::memcpy(out.data() + kPrefixBytes, &total, sizeof total);
        const auto crc = std::uint32_t(
            crc32_z(0, out.data() + kPrefixBytes, std::size_t(total - kPrefixBytes)));
        std::memcpy(out.data() + 12, &crc, sizeof crc);
    } catch (const std::bad_alloc &) {
        out.clear();
        return Status::failure("out of memory writing the checkpoint");
    }
    return Status::success();
}

Status Checkpoint::read(std::span<const std::uint8_t> data, CheckpointInfo &info)
{
    std::vector<FieldRecord> fields;
    try {
        return parse(data, info, fields);
    } catch (const std::bad_alloc &) {
        return Status::failure("out of memory reading the checkpoint");
    }
}

Status Checkpoint::restore(Simulation &sim, std::span<const std::uint8_t> data,
                           std::uint64_t sceneHash, CheckpointMatch match)
{
    try {
        CheckpointInfo info;
        std::vector<FieldRecord> records;
        if (Status s = parse(data, info, records); !s)
            return s;
        Solver &solver = *sim.mSolver;
        if (const std::string why = gridMismatch(info, solver); !why.empty())
            return Status::failure(why);
        if (match == CheckpointMatch::SameScene && info.sceneHash != sceneHash)
            return Status::failure("the checkpoint belongs to another scene or another version "
                                   "of it (scene hash "
                                   + hexText(info.sceneHash) + ", this scene's "
                                   + hexText(sceneHash) + ")");

        // Pair every solver field with its record, each exactly once.
        const std::vector<StateField> fields = allFields(sim);
        std::vector<const FieldRecord *> source(fields.size(), nullptr);
        for (const FieldRecord &r : records) {
            const auto it = std::find_if(fields.begin(), fields.end(),
                                         [&](const StateField &f) { return r.name == f.name; });
            if (it == fields.end())
                return Status::failure("the checkpoint holds a field '" + r.name + "' that the "
                                       + toString(info.scheme) + " solver does not have");
            const std::size_t f = std::size_t(it - fields.begin());
            if (source[f])
                return damaged("field '" + r.name + "' appears twice");
            if (const std::string why = fieldMismatch(r, *it); !why.empty())
                return Status::failure("the checkpoint's " + why);
            source[f] = &r;
        }
        // An optional field the checkpoint lacks (one written before the field existed, such
        // as the texture offsets) restores empty, as if it had been saved empty.
        FieldRecord absent;
        absent.size = Int3{0, 0, 0};
        for (std::size_t f = 0; f < fields.size(); ++f) {
            if (!source[f] && fields[f].optional)
                source[f] = &absent;
            if (!source[f])
                return Status::failure(std::string("the checkpoint lacks the field '")
                                       + fields[f].name + "'");
            for (std::size_t g = 0; g < f; ++g) {
                if (fields[f].group != 0 && fields[g].group == fields[f].group
                    && (source[f]->rawBytes == 0) != (source[g]->rawBytes == 0))
                    return damaged(std::string("fields '") + fields[g].name + "' and '"
                                   + fields[f].name + "' go together, but only one is present");
            }
        }

        // Decompress into new grids; the simulation changes only once all of them succeeded.
        std::vector<ScalarGrid> grids(fields.size());
        std::vector<FixedGrid> fixedGrids(fields.size());
        std::vector<FlagGrid> flags(fields.size());
        std::vector<std::uint8_t> values(fields.size(), 0);
        struct Job
        {
            std::span<const std::uint8_t> packed;
            std::uint8_t *dest;
            std::size_t bytes;
        };
        std::vector<Job> jobs;
        for (std::size_t f = 0; f < fields.size(); ++f) {
            const FieldRecord &r = *source[f];
            std::uint8_t *dest = &values[f];
            if (r.kind == Kind::Grid) {
                grids[f].reshape(r.size, r.offset);
                dest = reinterpret_cast<std::uint8_t *>(grids[f].data());
            } else if (r.kind == Kind::FixedGrid) {
                fixedGrids[f].reshape(r.size, r.offset);
                dest = reinterpret_cast<std::uint8_t *>(fixedGrids[f].data());
            } else if (r.kind == Kind::Flags) {
                flags[f].reshape(r.size);
                dest = flags[f].data();
            }
            for (const auto &chunk : r.chunks) {
                std::size_t raw = 0, packed = 0, block = 0;
                blosc_cbuffer_sizes(chunk.data(), &raw, &packed, &block);
                jobs.push_back({chunk, dest, raw});
                dest += raw;
            }
        }
        std::atomic<bool> failed{false};
        forEachJob(std::int64_t(jobs.size()), [&](std::int64_t j) {
            const Job &job = jobs[j];
            if (blosc_decompress_ctx(job.packed.data(), job.dest, job.bytes, 1) != int(job.bytes))
                failed = true;
        });
        if (failed)
            return damaged("a compressed chunk does not decompress");

        bool solidsChanged = false;
        for (std::size_t f = 0; f < fields.size(); ++f) {
            if (fields[f].grid)
                fields[f].grid->swap(grids[f]);
            else if (fields[f].fixedGrid)
                fields[f].fixedGrid->swap(fixedGrids[f]);
            else if (fields[f].flags) {
                solidsChanged = solidsChanged || !(*fields[f].flags == flags[f]);
                std::swap(*fields[f].flags, flags[f]);
            } else
                *fields[f].value = values[f] != 0;
        }
        // The old state goes before the solver rebuilds what derives from the new one.
        grids.clear();
        fixedGrids.clear();
        flags.clear();
        solver.stateRestored(solidsChanged);
        sim.mCoords.stateRestored();
        sim.mFrame = info.frame;
        sim.mSteps = info.steps;
        sim.mFailure.clear();
    } catch (const std::bad_alloc &) {
        return Status::failure("out of memory restoring the checkpoint");
    }
    return Status::success();
}

} // namespace plume::sim
