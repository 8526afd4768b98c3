// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/document/document.h>

#include <core/scene/shapecoverage.h>

#include <QUndoCommand>

#include <string>
#include <utility>
#include <vector>

namespace plume {

/// Image paths are relative to the scene's folder, which a save into another folder changes
/// (Document::save rebases the open scene's paths). A command keeps the folder its values were
/// taken in and brings them to the document's folder when it applies them, so undo and redo
/// after "Save As" elsewhere find the same images.
namespace imagepaths {

inline void rebase(Shape &shape, const std::string &from, const std::string &to)
{
    rebaseImageShape(shape, from, to);
}
inline void rebase(Item &item, const std::string &from, const std::string &to)
{
    rebaseImageShape(item.shape, from, to);
}
/// Values without image paths.
template<class T>
void rebase(T &, const std::string &, const std::string &)
{}

/// `value`, taken when the scene's folder was `from`, for the folder `to`.
template<class T>
T inFolder(T value, const std::string &from, const std::string &to)
{
    if (from != to)
        rebase(value, from, to);
    return value;
}

} // namespace imagepaths

/// Merge ids: consecutive commands with the same id, target and key merge into one undo step
/// (one drag of an item gives one step; the tool passes a new key for every drag).
enum class MergeId {
    None = -1,
    MoveItem = 1,
    ScaleItem,
    RotateItem,
    EditItem,
    EditDomain,
    EditSimulation,
    EditItems,
};

/// Adds an item at `index`.
class AddItem : public QUndoCommand
{
public:
    AddItem(Document *document, int index, Item item, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *mDocument;
    int mIndex;
    Item mItem;
    std::string mDirectory; ///< the scene's folder when mItem was taken
};

/// Removes the item at `index` (undo puts the same item back at the same place).
class RemoveItem : public QUndoCommand
{
public:
    RemoveItem(Document *document, int index, QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;

private:
    Document *mDocument;
    int mIndex;
    Item mItem;
    std::string mDirectory; ///< the scene's folder when mItem was taken
};

/// Sets several items at once (a move or scale of a multi-selection; enabling, hiding or locking
/// several): one undo step. `items` pairs an index with the item's new value. With a merge id,
/// consecutive commands with the same key and the same indices merge (one drag, one step).
class ChangeItems : public QUndoCommand
{
public:
    ChangeItems(Document *document, const QString &text, std::vector<std::pair<int, Item>> items,
                MergeId merge = MergeId::None, quint64 mergeKey = 0,
                QUndoCommand *parent = nullptr);
    void redo() override;
    void undo() override;
    int id() const override { return int(mMerge); }
    bool mergeWith(const QUndoCommand *other) override;

private:
    struct Change
    {
        int index;
        Item before;
        Item after;
    };
    Document *mDocument;
    std::vector<Change> mChanges;
    MergeId mMerge;
    quint64 mMergeKey;
    std::string mDirectory; ///< the scene's folder when the items were taken
};

/// Moves the item at `from` to position `to` in the item list (Move Up/Down, a drag in the
/// outliner); the item keeps its selection.
class ReorderItem : public QUndoCommand
{
public:
    ReorderItem(Document *document, int from, int to, QUndoCommand *parent = nullptr);
    void redo() override { mDocument->moveItem(mFrom, mTo); }
    void undo() override { mDocument->moveItem(mTo, mFrom); }

private:
    Document *mDocument;
    int mFrom;
    int mTo;
};

/// One value of the scene, read and written through a trait (Tiled's ChangeValue):
///   using Value = ...; static const char *text();
///   static Value get(const Scene &, int index); static void set(Document &, int, Value).
/// `index` names the item for item traits and is ignored by scene-wide ones.
template<class Trait>
class ChangeValue : public QUndoCommand
{
public:
    using Value = typename Trait::Value;

    ChangeValue(Document *document, int index, Value value, MergeId merge = MergeId::None,
                quint64 mergeKey = 0, QUndoCommand *parent = nullptr)
        : QUndoCommand(QString::fromUtf8(Trait::text()), parent)
        , mDocument(document)
        , mIndex(index)
        , mOld(Trait::get(document->scene(), index))
        , mNew(std::move(value))
        , mMerge(merge)
        , mMergeKey(mergeKey)
        , mDirectory(document->scene().directory)
    {}

    void redo() override { Trait::set(*mDocument, mIndex, inDocumentFolder(mNew)); }
    void undo() override { Trait::set(*mDocument, mIndex, inDocumentFolder(mOld)); }
    int id() const override { return int(mMerge); }

    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *o = dynamic_cast<const ChangeValue *>(other);
        if (!o || o->mDocument != mDocument || o->mIndex != mIndex || o->mMergeKey != mMergeKey)
            return false;
        mNew = imagepaths::inFolder(o->mNew, o->mDirectory, mDirectory);
        setObsolete(mNew == mOld);
        return true;
    }

private:
    Value inDocumentFolder(const Value &value) const
    {
        return imagepaths::inFolder(value, mDirectory, mDocument->scene().directory);
    }

