// SPDX-License-Identifier: Apache-2.0
#include <core/surface/surface.h>

// After every oneTBB header: Qt defines `emit`.
#include <QSaveFile>

#include <cstdio>
#include <string>

namespace plume {

namespace {

/// A vector in the file's axes: Z up rotates (x, y, z) to (x, -z, y), as the VDB export.
sim::Vec3 toFile(const sim::Vec3 &v, bool zUp) { return zUp ? sim::Vec3{v.x, 0.f - v.z, v.y} : v; }

void appendLine(std::string &out, const char *tag, const sim::Vec3 &v)
{
    char line[96];
    // %.9g round-trips a float exactly.
    const int n = std::snprintf(line, sizeof line, "%s %.9g %.9g %.9g\n", tag, double(v.x),
                                double(v.y), double(v.z));
    out.append(line, std::size_t(n));
}

} // namespace

sim::Status writeObj(const std::filesystem::path &path, const SurfaceMesh &mesh, bool zUp,
                     const std::string &comment)
{
    const std::string where = "cannot write OBJ file '" + path.string() + "': ";
    if (mesh.normals.size() != mesh.positions.size())
        return sim::Status::failure(where + "the mesh has " + std::to_string(mesh.normals.size())
                                    + " normals for " + std::to_string(mesh.positions.size())
                                    + " vertices");
    std::string text = "# " + comment + "\n# " + std::to_string(mesh.positions.size())
                       + " vertices, " + std::to_string(mesh.triangles.size())
                       + " triangles, world units, " + (zUp ? "Z" : "Y") + " up\n";
    text.reserve(text.size() + mesh.positions.size() * 80 + mesh.triangles.size() * 40);
    for (const sim::Vec3 &p : mesh.positions)
        appendLine(text, "v", toFile(p, zUp));
    for (const sim::Vec3 &n : mesh.normals)
        appendLine(text, "vn", toFile(n, zUp));
    for (const auto &t : mesh.triangles) {
        for (std::uint32_t v : t)
            if (v >= mesh.positions.size())
                return sim::Status::failure(where + "a triangle refers to vertex "
                                            + std::to_string(v) + " of "
                                            + std::to_string(mesh.positions.size()));
        char line[96];
        const unsigned a = t[0] + 1, b = t[1] + 1, c = t[2] + 1;
        const int n = std::snprintf(line, sizeof line, "f %u//%u %u//%u %u//%u\n", a, a, b, b, c,
                                    c);
        text.append(line, std::size_t(n));
    }
    QSaveFile file(QString::fromStdU16String(path.u16string()));
    if (!file.open(QIODevice::WriteOnly))
        return sim::Status::failure(where + file.errorString().toStdString());
    if (file.write(text.data(), qint64(text.size())) != qint64(text.size())) {
        const std::string reason = file.errorString().toStdString();
        file.cancelWriting();
        return sim::Status::failure(where + reason);
    }
    if (!file.commit())
        return sim::Status::failure(where + file.errorString().toStdString());
    return sim::Status::success();
}

} // namespace plume
