// SPDX-License-Identifier: Apache-2.0
#pragma once

// Wedges: variations of a scene, each a scene file of its own, and the manifest that lists them
// (docs/wedges.md). A variation sets scene-format keys (the JSON paths of docs/scene-format.md,
// with `items[name]` or `items[index]` picking an item) in the scene's JSON and reads the result
// back with the scene reader, so the reader's tables validate every value. Nothing here throws:
// each function returns an error message instead.

#include <core/io/scenereader.h>
#include <core/scene/scene.h>
#include <core/sim/base/types.h>

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace plume {

/// The most variations one wedge makes (a product or a random draw): more is refused.
inline constexpr int kMaxWedgeVariations = 1000;
/// The manifest's format name and the newest version this build reads and writes.
inline constexpr const char *kWedgeFormatName = "plume-wedge";
inline constexpr int kWedgeFormatVersion = 1;

/// One value of a key: a number, a boolean or a string (enums, names).
using WedgeValue = std::variant<double, bool, std::string>;

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

/// A random wedge: `count` variations, each key drawn uniformly with std::mt19937_64 seeded with
/// `seed` (the same on every platform): a range's draws uniform in [A, B] (integers where the
/// key takes integers, others rounded to 6 significant digits), a list's values equally likely.
struct WedgeRandom
{
    int count = 0;
    std::uint32_t seed = 0;

    friend bool operator==(const WedgeRandom &, const WedgeRandom &) = default;
};

/// What varies: the keys' values, as a product (the default) or drawn at random.
struct WedgeSpec
{
    std::vector<WedgeAxis> axes;
    std::optional<WedgeRandom> random;
};

/// A key set to a value.
using WedgeAssignment = std::pair<std::string, WedgeValue>;

/// One variation: its index, its name (`<scene>_w<index>`, also the base name of its bake's
/// files), its scene file relative to the manifest's folder and its values in the keys' order.
struct WedgeVariation
{
    int index = 0;
    std::string name;
    std::string scene;
    std::vector<WedgeAssignment> values;

    friend bool operator==(const WedgeVariation &, const WedgeVariation &) = default;
};

/// The manifest, `<dir>/<scene>_wedge.json` (docs/wedges.md).
struct WedgeManifest
{
    std::string source; ///< absolute path of the scene varied; empty for an unsaved scene
    std::vector<std::string> keys;
    std::optional<WedgeRandom> random;
    std::vector<WedgeVariation> variations;

    friend bool operator==(const WedgeManifest &, const WedgeManifest &) = default;
};

/// A wedge ready to write: the manifest and each variation's scene (its Scene::directory the
/// wedge's folder), or why not.
struct WedgePlan
{
    bool ok = false;
    std::string error;
    WedgeManifest manifest;
    std::vector<Scene> scenes; ///< one per variation, in order
};

/// Parses "KEY=VALUES" (plume-cli wedge --vary). Checks the syntax only; planWedge() checks the
/// key and values against a scene.
bool parseWedgeAxis(const std::string &text, WedgeAxis &out, std::string &error);

/// Parses VALUES for `key`: `a,b,c` or `A:B:N` (or `A:B`). Each list value is a number when it
/// reads as one, `true` or `false` a boolean, anything else a string.
bool parseWedgeValues(const std::string &key, const std::string &values, WedgeAxis &out,
                      std::string &error);

/// Each variation's values, in order: the product of the keys' values (the last key varying
/// fastest), or the random draws. Refuses bad ranges and more than kMaxWedgeVariations
/// variations with a message naming the count and the limit.
bool wedgeValues(const WedgeSpec &spec, std::vector<std::vector<WedgeValue>> &out,
                 std::string &error);

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
/// first variation's values together. Empty when
/// it can be made, else the first refusal. `fileName` names the scene in the reader's messages.
std::string checkWedge(const Scene &scene, const WedgeSpec &spec, const QString &fileName);

/// The variations of `scene` for the folder `directory`: checkWedge() first, then names
/// `<stem>_w<k>`, each scene made and validated by applyWedgeValues(). `source`: the scene file's
/// absolute path (the manifest's "source"; may be empty).
WedgePlan planWedge(const Scene &scene, const std::string &source, const std::string &stem,
                    const WedgeSpec &spec, const std::string &directory);

/// Writes the plan's scenes as `<directory>/<name>.plume` and the manifest as
/// `<directory>/<stem>_wedge.json`, each atomically; creates the folder when missing.
sim::Status writeWedge(const WedgePlan &plan, const std::string &stem,
                       const std::string &directory);

/// `<directory>/<stem>_wedge.json`.
QString wedgeManifestPath(const std::string &directory, const std::string &stem);
/// `<stem>_w<index>`.
std::string wedgeVariationName(const std::string &stem, int index);

/// The manifest as JSON: the keys in the documented order, one variation a line.
QByteArray wedgeManifestToJson(const WedgeManifest &manifest);
/// Writes the manifest atomically (QSaveFile).
sim::Status writeWedgeManifest(const WedgeManifest &manifest, const QString &path);
/// Reads and validates a manifest; the error names the file and the JSON path. A newer
/// version is refused.
bool readWedgeManifest(const QString &path, WedgeManifest &out, std::string &error);

/// A value as the CLI prints it and the manifest writes it: numbers in shortest form, strings
/// quoted only in JSON.
std::string formatWedgeValue(const WedgeValue &value);

/// The keys a wedge can vary in this scene, for pickers: every number the scene writes
/// (components of vectors as `key[i]`, animated values as their key), items by name.
std::vector<std::string> wedgeKeys(const Scene &scene);

} // namespace plume