    Document *mDocument;
    int mIndex;
    Value mOld;
    Value mNew;
    MergeId mMerge;
    quint64 mMergeKey;
    std::string mDirectory; ///< the scene's folder when mOld and mNew were taken
};

/// Traits, one per editable value.
namespace values {

/// A whole item (move, scale, eraser trims: anything touching several fields at once).
struct ItemValue
{
    using Value = Item;
    static const char *text() { return "Edit Item"; }
    static Value get(const Scene &s, int i) { return s.items[std::size_t(i)]; }
    static void set(Document &d, int i, const Value &v) { d.setItem(i, v); }
};

/// Defines a trait for one member of Item.
#define PLUME_ITEM_MEMBER_TRAIT(Name, Member, Label)                                               \
    struct Name                                                                                    \
    {                                                                                              \
        using Value = decltype(Item::Member);                                                      \
        static const char *text() { return Label; }                                                \
        static Value get(const Scene &s, int i) { return s.items[std::size_t(i)].Member; }         \
        static void set(Document &d, int i, const Value &v)                                        \
        {                                                                                          \
            Item item = d.scene().items[std::size_t(i)];                                           \
            item.Member = v;                                                                       \
            d.setItem(i, std::move(item));                                                         \
        }                                                                                          \
    };

PLUME_ITEM_MEMBER_TRAIT(ItemName, name, "Rename Item")
PLUME_ITEM_MEMBER_TRAIT(ItemEnabled, enabled, "Enable/Disable Item")
PLUME_ITEM_MEMBER_TRAIT(ItemHidden, hidden, "Hide/Show Item")
PLUME_ITEM_MEMBER_TRAIT(ItemLocked, locked, "Lock/Unlock Item")
PLUME_ITEM_MEMBER_TRAIT(ItemActiveStart, activeStart, "Change Active Start")
PLUME_ITEM_MEMBER_TRAIT(ItemActiveEnd, activeEnd, "Change Active End")
PLUME_ITEM_MEMBER_TRAIT(ItemKindValue, kind, "Change Item Kind")
PLUME_ITEM_MEMBER_TRAIT(ItemShape, shape, "Change Shape")
PLUME_ITEM_MEMBER_TRAIT(ItemOffset, offset, "Change Offset")
PLUME_ITEM_MEMBER_TRAIT(ItemRotation, rotation, "Rotate Item")
PLUME_ITEM_MEMBER_TRAIT(ItemScale, scale, "Change Scale")
PLUME_ITEM_MEMBER_TRAIT(ItemObstacle, obstacle, "Change Obstacle")
PLUME_ITEM_MEMBER_TRAIT(ItemEmitter, emitter, "Change Emitter")
PLUME_ITEM_MEMBER_TRAIT(ItemForce, force, "Change Force")

#undef PLUME_ITEM_MEMBER_TRAIT

struct SceneDomain
{
    using Value = DomainSettings;
    static const char *text() { return "Change Domain"; }
    static Value get(const Scene &s, int) { return s.domain; }
    static void set(Document &d, int, const Value &v) { d.setDomain(v); }
};

/// The window's preview resolution alone (View > Preview Resolution, the status bar's button).
struct ScenePreview
{
    using Value = PreviewResolution;
    static const char *text() { return "Change Preview Resolution"; }
    static Value get(const Scene &s, int) { return s.domain.preview; }
    static void set(Document &d, int, const Value &v)
    {
        DomainSettings domain = d.scene().domain;
        domain.preview = v;
        d.setDomain(domain);
    }
};

struct SceneSimulation
{
    using Value = SimulationSettings;
    static const char *text() { return "Change Simulation Settings"; }
    static Value get(const Scene &s, int) { return s.simulation; }
    static void set(Document &d, int, const Value &v) { d.setSimulation(v); }
};

struct SceneName
{
    using Value = std::string;
    static const char *text() { return "Rename Scene"; }
    static Value get(const Scene &s, int) { return s.name; }
    static void set(Document &d, int, const Value &v) { d.setSceneName(v); }
};

/// The export presets (the export dialog remembers its last settings here).
struct SceneExports
{
    using Value = ExportPresets;
    static const char *text() { return "Change Export Settings"; }
    static Value get(const Scene &s, int) { return s.exports; }
    static void set(Document &d, int, const Value &v) { d.setExports(v); }
};

} // namespace values

} // namespace plume
