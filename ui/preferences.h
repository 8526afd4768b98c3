// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QSettings>
#include <QString>
#include <QVariant>

namespace plume {

/// A typed application preference stored in QSettings under `key`, declared where it is used
/// (Tiled's Preference<T>). Scene data never goes here.
template<class T>
class Preference
{
public:
    Preference(const char *key, T defaultValue)
        : mKey(QString::fromLatin1(key))
        , mDefault(std::move(defaultValue))
    {}

    T get() const
    {
        const QVariant v = QSettings().value(mKey);
        return v.isValid() && v.canConvert<T>() ? v.value<T>() : mDefault;
    }
    void set(const T &value) const { QSettings().setValue(mKey, QVariant::fromValue(value)); }

private:
    QString mKey;
    T mDefault;
};

} // namespace plume
