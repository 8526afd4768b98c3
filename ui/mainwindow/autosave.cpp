// SPDX-License-Identifier: Apache-2.0
#include <ui/mainwindow/autosave.h>

#include <core/io/scenereader.h>
#include <core/io/scenewriter.h>
#include <ui/document/document.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUuid>

#include <algorithm>

namespace plume {

namespace {

constexpr int kDefaultInterval = 60 * 1000;

QString sibling(const QString &manifestPath, const char *suffix)
{
    const QFileInfo info(manifestPath);
    return info.absolutePath() + "/" + info.completeBaseName() + suffix;
}

bool writeAtomically(const QString &path, const QByteArray &bytes, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        *error = path + ": " + file.errorString();
        return false;
    }
    return true;
}

} // namespace

AutoSave::AutoSave(Document *document, QObject *parent, const QString &folder)
    : QObject(parent)
    , mDocument(document)
    , mFolder(folder)
    , mSession(QUuid::createUuid().toString(QUuid::Id128))
{
    bool set = false;
    const int fromEnvironment = qEnvironmentVariableIntValue("PLUME_AUTOSAVE_MS", &set);
    mTimer.setInterval(set && fromEnvironment > 0 ? fromEnvironment : kDefaultInterval);
    connect(&mTimer, &QTimer::timeout, this, &AutoSave::onTimer);
    connect(document, &Document::changed, this, [this] { mDirty = true; });
    connect(document, &Document::modifiedChanged, this, [this](bool modified) {
        if (!modified)
            removeRecovery();
    });
    mTimer.start();
}

AutoSave::~AutoSave() { removeRecovery(); }

QString AutoSave::defaultFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + "/recovery";
}

void AutoSave::setInterval(int milliseconds) { mTimer.start(milliseconds); }

QString AutoSave::recoveryPath() const { return mFolder + "/" + mSession + ".plume"; }

void AutoSave::onTimer()
{
    if (mDirty)
        saveNow();
}

bool AutoSave::saveNow()
{
    if (!mDocument->isModified())
        return true;
    mError.clear();
    if (!QDir().mkpath(mFolder)) {
        mError = mFolder + ": cannot make the recovery folder";
    } else if (!mLock) {
        mLock = std::make_unique<QLockFile>(mFolder + "/" + mSession + ".lock");
        mLock->setStaleLockTime(0);
        if (!mLock->tryLock(0)) {
            mError = mLock->fileName() + ": cannot take the recovery lock";
            mLock.reset();
        }
    }
    if (mError.isEmpty()) {
        const Scene &scene = mDocument->scene();
        QJsonObject manifest;
        manifest["originalPath"] = mDocument->filePath();
        manifest["directory"] = QString::fromStdString(scene.directory);
        manifest["sceneName"] = QString::fromStdString(scene.name);
        manifest["savedAt"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
        // The scene first: a manifest always names a whole scene file.
        if (writeAtomically(recoveryPath(), sceneToJson(scene, {}), &mError)
            && writeAtomically(mFolder + "/" + mSession + ".json", QJsonDocument(manifest).toJson(),
                               &mError))
            mDirty = false;
    }
    if (!mError.isEmpty()) {
        Q_EMIT failed("Autosave failed: " + mError);
        return false;
    }
    return true;
}

void AutoSave::removeRecovery()
{
    if (!mLock)
        return;
    QFile::remove(mFolder + "/" + mSession + ".json");
    QFile::remove(recoveryPath());
    mLock->unlock();
    mLock.reset();
    mDirty = mDocument->isModified();
}

std::vector<Recovery> AutoSave::orphans(const QString &folder)
{
    std::vector<Recovery> out;
    const QDir dir(folder);
    for (const QString &name : dir.entryList({"*.json"}, QDir::Files)) {
        const QString manifestPath = dir.filePath(name);
        // A running session holds its lock; QLockFile takes over the lock of a dead process.
        QLockFile lock(sibling(manifestPath, ".lock"));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0))
            continue;
        lock.unlock();
        QFile file(manifestPath);
        Recovery r;
        r.manifestPath = manifestPath;
        r.scenePath = sibling(manifestPath, ".plume");
        if (file.open(QIODevice::ReadOnly)) {
            const QJsonObject m = QJsonDocument::fromJson(file.readAll()).object();
            r.originalPath = m["originalPath"].toString();
            r.directory = m["directory"].toString();
            r.sceneName = m["sceneName"].toString();
            r.savedAt = QDateTime::fromString(m["savedAt"].toString(), Qt::ISODateWithMs);
        }
        if (!r.savedAt.isValid())
            r.savedAt = QFileInfo(manifestPath).lastModified();
        out.push_back(r);
    }
    std::sort(out.begin(), out.end(),
              [](const Recovery &a, const Recovery &b) { return a.savedAt > b.savedAt; });
    return out;
}

bool AutoSave::read(const Recovery &recovery, Scene &scene, QString *error)
{
    QFile file(recovery.scenePath);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = recovery.scenePath + ": " + file.errorString();
        return false;
    }
    SceneReadResult r = readSceneJson(file.readAll(), recovery.scenePath,
                                      recovery.directory.toStdString());
    if (!r.ok) {
        *error = QString::fromStdString(r.error);
        return false;
    }
    scene = std::move(r.scene);
    return true;
}

void AutoSave::discard(const Recovery &recovery)
{
    QFile::remove(recovery.scenePath);
    QFile::remove(recovery.manifestPath);
    QFile::remove(sibling(recovery.manifestPath, ".lock"));
}

} // namespace plume
