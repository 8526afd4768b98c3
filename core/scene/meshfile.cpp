// SPDX-License-Identifier: Apache-2.0
#include <core/scene/meshfile.h>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <QDateTime>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>
#include <unordered_map>

namespace plume {

namespace {

/// The triangles of every triangle mesh in the scene, equal positions (bit-equal floats) welded.
void weld(const aiScene &scene, TriangleMesh &out)
{
    struct Key
    {
        std::uint32_t x, y, z;
        bool operator==(const Key &) const = default;
    };
    struct KeyHash
    {
        std::size_t operator()(const Key &k) const
        {
            return (std::size_t(k.x) * 73856093u) ^ (std::size_t(k.y) * 19349663u)
                   ^ (std::size_t(k.z) * 83492791u);
        }
    };
    std::unordered_map<Key, std::uint32_t, KeyHash> index;
    auto weld = [&](const aiVector3D &v) {
        // +0.f folds -0 into 0 so the two weld together.
        const float p[3] = {v.x + 0.f, v.y + 0.f, v.z + 0.f};
        Key k;
        std::memcpy(&k.x, &p[0], 4);
        std::memcpy(&k.y, &p[1], 4);
        std::memcpy(&k.z, &p[2], 4);
        const auto [it, added] = index.try_emplace(k, std::uint32_t(out.vertices.size()));
        if (added)
            out.vertices.push_back({p[0], p[1], p[2]});
        return it->second;
    };
    for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
        const aiMesh &mesh = *scene.mMeshes[m];
        if (!(mesh.mPrimitiveTypes & aiPrimitiveType_TRIANGLE))
            continue;
        for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
            const aiFace &face = mesh.mFaces[f];
            if (face.mNumIndices != 3)
                continue;
            std::array<std::uint32_t, 3> t;
            for (int c = 0; c < 3; ++c)
                t[c] = weld(mesh.mVertices[face.mIndices[c]]);
            if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2])
                continue; // degenerate after welding
            out.triangles.push_back(t);
        }
    }
}

struct CacheKey
{
    std::string path;
    qint64 size = 0;
    qint64 modified = 0;
    auto operator<=>(const CacheKey &) const = default;
};

/// Recently read models, kept while their bytes stay under the budget (oldest use dropped
/// first), so reading a scene and then simulating it, or editing it, parses each model once.
struct CacheEntry
{
    MeshPtr mesh;
    std::uint64_t lastUse = 0;
};
constexpr std::size_t kCacheBudget = std::size_t(512) << 20;
std::mutex gCacheMutex;
std::map<CacheKey, CacheEntry> gCache;
std::uint64_t gUseCounter = 0;

std::size_t meshBytes(const TriangleMesh &m)
{
    return m.vertices.size() * sizeof(sim::Vec3) + m.triangles.size() * sizeof(m.triangles[0]);
}

sim::Result<MeshPtr> readMesh(const std::string &path)
{
    auto fail = [&](const std::string &problem) {
        return sim::Status::failure("cannot use model '" + path + "': " + problem);
    };
    Assimp::Importer importer;
    const unsigned flags = aiProcess_Triangulate | aiProcess_PreTransformVertices
                           | aiProcess_SortByPType;
    const aiScene *scene = nullptr;
    if (path.starts_with(":")) {
        // A Qt resource (the app's example models): Assimp reads it from memory, its format
        // told by the suffix.
        QFile file(QString::fromStdString(path));
        if (!file.open(QIODevice::ReadOnly))
            return fail("the file cannot be read");
        const QByteArray bytes = file.readAll();
        const std::string hint = QFileInfo(file.fileName()).suffix().toLower().toStdString();
        scene = importer.ReadFileFromMemory(bytes.constData(), std::size_t(bytes.size()), flags,
                                            hint.c_str());
    } else {
        scene = importer.ReadFile(path, flags);
    }
    if (!scene) {
        std::string why = importer.GetErrorString();
        if (why.empty())
            why = "unknown error";
        return fail("not a model file Plume can read (" + why + ")");
    }
    auto mesh = std::make_shared<TriangleMesh>();
    weld(*scene, *mesh);
    if (mesh->triangles.empty())
        return fail("it holds no triangles (an empty model, or only points and lines)");
    for (const sim::Vec3 &v : mesh->vertices) {
        if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
            return fail("it has a vertex position that is not a finite number");
    }
    measureMesh(*mesh);
    return MeshPtr(std::move(mesh));
}

} // namespace

