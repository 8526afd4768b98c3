// SPDX-License-Identifier: Apache-2.0
#include <ui/simulation/spillfolder.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUuid>

namespace plume {

namespace {

const QString kSessionPrefix = QStringLiteral("session-");
const QString kLockSuffix = QStringLiteral(".lock");

} // namespace

QString spillParentFor(const QString &scenePath)
{
    if (!scenePath.isEmpty() && !scenePath.startsWith(":/")) {
        const QFileInfo scene(scenePath);
        const QFileInfo folder(scene.absolutePath());
        if (folder.isDir() && folder.isWritable())
            return scene.absolutePath() + "/" + scene.fileName() + "-cache";
    }
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + "/frames";
}

SpillFolder::SpillFolder(const QString &parent)
    : mParent(QDir::cleanPath(parent))
    , mPath(mParent + "/" + kSessionPrefix + QUuid::createUuid().toString(QUuid::Id128))
{
    // What a crashed Plume left here goes now, not only once this session spills.
    removeStaleSessions(mParent);
    QDir().rmdir(mParent);
}

SpillFolder::~SpillFolder()
{
    if (!mMade)
        return;
    QDir(mPath).removeRecursively();
    mLock->unlock();
    QDir().rmdir(mParent); // only when empty: other sessions may be using it
}

int SpillFolder::removeStaleSessions(const QString &parent)
{
    const QDir dir(parent);
    int removed = 0;
    const QStringList sessions = dir.entryList({kSessionPrefix + "*"},
                                               QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &name : sessions) {
        // A live session holds its lock; locking it here succeeds only for a dead one (QLockFile
        // takes over a lock whose process is gone) or one that never made its lock.
        QLockFile lock(dir.filePath(name + kLockSuffix));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0))
            continue;
        QDir(dir.filePath(name)).removeRecursively();
        lock.unlock();
        ++removed;
    }
    return removed;
}

bool SpillFolder::ensureFolder()
{
    std::lock_guard lock(mMutex);
    if (mMade)
        return true;
    if (!QDir().mkpath(mParent))
        return false;
    // The lock before the folder, so that no other session ever sees the folder unlocked.
    mLock = std::make_unique<QLockFile>(mPath + kLockSuffix);
    mLock->setStaleLockTime(0);
    if (!mLock->tryLock(0) || !QDir().mkpath(mPath)) {
        mLock.reset();
        return false;
    }
    mMade = true;
    return true;
}

bool SpillFolder::write(const QString &name, const QByteArray &bytes)
{
    if (!ensureFolder())
        return false;
    QSaveFile file(mPath + "/" + name);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    if (file.write(bytes) != bytes.size()) {
        file.cancelWriting();
        return false;
    }
    return file.commit();
}

std::optional<QByteArray> SpillFolder::read(const QString &name) const
{
    QFile file(mPath + "/" + name);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    QByteArray bytes = file.readAll();
    if (bytes.size() != file.size())
        return std::nullopt;
    return bytes;
}

void SpillFolder::remove(const QString &name) { QFile::remove(mPath + "/" + name); }

} // namespace plume
