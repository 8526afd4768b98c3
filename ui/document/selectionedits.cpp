// SPDX-License-Identifier: Apache-2.0
#include <ui/document/selectionedits.h>

#include <ui/document/shapeedit.h>
#include <ui/document/undocommands.h>

#include <core/io/scenereader.h>
#include <core/io/scenewriter.h>
#include <core/scene/shapecoverage.h>

#include <QDir>
#include <QMimeData>

#include <algorithm>
#include <cctype>

namespace plume::selectionedits {

namespace {

bool hasFile(const Shape &shape)
{
    return shape.type == ShapeType::Image || shape.type == ShapeType::Mesh;
}

bool nameTaken(const Scene &scene, const std::vector<std::string> &taken, const std::string &name)
{
    return scene.findItem(name) || std::find(taken.begin(), taken.end(), name) != taken.end();
}

/// Whether an item of the scene lies exactly where `item` does (same shape and placement).
bool coincides(const Scene &scene, const Item &item)
{
    return std::any_of(scene.items.begin(), scene.items.end(), [&](const Item &other) {
        return other.shape == item.shape && other.offset == item.offset
               && other.rotation == item.rotation && other.scale == item.scale;
    });
}

QString countText(const char *verb, const std::vector<Item> &items)
{
    return items.size() == 1 ? QString("%1 %2").arg(verb, QString::fromStdString(items[0].name))
                             : QString("%1 %2 Items").arg(verb).arg(items.size());
}

} // namespace

std::string copyName(const Scene &scene, const std::string &name,
                     const std::vector<std::string> &taken)
{
    // "emitter 12" -> "emitter"; a name that is all digits keeps them.
    std::string base = name;
    const std::size_t space = base.find_last_of(' ');
    if (space != std::string::npos && space > 0 && space + 1 < base.size()
        && std::all_of(base.begin() + long(space) + 1, base.end(),
                       [](unsigned char c) { return std::isdigit(c) != 0; }))
        base.resize(space);
    for (int n = 2;; ++n) {
        std::string candidate = base + " " + std::to_string(n);
        if (!nameTaken(scene, taken, candidate))
            return candidate;
    }
}

sim::Vec3 duplicateNudge(const Scene &scene)
{
    const sim::Vec3 size = scene.domain.size;
    return {0.04f * size.x, -0.04f * size.y, 0.f};
}

QMimeData *copySelection(const Document &document)
{
    const Scene &scene = document.scene();
    if (document.selectedItems().empty())
        return nullptr;
    Scene clip;
    clip.name = "clipboard";
    clip.domain = scene.domain;
    for (int index : document.selectedItems()) {
        Item item = scene.items[std::size_t(index)];
        if (hasFile(item.shape))
            item.shape.file = resolveImagePath(item.shape.file, scene.directory);
        clip.items.push_back(std::move(item));
    }
    const QByteArray json = sceneToJson(clip, std::string());
    auto *data = new QMimeData;
    data->setData(kItemsMimeType, json);
    data->setText(QString::fromUtf8(json));
    return data;
}

std::vector<Item> itemsToPaste(const Document &document, const QMimeData &data, std::string *error)
{
    const auto fail = [error](const std::string &why) {
        if (error)
            *error = why;
        return std::vector<Item>{};
    };
    const QByteArray json = data.hasFormat(kItemsMimeType) ? data.data(kItemsMimeType)
                                                           : data.text().toUtf8();
    if (json.trimmed().isEmpty())
        return fail("the clipboard holds no items");
    // Paths in the data are absolute; the folder only matters to a hand-written relative one.
    const SceneReadResult read = readSceneJson(json, "the clipboard", std::string());
    if (!read.ok)
        return fail(read.error);
    const Scene &scene = document.scene();
    if (read.scene.domain.dimension != scene.domain.dimension)
        return fail(std::string("items of a ") + toString(read.scene.domain.dimension)
                    + " scene do not fit a " + toString(scene.domain.dimension) + " scene");
    if (read.scene.items.empty())
        return fail("the clipboard holds no items");
    std::vector<Item> items = read.scene.items;
    std::vector<std::string> names;
    for (Item &item : items) {
        if (hasFile(item.shape) && !scene.directory.empty() && !item.shape.file.starts_with(':'))
            item.shape.file = QDir(QString::fromStdString(scene.directory))
                                  .relativeFilePath(QString::fromStdString(item.shape.file))
                                  .toStdString();
        if (nameTaken(scene, names, item.name))
            item.name = copyName(scene, item.name, names);
        names.push_back(item.name);
    }
    // Pasting back where the items came from: nudge them all alike, as duplicates are.
    const sim::Vec3 nudge = duplicateNudge(scene);
    for (int tries = 0; tries < 100; ++tries) {
        if (std::none_of(items.begin(), items.end(),
                         [&](const Item &item) { return coincides(scene, item); }))
            break;
        for (Item &item : items)
            item.shape = translatedShape(item.shape, nudge);
    }
    return items;
}

void addItems(Document &document, std::vector<Item> items, const QString &text)
{
    if (items.empty())
        return;
    QUndoStack *stack = document.undoStack();
    stack->beginMacro(text);
    std::vector<int> added;
    for (Item &item : items) {
        const int index = int(document.scene().items.size());
        stack->push(new AddItem(&document, index, std::move(item)));
        added.push_back(index);
    }
    stack->endMacro();
    document.setSelection(added, added.back());
}

void duplicateSelection(Document &document)
{
    const Scene &scene = document.scene();
    std::vector<Item> copies;
    std::vector<std::string> names;
    for (int index : document.selectedItems()) {
        Item copy = scene.items[std::size_t(index)];
        copy.name = copyName(scene, copy.name, names);
        copy.shape = translatedShape(copy.shape, duplicateNudge(scene));
        names.push_back(copy.name);
        copies.push_back(std::move(copy));
    }
    const QString text = copies.size() == 1
                             ? QString("Duplicate %1")
                                   .arg(QString::fromStdString(
                                       scene.items[std::size_t(document.selectedItem())].name))
                             : QString("Duplicate %1 Items").arg(copies.size());
    addItems(document, std::move(copies), text);
}

void deleteSelection(Document &document)
{
    const std::vector<int> selected = document.selectedItems();
    if (selected.empty())
        return;
    std::vector<Item> gone;
    for (int index : selected)
        gone.push_back(document.scene().items[std::size_t(index)]);
    QUndoStack *stack = document.undoStack();
    stack->beginMacro(countText("Delete", gone));
    for (auto i = selected.rbegin(); i != selected.rend(); ++i)
        stack->push(new RemoveItem(&document, *i));
    stack->endMacro();
}

bool flag(const Item &item, Flag f)
{
    switch (f) {
    case Flag::Enabled: return item.enabled;
    case Flag::Hidden: return item.hidden;
    case Flag::Locked: return item.locked;
    }
    return false;
}

void setFlag(Document &document, Flag f, bool on)
{
    setFlag(document, document.selectedItems(), f, on);
}

void setFlag(Document &document, const std::vector<int> &items, Flag f, bool on)
{
    std::vector<std::pair<int, Item>> changes;
    for (int index : items) {
        Item item = document.scene().items[std::size_t(index)];
        if (flag(item, f) == on)
            continue;
        (f == Flag::Enabled ? item.enabled : f == Flag::Hidden ? item.hidden : item.locked) = on;
        changes.emplace_back(index, std::move(item));
    }
    if (changes.empty())
        return;
    static const char *const verbs[3][2] = {{"Disable", "Enable"},
                                            {"Show", "Hide"},
                                            {"Unlock", "Lock"}};
    const char *verb = verbs[int(f)][on ? 1 : 0];
    const QString text = changes.size() == 1
                             ? QString("%1 %2").arg(verb,
                                                    QString::fromStdString(changes[0].second.name))
                             : QString("%1 %2 Items").arg(verb).arg(changes.size());
    document.undoStack()->push(new ChangeItems(&document, text, std::move(changes)));
}

void moveSelection(Document &document, int step)
{
    const std::vector<int> selected = document.selectedItems();
    const int count = int(document.scene().items.size());
    if (selected.empty() || (step < 0 && selected.front() == 0)
        || (step > 0 && selected.back() == count - 1))
        return;
    QUndoStack *stack = document.undoStack();
    stack->beginMacro(step < 0 ? "Move Up" : "Move Down");
    if (step < 0)
        for (int index : selected)
            stack->push(new ReorderItem(&document, index, index - 1));
    else
        for (auto i = selected.rbegin(); i != selected.rend(); ++i)
            stack->push(new ReorderItem(&document, *i, *i + 1));
    stack->endMacro();
}

void moveItems(Document &document, std::vector<int> rows, int before)
{
    const int count = int(document.scene().items.size());
    std::erase_if(rows, [count](int r) { return r < 0 || r >= count; });
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    if (rows.empty())
        return;
    // Where the first moved item lands once the moved ones are out of the list.
    const int target = std::clamp(before, 0, count)
                       - int(std::count_if(rows.begin(), rows.end(),
                                           [before](int r) { return r < before; }));
    std::vector<int> order(static_cast<std::size_t>(count)); // original index at each position
    for (int n = 0; n < count; ++n)
        order[std::size_t(n)] = n;
    QUndoStack *stack = document.undoStack();
    bool begun = false;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        const int from = int(std::find(order.begin(), order.end(), rows[k]) - order.begin());
        const int to = target + int(k);
        if (from == to)
            continue;
        if (!begun) {
            stack->beginMacro(rows.size() == 1 ? "Reorder Item" : "Reorder Items");
            begun = true;
        }
        stack->push(new ReorderItem(&document, from, to));
        order.erase(order.begin() + from);
        order.insert(order.begin() + to, rows[k]);
    }
    if (begun)
        stack->endMacro();
    std::vector<int> moved;
    for (std::size_t k = 0; k < rows.size(); ++k)
        moved.push_back(target + int(k));
    document.setSelection(moved, moved.back());
}

} // namespace plume::selectionedits