void measureMesh(TriangleMesh &mesh)
{
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
    edges.reserve(mesh.triangles.size() * 3);
    for (const auto &t : mesh.triangles) {
        for (int c = 0; c < 3; ++c) {
            const std::uint32_t a = t[c], b = t[(c + 1) % 3];
            edges.emplace_back(std::min(a, b), std::max(a, b));
        }
    }
    std::sort(edges.begin(), edges.end());
    mesh.openEdges = 0;
    for (std::size_t n = 0; n < edges.size();) {
        std::size_t m = n;
        while (m < edges.size() && edges[m] == edges[n])
            ++m;
        mesh.openEdges += m - n != 2 ? 1 : 0;
        n = m;
    }
    mesh.lo = mesh.hi = mesh.vertices.empty() ? sim::Vec3{} : mesh.vertices.front();
    for (const sim::Vec3 &v : mesh.vertices) {
        mesh.lo = {std::min(mesh.lo.x, v.x), std::min(mesh.lo.y, v.y), std::min(mesh.lo.z, v.z)};
        mesh.hi = {std::max(mesh.hi.x, v.x), std::max(mesh.hi.y, v.y), std::max(mesh.hi.z, v.z)};
    }
}

const std::vector<std::string> &meshFileSuffixes()
{
    static const std::vector<std::string> suffixes{"obj", "gltf", "glb", "fbx",   "dae",
                                                   "ply", "stl",  "3ds", "blend", "off"};
    return suffixes;
}

bool isMeshFile(const std::string &path)
{
    const std::string suffix =
        QFileInfo(QString::fromStdString(path)).suffix().toLower().toStdString();
    const auto &all = meshFileSuffixes();
    return std::find(all.begin(), all.end(), suffix) != all.end();
}

sim::Result<MeshPtr> loadMesh(const std::string &path)
{
    const QFileInfo info(QString::fromStdString(path));
    auto fail = [&](const std::string &problem) {
        return sim::Status::failure("cannot use model '" + path + "': " + problem);
    };
    if (!info.exists())
        return fail("the file does not exist");
    if (!info.isFile() || !info.isReadable())
        return fail(info.isFile() ? "the file cannot be read" : "it is not a file");
    if (info.size() == 0)
        return fail("the file is empty");
    const CacheKey key{path, info.size(), info.lastModified().toMSecsSinceEpoch()};
    {
        std::lock_guard lock(gCacheMutex);
        if (auto it = gCache.find(key); it != gCache.end()) {
            it->second.lastUse = ++gUseCounter;
            return it->second.mesh;
        }
    }
    sim::Result<MeshPtr> mesh = readMesh(path);
    if (mesh) {
        std::lock_guard lock(gCacheMutex);
        gCache[key] = {mesh.value(), ++gUseCounter};
        std::size_t total = 0;
        for (const auto &e : gCache)
            total += meshBytes(*e.second.mesh);
        while (total > kCacheBudget && gCache.size() > 1) {
            auto oldest = std::min_element(gCache.begin(), gCache.end(),
                                           [](const auto &a, const auto &b) {
                return a.second.lastUse < b.second.lastUse;
            });
            total -= meshBytes(*oldest->second.mesh);
            gCache.erase(oldest);
        }
    }
    return mesh;
}

} // namespace plume
