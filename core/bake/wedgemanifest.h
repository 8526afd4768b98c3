// SPDX-License-Identifier: Apache-2.0
#pragma once

// A wedge's manifest, `<dir>/<scene>_wedge.json` (docs/wedges.md): the variations of a scene,
// each with its scene file and values. Written by plume-cli wedge and the export dialog
// (core/bake/wedge.h); read by whatever bakes the variations (a farm submitter). Nothing here
// throws: each function returns an error message instead.

#include <core/sim/base/result.h>

#include <QByteArray>
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

/// A random wedge: `count` variations, each key drawn uniformly with std::mt19937_64 seeded with
/// `seed` (the same on every platform): a range's draws uniform in [A, B] (integers where the
/// key takes integers, others rounded to 6 significant digits), a list's values equally likely.
struct WedgeRandom
{
    int count = 0;
    std::uint32_t seed = 0;

    friend bool operator==(const WedgeRandom &, const WedgeRandom &) = default;
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
sim::Result<WedgeManifest> readWedgeManifest(const QString &path);

/// A value as the CLI prints it and the manifest writes it: numbers in shortest form, strings
/// quoted only in JSON.
std::string formatWedgeValue(const WedgeValue &value);

} // namespace plume
