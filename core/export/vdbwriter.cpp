// SPDX-License-Identifier: Apache-2.0
#include <core/export/vdbwriter.h>

#include <core/export/vdbcache.h>

#include <core/export/vdbsurface.h>
#include <core/surface/levelset.h>

#include <core/sim/base/parallel.h>

#include <openvdb/io/Archive.h>
#include <openvdb/openvdb.h>
#include <openvdb/tools/Prune.h>

// After every oneTBB header (through OpenVDB and sim/base/parallel.h): Qt defines `emit`.
#include <core/export/savefile.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

namespace plume {

namespace {

using sim::Int3;
using sim::ScalarGrid;
using sim::Status;
using FloatLeaf = openvdb::FloatTree::LeafNodeType;
using VecLeaf = openvdb::Vec3STree::LeafNodeType;
constexpr int kLeafDim = int(FloatLeaf::DIM);
static_assert(FloatLeaf::DIM == VecLeaf::DIM, "float and vec3s trees share one leaf layout");

/// The frame's fields as flat arrays (x fastest), each checked against the domain.
struct FieldArrays
{
    const float *density = nullptr;
    const float *temperature = nullptr;
    const float *flame = nullptr;
    const float *fuel = nullptr;
    std::array<const float *, 3> velocity{}; ///< z may be null in 2D (zero)
    std::array<const float *, 3> dye{};
    bool hasVelocity = false;
    bool hasDye = false;
};

/// The sparse leaves of one 8^3 block of cells, null where the block has no active voxel.
struct BlockLeaves
{
    std::unique_ptr<FloatLeaf> density;
    std::unique_ptr<FloatLeaf> temperature;
    std::unique_ptr<FloatLeaf> flame;
    std::unique_ptr<FloatLeaf> fuel;
    std::unique_ptr<VecLeaf> velocity;
    std::unique_ptr<VecLeaf> colour;
    bool nonFinite = false;
    bool beyondHalf = false; ///< a value a half-float file cannot hold (halfFloat only)
};

/// Which input cell each voxel of the written grids holds: file voxel (i, j, k) holds element
/// base + i + j * rowStep + k * sliceStep of the x-fastest input arrays.
struct VoxelMap
{
    Int3 cells;                    ///< the written index box is [0, cells)
    Int3 lo{0, 0, 0}, hi{0, 0, 0}; ///< the voxels the input arrays cover, [lo, hi)
    std::ptrdiff_t base = 0;
    std::ptrdiff_t rowStep = 0;
    std::ptrdiff_t sliceStep = 0;
    bool zUp = false;

