// SPDX-License-Identifier: Apache-2.0
#include <ui/viewport/meshsurfaces.h>

#include <ui/viewport/shaderfile.h>

#include <QOpenGLFunctions_3_3_Core>
#include <QOpenGLShaderProgram>

#include <algorithm>

namespace plume {

namespace {

QMatrix4x4 toMatrix(const Affine &a)
{
    return QMatrix4x4(a.m[0][0], a.m[0][1], a.m[0][2], a.t.x, a.m[1][0], a.m[1][1], a.m[1][2],
                      a.t.y, a.m[2][0], a.m[2][1], a.m[2][2], a.t.z, 0.f, 0.f, 0.f, 1.f);
}

/// Linear RGB of a display colour (the shader encodes its result as sRGB-like gamma 2.2).
QVector3D linear(const QColor &c)
{
    auto f = [](float v) { return std::pow(v, 2.2f); };
    return {f(float(c.redF())), f(float(c.greenF())), f(float(c.blueF()))};
}

} // namespace

MeshSurfaces::MeshSurfaces() = default;
MeshSurfaces::~MeshSurfaces() = default;

bool MeshSurfaces::create(QOpenGLFunctions_3_3_Core *gl, QString *error)
{
    mGl = gl;
    mProgram = std::make_unique<QOpenGLShaderProgram>();
    QString log;
    const bool ok = buildShaderProgram(*mProgram, "mesh.vert", "mesh.frag", &log);
    if (!ok) {
        if (error)
            *error = "the mesh shaders did not compile: " + log.left(300);
        mProgram.reset();
        mGl = nullptr;
    }
    return ok;
}

void MeshSurfaces::release()
{
    if (!mGl)
        return;
    for (const Buffer &b : mBuffers) {
        mGl->glDeleteBuffers(1, &b.vbo);
        mGl->glDeleteVertexArrays(1, &b.vao);
    }
    mBuffers.clear();
    mProgram.reset();
    mGl = nullptr;
}

// Three vertices per triangle (position, then the face normal), so that faces shade flat.
const MeshSurfaces::Buffer &MeshSurfaces::buffer(const MeshPtr &mesh)
{
    for (const Buffer &b : mBuffers)
        if (b.mesh == mesh)
            return b;
    std::vector<float> data;
    data.reserve(mesh->triangles.size() * 18);
    for (const auto &t : mesh->triangles) {
        const sim::Vec3 a = mesh->vertices[t[0]], b = mesh->vertices[t[1]],
                        c = mesh->vertices[t[2]];
        const sim::Vec3 n = cross(b - a, c - a);
        for (const sim::Vec3 &p : {a, b, c})
            data.insert(data.end(), {p.x, p.y, p.z, n.x, n.y, n.z});
    }
    Buffer b;
    b.mesh = mesh;
    b.vertices = int(mesh->triangles.size() * 3);
    mGl->glGenVertexArrays(1, &b.vao);
    mGl->glGenBuffers(1, &b.vbo);
    mGl->glBindVertexArray(b.vao);
    mGl->glBindBuffer(GL_ARRAY_BUFFER, b.vbo);
    mGl->glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(data.size() * sizeof(float)), data.data(),
                      GL_STATIC_DRAW);
    mGl->glEnableVertexAttribArray(0);
    mGl->glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
    mGl->glEnableVertexAttribArray(1);
    mGl->glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                               reinterpret_cast<const void *>(3 * sizeof(float)));
    mGl->glBindVertexArray(0);
    mGl->glBindBuffer(GL_ARRAY_BUFFER, 0);
    ++mUploads;
    mBuffers.push_back(std::move(b));
    return mBuffers.back();
}

void MeshSurfaces::draw(const QMatrix4x4 &viewProj, const std::vector<Instance> &instances,
                        const Light &light)
{
    // Buffers of models no longer shown go first.
    std::erase_if(mBuffers, [&](const Buffer &b) {
        const bool used = std::any_of(instances.begin(), instances.end(),
                                      [&](const Instance &i) { return i.mesh == b.mesh; });
        if (!used) {
            mGl->glDeleteBuffers(1, &b.vbo);
            mGl->glDeleteVertexArrays(1, &b.vao);
        }
        return !used;
    });
    if (!mProgram || instances.empty())
        return;
    QOpenGLShaderProgram &prog = *mProgram;
    prog.bind();
    prog.setUniformValue("uViewProj", viewProj);
    prog.setUniformValue("uLightDir", light.direction);
    prog.setUniformValue("uLight", light.colour);
    prog.setUniformValue("uAmbient", light.ambient);
    mGl->glDepthMask(true);
    mGl->glClear(GL_DEPTH_BUFFER_BIT);
    mGl->glEnable(GL_DEPTH_TEST);
    mGl->glDepthFunc(GL_LEQUAL);
    // Pass 1 finds the nearest surface of every pixel; pass 2 shades that one only.
    for (int pass = 0; pass < 2; ++pass) {
        const bool shade = pass == 1;
        mGl->glColorMask(shade, shade, shade, shade);
        mGl->glDepthMask(!shade);
        if (shade) {
            mGl->glEnable(GL_BLEND);
            mGl->glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        }
        for (const Instance &instance : instances) {
            const Buffer &b = buffer(instance.mesh);
            const QMatrix4x4 model = toMatrix(instance.toWorld);
            prog.setUniformValue("uModel", model);
            prog.setUniformValue("uNormalMatrix", model.normalMatrix());
            const QVector3D c = linear(instance.colour);
            prog.setUniformValue("uColor", QVector4D(c, float(instance.colour.alphaF())));
            prog.setUniformValue("uOneSided", instance.oneSided ? 1 : 0);
            mGl->glBindVertexArray(b.vao);
            mGl->glDrawArrays(GL_TRIANGLES, 0, b.vertices);
        }
    }
    mGl->glBindVertexArray(0);
    mGl->glColorMask(true, true, true, true);
    mGl->glDepthMask(true);
    mGl->glDisable(GL_BLEND);
    mGl->glDisable(GL_DEPTH_TEST);
    prog.release();
}

} // namespace plume
