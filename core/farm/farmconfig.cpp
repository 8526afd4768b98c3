// SPDX-License-Identifier: Apache-2.0
#include <core/farm/farmconfig.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace plume {

namespace {

sim::Status refuse(const QString &path, const QString &key, const QString &expected)
{
    return sim::Status::failure(
        QString("%1: key '%2': expected %3").arg(path, key, expected).toStdString());
}

/// A line that goes into a script as it is: one line, printable.
bool isOneLine(const QString &text)
{
    for (QChar c : text) {
        if (c == '\n' || c == '\r' || c == QChar(0))
            return false;
    }
    return !text.trimmed().isEmpty();
}

sim::Status readInt(const QString &path, const QJsonObject &o, const QString &key, int min, int max,
                    int &out)
{
    const QJsonValue v = o.value(key);
    const double d = v.toDouble(-1.0);
    if (!v.isDouble() || d != double(qint64(d)) || d < min || d > max)
        return refuse(path, key, QString("an integer from %1 to %2").arg(min).arg(max));
    out = int(d);
    return sim::Status::success();
}

sim::Status readLines(const QString &path, const QJsonObject &o, const QString &key,
                      bool sbatchOption, QStringList &out)
{
    const QJsonValue v = o.value(key);
    const QString expected = sbatchOption ? "an array of sbatch options, each one line starting "
                                            "with '--' (\"--mem=16G\")"
                                          : "an array of shell lines, each one line";
    if (!v.isArray())
        return refuse(path, key, expected);
    out.clear();
    for (const QJsonValue &line : v.toArray()) {
        const QString text = line.toString();
        if (!line.isString() || !isOneLine(text) || (sbatchOption && !text.startsWith("--")))
            return refuse(path, key, expected);
        out.push_back(text);
    }
    return sim::Status::success();
}

sim::Status readText(const QString &path, const QJsonObject &o, const QString &key, QString &out)
{
    const QJsonValue v = o.value(key);
    if (!v.isString() || !isOneLine(v.toString()) || v.toString().contains(' '))
        return refuse(path, key, "a string without spaces or line breaks");
    out = v.toString();
    return sim::Status::success();
}

} // namespace

QString farmConfigPath(const QString &explicitPath, bool &required)
{
    required = true;
    if (!explicitPath.isEmpty())
        return explicitPath;
    const QString fromEnvironment = qEnvironmentVariable("PLUME_FARM_CONFIG");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    required = false;
    return QDir::homePath() + "/.config/plume/farm.json";
}

sim::Status readFarmConfig(const QString &path, FarmConfig &config)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return sim::Status::failure(QString("%1: cannot read the farm config: %2")
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
    if (!doc.isObject())
        return sim::Status::failure(
            QString("%1: expected a JSON object of farm options").arg(path).toStdString());
    const QJsonObject o = doc.object();
    static const QStringList known{"account",     "qos",           "partition",       "time",
                                   "cpusPerTask", "framesPerTask", "checkpointEvery", "signalGrace",
                                   "sbatch",      "environment",   "plumeCli"};
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!known.contains(it.key()))
            return refuse(path, it.key(), "one of " + known.join(", ") + " (unknown key)");
    }
    FarmConfig c;
    sim::Status st;
    if (o.contains("account") && !(st = readText(path, o, "account", c.account)))
        return st;
    if (o.contains("qos") && !(st = readText(path, o, "qos", c.qos)))
        return st;
    if (o.contains("partition") && !(st = readText(path, o, "partition", c.partition)))
        return st;
    if (o.contains("time")) {
        if (!o.value("time").isString() || !isSlurmTime(o.value("time").toString()))
            return refuse(path, "time",
                          "a Slurm time limit: \"MM\", \"HH:MM:SS\" or \"D-HH:MM:SS\"");
        c.time = o.value("time").toString();
    }
    if (o.contains("cpusPerTask")
        && !(st = readInt(path, o, "cpusPerTask", 1, 4096, c.cpusPerTask)))
        return st;
    if (o.contains("framesPerTask")
        && !(st = readInt(path, o, "framesPerTask", 1, 100000, c.framesPerTask)))
        return st;
    if (o.contains("checkpointEvery")
        && !(st = readInt(path, o, "checkpointEvery", 1, 100000, c.checkpointEvery)))
        return st;
    if (o.contains("signalGrace")
        && !(st = readInt(path, o, "signalGrace", 10, 65535, c.signalGrace)))
        return st;
    if (o.contains("sbatch") && !(st = readLines(path, o, "sbatch", true, c.sbatch)))
        return st;
    if (o.contains("environment")
        && !(st = readLines(path, o, "environment", false, c.environment)))
        return st;
    if (o.contains("plumeCli")) {
        const QJsonValue v = o.value("plumeCli");
        if (!v.isString() || !isOneLine(v.toString()) || QFileInfo(v.toString()).isRelative())
            return refuse(path, "plumeCli", "an absolute path to plume-cli on the farm's machines");
        c.plumeCli = v.toString();
    }
    c.source = path;
    config = c;
    return sim::Status::success();
}

sim::Status loadFarmConfig(const QString &explicitPath, FarmConfig &config)
{
    bool required = true;
    const QString path = farmConfigPath(explicitPath, required);
    if (!required && !QFileInfo::exists(path)) {
        config = FarmConfig{};
        return sim::Status::success();
    }
    return readFarmConfig(path, config);
}

bool isSlurmTime(const QString &text) { return slurmTimeSeconds(text) >= 0; }

long long slurmTimeSeconds(const QString &text)
{
    static const QRegularExpression form(R"(^(?:(\d+)-)?(\d+)(?::(\d+))?(?::(\d+))?$)");
    const QRegularExpressionMatch m = form.match(text.trimmed());
    if (!m.hasMatch())
        return -1;
    const long long a = m.captured(2).toLongLong();
    const bool hasB = m.capturedLength(3) > 0, hasC = m.capturedLength(4) > 0;
    const long long b = m.captured(3).toLongLong(), c = m.captured(4).toLongLong();
    if (m.capturedLength(1) > 0) { // D-HH[:MM[:SS]]
        const long long days = m.captured(1).toLongLong();
        return ((days * 24 + a) * 60 + b) * 60 + c;
    }
    if (hasC) // HH:MM:SS
        return (a * 60 + b) * 60 + c;
    if (hasB) // MM:SS
        return a * 60 + b;
    return a * 60; // MM
}

} // namespace plume
