// SPDX-License-Identifier: Apache-2.0
#include <core/farm/farmwedge.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

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
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return sim::Status::failure(QString("%1: cannot read the wedge manifest: %2")
                                        .arg(path, file.errorString())
                                        .toStdString());
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError)
        return sim::Status::failure(QString("%1: not JSON at offset %2: %3")
                                        .arg(path)
                                        .arg(error.offset)
                                        .arg(error.errorString())
                                        .toStdString());
    const QJsonObject o = doc.object();
    if (!doc.isObject() || o.value("format").toString() != "plume-wedge")
        return refuse(path, "format", "\"plume-wedge\" (a manifest written by plume-cli wedge)");
    if (o.value("version").toInt(-1) != 1)
        return refuse(path, "version", "1");
    if (!o.value("variations").isArray() || o.value("variations").toArray().isEmpty())
        return refuse(path, "variations", "a non-empty array");
    FarmWedge m;
    m.path = QFileInfo(path).absoluteFilePath();
    m.source = o.value("source").toString();
    const QDir folder = QFileInfo(path).absoluteDir();
    const QJsonArray list = o.value("variations").toArray();
    QSet<QString> names;
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString where = QString("variations[%1]").arg(i);
        const QJsonObject v = list[i].toObject();
        if (!list[i].isObject())
            return refuse(path, where, "an object with index, name and scene");
        FarmWedgeEntry e;
        e.index = v.value("index").toInt(-1);
        if (!v.value("index").isDouble() || e.index < 0)
            return refuse(path, where + ".index", "an integer >= 0");
        e.name = v.value("name").toString();
        if (!isPlainName(e.name))
            return refuse(path, where + ".name",
                          "a name of letters, digits, '_', '.' and '-' (it names a folder)");
        if (names.contains(e.name))
            return refuse(path, where + ".name",
                          "a name no other variation has, got '" + e.name + "'");
        names.insert(e.name);
        const QString scene = v.value("scene").toString();
        if (!v.value("scene").isString() || scene.isEmpty())
            return refuse(path, where + ".scene", "the variation's scene file");
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
