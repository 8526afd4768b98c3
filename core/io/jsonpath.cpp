// SPDX-License-Identifier: Apache-2.0
#include <core/io/jsonpath.h>

#include <core/sim/base/param.h>

#include <QJsonArray>

#include <algorithm>
#include <vector>

namespace plume {

namespace {

/// One open object or array while scanning.
struct Level
{
    bool object = false;
    bool expectKey = false; ///< object: the next string is a key
    std::string key;        ///< object: the current key
    int index = 0;          ///< array: the current element
};

std::string joinPath(const std::vector<Level> &levels)
{
    std::string path;
    for (const Level &l : levels) {
        if (!l.object) {
            path += '[';
            path += std::to_string(l.index);
            path += ']';
        } else if (!l.key.empty()) {
            if (!path.empty())
                path += ".";
            path += l.key;
        }
    }
    return path;
}

} // namespace

JsonLocation jsonLocation(const QByteArray &text, int offset)
{
    JsonLocation loc;
    const int end = std::clamp(offset, 0, int(text.size()));
    std::vector<Level> levels;
    bool inString = false;
    bool escaped = false;
    bool collecting = false;
    std::string current;
    for (int n = 0; n < end; ++n) {
        const char c = text[n];
        if (c == '\n') {
            ++loc.line;
            loc.column = 1;
        } else {
            ++loc.column;
        }
        if (inString) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                inString = false;
                if (collecting)
                    levels.back().key = current;
            } else if (collecting) {
                current += c;
            }
            continue;
        }
        switch (c) {
        case '"':
            inString = true;
            collecting = !levels.empty() && levels.back().object && levels.back().expectKey;
            current.clear();
            break;
        case '{': levels.push_back({true, true, {}, 0}); break;
        case '[': levels.push_back({false, false, {}, 0}); break;
        case '}':
        case ']':
            if (!levels.empty())
                levels.pop_back();
            break;
        case ':':
            if (!levels.empty())
                levels.back().expectKey = false;
            break;
        case ',':
            if (!levels.empty() && levels.back().object) {
                levels.back().expectKey = true;
                levels.back().key.clear();
            } else if (!levels.empty()) {
                ++levels.back().index;
            }
            break;
        default: break;
        }
    }
    loc.path = joinPath(levels);
    return loc;
}

std::string formatJsonNumber(double v) { return sim::formatNumber(v); }

std::string describeJson(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null: return "null";
    case QJsonValue::Bool: return value.toBool() ? "true" : "false";
    case QJsonValue::Double: return "number " + formatJsonNumber(value.toDouble());
    case QJsonValue::String: {
        std::string s = value.toString().toStdString();
        if (s.size() > 40)
            s = s.substr(0, 40) + "...";
        return "string \"" + s + "\"";
    }
    case QJsonValue::Array: return value.toArray().isEmpty() ? "an empty array" : "an array";
    case QJsonValue::Object: return "an object";
    case QJsonValue::Undefined: return "nothing";
    }
    return "an unknown value";
}

} // namespace plume
