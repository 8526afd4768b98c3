// SPDX-License-Identifier: Apache-2.0
#include <core/export/vectorfield.h>

#include <core/export/frameimage.h>
#include <core/export/gridsample.h>

#include <QString>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace plume {

EngineAxes engineAxes(VectorFieldFormat format)
{
    if (format == VectorFieldFormat::Fga)
        return {{2, 0, 1}, {-1.f, 1.f, 1.f}};
    return {{0, 1, 2}, {1.f, 1.f, -1.f}};
}

namespace {

void appendNumber(QByteArray &out, float v)
{
    if (v == 0.f)
        v = 0.f; // no "-0"
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v).ptr;
    out.append(text, end - text);
    out.append(',');
}

void appendLittleEndian(QByteArray &out, const void *bytes, std::size_t size)
{
    // x86 and ARM are little-endian, as both formats are; a big-endian host swaps.
    const auto *b = static_cast<const char *>(bytes);
    if constexpr (std::endian::native == std::endian::little) {
        out.append(b, qsizetype(size));
    } else {
        for (std::size_t n = size; n-- > 0;)
            out.append(b[n]);
    }
}

} // namespace

VectorField sampleVectorField(const sim::Solver &solver, const VectorFieldSettings &settings)
{
    const sim::Domain &d = solver.sampleDomain();
    sim::ScalarGrid velocity[3];
    const sim::FieldKind kinds[3] = {sim::FieldKind::VelocityX, sim::FieldKind::VelocityY,
                                     sim::FieldKind::VelocityZ};
    for (int a = 0; a < 3; ++a) {
        if (a < 2 || !d.is2D())
            solver.sample(kinds[a], velocity[a]);
    }
    return resampleVectorField(d, velocity, settings);
}

VectorField resampleVectorField(const sim::Domain &d, const sim::ScalarGrid (&velocity)[3],
                                const VectorFieldSettings &settings)
{
    const sim::Int3 n = d.cells;
    const sim::Int3 m = resampledCells(d, settings.size);
    const int cells[3] = {n.x, n.y, n.z};
    const int grid[3] = {m.x, m.y, m.z};
    const EngineAxes axes = engineAxes(settings.format);
    VectorField out;
    int size[3];
    for (int a = 0; a < 3; ++a) {
        const int s = axes.source[a];
        size[a] = grid[s];
        const double lo = double(d.origin[s]) * settings.scale;
        const double hi = double(d.origin[s] + d.extent()[s]) * settings.scale;
        out.lo[a] = float(axes.sign[a] > 0 ? lo : -hi);
        out.hi[a] = float(axes.sign[a] > 0 ? hi : -lo);
    }
    out.size = {size[0], size[1], size[2]};
    out.values.reserve(std::size_t(out.size.volume()) * 3);
    int t[3];
    for (t[2] = 0; t[2] < size[2]; ++t[2])
        for (t[1] = 0; t[1] < size[1]; ++t[1])
            for (t[0] = 0; t[0] < size[0]; ++t[0]) {
                // The voxel's centre in Plume's cell coordinates.
                double c[3] = {0.0, 0.0, 0.0};
                for (int a = 0; a < 3; ++a) {
                    const int s = axes.source[a];
                    double f = (t[a] + 0.5) / size[a];
                    if (axes.sign[a] < 0)
                        f = 1.0 - f;
                    c[s] = f * cells[s] - 0.5;
                }
                for (int a = 0; a < 3; ++a) {
                    const int s = axes.source[a];
                    const float v = trilinear(velocity[s], c);
                    out.values.push_back(axes.sign[a] * v * settings.scale);
                }
            }
    return out;
}

sim::Status VectorFieldAverage::add(const VectorField &field)
{
    if (mFrames == 0) {
        mGrid = {field.size, {}, field.lo, field.hi};
        mSum.assign(field.values.size(), 0.0);
    } else if (!(field.size == mGrid.size) || field.values.size() != mSum.size()) {
        return sim::Status::failure("the vector field's frames differ in size");
    }
    for (std::size_t c = 0; c < mSum.size(); ++c)
        mSum[c] += double(field.values[c]);
    ++mFrames;
    return sim::Status::success();
}

VectorField VectorFieldAverage::mean() const
{
    if (mFrames == 0)
        return {};
    VectorField out = mGrid;
    out.values.reserve(mSum.size());
    for (double sum : mSum)
        out.values.push_back(float(sum / mFrames));
    return out;
}

QByteArray vectorFieldBytes(const VectorField &field, VectorFieldFormat format)
{
    QByteArray out;
    if (format == VectorFieldFormat::Vf) {
        out.reserve(qsizetype(10 + 4 * field.values.size()));
        out.append("VF_V", 4);
        for (int size : {field.size.x, field.size.y, field.size.z}) {
            const std::uint16_t s = std::uint16_t(size);
            appendLittleEndian(out, &s, sizeof s);
        }
        for (float v : field.values)
            appendLittleEndian(out, &v, sizeof v);
        return out;
    }
    out.append(QByteArray::number(field.size.x) + "," + QByteArray::number(field.size.y) + ","
               + QByteArray::number(field.size.z) + ",\n");
    for (const sim::Vec3 &corner : {field.lo, field.hi}) {
        for (int a = 0; a < 3; ++a)
            appendNumber(out, corner[a]);
        out.append('\n');
    }
    for (std::size_t c = 0; c < field.values.size(); c += 3) {
        for (int a = 0; a < 3; ++a)
            appendNumber(out, field.values[c + std::size_t(a)]);
        out.append('\n');
    }
    return out;
}

const char *vectorFieldExtension(VectorFieldFormat format)
{
    return format == VectorFieldFormat::Fga ? ".fga" : ".vf";
}

sim::Status writeVectorField(const VectorField &field, VectorFieldFormat format,
                             const std::string &path)
{
    return writeFilesAtomically({QString::fromStdString(path)}, {vectorFieldBytes(field, format)});
}

} // namespace plume
