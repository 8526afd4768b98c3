// SPDX-License-Identifier: Apache-2.0
#include <core/io/scenewriter.h>

#include <core/io/scenefields.h>
#include <core/io/scenereader.h>

#include <core/scene/shapecoverage.h>

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QSaveFile>

#include <array>
#include <charconv>
#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

namespace plume {

using sim::Param;
using sim::Vec3;

namespace {

/// Which keys a write gives: those set (a key that keeps its default and older files never
/// had is left out, so those files stay byte-identical), or every key a script may read
/// (sceneToJsonWithDefaults).
enum class Keys : bool { Set, Every };

struct Member;

/// An ordered JSON tree whose scalars are already text.
struct Node
{
    enum class Type { Scalar, Object, Array } type = Type::Scalar;
    std::string text;            ///< Scalar: JSON text
    std::vector<Member> members; ///< Object, in writing order
    std::vector<Node> elements;  ///< Array

    static Node object();
    static Node array();
    Node &add(const std::string &key, Node value);
    bool has(const std::string &key) const;
};

/// A key and its value. Not a std::pair, and Node's functions are defined below: clang (14,
/// with libstdc++ 12) would otherwise need the member type complete inside Node.
struct Member
{
    std::string first;
    Node second;
};

Node Node::object() { return Node{Type::Object, {}, {}, {}}; }
Node Node::array() { return Node{Type::Array, {}, {}, {}}; }

Node &Node::add(const std::string &key, Node value)
{
    members.push_back(Member{key, std::move(value)});
    return members.back().second;
}

bool Node::has(const std::string &key) const
{
    for (const auto &m : members) {
        if (m.first == key)
            return true;
    }
    return false;
}

Node scalar(std::string text) { return Node{Node::Type::Scalar, std::move(text), {}, {}}; }

/// Shortest text that reads back as the same float (std::to_chars).
Node number(float v)
{
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return scalar(std::string(buf, r.ptr));
}

Node number(double v)
{
    char buf[40];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return scalar(std::string(buf, r.ptr));
}

Node number(std::int64_t v) { return scalar(std::to_string(v)); }
Node boolean(bool v) { return scalar(v ? "true" : "false"); }

Node string(const std::string &s)
{
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += char(c);
            }
        }
    }
    return scalar(out + "\"");
}

Node vec(Vec3 v)
{
    Node a = Node::array();
    for (int c = 0; c < 3; ++c)
        a.elements.push_back(number(v[c]));
    return a;
}

Node fromJson(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Bool: return boolean(v.toBool());
    case QJsonValue::Double: return number(v.toDouble());
    case QJsonValue::String: return string(v.toString().toStdString());
    case QJsonValue::Array: {
        Node a = Node::array();
        for (const QJsonValue &e : v.toArray())
            a.elements.push_back(fromJson(e));
        return a;
    }
    case QJsonValue::Object: {
        Node o = Node::object();
        const QJsonObject obj = v.toObject();
        for (auto it = obj.begin(); it != obj.end(); ++it)
            o.add(it.key().toStdString(), fromJson(it.value()));
        return o;
    }
    case QJsonValue::Null:
    case QJsonValue::Undefined: break;
    }
    return scalar("null");
}

/// Appends the unknown keys kept from reading (sorted, as QJsonObject holds them).
void addExtra(Node &node, const QJsonObject &extra)
{
    for (auto it = extra.begin(); it != extra.end(); ++it) {
        const std::string key = it.key().toStdString();
        if (!node.has(key))
            node.add(key, fromJson(it.value()));
    }
}

Node value(float v) { return number(v); }
Node value(Vec3 v) { return vec(v); }

template<class T>
Node animated(const Animated<T> &a)
{
    if (!a.isAnimated())
        return value(a.value);
    Node o = Node::object();
    o.add("interpolation", string(toString(a.interpolation)));
    Node &keys = o.add("keys", Node::array());
    for (const Key<T> &k : a.keys) {
        Node key = Node::object();
        key.add("frame", number(k.frame));
        key.add("value", value(k.value));
        addExtra(key, k.extra);
        keys.elements.push_back(std::move(key));
    }
    addExtra(o, a.extra);
    return o;
}

/// Writes an object by its table in scenefields.h: the keys each `When` asks for, in the
/// table's order, then the unknown keys kept from reading. File names are rebased from the
/// scene's folder to the one written to.
class FieldWriter
{
public:
    FieldWriter(Node &node, Keys keys, const std::string &from, const std::string &to)
        : mNode(node)
        , mKeys(keys)
        , mFrom(from)
        , mTo(to)
    {}