    /// A simulated vector in the file's axes (0 - z: a zero stays +0).
    openvdb::Vec3s vector(float x, float y, float z) const
    {
        return zUp ? openvdb::Vec3s(x, 0.f - z, y) : openvdb::Vec3s(x, y, z);
    }
};

// See VdbWriteOptions::up: Z-up voxel (i, nz-1-k, j) holds cell (i, j, k), so file voxel
// (i, j, k) holds cell (i, k, nz-1-j). The input arrays cover the cells of `box` (x fastest).
VoxelMap voxelMap(Int3 c, const sim::CellBox &box, UpAxis up)
{
    const Int3 w = box.size();
    const std::ptrdiff_t row = w.x;
    const std::ptrdiff_t slice = std::ptrdiff_t(w.x) * w.y;
    const Int3 &l = box.lo;
    if (up == UpAxis::Y)
        return {c, l, box.hi, -(l.x + row * l.y + slice * l.z), row, slice, false};
    // Cell (i, k, nz-1-j) is element (i - l.x) + row (k - l.y) + slice (nz-1-j - l.z).
    return {Int3{c.x, c.z, c.y},
            Int3{l.x, c.z - box.hi.z, l.y},
            Int3{box.hi.x, c.z - l.z, box.hi.y},
            -l.x - row * l.y + slice * (c.z - 1 - l.z),
            -slice,
            row,
            true};
}

// The cells the frame's fields cover (VdbFrame::fieldBox; empty: the whole domain).
sim::CellBox fieldBoxOf(const VdbFrame &f)
{
    return f.fieldBox.empty() ? sim::CellBox{{0, 0, 0}, f.domain.cells} : f.fieldBox;
}

std::string sizeText(Int3 s)
{
    return std::to_string(s.x) + "x" + std::to_string(s.y) + "x" + std::to_string(s.z);
}

using NamedField = std::pair<const ScalarGrid *, const char *>;

// The frame's field pointers (null when absent) with the names used in messages.
std::array<NamedField, 10> namedFields(const VdbFrame &f)
{
    return {{{f.density, "density"},
             {f.temperature, "temperature"},
             {f.flame, "flame"},
             {f.fuel, "fuel"},
             {f.velocityX, "velocity x"},
             {f.velocityY, "velocity y"},
             {f.velocityZ, "velocity z"},
             {f.dyeRed, "dye red"},
             {f.dyeGreen, "dye green"},
             {f.dyeBlue, "dye blue"}}};
}

// A field must be cell-centred over the whole domain (or the frame's field box).
Status checkField(const ScalarGrid &g, const char *name, Int3 cells, bool whole)
{
    if (g.size() != cells)
        return Status::failure(std::string(name) + " grid is " + sizeText(g.size()) + ", the "
                               + (whole ? "domain" : "field box") + " has " + sizeText(cells)
                               + " cells");
    if (!(g.offset() == sim::kCellCentre))
        return Status::failure(std::string(name) + " grid is not cell-centred");
    return Status::success();
}

// Checks presence and shapes of the fields and collects their arrays.
Status collectFields(const VdbFrame &f, FieldArrays &out)
{
    const sim::CellBox box = fieldBoxOf(f);
    const Int3 n = f.domain.cells;
    if (box.lo.x < 0 || box.lo.y < 0 || box.lo.z < 0 || box.hi.x > n.x || box.hi.y > n.y
        || box.hi.z > n.z)
        return Status::failure("the field box reaches outside the domain's " + sizeText(n)
                               + " cells");
    if (f.levelSurface && !f.fieldBox.empty())
        return Status::failure("the level surface needs the density over the whole domain");
    if (!f.density)
        return Status::failure("the density field is missing");
    for (const auto &[grid, name] : namedFields(f))
        if (grid)
            if (Status s = checkField(*grid, name, box.size(), f.fieldBox.empty()); !s)
                return s;
    const bool anyVelocity = f.velocityX || f.velocityY || f.velocityZ;
    out.hasVelocity = f.velocityX && f.velocityY && (f.velocityZ || f.domain.is2D());
    if (anyVelocity && !out.hasVelocity)
        return Status::failure("velocity needs x, y and (in 3D) z components");
    const bool anyDye = f.dyeRed || f.dyeGreen || f.dyeBlue;
    out.hasDye = f.dyeRed && f.dyeGreen && f.dyeBlue;
    if (anyDye && !out.hasDye)
        return Status::failure("dye needs red, green and blue components");
    auto data = [](const ScalarGrid *g) { return g ? g->data() : nullptr; };
    out.density = data(f.density);
    out.temperature = data(f.temperature);
    out.flame = data(f.flame);
    out.fuel = data(f.fuel);
    out.velocity = {data(f.velocityX), data(f.velocityY), data(f.velocityZ)};
    out.dye = {data(f.dyeRed), data(f.dyeGreen), data(f.dyeBlue)};
    return Status::success();
}

// Names the first input value, field by field in x-fastest order, that is not finite or (with
// halfFloat) beyond the half range; dye is only checked for finiteness (Cd is clamped). Error
// path only.
Status findBadValue(const VdbFrame &f, bool halfFloat)
{
    const Int3 c = fieldBoxOf(f).size();
    const Int3 lo = fieldBoxOf(f).lo;
    for (const auto &[grid, name] : namedFields(f)) {
        const bool dye = grid == f.dyeRed || grid == f.dyeGreen || grid == f.dyeBlue;
        const float limit = halfFloat && !dye ? kHalfMax : std::numeric_limits<float>::max();
        for (int k = 0; grid && k < c.z; ++k)
            for (int j = 0; j < c.y; ++j)
                for (int i = 0; i < c.x; ++i) {
                    const float v = (*grid)(i, j, k);
                    if (std::abs(v) <= limit)
                        continue;
                    const std::string cell = " at cell (" + std::to_string(lo.x + i) + ", "
                                             + std::to_string(lo.y + j) + ", "
                                             + std::to_string(lo.z + k) + ")";
                    if (!std::isfinite(v))
                        return Status::failure(std::string(name) + " is not finite" + cell);
                    return Status::failure(std::string(name) + " is " + sim::formatNumber(v) + cell
                                           + ", beyond the half-float range (magnitude "
                                           + sim::formatNumber(kHalfMax) + "); write full floats");
                }
    }
    return Status::failure("a field holds a non-finite value");
}

template<class Leaf>
void setActive(std::unique_ptr<Leaf> &leaf, const openvdb::Coord &origin, openvdb::Index offset,
               const typename Leaf::ValueType &value)
{
    if (!leaf)
        leaf = std::make_unique<Leaf>(origin, openvdb::zeroVal<typename Leaf::ValueType>(), false);
    leaf->setValueOn(offset, value);
}

bool anyAbove(const openvdb::Vec3s &v, float threshold)
{
    return std::abs(v.x()) > threshold || std::abs(v.y()) > threshold
           || std::abs(v.z()) > threshold;
}

// Dense to sparse for one 8^3 block of the written index box (OpenVDB tools/Dense.h idea): a
// voxel is active when its value exceeds the threshold (see VdbWriteOptions); leaves are
// allocated on first use.
void convertBlock(const FieldArrays &in, const VoxelMap &map, Int3 block,
                  const VdbWriteOptions &opt, BlockLeaves &out)
{
    const openvdb::Coord origin(block.x * kLeafDim, block.y * kLeafDim, block.z * kLeafDim);
    const Int3 lo{std::max(map.lo.x, origin.x()), std::max(map.lo.y, origin.y()),
                  std::max(map.lo.z, origin.z())};
    const Int3 hi{std::min(map.hi.x, origin.x() + kLeafDim),
                  std::min(map.hi.y, origin.y() + kLeafDim),
                  std::min(map.hi.z, origin.z() + kLeafDim)};
    const float thr = opt.activeThreshold;
    // Beyond this a half-float file would hold infinity (no limit for full floats).
    const float storable = opt.halfFloat ? kHalfMax : std::numeric_limits<float>::infinity();
    auto storableVector = [storable](const openvdb::Vec3s &v) {
        return std::abs(v.x()) <= storable && std::abs(v.y()) <= storable
               && std::abs(v.z()) <= storable;
    };
    bool finite = true;
    bool fits = true;
    for (int k = lo.z; k < hi.z; ++k) {
        for (int j = lo.y; j < hi.y; ++j) {
            const std::ptrdiff_t row = map.base + j * map.rowStep + k * map.sliceStep;
            for (int i = lo.x; i < hi.x; ++i) {
                const std::size_t n = std::size_t(row + i);
                const openvdb::Index off = FloatLeaf::coordToOffset(openvdb::Coord(i, j, k));
                const float d = in.density[n];
                const bool densityOn = std::abs(d) > thr;
                finite = finite && std::isfinite(d);
                fits = fits && std::abs(d) <= storable;
                if (densityOn)
                    setActive(out.density, origin, off, d);
                for (auto [field, leaf] : {std::pair{in.temperature, &out.temperature},
                                           {in.flame, &out.flame},
                                           {in.fuel, &out.fuel}}) {
                    if (!field)
                        continue;
                    const float t = field[n];
                    finite = finite && std::isfinite(t);
                    fits = fits && std::abs(t) <= storable;
                    if (std::abs(t) > thr)
                        setActive(*leaf, origin, off, t);
                }
                if (in.hasVelocity) {
                    const openvdb::Vec3s v = map.vector(in.velocity[0][n], in.velocity[1][n],
                                                        in.velocity[2] ? in.velocity[2][n] : 0.f);
                    finite = finite && v.isFinite();
                    fits = fits && storableVector(v);
                    const bool on = opt.velocityMask == VelocityMask::Density ? densityOn
                                                                              : anyAbove(v, thr);
                    if (on)
                        setActive(out.velocity, origin, off, v);
                }
                if (in.hasDye) {
                    const openvdb::Vec3s dye(in.dye[0][n], in.dye[1][n], in.dye[2][n]);
                    finite = finite && dye.isFinite();
                    openvdb::Vec3s c = d > thr
                                           ? openvdb::Vec3s(dye.x() / d, dye.y() / d, dye.z() / d)
                                           : openvdb::Vec3s(0.f);
                    if (opt.halfFloat)
                        for (int a = 0; a < 3; ++a)
                            c[a] = std::clamp(c[a], -kHalfMax, kHalfMax);
                    if (anyAbove(c, thr))
                        setActive(out.colour, origin, off, c);
                }
            }
        }
    }
    out.nonFinite = !finite;
    out.beyondHalf = !fits;
}

// Hands the blocks' leaves of one field to a new grid, in block order, then prunes.
template<class GridT, class Leaf>
typename GridT::Ptr assembleGrid(std::vector<BlockLeaves> &blocks,
                                 std::unique_ptr<Leaf> BlockLeaves::*field)
{
    typename GridT::Ptr grid = GridT::create(openvdb::zeroVal<typename GridT::ValueType>());
    for (BlockLeaves &b : blocks)
        if (b.*field)
            grid->tree().addLeaf((b.*field).release());
    openvdb::tools::prune(grid->tree());
    return grid;
}

// Voxel (i,j,k) centred at low + (i + 0.5, j + 0.5, k + 0.5) * h (OpenVDB voxel centres sit
// at integer index coordinates), where low is the written domain's low corner: the origin,
// or for Z up the rotated box's (x, -(z + nz h), y).
openvdb::math::Transform::Ptr cellCentredTransform(const sim::Domain &d, UpAxis up)
{
    const double h = d.cellSize;
    const openvdb::Vec3d o(d.origin.x, d.origin.y, d.origin.z);
    const openvdb::Vec3d low = up == UpAxis::Y
                                   ? o
                                   : openvdb::Vec3d(o.x(), -(o.z() + d.cells.z * h), o.y());
    auto xform = openvdb::math::Transform::createLinearTransform(h);
    xform->postTranslate(low + openvdb::Vec3d(0.5 * h));
    return xform;
}

void describeGrid(openvdb::GridBase &grid, const char *name, const VdbFrame &f,
                  const VdbWriteOptions &opt, const openvdb::math::Transform::Ptr &xform)
{
    grid.setName(name);
    grid.setTransform(xform);
    grid.setCreator("Plume " + f.plumeVersion);
    grid.setSaveFloatAsHalf(opt.halfFloat);
}

// Converts all fields and builds the grids to write (sparse, pruned, with class metadata).
Status buildGrids(const VdbFrame &f, const FieldArrays &in, const VdbWriteOptions &opt,
                  openvdb::GridCPtrVec &grids)
{
    // The 8^3 blocks of the written index box that the fields cover.
    const VoxelMap map = voxelMap(f.domain.cells, fieldBoxOf(f), opt.up);
    const Int3 b0{map.lo.x / kLeafDim, map.lo.y / kLeafDim, map.lo.z / kLeafDim};
    const Int3 nb{(map.hi.x + kLeafDim - 1) / kLeafDim - b0.x,
                  (map.hi.y + kLeafDim - 1) / kLeafDim - b0.y,
                  (map.hi.z + kLeafDim - 1) / kLeafDim - b0.z};
    std::vector<BlockLeaves> blocks(std::size_t(nb.volume()));
    sim::forEachRow(nb, [&](int bj, int bk) {
        const std::size_t row = std::size_t(nb.x) * (bj + std::size_t(nb.y) * bk);
        for (int bi = 0; bi < nb.x; ++bi)
            convertBlock(in, map, Int3{b0.x + bi, b0.y + bj, b0.z + bk}, opt,
                         blocks[row + std::size_t(bi)]);
    });
    if (std::any_of(blocks.begin(), blocks.end(),
                    [](const BlockLeaves &b) { return b.nonFinite || b.beyondHalf; }))
        return findBadValue(f, opt.halfFloat);

    const auto xform = cellCentredTransform(f.domain, opt.up);
    auto density = assembleGrid<openvdb::FloatGrid>(blocks, &BlockLeaves::density);
    describeGrid(*density, "density", f, opt, xform);
    density->setGridClass(openvdb::GRID_FOG_VOLUME);
    grids.push_back(density);
    for (auto [field, leaf, name] :
         {std::tuple{in.temperature, &BlockLeaves::temperature, "temperature"},
          {in.flame, &BlockLeaves::flame, "flame"},
          {in.fuel, &BlockLeaves::fuel, "fuel"}}) {
        if (!field)
            continue;
        auto grid = assembleGrid<openvdb::FloatGrid>(blocks, leaf);
        describeGrid(*grid, name, f, opt, xform);
        grid->setGridClass(openvdb::GRID_FOG_VOLUME);
        grids.push_back(grid);
    }
    if (in.hasVelocity) {
        auto vel = assembleGrid<openvdb::Vec3SGrid>(blocks, &BlockLeaves::velocity);
        describeGrid(*vel, "vel", f, opt, xform);
        vel->setGridClass(openvdb::GRID_UNKNOWN);
        vel->setVectorType(openvdb::VEC_CONTRAVARIANT_RELATIVE);
        vel->setIsInWorldSpace(true);
        grids.push_back(vel);
    }
    if (in.hasDye) {
        auto colour = assembleGrid<openvdb::Vec3SGrid>(blocks, &BlockLeaves::colour);
        describeGrid(*colour, "Cd", f, opt, xform);
        colour->setGridClass(openvdb::GRID_UNKNOWN);
        colour->setVectorType(openvdb::VEC_INVARIANT);
        grids.push_back(colour);
    }
    return detail::appendSurfaceGrids(f, opt, grids);
}

/// Exposes OpenVDB's seekable stream writer (what io::File uses) for an in-memory stream.
class MemoryArchive : public openvdb::io::Archive
{
public:
    MemoryArchive()
    {
        setCompression(hasBloscCompression()
                           ? openvdb::io::COMPRESS_BLOSC | openvdb::io::COMPRESS_ACTIVE_MASK
                           : openvdb::io::COMPRESS_ZIP | openvdb::io::COMPRESS_ACTIVE_MASK);
        setGridStatsMetadataEnabled(true);
    }
    void writeSeekable(std::ostream &os, const openvdb::GridCPtrVec &grids,
                       const openvdb::MetaMap &meta) const
    {
        write(os, grids, /*seekable=*/true, meta);
    }
};

/// Header layout of OpenVDB files (io/Archive.cc writeHeader): int64 magic, uint32 file
/// version, uint32 x2 library version, char has-offsets, then the UUID as 36 characters.
constexpr std::size_t kUuidOffset = 8 + 4 + 4 + 4 + 1;
constexpr std::size_t kUuidLength = 36;

std::uint64_t mix64(std::uint64_t x)
{
    // splitmix64 finaliser (Steele, Lea, Flood: "Fast splittable pseudorandom generators").
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// Two-lane multiply-xorshift hash over 8-byte words: 128 bits that depend on every byte.
std::array<std::uint64_t, 2> contentHash(const std::string &bytes)
{
    std::uint64_t a = 0x243f6a8885a308d3ull, b = 0x13198a2e03707344ull;
    std::size_t n = 0;
    for (; n + 8 <= bytes.size(); n += 8) {
        std::uint64_t w;
        std::memcpy(&w, bytes.data() + n, 8);
        a = (a ^ w) * 0x9e3779b97f4a7c15ull;
        a ^= a >> 29;
        b = (b ^ (w << 31 | w >> 33)) * 0xc2b2ae3d27d4eb4full;
        b ^= b >> 31;
    }
    std::uint64_t tail = bytes.size();
    for (; n < bytes.size(); ++n)
        tail = tail << 8 ^ std::uint8_t(bytes[n]);
    return {mix64(a ^ tail), mix64(b + mix64(tail))};
}

// Replaces OpenVDB's random header UUID with an RFC 9562 version-8 UUID made from a hash of
// the file with that field zeroed, so that the same grids give the same bytes.
Status setContentUuid(std::string &bytes)
{
    auto isHex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); };
    if (bytes.size() < kUuidOffset + kUuidLength)
        return Status::failure("OpenVDB wrote a truncated header");
    for (std::size_t n = 0; n < kUuidLength; ++n) {
        const char c = bytes[kUuidOffset + n];
        const bool dash = n == 8 || n == 13 || n == 18 || n == 23;
        if (dash ? c != '-' : !isHex(c))
            return Status::failure("unexpected OpenVDB header layout (UUID not found)");
    }
    std::fill_n(bytes.begin() + kUuidOffset, kUuidLength, '0');
    const auto h = contentHash(bytes);
    std::array<std::uint8_t, 16> u;
    for (int n = 0; n < 8; ++n) {
        u[n] = std::uint8_t(h[0] >> (8 * n));
        u[8 + n] = std::uint8_t(h[1] >> (8 * n));
    }
    u[6] = std::uint8_t((u[6] & 0x0f) | 0x80); // version 8 (custom)
    u[8] = std::uint8_t((u[8] & 0x3f) | 0x80); // variant 10
    static const char *digits = "0123456789abcdef";
    std::size_t pos = kUuidOffset;
    for (int n = 0; n < 16; ++n) {
        if (n == 4 || n == 6 || n == 8 || n == 10)
            bytes[pos++] = '-';
        bytes[pos++] = digits[u[n] >> 4];
        bytes[pos++] = digits[u[n] & 15];
    }
    return Status::success();
}

openvdb::MetaMap fileMetadata(const VdbFrame &f, UpAxis up)
{
    openvdb::MetaMap meta;
    meta.insertMeta("frame", openvdb::Int32Metadata(f.frame));
    meta.insertMeta("scene", openvdb::StringMetadata(f.sceneName));
    meta.insertMeta("plume_version", openvdb::StringMetadata(f.plumeVersion));
    meta.insertMeta("creator", openvdb::StringMetadata("Plume " + f.plumeVersion));
    meta.insertMeta("up_axis", openvdb::StringMetadata(toString(up)));
    return meta;
}

// Serialises the grids as a complete .vdb file image in memory.
std::string serialise(const openvdb::GridCPtrVec &grids, const openvdb::MetaMap &meta)
{
    // Like io::File: the stream refers to (does not own) metadata that outlives it.
    auto streamMetadata = std::make_shared<openvdb::io::StreamMetadata>();
    std::ostringstream os(std::ios_base::out | std::ios_base::binary);
    openvdb::io::setStreamMetadataPtr(os, streamMetadata, /*transfer=*/false);
    MemoryArchive().writeSeekable(os, grids, meta);
    return std::move(os).str();
}

// Temporary file in the target's directory, renamed over the target on commit (QSaveFile). A
// failed write or commit names the system's reason (savefile.h); the old file stays.
Status saveAtomically(const std::filesystem::path &path, const std::string &bytes)
{
    QSaveFile file(QString::fromStdU16String(path.u16string()));
    if (Status s = writeSaveFile(file, bytes.data(), qint64(bytes.size())); !s)
        return s;
    if (!file.commit())
        return Status::failure(file.errorString().toStdString());
    return Status::success();
}

std::once_flag gInitOnce;

// Validate, convert, serialise, then replace the file.
Status writeFrame(const std::filesystem::path &path, const VdbFrame &frame,
                  const VdbWriteOptions &options)
{
    if (Status s = frame.domain.validate(std::numeric_limits<std::int64_t>::max()); !s)
        return s;
    FieldArrays fields;
    if (Status s = collectFields(frame, fields); !s)
        return s;
    if (!(options.activeThreshold >= 0.f) || !std::isfinite(options.activeThreshold))
        return Status::failure("the active threshold must be finite and non-negative");
    std::call_once(gInitOnce, [] { openvdb::initialize(); });
    openvdb::GridCPtrVec grids;
    if (Status s = buildGrids(frame, fields, options, grids); !s)
        return s;
    std::string bytes = serialise(grids, fileMetadata(frame, options.up));
    grids.clear();
    if (Status s = setContentUuid(bytes); !s)
        return s;
    return saveAtomically(path, bytes);
}

} // namespace

