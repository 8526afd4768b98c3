#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Grain figures of baked smoke: how much of a field lives at the grid's own scale.

Usage: bench/grain.py CLI SCENE.plume FRAME|FIRST:LAST [--orders linear,maccormack,bfecc,cubic]
                      [--velocity same|ORDER] [--grid density] [--resolution N] [--keep DIR]

Bakes SCENE up to FRAME once per advection order (ORDER/2x: at twice the resolution, each
grid averaged over blocks of 2^3 voxels back to the scene's resolution: a reference with the
same resolved scales and less numerical smoothing) (a copy of the scene with only
simulation.advection and simulation.velocityAdvection changed: --velocity same moves the
velocity with the same order, the meaning of files without the key) and prints, for the grid
at FRAME (or the mean over the frames FIRST to LAST):
  fine   the share of the field's energy (mean removed) in its finest octave: the FFT modes
         whose largest |k| per axis is above half the Nyquist wavenumber;
  l/g    ||L q|| / ||G q||, the discrete Laplacian's norm over the gradient's (cell units):
         about |k| h for a smooth field of wavenumber k, up to 2 sqrt(3) for a checkerboard;
  extr   local extrema per thousand live cells (above 1 % of the peak): cells strictly
         above or below all their face neighbours;
  mass   the sum of the field over its voxels.
Grid-scale grain raises both figures; a sharper but smooth field raises neither much.
Needs Debian's python3-openvdb and numpy (the system python3).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import pyopenvdb as vdb


def dense(grid, block=1):
    """The grid's active box as an array; with block > 1, averaged over blocks of block^3
    voxels aligned with voxel (0, 0, 0): the grid at 1 / block of its resolution."""
    lo, hi = grid.evalActiveVoxelBoundingBox()
    lo = tuple(int(l) // block * block for l in lo)
    hi = tuple((int(h) // block + 1) * block - 1 for h in hi)
    shape = tuple(h - l + 1 for l, h in zip(lo, hi))
    a = np.zeros(shape, dtype=np.float32)
    grid.copyToArray(a, ijk=lo)
    if block > 1:
        n = tuple(s // block for s in shape)
        a = a.reshape(n[0], block, n[1], block, n[2], block).mean(axis=(1, 3, 5))
    return a


def figures(q):
    q = q.astype(np.float64)
    # Pad by two cells of zeros so the field's edge inside the bounding box is not a seam.
    q = np.pad(q, 2)
    f = np.fft.fftn(q - q.mean())
    e = np.abs(f) ** 2
    ks = np.meshgrid(*[np.abs(np.fft.fftfreq(n)) for n in q.shape], indexing="ij")
    kmax = np.maximum.reduce(ks)  # cycles per cell, Nyquist 0.5
    fine = e[kmax > 0.25].sum() / max(e.sum(), 1e-30)
    grad2 = 0.0
    lap = np.zeros_like(q)
    for ax in range(q.ndim):
        d = np.diff(q, axis=ax)
        grad2 += (d ** 2).sum()
        lap += np.roll(q, 1, axis=ax) + np.roll(q, -1, axis=ax) - 2 * q
    inner = tuple(slice(1, -1) for _ in range(q.ndim))
    lg = np.sqrt((lap[inner] ** 2).sum() / max(grad2, 1e-30))
    # Local extrema: cells above 1 % of the peak that are strictly above (or below) all six
    # neighbours, per thousand such cells. A monotone front has none; grain has many.
    core = q[inner]
    live = core > 0.01 * q.max()
    above = np.ones_like(live)
    below = np.ones_like(live)
    for ax in range(q.ndim):
        for sh in (1, -1):
            n = np.roll(q, sh, axis=ax)[inner]
            above &= core > n
            below &= core < n
    ext = 1000.0 * ((above | below) & live).sum() / max(live.sum(), 1)
    return fine, lg, ext, q.sum()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cli")
    ap.add_argument("scene")
    ap.add_argument("frame", help="N, or A:B for the mean over frames A to B")
    ap.add_argument("--orders", default="linear,maccormack,bfecc,cubic")
    ap.add_argument("--velocity", default="same")
    ap.add_argument("--grid", default="density")
    ap.add_argument("--resolution", type=int)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--keep", help="bake into DIR/<order> and keep the files")
    args = ap.parse_args()

    first, _, last = args.frame.partition(":")
    first, last = int(first), int(last or first)
    base = json.load(open(args.scene))
    name = base["name"]
    work = args.keep or tempfile.mkdtemp(prefix="grain-")
    print(f"{name} frame {args.frame} grid {args.grid} velocity {args.velocity}")
    print(f"{'order':18s} {'fine':>8s} {'l/g':>7s} {'extr':>7s} {'mass':>10s}")
    for label in args.orders.split(","):
        order, _, twice = label.partition("/")
        block = 2 if twice == "2x" else 1
        d = json.loads(json.dumps(base))
        d["simulation"]["advection"] = order
        d["simulation"]["velocityAdvection"] = order if args.velocity == "same" else args.velocity
        if args.resolution:
            d["domain"]["resolution"] = args.resolution
        d["domain"]["resolution"] = d["domain"].get("resolution", 128) * block
        # Only the VDB frame is baked: a flipbook preset (loops need many frames) is dropped.
        d.get("export", {}).pop("flipbook", None)
        out = os.path.join(work, order + ("-2x" if block > 1 else "") + "-" + args.velocity)
        os.makedirs(out, exist_ok=True)
        path = os.path.join(out, name + ".plume")
        json.dump(d, open(path, "w"), indent=1)
        subprocess.run([args.cli, "bake", path, "-o", out, "--vdb", "--quiet",
                        "--frames", f"{first}:{last}", "--threads",
                        str(args.threads), "--checkpoint-every", "0"], check=True)
        rows = []
        for frame in range(first, last + 1):
            f = os.path.join(out, f"{name}.{frame:04d}.vdb")
            rows.append(figures(dense(vdb.read(f, args.grid), block)))
        fine, lg, ext, mass = np.mean(np.array(rows), axis=0)
        print(f"{label:18s} {fine:8.5f} {lg:7.3f} {ext:7.2f} {mass:10.1f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
