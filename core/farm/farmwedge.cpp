// SPDX-License-Identifier: Apache-2.0
#include <core/farm/farmwedge.h>

#include <core/bake/wedgemanifest.h>

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace plume {

namespace {

sim::Status refuse(const QString &path, const QString &where, const QString &expected)
{
    return sim::Status::failure(
        QString("%1: %2: expected %3").arg(path, where, expected).toStdString());
}

/// A name that can be a folder and a file's base name on every farm machine.
bool isPlainName(const QString &name)
{
    static const QRegularExpression plain("^[A-Za-z0-9_][A-Za-z0-9_.-]*$");
    return plain.match(name).hasMatch() && name.size() <= 200;
}

} // namespace

bool isFarmWedgePath(const QString &path) { return path.endsWith(".json", Qt::CaseInsensitive); }

sim::Status readFarmWedge(const QString &path, FarmWedge &manifest)
{
    // The wedge's own reader validates the manifest; the farm adds what its folders need.
    const auto read = readWedgeManifest(path);
    if (!read)
        return read.status();
    const WedgeManifest &wedge = read.value();
    if (wedge.variations.empty())
        return refuse(path, "variations", "a non-empty array");
    FarmWedge m;
    m.path = QFileInfo(path).absoluteFilePath();
    m.source = QString::fromStdString(wedge.source);
    const QDir folder = QFileInfo(path).absoluteDir();
    for (const WedgeVariation &v : wedge.variations) {
        const QString where = QString("variations[%1]").arg(v.index);
        FarmWedgeEntry e;
        e.index = v.index;
        e.name = QString::fromStdString(v.name);
        if (!isPlainName(e.name))
            return refuse(path, where + ".name",
                          "a name of letters, digits, '_', '.' and '-' (it names a folder)");
        const QString scene = QString::fromStdString(v.scene);
        e.scene = QDir::cleanPath(folder.absoluteFilePath(scene));
        if (QFileInfo(e.scene).completeBaseName() != e.name)
            return refuse(path, where + ".scene",
                          "a file named after the variation (" + e.name + ".plume), got '" + scene
                              + "'");
        m.variations.push_back(e);
    }
    manifest = m;
    return sim::Status::success();
}

} // namespace plume
