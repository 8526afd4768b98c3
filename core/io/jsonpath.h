// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QJsonValue>

#include <string>

namespace plume {

/// Where a byte offset lies in a JSON text: 1-based line and column, and the JSON path of the
/// value being read there (e.g. "items[3].shape.radius"; empty at the top level). Used to
/// explain parse errors, which QJsonParseError reports only as an offset.
struct JsonLocation
{
    int line = 1;
    int column = 1;
    std::string path;
};

/// Scans `text` up to `offset` (bytes) tracking objects, keys and array indices.
JsonLocation jsonLocation(const QByteArray &text, int offset);

/// A number as messages show it: integers in full (4294967295), others in shortest form.
std::string formatJsonNumber(double v);

/// A short description of a JSON value for messages: `string "NaN"`, `number -1`, `an array`.
std::string describeJson(const QJsonValue &value);

} // namespace plume
