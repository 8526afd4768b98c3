// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <ui/document/document.h>

#include <QByteArray>
#include <QString>

#include <string>
#include <vector>

class QMimeData;

namespace plume {

/// Edits of the document's selection as a whole (Edit menu, outliner, shortcuts): each is one
/// undo step, whatever the number of items (docs/editing.md).
namespace selectionedits {

/// The clipboard's MIME type for items. The data is a .plume scene (docs/scene-format.md)
/// holding the copied items and the source scene's domain, with model and image paths made
/// absolute, so that another Plume window (another folder) can paste them; the same text goes
/// to the clipboard as plain text.
inline constexpr const char *kItemsMimeType = "application/x-plume-items";

/// A name not used in the scene nor in `taken`, for a copy of an item called `name`: the
/// name's base (without a trailing " <number>") numbered from 2 ("emitter 2", "emitter 3").
std::string copyName(const Scene &scene, const std::string &name,
                     const std::vector<std::string> &taken = {});

/// The selected items as clipboard data (kItemsMimeType and text); null when none is selected.
QMimeData *copySelection(const Document &document);
/// The items of clipboard data (kItemsMimeType, else text holding a scene), ready for the
/// document's scene: names made unique, model and image paths relative to its folder. Items
/// lying exactly where items of the scene lie already (pasting back into the copied scene) are
/// nudged like duplicates. An empty result with `error` set says why nothing can be pasted.
std::vector<Item> itemsToPaste(const Document &document, const QMimeData &data, std::string *error);
/// Adds `items` on top of the scene (the end of the list) as one undo step, and selects them.
void addItems(Document &document, std::vector<Item> items, const QString &text);
/// Copies of the selected items, offset by a nudge so that they can be seen, added on top and
/// selected (Ctrl+D).
void duplicateSelection(Document &document);
/// Deletes every selected item (one undo step).
void deleteSelection(Document &document);

/// A flag every selected item takes at once.
enum class Flag { Enabled, Hidden, Locked };
bool flag(const Item &item, Flag f);
/// Sets `f` of every selected item to `on` (one undo step; items that have it already are
/// left alone).
void setFlag(Document &document, Flag f, bool on);
/// Sets `f` of the listed items to `on` (one undo step).
void setFlag(Document &document, const std::vector<int> &items, Flag f, bool on);

/// Moves every selected item one place up (towards the top of the outliner: a smaller index,
/// `step` -1) or down (`step` +1), keeping their order; nothing when one is at the end already.
void moveSelection(Document &document, int step);
/// Moves the items `rows` (any order) to sit before position `before` of the current list (the
/// scene's size: at the end), in their order, selected: the outliner's drag and drop.
void moveItems(Document &document, std::vector<int> rows, int before);

/// The nudge between an item and its duplicate: 4% of the domain's size, right and down in the
/// x-y plane.
sim::Vec3 duplicateNudge(const Scene &scene);

} // namespace selectionedits

} // namespace plume
