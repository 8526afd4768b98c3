// SPDX-License-Identifier: Apache-2.0
#include <ui/viewport/levelsurface.h>

#include <core/surface/surface.h>

#include <QElapsedTimer>

namespace plume {

void LevelSurface::setIso(float iso) { mIso = iso; }

MeshPtr LevelSurface::mesh(const FramePtr &frame)
{
    if (!mEnabled || !frame || !frame->volume)
        return nullptr;
    if (frame->volume == mVolume && mIso == mMeshIso)
        return mMesh;
    QElapsedTimer timer;
    timer.start();
    mVolume = frame->volume;
    mMeshIso = mIso;
    mMesh.reset();
    SurfaceMesh surface;
    const sim::Status st = densitySurfaceMesh(frame->volume->field(DisplayField::Density),
                                              frame->domain, mIso, surface);
    mError = st.error;
    if (st && !surface.empty()) {
        auto mesh = std::make_shared<TriangleMesh>();
        mesh->vertices = std::move(surface.positions);
        mesh->triangles = std::move(surface.triangles);
        measureMesh(*mesh);
        mMesh = std::move(mesh);
    }
    mLastMs = double(timer.nsecsElapsed()) * 1e-6;
    ++mMeshes;
    return mMesh;
}

} // namespace plume
