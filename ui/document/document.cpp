// SPDX-License-Identifier: Apache-2.0
#include <ui/document/document.h>

#include <ui/document/animationstate.h>

#include <core/io/scenewriter.h>

#include <algorithm>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace plume {

namespace {

/// A file inside the app (an example's model, image or texture, a ":/..." path) exists only
/// in this program: plume-cli and other machines cannot read it. Copies it beside the scene
/// file (reusing a file of that name with the same bytes, else numbering the name:
/// "knot-2.obj") and points `file` at the copy: relative to the folder the scene's paths
/// resolve against (the writer rewrites it relative to the file's folder); an unsaved scene
/// has none, and the copy is in `folder`. Other paths stay as they are.
sim::Status copyAppFile(std::string &file, const std::string &sceneDirectory, const QString &folder)
{
    const QString source = QString::fromStdString(file);
    if (!source.startsWith(QLatin1String(":/")))
        return sim::Status::success();
    QFile in(source);
    if (!in.open(QIODevice::ReadOnly))
        return sim::Status::failure("cannot read " + source.toStdString() + " to copy it");
    const QByteArray bytes = in.readAll();
    const QFileInfo info(source);
    QString target;
    for (int n = 1;; ++n) {
        const QString name =
            n == 1
                ? info.fileName()
                : QStringLiteral("%1-%2.%3").arg(info.completeBaseName()).arg(n).arg(info.suffix());
        target = QDir(folder).filePath(name);
        QFile existing(target);
        if (!existing.exists()) {
            QSaveFile out(target);
            if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size()
                || !out.commit())
                return sim::Status::failure("cannot write " + target.toStdString() + ": "
                                            + out.errorString().toStdString());
            break;
        }
        if (existing.open(QIODevice::ReadOnly) && existing.readAll() == bytes)
            break;
    }
    file =
        sceneDirectory.empty()
            ? QFileInfo(target).fileName().toStdString()
            : QDir(QString::fromStdString(sceneDirectory)).relativeFilePath(target).toStdString();
    return sim::Status::success();
}

} // namespace

// copyAppFile for every file the scene names: image masks, models, the liquid texture.
sim::Status copyAppFiles(Scene &scene, const QString &folder)
{
    for (Item &item : scene.items) {
        if (item.shape.type != ShapeType::Image && item.shape.type != ShapeType::Mesh)
            continue;
        if (sim::Status st = copyAppFile(item.shape.file, scene.directory, folder); !st)
            return st;
    }
    if (scene.simulation.liquidTexture.enabled())
        return copyAppFile(scene.simulation.liquidTexture.file, scene.directory, folder);
    return sim::Status::success();
}

Document::Document(QObject *parent)
    : QObject(parent)
    , mAnimation(new AnimationState(this))
{
    connect(&mUndoStack, &QUndoStack::cleanChanged, this,
            [this](bool clean) { Q_EMIT modifiedChanged(!clean); });
}

// ~QUndoStack clears the stack and emits cleanChanged: without this the document would emit
// modifiedChanged while it dies, into receivers that may be dying too (the MainWindow owns the
// document and is half destroyed by then: UBSan's vptr check caught MainWindow::updateTitle).
Document::~Document() { mUndoStack.disconnect(this); }

void Document::reset(Scene scene, const QString &filePath)
{
    mUndoStack.clear();
    mScene = std::move(scene);
    mFilePath = filePath;
    mSelected = -1;
    mSelection.clear();
    mUndoStack.setClean();
    Q_EMIT changed(ChangeEvent::reset());
    Q_EMIT selectionChanged(-1);
    Q_EMIT filePathChanged(mFilePath);
    Q_EMIT modifiedChanged(false);
}

sim::Status Document::save(const QString &path)
{
    Scene scene = mScene;
    if (sim::Status st = copyAppFiles(scene, QFileInfo(path).absolutePath()); !st)
        return st;
    if (sim::Status st = writeSceneFile(scene, path); !st)
        return st;
    mScene = std::move(scene);
    // The file's image paths are relative to its folder: the open scene takes the same paths
    // and folder, so it reads as the file does and finds the same images (undo commands rebase
    // the values they keep when they apply them, undocommands.h). No change event: the scene
    // simulates as before.
    rebaseScene(mScene, QFileInfo(path).absolutePath().toStdString());
    mFilePath = path;
    mUndoStack.setClean();
    Q_EMIT filePathChanged(mFilePath);
    return sim::Status::success();
}

