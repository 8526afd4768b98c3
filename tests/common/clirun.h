// SPDX-License-Identifier: Apache-2.0
#pragma once

// Runs the built plume-cli from a test (PLUME_BINARY_DIR, as tests/CMakeLists.txt defines it)
// and gives its exit code and output.

#include <QByteArray>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace plume::test {

inline const QString kCli = PLUME_BINARY_DIR "/bin/plume-cli";

struct CliRun
{
    int exitCode = -1;
    QString out;
    QString err;
};

/// plume-cli `args`; a run past five minutes stops the test.
inline CliRun runCli(const QStringList &args)
{
    QProcess p;
    p.start(kCli, args);
    if (!p.waitForFinished(300000))
        qFatal("plume-cli did not finish: %s", qPrintable(args.join(' ')));
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

/// A file's bytes (empty when it cannot be read).
inline QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace plume::test
