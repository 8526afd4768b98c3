// SPDX-License-Identifier: Apache-2.0
#pragma once

/// Prints a docs/performance.md row: median milliseconds to save and restore a checkpoint of
/// the built-in 3D plume (smoke scheme, no dye) after `frames` frames at `resolution`, in
/// memory and through a file, on two threads, its size and bytes per cell, then what each
/// field stores.
void checkpointCost(int resolution, int frames, int repeats);

/// Prints a row: median milliseconds per frame of baking the same plume to VDB files without
/// checkpoints and with one every 10 frames, the bakes alternating (2 threads), and the median
/// of the per-pair ratios.
void bakeSlowdown(int resolution, int frames, int runs);
