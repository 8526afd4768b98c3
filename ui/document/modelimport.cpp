// SPDX-License-Identifier: Apache-2.0
#include <ui/document/modelimport.h>

#include <core/scene/meshcoverage.h>
#include <core/scene/shapecoverage.h>

#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace plume {

std::string scenePathOf(const Scene &scene, const QString &file)
{
    const QString absolute = QFileInfo(file).absoluteFilePath();
    if (scene.directory.empty())
        return absolute.toStdString();
    return QDir(QString::fromStdString(scene.directory)).relativeFilePath(absolute).toStdString();
}

Item modelItem(const Scene &scene, const QString &file, const TriangleMesh &mesh,
               const ModelImportOptions &options, std::optional<sim::Vec3> at)
{
    Item item;
    item.name = options.name;
    item.kind = options.kind;
    Shape &shape = item.shape;
    shape.type = ShapeType::Mesh;
    shape.file = scenePathOf(scene, file);
    const DomainSettings &d = scene.domain;
    const bool twoD = d.dimension == Dimension::TwoD;
    const sim::Vec3 centre = (mesh.lo + mesh.hi) * 0.5f;
    const sim::Vec3 extent = mesh.hi - mesh.lo;
    if (options.fit) {
        float s = 0.f;
        for (int a = 0; a < (twoD ? 2 : 3); ++a)
            if (extent[a] > 0.f) {
                const float fits = 0.25f * d.size[a] / extent[a];
                s = s > 0.f ? std::min(s, fits) : fits;
            }
        if (!(s > 0.f))
            s = 1.f;
        const sim::Vec3 target = at.value_or(d.origin + d.size * 0.5f);
        shape.meshScale = {s, s, s};
        shape.meshTranslation = target - centre * s;
    } else if (at) {
        shape.meshTranslation = *at - centre;
    }
    // A 2D scene sees the model where the domain's middle z plane cuts it: through its middle.
    if (twoD)
        shape.meshTranslation.z = d.origin.z + 0.5f * d.size.z - centre.z * shape.meshScale.z;
    return item;
}

QString meshStatus(const Scene &scene, const Shape &shape)
{
    const auto loaded = loadMesh(resolveImagePath(shape.file, scene.directory));
    if (!loaded)
        return QString::fromStdString(loaded.error());
    const MeshPtr &mesh = loaded.value();
    const QString triangles = QString("%1 triangles").arg(mesh->triangles.size());
    const float cell = domainCellSize(scene.domain);
    const float used = meshShellCells(shape.thickness, cell) * cell;
    QString thickness = QString::number(double(used), 'g', 4);
    if (shape.thickness < used)
        thickness += " (two cells)";
    if (!mesh->closed())
        return QString("open (%1 open edges), %2: used as a shell of thickness %3")
            .arg(mesh->openEdges)
            .arg(triangles, thickness);
    if (shape.fill == MeshFill::Surface)
        return QString("closed, %1: fill 'surface', a shell of thickness %2")
            .arg(triangles, thickness);
    return "closed, " + triangles;
}

} // namespace plume
