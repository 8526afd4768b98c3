// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <core/scene/scene.h>

#include <core/sim/base/domain.h>
#include <core/sim/base/grid.h>

#include <string>
#include <vector>

namespace plume {

/// A decoded image mask: coverage values in [0, 1], row 0 at the top (highest y).
struct MaskImage
{
    int width = 0;
    int height = 0;
    std::vector<float> values; ///< width * height, row-major from the top row

    float pixel(int x, int y) const { return values[std::size_t(y) * width + x]; }
};

/// Loads an image shape's file (resolved against `directory` when relative) and converts the
/// shape's channel (with `invert`) to coverage. Returns false and sets `error` when the file is
/// missing or cannot be decoded.
sim::Result<MaskImage> loadMaskImage(const Shape &shape, const std::string &directory);

/// Absolute path of an image shape's file.
std::string resolveImagePath(const std::string &file, const std::string &directory);

/// `file`, relative to folder `from`, made relative to folder `to`: the same image. Absolute
/// paths stay as they are, and so does any path when `from` or `to` is empty. The scene writer
/// writes image paths through this, so a scene written into `to` names the same images.
std::string rebasedImagePath(const std::string &file, const std::string &from,
                             const std::string &to);
/// An image or mesh shape's file rebased from `from` to `to` (rebasedImagePath); other shapes
/// as they are.
void rebaseImageShape(Shape &shape, const std::string &from, const std::string &to);

/// Anti-aliased coverage of `shape` moved by `offset` on the domain's cells, as a sparse mask
/// (ascending cell indices, weights in (0, 1]).
///
/// Sphere, box, capsule and stroke use the signed distance sd to the surface: the weight is
/// clamp(0.5 - sd / h, 0, 1), a ramp one cell wide centred on the surface, whose sum over cells
/// equals the shape's area (volume) in cells up to the curvature error. With `falloff` > 0 the
/// weight outside is at least 1 - smoothstep(0, falloff, sd) (force field regions). A stroke is
/// the union (largest weight) of round cones between consecutive points, with radius and
/// pressure interpolated linearly along each segment; pressure multiplies the weight. An image
/// is sampled bilinearly at up to 4 x 4 points per cell (enough to cover each pixel), zero
/// outside its rectangle; `falloff` does not apply to it. In 2D every z is ignored.
///
/// Only cells within the shape's bounding box (plus a cell and the falloff) are touched. Rows
/// run in parallel through sim::forEachRow and the result does not depend on the thread count.
/// `image` must be the decoded file for image shapes (ignored otherwise); "everywhere" covers
/// every cell with weight 1.
///
/// `placement` moves, rotates and scales the shape about shapePivot(shape) (placement.h). A
/// rotated or scaled shape's distance is measured in its own frame and scaled by the smallest
/// scale factor (exact for uniform scales). In 2D only rotation z and scale x, y apply
/// (effectivePlacement). Mesh shapes give an empty mask here: see meshcoverage.h.
sim::SparseMask shapeCoverage(const sim::Domain &domain, const Shape &shape,
                              const Placement &placement, float falloff = 0.f,
                              const MaskImage *image = nullptr);

/// The point a shape rotates and scales about: the centre of a sphere or box, the middle of a
/// capsule, of a stroke's bounding box and of an image's rectangle, a mesh's translation.
sim::Vec3 shapePivot(const Shape &shape);

/// The placement that acts in the domain's dimension: in 2D, rotation about z and scale in x
/// and y only (a shape lies in the plane).
Placement effectivePlacement(const Placement &placement, bool twoD);

/// A shape moved by `offset` (every position of it).
Shape translated(const Shape &shape, sim::Vec3 offset);

} // namespace plume
