// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <vector>

class QLockFile;

namespace plume {

class Document;
struct Scene;

/// A recovery file left by a Plume that did not quit cleanly.
struct Recovery
{
    QString scenePath;    ///< the autosaved scene (.plume)
    QString manifestPath; ///< its manifest (.json)
    QString originalPath; ///< the file the scene was open from; empty for an unsaved scene
    QString directory;    ///< where its relative image paths resolve
    QString sceneName;
    QDateTime savedAt;
};

/// Autosave: while the document has unsaved changes, every interval (a minute) the scene is
/// written to a recovery file, atomically (QSaveFile), with a small JSON manifest (the
/// original path, the folder its image paths resolve in, the time), in `folder`
/// (QStandardPaths::AppDataLocation/recovery by default). The session's files are
/// `<session>.plume`, `<session>.json` and a lock file `<session>.lock` held while they exist,
/// so a later Plume tells a crashed session's files (lock free) from a running one's. Only a
/// change since the last autosave writes again. The files go when the document becomes
/// unmodified (saved, undone to the saved state, another scene opened) and when this object
/// goes (a clean quit). PLUME_AUTOSAVE_MS in the environment sets the interval (tests, demos).
class AutoSave : public QObject
{
    Q_OBJECT

public:
    explicit AutoSave(Document *document, QObject *parent = nullptr,
                      const QString &folder = defaultFolder());
    ~AutoSave() override;

    static QString defaultFolder();

    void setInterval(int milliseconds);
    int interval() const { return mTimer.interval(); }
    /// Writes the recovery file now if the document has unsaved changes; false if that failed
    /// (the message is in lastError() and failed() was emitted).
    bool saveNow();
    /// The session's recovery scene file (it exists only after an autosave).
    QString recoveryPath() const;
    QString lastError() const { return mError; }
    /// Removes this session's recovery files.
    void removeRecovery();

    /// Recovery files of sessions that did not end cleanly (their lock is free), newest first.
    static std::vector<Recovery> orphans(const QString &folder = defaultFolder());
    /// Reads a recovery file; its relative image paths resolve where the original did.
    static bool read(const Recovery &recovery, Scene &scene, QString *error);
    /// Deletes a recovery's files.
    static void discard(const Recovery &recovery);

signals:
    void failed(const QString &message);

private:
    void onTimer();

    Document *mDocument;
    QString mFolder;
    QString mSession;
    QTimer mTimer;
    std::unique_ptr<QLockFile> mLock;
    QString mError;
    bool mDirty = false; ///< changed since the last autosave
};

} // namespace plume