bool Document::isSelected(int index) const
{
    return std::binary_search(mSelection.begin(), mSelection.end(), index);
}

void Document::setSelectedItem(int index)
{
    setSelection(index >= 0 ? std::vector<int>{index} : std::vector<int>{}, index);
}

void Document::setSelection(std::vector<int> items, int current)
{
    const int count = int(mScene.items.size());
    std::erase_if(items, [count](int i) { return i < 0 || i >= count; });
    if (std::find(items.begin(), items.end(), current) == items.end())
        current = items.empty() ? -1 : items.back();
    std::sort(items.begin(), items.end());
    items.erase(std::unique(items.begin(), items.end()), items.end());
    if (items == mSelection && current == mSelected)
        return;
    mSelection = std::move(items);
    mSelected = current;
    Q_EMIT selectionChanged(mSelected);
}

std::string Document::uniqueItemName(const std::string &base) const
{
    if (!mScene.findItem(base))
        return base;
    for (int n = 2;; ++n) {
        std::string name = base + " " + std::to_string(n);
        if (!mScene.findItem(name))
            return name;
    }
}

void Document::insertItem(int index, Item item)
{
    mScene.items.insert(mScene.items.begin() + index, std::move(item));
    // The selection keeps naming the same items.
    const std::vector<int> before = mSelection;
    for (int &i : mSelection)
        if (i >= index)
            ++i;
    const bool shifted = mSelected >= index;
    if (shifted)
        ++mSelected;
    Q_EMIT changed({ChangeEvent::Type::ItemAdded, index});
    if (shifted || mSelection != before)
        Q_EMIT selectionChanged(mSelected);
}

void Document::removeItem(int index)
{
    mScene.items.erase(mScene.items.begin() + index);
    // The selection is valid again before anyone hears of the change.
    const int before = mSelected;
    const std::vector<int> beforeSet = mSelection;
    std::erase(mSelection, index);
    for (int &i : mSelection)
        if (i > index)
            --i;
    if (mSelected == index)
        mSelected = mSelection.empty() ? -1 : mSelection.back();
    else if (mSelected > index)
        --mSelected;
    Q_EMIT changed({ChangeEvent::Type::ItemRemoved, index});
    if (mSelected != before || mSelection != beforeSet)
        Q_EMIT selectionChanged(mSelected);
}

void Document::setItem(int index, Item item)
{
    Item &current = mScene.items[std::size_t(index)];
    const ItemChanges what = changedProperties(current, item);
    current = std::move(item);
    Q_EMIT changed(ChangeEvent::itemChanged(index, what));
}

void Document::moveItem(int from, int to)
{
    if (from == to)
        return;
    const bool selected = isSelected(from);
    const bool current = mSelected == from;
    Item item = mScene.items[std::size_t(from)];
    removeItem(from);
    insertItem(to, std::move(item));
    if (selected) {
        std::vector<int> selection = mSelection;
        selection.push_back(to);
        setSelection(std::move(selection), current ? to : mSelected);
    }
}

void Document::setDomain(const DomainSettings &domain)
{
    const DomainChanges what = changedProperties(mScene.domain, domain);
    mScene.domain = domain;
    Q_EMIT changed(ChangeEvent::domainChanged(what));
}

void Document::setSimulation(const SimulationSettings &simulation)
{
    const SimulationChanges what = changedProperties(mScene.simulation, simulation);
    mScene.simulation = simulation;
    Q_EMIT changed(ChangeEvent::simulationChanged(what));
}

void Document::setSceneName(const std::string &name)
{
    mScene.name = name;
    Q_EMIT changed({ChangeEvent::Type::SceneName, -1});
}

void Document::setExports(const ExportPresets &exports)
{
    mScene.exports = exports;
    Q_EMIT changed({ChangeEvent::Type::Exports, -1});
}

} // namespace plume
