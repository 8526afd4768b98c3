// SPDX-License-Identifier: Apache-2.0
#include <core/io/scenenumbers.h>

#include <core/io/scenefields.h>

#include <QJsonObject>

#include <map>
#include <type_traits>

namespace plume {

namespace {

/// Walks the tables (scenefields.h) of a scene, every object whatever its When, and records
/// each number key's path and range.
class NumberFinder
{
public:
    NumberFinder(std::map<std::string, SceneNumberKey> &keys, std::string prefix)
        : mKeys(keys)
        , mPrefix(std::move(prefix))
    {}

    template<class T>
    void number(const sim::Param &p, const T &, When = {})
    {
        add(p, p.integer || std::is_integral_v<T>);
    }
    void vec3(const sim::Param &p, const sim::Vec3 &, When = {}) { add(p, p.integer); }
    template<class T>
    void animated(const sim::Param &p, const Animated<T> &, When = {})
    {
        add(p, p.integer);
    }
    void vec3OrNumber(const sim::Param &p, const sim::Vec3 &) { add(p, p.integer); }
    template<std::size_t N>
    void choice(const char *key, int, const int (&)[N])
    {
        add(sim::Param{.key = key}, true);
    }

    template<class F>
    void object(const char *key, const QJsonObject &, F fields, When = {})
    {
        NumberFinder inner(mKeys, mPrefix + key + ".");
        fields(inner);
    }
    template<class T, class F>
    void objects(const char *key, const char *, const std::vector<T> &elements, F fields)
    {
        for (std::size_t n = 0; n < elements.size(); ++n) {
            NumberFinder inner(mKeys, mPrefix + key + "[" + std::to_string(n) + "].");
            fields(inner, elements[n]);
        }
    }

    // Keys that are no numbers, and the reader's checks: nothing to record.
    void boolean(const char *, bool, When = {}) {}
    template<class E, std::size_t N>
    void enumeration(const char *, E, const sim::EnumNames<E, N> &, When = {})
    {}
    void string(const char *, const std::string &, bool) {}
    void require(const char *) {}
    template<class T>
    void absentMeans(const char *, const T &, const T &)
    {}
    template<class F>
    void check(const std::string &, bool, F)
    {}
    template<class F>
    void expect(const std::string &, bool, F, double)
    {}
    void file(const char *, const std::string &, scenefields::FileKind) {}
    void shapeType(ShapeType, ItemKind, Dimension) {}
    void ramp(const char *, const sim::Ramp &) {}
    template<class E, std::size_t N, std::size_t M>
    void enumArray(const char *, const std::array<E, M> &, const sim::EnumNames<E, N> &, When = {})
    {}

private:
    void add(const sim::Param &p, bool integer) { mKeys[mPrefix + p.key] = {p, integer}; }

    std::map<std::string, SceneNumberKey> &mKeys;
    std::string mPrefix;
};

} // namespace

std::optional<SceneNumberKey> sceneNumberKey(const Scene &scene, const std::string &path)
{
    std::map<std::string, SceneNumberKey> keys;
    NumberFinder root(keys, "");
    root.object("domain", {}, [&](NumberFinder &d) { scenefields::domain(d, scene.domain); });
    root.object("simulation", {},
                [&](NumberFinder &s) { scenefields::simulation(s, scene.simulation); });
    for (std::size_t n = 0; n < scene.items.size(); ++n) {
        NumberFinder item(keys, "items[" + std::to_string(n) + "].");
        scenefields::item(item, scene.items[n], scene.domain.dimension);
    }
    root.object("export", {}, [&](NumberFinder &e) { scenefields::exports(e, scene.exports); });
    std::string key = path;
    if (auto it = keys.find(key); it != keys.end())
        return it->second;
    // A component: "offset[1]" is offset's.
    if (const std::size_t bracket = key.rfind('[');
        bracket != std::string::npos && key.back() == ']')
        key.erase(bracket);
    if (auto it = keys.find(key); it != keys.end())
        return it->second;
    return std::nullopt;
}

} // namespace plume
