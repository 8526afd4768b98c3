// SPDX-License-Identifier: Apache-2.0
#pragma once

// Wedges: variations of a scene, each a scene file of its own, and the manifest that lists them
// (docs/wedges.md). A variation sets scene-format keys (the JSON paths of docs/scene-format.md,
// with `items[name]` or `items[index]` picking an item) in the scene's JSON and reads the result
// back with the scene reader, so the reader's tables validate every value. Nothing here throws:
// each function returns an error message instead.

#include <core/bake/wedgemanifest.h>
#include <core/io/scenereader.h>
#include <core/scene/scene.h>
#include <core/sim/base/result.h>

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace plume {

/// A key and its values: a list (`0.1,0.2,0.4`, `linear,cubic`) or a range `A:B:N` (N values
/// evenly from A to B inclusive; `A:B` alone only for random wedges).
struct WedgeAxis
{
    std::string key;              ///< e.g. "simulation.vorticity", "items[charge].emitter.fuel"
    std::vector<WedgeValue> list; ///< the list's values; empty for a range
    bool range = false;
    double from = 0.0;
    double to = 0.0;
    int count = 0; ///< the range's N; 0 when written A:B
    /// The key takes integers only (domain.resolution): random draws are integers. Set by
    /// checkWedge() and planWedge(), which ask the scene reader.
    bool integral = false;

    /// The values a product takes: the list, or the range's N values, ends exact.
    std::vector<WedgeValue> values() const;
};

/// What varies: the keys' values, as a product (the default) or drawn at random.
struct WedgeSpec
{
    std::vector<WedgeAxis> axes;
    std::optional<WedgeRandom> random;
};

/// A wedge ready to write: the manifest and each variation's scene (its Scene::directory the
/// wedge's folder).
struct WedgePlan
{
    WedgeManifest manifest;
    std::vector<Scene> scenes; ///< one per variation, in order
};

/// Checks a key's syntax: names joined by dots, each followed by any `[index]` or `[name]`.
sim::Status checkWedgeKey(const std::string &key);

/// Parses "KEY=VALUES" (plume-cli wedge --vary). Checks the syntax only; planWedge() checks the
/// key and values against a scene.
sim::Result<WedgeAxis> parseWedgeAxis(const std::string &text);

/// Parses VALUES for `key`: `a,b,c` or `A:B:N` (or `A:B`). Each list value is a number when it
/// reads as one, `true` or `false` a boolean, anything else a string.
sim::Result<WedgeAxis> parseWedgeValues(const std::string &key, const std::string &values);

/// Each variation's values, in order: the product of the keys' values (the last key varying
/// fastest), or the random draws. Refuses bad ranges and more than kMaxWedgeVariations
/// variations with a message naming the count and the limit.
sim::Result<std::vector<std::vector<WedgeValue>>> wedgeValues(const WedgeSpec &spec);

/// The number of variations the spec makes, or -1 when it is above kMaxWedgeVariations (or has
/// no keys).
long long wedgeCount(const WedgeSpec &spec);

/// `scene` with the keys set: written as JSON (relative file paths rewritten for `directory`),
/// each key set, read back with the scene reader from `directory` (`fileName` names it in
/// messages). A key's animation is replaced by the plain value. A key the format has not, an
/// unknown item name or an index out of range is refused naming the key; a value the reader
/// refuses with the reader's message (the JSON path and the rule) after the values tried.
SceneReadResult applyWedgeValues(const Scene &scene, const std::vector<WedgeAssignment> &values,
                                 const std::string &directory, const QString &fileName);

/// Checks the spec against the scene without making the variations: the syntax, the count, and
/// each key's values one at a time (a random wedge's range ends and list values), then the
/// first variation's values together: the first refusal, if any. `fileName` names the scene in
/// the reader's messages.
sim::Status checkWedge(const Scene &scene, const WedgeSpec &spec, const QString &fileName);

/// The variations of `scene` for the folder `directory`: checkWedge() first, then names
/// `<stem>_w<k>`, each scene made and validated by applyWedgeValues(). `source`: the scene file's
/// absolute path (the manifest's "source"; may be empty).
sim::Result<WedgePlan> planWedge(const Scene &scene, const std::string &source,
                                 const std::string &stem, const WedgeSpec &spec,
                                 const std::string &directory);

/// Writes the plan's scenes as `<directory>/<name>.plume` and the manifest as
/// `<directory>/<stem>_wedge.json`, each atomically; creates the folder when missing.
sim::Status writeWedge(const WedgePlan &plan, const std::string &stem,
                       const std::string &directory);

/// The keys a wedge can vary in this scene, for pickers: every number the scene writes
/// (components of vectors as `key[i]`, animated values as their key), items by name.
std::vector<std::string> wedgeKeys(const Scene &scene);

} // namespace plume
