// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/meshfile.h>
#include <ui/simulation/framecache.h>

#include <QColor>

namespace plume {

/// The volume view's level surface (docs/surfaces.md): the iso-surface of the shown frame's
/// density (for the SPH liquid its volume fraction, so the liquid) as a triangle mesh, made
/// when the frame or the iso value changes and kept until then. Meshing runs on the GUI thread:
/// a 64^3 frame takes a few milliseconds (docs/performance.md).
class LevelSurface
{
public:
    bool enabled() const { return mEnabled; }
    void setEnabled(bool on) { mEnabled = on; }
    float iso() const { return mIso; }
    /// Changes the iso value; the next mesh() call meshes again.
    void setIso(float iso);

    /// The mesh of `frame`'s volume at the iso value (world units), made now when the frame or
    /// the iso value changed; null when off, without a volume, or when meshing failed.
    MeshPtr mesh(const FramePtr &frame);

    /// Milliseconds the last meshing took, and the meshes made so far.
    double lastMeshMs() const { return mLastMs; }
    int meshes() const { return mMeshes; }
    /// Why the last meshing failed, or empty.
    const std::string &error() const { return mError; }

private:
    bool mEnabled = false;
    float mIso = 0.5f;
    VolumePtr mVolume; ///< the volume `mMesh` was made from
    float mMeshIso = 0.f;
    MeshPtr mMesh;
    double mLastMs = 0.0;
    int mMeshes = 0;
    std::string mError;
};

} // namespace plume
