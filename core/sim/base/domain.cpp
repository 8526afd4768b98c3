// SPDX-License-Identifier: Apache-2.0
#include <core/sim/base/domain.h>

#include <string>

namespace plume::sim {

namespace {
const char *axisName(int axis) { return axis == 0 ? "x" : (axis == 1 ? "y" : "z"); }
} // namespace

Status Domain::validate(std::int64_t maxCells) const
{
    for (int a = 0; a < 3; ++a) {
        if (cells[a] < 1)
            return Status::failure(std::string("domain: cell count along ") + axisName(a) + " is "
                                   + std::to_string(cells[a]) + "; it must be at least 1");
        if (cells[a] > (1 << 16))
            return Status::failure(std::string("domain: cell count along ") + axisName(a) + " is "
                                   + std::to_string(cells[a]) + "; the limit is 65536");
    }
    if (cells.x < 2 || cells.y < 2)
        return Status::failure("domain: a grid needs at least 2 cells along x and y, got "
                               + std::to_string(cells.x) + " x " + std::to_string(cells.y));
    if (cellCount() > maxCells)
        return Status::failure("domain: " + std::to_string(cells.x) + " x "
                               + std::to_string(cells.y) + " x " + std::to_string(cells.z) + " = "
                               + std::to_string(cellCount()) + " cells is more than the limit of "
                               + std::to_string(maxCells) + " cells");
    if (!std::isfinite(cellSize) || cellSize <= 0.f)
        return Status::failure("domain: cell size " + std::to_string(cellSize)
                               + " must be a positive finite number");
    if (!std::isfinite(origin.x) || !std::isfinite(origin.y) || !std::isfinite(origin.z))
        return Status::failure("domain: origin must be finite");
    for (int a = 0; a < 3; ++a) {
        const bool lo = boundary(a, false) == Boundary::Periodic;
        const bool hi = boundary(a, true) == Boundary::Periodic;
        if (lo != hi)
            return Status::failure(std::string("domain: periodic boundary along ") + axisName(a)
                                   + " must be set on both faces");
    }
    return Status::success();
}

} // namespace plume::sim