    template<class T>
    void number(const Param &p, T v, When when = {})
    {
        if (!writes(when))
            return;
        if constexpr (std::is_integral_v<T>)
            mNode.add(p.key, plume::number(std::int64_t(v)));
        else
            mNode.add(p.key, plume::number(v));
    }
    void vec3(const Param &p, Vec3 v, When when = {})
    {
        if (writes(when))
            mNode.add(p.key, vec(v));
    }
    void boolean(const char *key, bool v, When when = {})
    {
        if (writes(when))
            mNode.add(key, plume::boolean(v));
    }
    template<class E, std::size_t N>
    void enumeration(const char *key, E v, const sim::EnumNames<E, N> &names, When when = {})
    {
        if (writes(when))
            mNode.add(key, plume::string(names.name(v)));
    }
    void string(const char *key, const std::string &v, bool /*nonEmpty*/)
    {
        mNode.add(key, plume::string(v));
    }
    template<class T>
    void animated(const Param &p, const Animated<T> &v, When when = {})
    {
        if (writes(when))
            mNode.add(p.key, plume::animated(v));
    }
    template<class T>
    void absentMeans(const char *, const T &, const T &)
    {}
    void require(const char *) {}

    template<class F>
    void object(const char *key, const QJsonObject &extra, F fields, When when = {})
    {
        if (!writes(when) && extra.isEmpty())
            return;
        Node o = Node::object();
        FieldWriter writer(o, mKeys, mFrom, mTo);
        fields(writer);
        addExtra(o, extra);
        mNode.add(key, std::move(o));
    }
    template<class T, class F>
    void objects(const char *key, const char * /*what*/, const std::vector<T> &elements, F fields)
    {
        Node array = Node::array();
        for (const T &element : elements) {
            Node o = Node::object();
            FieldWriter writer(o, mKeys, mFrom, mTo);
            fields(writer, element);
            addExtra(o, element.extra);
            array.elements.push_back(std::move(o));
        }
        mNode.add(key, std::move(array));
    }

    template<class F>
    void check(const std::string &, bool, F)
    {}
    template<class F>
    void expect(const std::string &, bool, F, double)
    {}

    void file(const char *key, const std::string &path, scenefields::FileKind)
    {
        mNode.add(key, plume::string(rebasedImagePath(path, mFrom, mTo)));
    }
    /// A sphere is a "circle" in 2D.
    void shapeType(ShapeType type, ItemKind, Dimension dim)
    {
        const bool circle = type == ShapeType::Sphere && dim == Dimension::TwoD;
        mNode.add("type", plume::string(circle ? "circle" : toString(type)));
    }
    void vec3OrNumber(const Param &p, Vec3 v) { mNode.add(p.key, vec(v)); }
    /// The ramp as [position, value] pairs.
    void ramp(const char *key, const sim::Ramp &ramp)
    {
        Node pairs = Node::array();
        for (const sim::RampKey &k : ramp.keys) {
            Node pair = Node::array();
            pair.elements.push_back(plume::number(k.position));
            pair.elements.push_back(plume::number(k.value));
            pairs.elements.push_back(std::move(pair));
        }
        mNode.add(key, std::move(pairs));
    }
    template<class E, std::size_t N, std::size_t M>
    void enumArray(const char *key, const std::array<E, M> &values,
                   const sim::EnumNames<E, N> &names, When when = {})
    {
        if (!writes(when))
            return;
        Node array = Node::array();
        for (E v : values)
            array.elements.push_back(plume::string(names.name(v)));
        mNode.add(key, std::move(array));
    }
    template<std::size_t N>
    void choice(const char *key, int v, const int (&)[N])
    {
        mNode.add(key, plume::number(std::int64_t(v)));
    }

private:
    bool writes(When when) const { return when.writes(mKeys == Keys::Every); }

    Node &mNode;
    Keys mKeys;
    const std::string &mFrom;
    const std::string &mTo;
};

bool allScalars(const Node &array)
{
    for (const Node &e : array.elements) {
        if (e.type != Node::Type::Scalar)
            return false;
    }
    return true;
}

/// One-line text of a flat node (scalars, arrays of scalars, objects of those), or empty.
std::string inlineText(const Node &node)
{
    switch (node.type) {
    case Node::Type::Scalar: return node.text;
    case Node::Type::Array: {
        std::string s = "[";
        for (std::size_t n = 0; n < node.elements.size(); ++n) {
            if (node.elements[n].type != Node::Type::Scalar)
                return {};
            s += (n ? ", " : "") + node.elements[n].text;
        }
        return s + "]";
    }
    case Node::Type::Object: {
        std::string s = "{";
        for (std::size_t n = 0; n < node.members.size(); ++n) {
            const Node &v = node.members[n].second;
            if (v.type == Node::Type::Object)
                return {};
            const std::string text = inlineText(v);
            if (text.empty())
                return {};
            s += (n ? ", " : "") + string(node.members[n].first).text + ": " + text;
        }
        return s + "}";
    }
    }
    return {};
}

