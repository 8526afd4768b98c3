// SPDX-License-Identifier: Apache-2.0
#pragma once

// Framing::Effect (docs/flipbook.md, "Framing"): the 3D camera fitted to the smoke rather than
// to the domain. A bake takes the union of visibleBox() over every frame it renders and renders
// them all with that one box (FrameFields::framed), so every tile has the same camera.

#include <core/render/renderer.h>

namespace plume {

/// The largest opacity or emission that counts as nothing: what bench/look.py tiles counts as
/// smoke cut at a tile's edge (its --limit), 2.55 steps of an 8-bit channel. Half a step
/// (0.5 / 255, nothing at all in 8 bits) was measured too: the faintest wisps then reach the
/// walls of the example domains in some frame, and the union box stays near the domain
/// (candle-3d's preset: its smoke spans 69 % of the tile's height, against 63 % framed to
/// the domain and 91 % with this threshold; docs/flipbook.md, "Framing").
inline constexpr float kInvisible = 0.01f;

/// The world box outside which nothing of this 3D frame shows, seen along the camera of
/// `settings` (its yaw and pitch; empty when nothing shows; a 2D frame gives an empty box).
/// The frame is seen as the ray march sees it: every cell's optical depth densityScale *
/// density * cellSize and its glow (emissionColor's brightest channel times 2^exposure and the
/// march's rate kEmissionRate * densityScale, per cellSize, unabsorbed) are summed per column
/// along the view, on a cellSize grid across it (each cell to the column of its centre). A
/// column shows when its opacity 1 - exp(-depth) or its glow exceeds kInvisible; the columns
/// next to one that shows count too (a cell's samples reach one cell beyond its centre). The
/// box holds every cell with density above the march's floor, or glowing, in a column that
/// shows, from half a cell below the lowest to one and a half above the highest (as
/// marchBounds), clamped to the domain. The surface look: the liquid's cells (surface <= 0).
/// Cells are summed in a fixed order: the same whatever the thread count.
WorldBox visibleBox(const FrameFields &fields, const RenderSettings &settings);

} // namespace plume
