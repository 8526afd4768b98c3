// SPDX-License-Identifier: Apache-2.0
#pragma once

// Paths into a JSON tree for tests that edit scene files as JSON: a path is a list of keys and
// array indices ("items", "0", "force", "mask").

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

#include <vector>

namespace plume::test {

/// `node` with the value at `path` replaced (numbers index arrays); an undefined value removes
/// the key.
inline QJsonValue setPath(const QJsonValue &node, QStringList path, const QJsonValue &value)
{
    if (path.isEmpty())
        return value;
    const QString head = path.takeFirst();
    bool isIndex = false;
    const int index = head.toInt(&isIndex);
    if (isIndex) {
        QJsonArray a = node.toArray();
        a[index] = setPath(a[index], path, value);
        return a;
    }
    QJsonObject o = node.toObject();
    if (path.isEmpty() && value.isUndefined())
        o.remove(head);
    else
        o[head] = setPath(o.value(head), path, value);
    return o;
}

/// The value at `path`.
inline QJsonValue valueAt(QJsonValue node, const QStringList &path)
{
    for (const QString &step : path) {
        bool isIndex = false;
        const int index = step.toInt(&isIndex);
        node = isIndex ? node.toArray().at(index) : node.toObject().value(step);
    }
    return node;
}

/// Every leaf (number, boolean, string) of a JSON tree, as its path.
inline void collectLeaves(const QJsonValue &v, QStringList &path, std::vector<QStringList> &out)
{
    if (v.isObject()) {
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it) {
            path << it.key();
            collectLeaves(it.value(), path, out);
            path.removeLast();
        }
    } else if (v.isArray()) {
        const QJsonArray a = v.toArray();
        for (qsizetype i = 0; i < a.size(); ++i) {
            path << QString::number(i);
            collectLeaves(a[i], path, out);
            path.removeLast();
        }
    } else if (v.isBool() || v.isDouble() || v.isString()) {
        out.push_back(path);
    }
}

} // namespace plume::test
