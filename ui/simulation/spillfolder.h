// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>

#include <memory>
#include <mutex>
#include <optional>

class QLockFile;

namespace plume {

/// The disk cache folder for a scene: `<scene>.plume-cache` beside a saved scene whose folder
/// can be written, else `frames` in the user's cache folder (QStandardPaths::CacheLocation).
QString spillParentFor(const QString &scenePath);

/// One session's folder of spilled files, `<parent>/session-<id>`, held by a lock file
/// `<parent>/session-<id>.lock` while it lives, so that two windows or two Plumes on one scene
/// never share files. Made on the first write; removed with everything in it when this object
/// goes (and the parent too when that leaves it empty). Session folders whose lock is stale (a
/// Plume that crashed) are removed when a new session of the same parent is made (and an
/// empty parent with them). Writes are atomic (a temporary file renamed over the name); all
/// members are thread-safe.
class SpillFolder
{
public:
    explicit SpillFolder(const QString &parent);
    ~SpillFolder();
    SpillFolder(const SpillFolder &) = delete;
    SpillFolder &operator=(const SpillFolder &) = delete;

    /// The session folder (it may not exist yet).
    QString path() const { return mPath; }
    /// Writes `name` atomically; false when the folder or the file cannot be written.
    bool write(const QString &name, const QByteArray &bytes);
    /// The bytes of `name`, or nothing when it cannot be read.
    std::optional<QByteArray> read(const QString &name) const;
    void remove(const QString &name);

    /// Removes the session folders under `parent` whose Plume is gone; returns how many.
    static int removeStaleSessions(const QString &parent);

private:
    bool ensureFolder();

    QString mParent;
    QString mPath;
    std::mutex mMutex; ///< guards making the folder
    std::unique_ptr<QLockFile> mLock;
    bool mMade = false;
};

using SpillFolderPtr = std::shared_ptr<SpillFolder>;

} // namespace plume
