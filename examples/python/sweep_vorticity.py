# SPDX-License-Identifier: Apache-2.0
"""The tutorial of docs/python.md: build a scene, sweep its vorticity confinement, measure the
plume's height and spread from the density field frame by frame, plot them, and bake the
variation that spreads widest as a flipbook.

    PYTHONPATH=build/python python3 examples/python/sweep_vorticity.py out/

PLUME_EXAMPLE_QUICK=1 runs it small (the test suite does).
"""

import os
import sys

import matplotlib
matplotlib.use("Agg")  # files only, no window
import matplotlib.pyplot as plt
import numpy as np

import plume

out = sys.argv[1] if len(sys.argv) > 1 else "sweep"
os.makedirs(out, exist_ok=True)
quick = os.environ.get("PLUME_EXAMPLE_QUICK") == "1"

# 1. A scene: the built-in hot plume rising past a round obstacle, in 3D.
scene = plume.Scene.builtin("plume", dimension=3, resolution=24 if quick else 64)
scene.simulation.frameEnd = 12 if quick else 60
scene.items["source"].emitter.temperature = 2.0  # a hotter source: it rises faster


def front_height(density):
    """World height of the plume's front: the top of the highest layer holding smoke."""
    layers = density.sum(axis=(0, 2))  # one sum per cell row j (the y axis)
    rows = np.nonzero(layers > 1e-3 * layers.max())[0]
    return density.origin[1] + (rows.max() + 1) * density.voxel_size


def spread(density):
    """Density-weighted RMS distance from the plume's axis in the horizontal plane (x, z)."""
    h = density.voxel_size
    x = density.origin[0] + (np.arange(density.shape[0]) + 0.5) * h
    z = density.origin[2] + (np.arange(density.shape[2]) + 0.5) * h
    w = density.sum(axis=1)  # (x, z): the smoke above each floor cell
    total = w.sum()
    cx = (w.sum(axis=1) * x).sum() / total
    cz = (w.sum(axis=0) * z).sum() / total
    r2 = (x[:, None] - cx) ** 2 + (z[None, :] - cz) ** 2
    return float(np.sqrt((w * r2).sum() / total))


# 2. The sweep: one simulation per vorticity, the front's height and the spread every frame.
vorticities = [0.0, 0.5, 2.0] if quick else [0.0, 0.5, 1.0, 2.0, 4.0]
heights, spreads = {}, {}
for v in vorticities:
    scene.simulation.vorticity = v
    sim = plume.Simulation(scene, threads=0)  # 0: every core; the bytes are the same
    heights[v], spreads[v] = [], []
    while sim.frame < scene.simulation.frameEnd:
        sim.advance()
        density = sim.field("density")
        heights[v].append(front_height(density))
        spreads[v].append(spread(density))
    print(f"vorticity {v}: front at {heights[v][-1]:.3f}, spread {spreads[v][-1]:.3f} "
          f"after frame {sim.frame}")

# 3. The plot.
frames = np.arange(scene.simulation.frameStart, scene.simulation.frameEnd + 1)
fig, (top, side) = plt.subplots(1, 2, figsize=(9, 3.6), dpi=100)
for v in vorticities:
    top.plot(frames, heights[v], label=f"vorticity {v}")
    side.plot(frames, spreads[v], label=f"vorticity {v}")
top.set_ylabel("height of the front (world units)")
side.set_ylabel("horizontal spread, RMS (world units)")
for ax in (top, side):
    ax.set_xlabel("frame")
    ax.grid(alpha=0.3)
side.legend()
fig.suptitle("The built-in plume, vorticity confinement swept")
fig.tight_layout()
fig.savefig(os.path.join(out, "plume-height.png"))

# 4. Bake the variation that spread widest: a 4 x 4 flipbook and its sidecar.
best = max(vorticities, key=lambda v: spreads[v][-1])
scene.simulation.vorticity = best
scene.save(os.path.join(out, "best.plume"))  # its file name names the bake's files
files = plume.bake(scene, os.path.join(out, "best"), flipbook=(3, 4) if quick else (4, 4),
                   size=(64, 64) if quick else (128, 128),
                   progress=lambda frame, done, total, ms: print(f"\rbaking {done}/{total}",
                                                                 end="", flush=True))
print(f"\nvorticity {best} spread widest; wrote {len(files)} files to {out}/best")
