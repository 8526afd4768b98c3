// SPDX-License-Identifier: Apache-2.0
#include <ui/viewport/sliceframe.h>

#include <algorithm>
#include <cmath>

namespace plume {

int sliceIndex(const sim::Domain &domain, const SlicePlane &plane)
{
    const int n = domain.cells[plane.axis];
    const float cell = (plane.position - domain.origin[plane.axis]) / domain.cellSize;
    return std::clamp(int(std::floor(cell)), 0, n - 1);
}

namespace {

/// Calls f(i, j, c) for each cell (i, j) of layer `index` across `plane` (a grid of `n` cells),
/// in plane order: c is the cell in the 3D grid.
template<class F>
void forEachLayerCell(sim::Int3 n, const SlicePlane &plane, int index, F &&f)
{
    sim::Int3 c;
    c[plane.axis] = index;
    for (int j = 0; j < n[plane.v()]; ++j) {
        c[plane.v()] = j;
        for (int i = 0; i < n[plane.u()]; ++i) {
            c[plane.u()] = i;
            f(i, j, c);
        }
    }
}

/// Copies the layer `index` of a 3D grid across `plane` into a (nu, nv, 1) grid in plane order.
void copyLayer(const sim::ScalarGrid &full, const SlicePlane &plane, int index,
               sim::ScalarGrid &out)
{
    const sim::Int3 n = full.size();
    out.reshape({n[plane.u()], n[plane.v()], 1}, {0.5f, 0.5f, 0.5f});
    forEachLayerCell(n, plane, index,
                     [&](int i, int j, sim::Int3 c) { out(i, j, 0) = full(c.x, c.y, c.z); });
}

} // namespace

bool sliceFrame(const FrameData &frame, const SlicePlane &plane, FrameData &out)
{
    const sim::Domain &d = frame.domain;
    if (d.cells.z == 1) {
        out = frame;
        return true;
    }
    const int index = sliceIndex(d, plane);
    if (!frame.volume) {
        if (plane.axis != 2 || index != d.cells.z / 2)
            return false;
        out = frame;
        out.domain.cells.z = 1;
        out.domain.origin.z = d.origin.z + index * d.cellSize;
        return true;
    }
    const FrameVolume &vol = *frame.volume;
    out.frame = frame.frame;
    out.time = frame.time;
    out.msPerStep = frame.msPerStep;
    out.substeps = frame.substeps;
    out.pressureIterations = frame.pressureIterations;
    out.pressureResidual = frame.pressureResidual;
    out.pressureTrouble = frame.pressureTrouble;
    out.volume.reset();
    out.domain = d;
    out.domain.cells = {d.cells[plane.u()], d.cells[plane.v()], 1};
    out.domain.origin = {d.origin[plane.u()], d.origin[plane.v()],
                         d.origin[plane.axis] + index * d.cellSize};
    const DisplayField velocity[3] = {DisplayField::VelocityX, DisplayField::VelocityY,
                                      DisplayField::VelocityZ};
    for (int f = 0; f < int(DisplayField::Count); ++f) {
        out.minimum[f] = frame.minimum[f];
        out.maximum[f] = frame.maximum[f];
        out.fields[f] = sim::ScalarGrid();
    }
    for (int f = 0; f < int(DisplayField::Count); ++f) {
        // The in-plane velocity goes to x (u) and y (v); the normal component to z.
        DisplayField target = DisplayField(f);
        if (f == int(velocity[plane.u()]))
            target = DisplayField::VelocityX;
        else if (f == int(velocity[plane.v()]))
            target = DisplayField::VelocityY;
        else if (f == int(velocity[plane.axis]))
            target = DisplayField::VelocityZ;
        if (vol.fields[f].count() > 0)
            copyLayer(vol.fields[f], plane, index, out.fields[int(target)]);
    }
    out.solids.reshape(out.domain.cells);
    forEachLayerCell(d.cells, plane, index, [&](int i, int j, sim::Int3 c) {
        out.solids.setSolid(i, j, 0, vol.solids.isSolid(c.x, c.y, c.z));
    });
    return true;
}

} // namespace plume