/// Writes a node: objects one member per line, except that arrays of scalars, and objects in
/// arrays that hold only those (keyframes, stroke points), stay on one line when they fit in
/// 100 columns.
void writeNode(const Node &node, int depth, std::string &out)
{
    const std::string indent(std::size_t(4 * (depth + 1)), ' ');
    const std::string closing(std::size_t(4 * depth), ' ');
    switch (node.type) {
    case Node::Type::Scalar: out += node.text; return;
    case Node::Type::Object:
        if (node.members.empty()) {
            out += "{}";
            return;
        }
        out += "{\n";
        for (std::size_t n = 0; n < node.members.size(); ++n) {
            out += indent + string(node.members[n].first).text + ": ";
            writeNode(node.members[n].second, depth + 1, out);
            out += n + 1 < node.members.size() ? ",\n" : "\n";
        }
        out += closing + "}";
        return;
    case Node::Type::Array:
        if (node.elements.empty()) {
            out += "[]";
            return;
        }
        if (allScalars(node)) {
            out += inlineText(node);
            return;
        }
        out += "[\n";
        for (std::size_t n = 0; n < node.elements.size(); ++n) {
            out += indent;
            const std::string line = inlineText(node.elements[n]);
            if (!line.empty() && indent.size() + line.size() < 100)
                out += line;
            else
                writeNode(node.elements[n], depth + 1, out);
            out += n + 1 < node.elements.size() ? ",\n" : "\n";
        }
        out += closing + "]";
        return;
    }
}

/// The scene's JSON text with the keys `keys` asks for.
QByteArray sceneText(const Scene &scene, const std::string &directory, Keys keys)
{
    Node root = Node::object();
    root.add("format", string(kSceneFormatName));
    root.add("version", number(std::int64_t(kSceneFormatVersion)));
    root.add("name", string(scene.name));
    FieldWriter writer(root, keys, scene.directory, directory);
    writer.object("domain", scene.domain.extra,
                  [&](FieldWriter &d) { scenefields::domain(d, scene.domain); });
    writer.object("simulation", scene.simulation.extra,
                  [&](FieldWriter &s) { scenefields::simulation(s, scene.simulation); });
    Node &items = root.add("items", Node::array());
    for (const Item &item : scene.items) {
        Node o = Node::object();
        FieldWriter itemWriter(o, keys, scene.directory, directory);
        scenefields::item(itemWriter, item, scene.domain.dimension);
        addExtra(o, item.extra);
        items.elements.push_back(std::move(o));
    }
    // Scenes without export presets stay as they were: "export" appears once anything in it
    // differs from the defaults, and then with every key.
    writer.object(
        "export", scene.exports.extra,
        [&](FieldWriter &e) { scenefields::exports(e, scene.exports); },
        When::changed(!(scene.exports == ExportPresets{})));
    addExtra(root, scene.extra);
    std::string out;
    writeNode(root, 0, out);
    out += "\n";
    return QByteArray::fromStdString(out);
}

} // namespace

QByteArray sceneToJson(const Scene &scene, const std::string &directory)
{
    return sceneText(scene, directory, Keys::Set);
}

QByteArray sceneToJsonWithDefaults(const Scene &scene)
{
    return sceneText(scene, std::string(), Keys::Every);
}

void rebaseScene(Scene &scene, const std::string &directory)
{
    for (Item &item : scene.items)
        rebaseImageShape(item.shape, scene.directory, directory);
    LiquidTextureSettings &texture = scene.simulation.liquidTexture;
    if (texture.enabled())
        texture.file = rebasedImagePath(texture.file, scene.directory, directory);
    scene.directory = directory;
}

sim::Status writeSceneFile(const Scene &scene, const QString &path)
{
    const std::string directory = QFileInfo(path).absolutePath().toStdString();
    const QByteArray bytes = sceneToJson(scene, directory);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return sim::Status::failure(path.toStdString()
                                    + ": cannot write: " + file.errorString().toStdString());
    if (file.write(bytes) != bytes.size()) {
        const std::string why = file.errorString().toStdString();
        file.cancelWriting();
        return sim::Status::failure(path.toStdString() + ": write failed: " + why);
    }
    if (!file.commit())
        return sim::Status::failure(path.toStdString()
                                    + ": could not save: " + file.errorString().toStdString());
    return sim::Status::success();
}

} // namespace plume