void keepAsWritten(VdbFields &f, const VdbWriteOptions &opt)
{
    // convertBlock()'s rules cell by cell, then what reading gives back: a half float file
    // rounds every stored value, a Z-up file stores (vx, 0 - vz, vy).
    const float thr = opt.activeThreshold;
    const bool half = opt.halfFloat;
    const bool zUp = opt.up == UpAxis::Z;
    auto stored = [half](float v) { return half ? float(openvdb::math::half(v)) : v; };
    auto data = [](ScalarGrid &g) { return g.count() != 0 ? g.data() : nullptr; };
    float *density = f.density.data();
    const std::array<float *, 3> scalars{data(f.temperature), data(f.flame), data(f.fuel)};
    const bool velocity = f.hasVelocity();
    const bool dye = f.hasDye();
    float *vx = data(f.velocityX), *vy = data(f.velocityY), *vz = data(f.velocityZ);
    float *red = data(f.dyeRed), *green = data(f.dyeGreen), *blue = data(f.dyeBlue);
    sim::forEachIndex(std::int64_t(f.density.count()), [&](std::int64_t n) {
        const float d = density[n];
        const bool densityOn = std::abs(d) > thr;
        const float kept = densityOn ? stored(d) : 0.f;
        for (float *field : scalars)
            if (field)
                field[n] = std::abs(field[n]) > thr ? stored(field[n]) : 0.f;
        if (velocity) {
            const float z = vz ? vz[n] : 0.f;
            const openvdb::Vec3s v = zUp ? openvdb::Vec3s(vx[n], 0.f - z, vy[n])
                                         : openvdb::Vec3s(vx[n], vy[n], z);
            const bool on = opt.velocityMask == VelocityMask::Density ? densityOn
                                                                      : anyAbove(v, thr);
            const openvdb::Vec3s s = on ? openvdb::Vec3s(stored(v.x()), stored(v.y()),
                                                         stored(v.z()))
                                        : openvdb::Vec3s(0.f);
            vx[n] = s.x();
            vy[n] = zUp ? s.z() : s.y();
            if (vz)
                vz[n] = zUp ? 0.f - s.y() : s.z();
        }
        if (dye) {
            openvdb::Vec3s c = d > thr ? openvdb::Vec3s(red[n] / d, green[n] / d, blue[n] / d)
                                       : openvdb::Vec3s(0.f);
            if (half)
                for (int a = 0; a < 3; ++a)
                    c[a] = std::clamp(c[a], -kHalfMax, kHalfMax);
            if (anyAbove(c, thr))
                c = openvdb::Vec3s(stored(c.x()), stored(c.y()), stored(c.z()));
            else
                c = openvdb::Vec3s(0.f);
            red[n] = c.x() * kept;
            green[n] = c.y() * kept;
            blue[n] = c.z() * kept;
        }
        density[n] = kept;
    });
}

Status writeVdbFrame(const std::filesystem::path &path, const VdbFrame &frame,
                     const VdbWriteOptions &options)
{
    const std::string what = "cannot write VDB file '" + path.string() + "'";
    return surface::guarded(what, [&] {
        Status s = writeFrame(path, frame, options);
        return s ? s : Status::failure(what + ": " + s.error);
    });
}

} // namespace plume
