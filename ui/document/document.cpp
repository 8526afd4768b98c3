#include "document.h"

#include <io/scenewriter.h>

#include <QFileInfo>

namespace plume {

Document::Document(QObject *parent)
    : QObject(parent)
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
    mUndoStack.setClean();
    Q_EMIT changed(ChangeEvent::reset());
    Q_EMIT selectionChanged(-1);
    Q_EMIT filePathChanged(mFilePath);
    Q_EMIT modifiedChanged(false);
}

sim::Status Document::save(const QString &path)
{
    if (sim::Status st = writeSceneFile(mScene, path); !st)
        return st;
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

void Document::setSelectedItem(int index)
{
    if (index < -1 || index >= int(mScene.items.size()))
        index = -1;
    if (index == mSelected)
        return;
    mSelected = index;
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
    const bool shifted = mSelected >= index;
    if (shifted)
        ++mSelected;
    Q_EMIT changed({ChangeEvent::Type::ItemAdded, index});
    if (shifted)
        Q_EMIT selectionChanged(mSelected);
}

void Document::removeItem(int index)
{
    mScene.items.erase(mScene.items.begin() + index);
    // The selection is valid again before anyone hears of the change.
    const int before = mSelected;
    if (mSelected == index)
        mSelected = -1;
    else if (mSelected > index)
        --mSelected;
    Q_EMIT changed({ChangeEvent::Type::ItemRemoved, index});
    if (mSelected != before)
        Q_EMIT selectionChanged(mSelected);
}

void Document::setItem(int index, Item item)
{
    Item &current = mScene.items[std::size_t(index)];
    const ItemChanges what = changedProperties(current, item);
    current = std::move(item);
    Q_EMIT changed(ChangeEvent::itemChanged(index, what));
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
