// SPDX-License-Identifier: Apache-2.0
#include <core/export/vdbcache.h>

#include <core/sim/base/parallel.h>
#include <core/surface/levelset.h>

#include <openvdb/io/File.h>
#include <openvdb/openvdb.h>

#include <array>
#include <cmath>
#include <fstream>
#include <mutex>
#include <optional>

namespace plume {

namespace {

using sim::Int3;
using sim::ScalarGrid;
using sim::Status;

std::once_flag gInitOnce;

std::string text(const openvdb::Coord &c)
{
    return "(" + std::to_string(c.x()) + ", " + std::to_string(c.y()) + ", " + std::to_string(c.z())
           + ")";
}

/// Where a file voxel lands among the domain's cells: Y-up as it is, Z-up voxel (i, j, k) is
/// cell (i, k, nz-1-j). False outside the domain.
struct CellOf
{
    Int3 cells;
    bool zUp = false;

    bool operator()(const openvdb::Coord &c, std::size_t &index) const
    {
        const int i = c.x();
        const int j = zUp ? c.z() : c.y();
        const int k = zUp ? cells.z - 1 - c.y() : c.z();
        if (i < 0 || j < 0 || k < 0 || i >= cells.x || j >= cells.y || k >= cells.z)
            return false;
        index = std::size_t(i) + std::size_t(cells.x) * (std::size_t(j) + std::size_t(cells.y) * k);
        return true;
    }
};

/// The written index box's translation for an up axis (vdbwriter.cpp's cellCentredTransform).
openvdb::Vec3d expectedTranslation(const sim::Domain &d, UpAxis up)
{
    const double h = d.cellSize;
    const openvdb::Vec3d o(d.origin.x, d.origin.y, d.origin.z);
    const openvdb::Vec3d low = up == UpAxis::Y
                                   ? o
                                   : openvdb::Vec3d(o.x(), -(o.z() + d.cells.z * h), o.y());
    return low + openvdb::Vec3d(0.5 * h);
}

bool near(const openvdb::Vec3d &a, const openvdb::Vec3d &b, double tolerance)
{
    return (a - b).length() <= tolerance;
}

/// Copies a grid's active values (voxels and tiles) into `out` (x-fastest over the domain);
/// `put(index, value)` stores one. Fails on a voxel outside the domain or a non-finite value.
template<class GridT, class Put>
Status copyActive(const GridT &grid, const CellOf &cellOf, const std::string &name, Put &&put)
{
    for (auto it = grid.cbeginValueOn(); it; ++it) {
        openvdb::CoordBBox box;
        it.getBoundingBox(box);
        const auto value = *it;
        if constexpr (std::is_same_v<typename GridT::ValueType, float>) {
            if (!std::isfinite(value))
                return Status::failure(name + " is not finite at voxel " + text(it.getCoord()));
        } else if (!value.isFinite()) {
            return Status::failure(name + " is not finite at voxel " + text(it.getCoord()));
        }
        for (auto c = box.begin(); c; ++c) {
            std::size_t index = 0;
            if (!cellOf(*c, index))
                return Status::failure(name + " has an active voxel " + text(*c)
                                       + " outside the scene's domain (a cache of another "
                                         "scene or resolution?)");
            put(index, value);
        }
    }
    return Status::success();
}

Status readFrame(const std::filesystem::path &path, const sim::Domain &domain, VdbFields &out)
{
    std::call_once(gInitOnce, [] { openvdb::initialize(); });
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        return Status::failure("no such file");
    openvdb::io::File file(path.string());
    file.open(/*delayLoad=*/false);
    const openvdb::MetaMap::Ptr meta = file.getMetadata();
    if (!file.hasGrid("density")) {
        file.close();
        return Status::failure("it has no density grid");
    }
    auto density = openvdb::gridPtrCast<openvdb::FloatGrid>(file.readGrid("density"));
    if (!density) {
        file.close();
        return Status::failure("its density grid is not a float grid");
    }
    // The placement tells the up axis (and refuses another domain); metadata settles a tie.
    const openvdb::math::Transform &xform = density->transform();
    const double h = domain.cellSize;
    const openvdb::Vec3d t = xform.indexToWorld(openvdb::Vec3d(0.0));
    const double tolerance = 1e-4 * h;
    if (!xform.isLinear() || std::abs(xform.voxelSize().x() - h) > tolerance)
        return Status::failure("its voxel size " + std::to_string(xform.voxelSize().x())
                               + " is not the scene's cell size " + std::to_string(h)
                               + " (a cache of another scene or resolution?)");
    const bool yFits = near(t, expectedTranslation(domain, UpAxis::Y), tolerance);
    const bool zFits = near(t, expectedTranslation(domain, UpAxis::Z), tolerance);
    std::optional<UpAxis> up;
    if (yFits != zFits)
        up = yFits ? UpAxis::Y : UpAxis::Z;
    else if (yFits) {
        const std::string axis = meta ? meta->metaValue<std::string>("up_axis") : std::string();
        up = axis == "z" ? UpAxis::Z : UpAxis::Y;
    }
    if (!up) {
        file.close();
        return Status::failure("its grids are not placed on the scene's domain (a cache of "
                               "another scene, size or origin?)");
    }
    const CellOf cellOf{domain.cells, *up == UpAxis::Z};
    out.domain = domain;
    auto scalar = [&](const char *name, ScalarGrid &grid, bool required) -> Status {
        grid = ScalarGrid();
        openvdb::FloatGrid::Ptr g = name == std::string("density")
                                        ? density
                                        : (file.hasGrid(name)
                                               ? openvdb::gridPtrCast<openvdb::FloatGrid>(
                                                   file.readGrid(name))
                                               : nullptr);
        if (!g)
            return required ? Status::failure(std::string("no float grid ") + name)
                            : Status::success();
        grid.reshape(domain.cells, sim::kCellCentre);
        float *data = grid.data();
        return copyActive(*g, cellOf, name, [&](std::size_t n, float v) { data[n] = v; });
    };
    if (Status st = scalar("density", out.density, true); !st)
        return st;
    for (auto [name, grid] :
         {std::pair{"temperature", &out.temperature}, {"flame", &out.flame}, {"fuel", &out.fuel}})
        if (Status st = scalar(name, *grid, false); !st)
            return st;
    // Vectors: the file's components first, rotated back and multiplied out below.
    auto vector = [&](const char *name, std::array<ScalarGrid *, 3> grids) -> Status {
        for (ScalarGrid *g : grids)
            *g = ScalarGrid();
        if (!file.hasGrid(name))
            return Status::success();
        auto g = openvdb::gridPtrCast<openvdb::Vec3SGrid>(file.readGrid(name));
        if (!g)
            return Status::failure(std::string(name) + " is not a vec3s grid");
        std::array<float *, 3> data;
        for (int a = 0; a < 3; ++a) {
            grids[a]->reshape(domain.cells, sim::kCellCentre);
            data[a] = grids[a]->data();
        }
        return copyActive(*g, cellOf, name, [&](std::size_t n, const openvdb::Vec3s &v) {
            data[0][n] = v.x();
            data[1][n] = v.y();
            data[2][n] = v.z();
        });
    };
    if (Status st = vector("vel", {&out.velocityX, &out.velocityY, &out.velocityZ}); !st)
        return st;
    if (Status st = vector("Cd", {&out.dyeRed, &out.dyeGreen, &out.dyeBlue}); !st)
        return st;
    file.close();
    // In the solver's axes, and dye as colour times density (keepAsWritten does the same
    // arithmetic, under the same flush-to-zero mode of the parallel loops).
    const bool zUp = cellOf.zUp;
    const bool velocity = out.hasVelocity(), dye = out.hasDye();
    float *vy = velocity ? out.velocityY.data() : nullptr;
    float *vz = velocity ? out.velocityZ.data() : nullptr;
    const float *d = out.density.data();
    float *r = dye ? out.dyeRed.data() : nullptr;
    float *g = dye ? out.dyeGreen.data() : nullptr;
    float *b = dye ? out.dyeBlue.data() : nullptr;
    sim::forEachIndex(std::int64_t(out.density.count()), [&](std::int64_t n) {
        if (velocity && zUp) {
            const float fileY = vy[n];
            vy[n] = vz[n];
            vz[n] = 0.f - fileY;
        }
        if (dye) {
            r[n] = r[n] * d[n];
            g[n] = g[n] * d[n];
            b[n] = b[n] * d[n];
        }
    });
    if (domain.is2D() && velocity)
        out.velocityZ = ScalarGrid();
    return Status::success();
}

} // namespace

Status readVdbFrame(const std::filesystem::path &path, const sim::Domain &domain, VdbFields &out)
{
    const std::string what = "cannot read VDB file '" + path.string() + "'";
    return surface::guarded(what, [&] {
        Status s = readFrame(path, domain, out);
        return s ? s : Status::failure(what + ": " + s.error);
    });
}

sim::Result<std::string> vdbContentId(const std::filesystem::path &path)
{
    // vdbwriter.cpp's header layout: the UUID's 36 characters after 21 bytes.
    constexpr std::size_t kUuidOffset = 21, kUuidLength = 36;
    std::ifstream in(path, std::ios::binary);
    std::string header(kUuidOffset + kUuidLength, '\0');
    if (!in || !in.read(header.data(), std::streamsize(header.size())))
        return sim::Status::failure("cannot read the header of '" + path.string() + "'");
    return header.substr(kUuidOffset);
}

} // namespace plume
