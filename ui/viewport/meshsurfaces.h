// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/meshfile.h>
#include <core/scene/placement.h>

#include <QColor>
#include <QMatrix4x4>
#include <QString>
#include <QVector3D>

#include <memory>
#include <vector>

class QOpenGLFunctions_3_3_Core;
class QOpenGLShaderProgram;

namespace plume {

/// The volume view's mesh items as lit surfaces (OpenGL 3.3 core). Each model's triangles are
/// uploaded once, with flat normals, into a buffer kept while some item shows the model; every
/// draw only sets the item's transform (meshToWorld at the shown frame). Shading is two-sided
/// Lambert against the scene's light plus the ambient term (one-sided for oneSided instances). Only
/// the nearest surface of each pixel is drawn (a depth pre-pass), blended over the volume behind it
/// with the item's alpha. Create, draw and release with the view's context current.
class MeshSurfaces
{
public:
    struct Instance
    {
        MeshPtr mesh;
        Affine toWorld; ///< file coordinates -> world
        QColor colour;  ///< with the surface's alpha
        /// Lit from the side its triangles wind counter-clockwise on only (a closed mesh
        /// wound outwards, such as the level surface), instead of from both sides.
        bool oneSided = false;
    };
    struct Light
    {
        QVector3D direction{1.f, 1.f, 1.f}; ///< towards the light, unit length
        QVector3D colour{1.f, 1.f, 1.f};    ///< colour times intensity
        float ambient = 0.2f;
    };

    MeshSurfaces();
    ~MeshSurfaces();

    /// Compiles the shaders; false with `error` set when they do not build.
    bool create(QOpenGLFunctions_3_3_Core *gl, QString *error);
    /// Frees the buffers and the program (the context must be current).
    void release();
    /// Draws the instances with depth testing, then leaves depth testing and blending off.
    /// Buffers of models no instance shows any more are freed.
    void draw(const QMatrix4x4 &viewProj, const std::vector<Instance> &instances,
              const Light &light);
    /// Models uploaded so far (each once while it stays in use).
    int uploads() const { return mUploads; }

private:
    struct Buffer
    {
        MeshPtr mesh; ///< held, so its address is not reused while the buffer lives
        unsigned vao = 0;
        unsigned vbo = 0;
        int vertices = 0;
    };

    const Buffer &buffer(const MeshPtr &mesh);

    QOpenGLFunctions_3_3_Core *mGl = nullptr;
    std::unique_ptr<QOpenGLShaderProgram> mProgram;
    std::vector<Buffer> mBuffers;
    int mUploads = 0;
};

} // namespace plume
