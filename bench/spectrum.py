#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Kinetic-energy spectrum of baked smoke: how the velocity's energy spreads over scales.

Usage: bench/spectrum.py VDB...|DIR [--grid vel|density|...] [--threshold 0.01]
                         [--min-span N] [--block B] [--table] [--json FILE|-]

For each frame (a DIR: all its *.vdb files, sorted by frame number):
  box    the smoke's box: the bounding box of the voxels whose density is above --threshold
         (default 1 %) of the frame's peak density;
  N      the box's longest side in cells. The grid (vel by default: a missing or inactive
         voxel is 0) is cut to the box and zero-padded to an N-cube; a scalar grid (--grid
         density) has its mean over the box removed first;
  E(k)   FFT of each component (numpy), |u_hat|^2 summed over the components and binned into
         shells by |k| rounded to the nearest integer (k in integer wavenumbers of the N-cube,
         0 to N/2; the corners beyond N/2 are left out). E(k) is the shell's sum, the usual
         spectrum whose Kolmogorov slope is -5/3, normalised so that sum_k E(k) is half the
         mean of |u|^2 over the cube (Parseval), in (world units / s)^2 for vel;
  B1..B3 band sums of E: N/16 <= k < N/8, N/8 <= k < N/4 and N/4 <= k <= N/2;
  ratio  B2 / B1 (a k^(-5/3) spectrum gives about 2^(-2/3) = 0.63; a smooth flow far less);
  B3<B2  yes when the finest band holds less than the one below (no pile-up at grid scale);
  slope  least-squares slope of log E against log k over N/16 <= k <= N/2.
--block B averages the grid over blocks of B^3 voxels first (cut to whole blocks): an upres bake
writes its grids B times finer than it simulates, vel interpolated from the simulation's, so
its velocity's spectrum is read on the simulation's cells. --table adds E(k) and the octave sums (k in [1,2), [2,4), [4,8), ...) per frame; --min-span N
keeps only the frames whose box is at least N cells on its longest side. The last line is the
median ratio over the kept frames. --json writes the same figures, E(k) included.
Needs Debian's python3-openvdb and numpy (the system python3).
"""
import argparse
import json
import os
import sys

import numpy as np
import pyopenvdb as vdb

from look import finite_json, frame_number, list_files  # bench/look.py: files and JSON


def vdb_files(inputs):
    """The VDB files named, a folder standing for its *.vdb files, sorted by frame number."""
    return list_files(inputs, ".vdb")


def active_array(grid):
    """The grid's active bounding box as a dense array and the box's low index corner."""
    lo, hi = grid.evalActiveVoxelBoundingBox()
    shape = tuple(int(h) - int(l) + 1 for l, h in zip(lo, hi))
    if grid.activeVoxelCount() == 0 or min(shape) <= 0:
        return np.zeros((0, 0, 0), np.float32), (0, 0, 0)
    a = np.zeros(shape, np.float32)
    grid.copyToArray(a, ijk=tuple(int(l) for l in lo))
    return a, tuple(int(l) for l in lo)


def smoke_box(density, threshold=0.01):
    """(lo, hi) inclusive index box of the voxels whose density is above threshold times the
    grid's peak, or None when the grid holds no smoke."""
    a, lo = active_array(density)
    if a.size == 0:
        return None
    peak = float(a.max())
    if not peak > 0:
        return None
    idx = np.nonzero(a > threshold * peak)
    if len(idx[0]) == 0:
        return None
    blo = tuple(lo[d] + int(idx[d].min()) for d in range(3))
    bhi = tuple(lo[d] + int(idx[d].max()) for d in range(3))
    return blo, bhi


def box_array(grid, lo, hi):
    """The grid over the inclusive index box [lo, hi]: (nx, ny, nz) for a scalar grid,
    (nx, ny, nz, 3) for a vector grid; inactive voxels read the background (0)."""
    shape = tuple(h - l + 1 for l, h in zip(lo, hi))
    vector = grid.valueTypeName.startswith("vec3")
    a = np.zeros(shape + ((3,) if vector else ()), np.float32)
    grid.copyToArray(a, ijk=tuple(lo))
    return a


def shell_spectrum(field, n=None):
    """E(k), k = 0..N/2, of a field given as (nx, ny, nz) or (nx, ny, nz, C): each component
    zero-padded to an N-cube (N: the longest side, or n), FFT'd, |.|^2 summed over components
    and shells (|k| rounded). Normalised so that sum_k E(k) = 0.5 * mean(|u|^2) over the cube,
    leaving out the corner modes with |k| > N/2. Returns (E, N)."""
    f = np.asarray(field, dtype=np.float64)
    if f.ndim == 3:
        f = f[..., None]
    shape = f.shape[:3]
    n = int(n or max(shape))
    if n < 2:
        raise ValueError("the box is under 2 cells on its longest side")
    # rfftn over the last axis: the modes kz and -kz are each other's conjugates, so every
    # kz other than 0 and (even N) N/2 stands for two modes.
    kx = np.fft.fftfreq(n) * n
    kz = np.fft.rfftfreq(n) * n
    kk = np.sqrt(kx[:, None, None] ** 2 + kx[None, :, None] ** 2 + kz[None, None, :] ** 2)
    shell = np.rint(kk).astype(np.int64)
    weight = np.full(kz.shape, 2.0)
    weight[0] = 1.0
    if n % 2 == 0:
        weight[-1] = 1.0
    power = np.zeros(shell.shape)
    cube = np.zeros((n, n, n))
    for c in range(f.shape[3]):
        cube[...] = 0.0
        cube[: shape[0], : shape[1], : shape[2]] = f[..., c]
        power += np.abs(np.fft.rfftn(cube)) ** 2
    power *= weight[None, None, :]
    kmax = n // 2
    keep = shell <= kmax
    e = np.bincount(shell[keep], weights=power[keep], minlength=kmax + 1)
    return 0.5 * e / float(n) ** 6, n


def band_sum(e, lo, hi, inclusive=False):
    """Sum of E(k) over integer k with lo <= k < hi (k <= hi when inclusive)."""
    k = np.arange(len(e))
    sel = (k >= lo) & ((k <= hi) if inclusive else (k < hi))
    return float(e[sel].sum())


def octave_sums(e):
    """[(lo, hi, sum)] over k in [1, 2), [2, 4), ..., the last one cut at N/2 (inclusive)."""
    out = []
    lo = 1
    while lo < len(e):
        hi = min(2 * lo, len(e))
        out.append((lo, hi, float(e[lo:hi].sum())))
        lo *= 2
    return out


def fit_slope(e, n):
    """Least-squares slope of log E against log k over integer N/16 <= k <= N/2, E > 0."""
    k = np.arange(len(e), dtype=np.float64)
    sel = (k >= n / 16.0) & (k <= n / 2.0) & (k >= 1) & (e > 0)
    if sel.sum() < 2:
        return float("nan")
    return float(np.polyfit(np.log(k[sel]), np.log(e[sel]), 1)[0])


def figures(e, n):
    """The band figures of a spectrum E(k) of an N-cube, as a dict."""
    b1 = band_sum(e, n / 16.0, n / 8.0)
    b2 = band_sum(e, n / 8.0, n / 4.0)
    b3 = band_sum(e, n / 4.0, n / 2.0, inclusive=True)
    return {
        "N": n,
        "B1": b1,
        "B2": b2,
        "B3": b3,
        "ratio": b2 / b1 if b1 > 0 else float("nan"),
        "b3_below_b2": bool(b3 < b2),
        "slope": fit_slope(e, n),
        "octaves": [{"k": [lo, hi], "E": s} for lo, hi, s in octave_sums(e)],
        "E": [float(x) for x in e],
    }


def block_mean(a, block):
    """The array averaged over blocks of block^3 voxels (the first three axes; a trailing axis
    of vector components is kept), cut to whole blocks: a grid at 1 / block of its resolution."""
    if block <= 1:
        return a
    n = [s // block for s in a.shape[:3]]
    a = a[:n[0] * block, :n[1] * block, :n[2] * block]
    shape = (n[0], block, n[1], block, n[2], block) + a.shape[3:]
    return a.reshape(shape).mean(axis=(1, 3, 5))


def frame_spectrum(path, grid="vel", threshold=0.01, block=1):
    """The spectrum figures of one VDB file (dict), with the smoke box; 'error' when the file
    has no smoke or no such grid. block > 1: the grid averaged over blocks of block^3 voxels
    first (an upres bake's grids back on the simulation's cells), spans in those blocks."""
    out = {"file": path, "frame": frame_number(path), "grid": grid}
    names = [m.name for m in vdb.readAllGridMetadata(path)]
    if "density" not in names:
        out["error"] = "no density grid"
        return out
    box = smoke_box(vdb.read(path, "density"), threshold)
    if box is None:
        out["error"] = "no smoke"
        return out
    lo, hi = box
    out["box"] = {"lo": list(lo), "hi": list(hi), "size": [h - l + 1 for l, h in zip(lo, hi)]}
    out["span"] = max(out["box"]["size"]) // max(1, block)
    if grid == "density":
        g = vdb.read(path, "density")
    elif grid not in names:
        out["error"] = f"no {grid} grid"
        return out
    else:
        g = vdb.read(path, grid)
    a = block_mean(box_array(g, lo, hi), block)
    if a.ndim == 3:
        a = a.astype(np.float64) - float(a.mean())
    e, n = shell_spectrum(a)
    out.update(figures(e, n))
    return out


def fmt(x, w=9, p=4):
    return f"{x:{w}.{p}g}" if np.isfinite(x) else f"{'nan':>{w}s}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("inputs", nargs="+", help="VDB files or folders of them")
    ap.add_argument("--grid", default="vel", help="the grid: vel (default) or a scalar grid")
    ap.add_argument("--threshold", type=float, default=0.01,
                    help="the smoke box: density above this share of the frame's peak")
    ap.add_argument("--min-span", type=int, default=0,
                    help="keep only frames whose smoke box is at least this many cells long")
    ap.add_argument("--block", type=int, default=1,
                    help="average over blocks of B^3 voxels first: an upres bake's grids on the "
                         "simulation's cells (B = the upres factor)")
    ap.add_argument("--table", action="store_true", help="print E(k) and the octave sums")
    ap.add_argument("--json", help="write the results as JSON to FILE ('-': stdout)")
    args = ap.parse_args(argv)

    files = vdb_files(args.inputs)
    if not files:
        print("spectrum: no VDB files", file=sys.stderr)
        return 2
    text = sys.stderr if args.json == "-" else sys.stdout
    print(f"grid {args.grid}, smoke box at density > {args.threshold:g} x the frame's peak"
          + (f", frames with span >= {args.min_span}" if args.min_span else ""), file=text)
    print(f"{'frame':>6s} {'box':>12s} {'N':>4s} {'B1':>9s} {'B2':>9s} {'B3':>9s} "
          f"{'B2/B1':>7s} {'B3<B2':>5s} {'slope':>7s}", file=text)
    results = []
    for f in files:
        r = frame_spectrum(f, args.grid, args.threshold, args.block)
        label = str(r["frame"]) if r["frame"] is not None else os.path.basename(f)
        if "error" in r:
            print(f"{label:>6s} {r['error']}", file=text)
            r["kept"] = False
            results.append(r)
            continue
        r["kept"] = r["span"] >= args.min_span
        size = "x".join(str(s) for s in r["box"]["size"])
        print(f"{label:>6s} {size:>12s} {r['N']:4d} {fmt(r['B1'])} {fmt(r['B2'])} "
              f"{fmt(r['B3'])} {fmt(r['ratio'], 7, 3)} {'yes' if r['b3_below_b2'] else 'no':>5s} "
              f"{fmt(r['slope'], 7, 3)}" + ("" if r["kept"] else "  (span under --min-span)"),
              file=text)
        if args.table:
            print("        k  E(k)", file=text)
            for k, ek in enumerate(r["E"]):
                print(f"      {k:3d}  {ek:.6g}", file=text)
            print("        octave sums: " + ", ".join(
                f"[{o['k'][0]},{o['k'][1]}) {o['E']:.4g}" for o in r["octaves"]), file=text)
        results.append(r)
    kept = [r["ratio"] for r in results if r.get("kept") and np.isfinite(r.get("ratio", np.nan))]
    median = float(np.median(kept)) if kept else float("nan")
    print(f"median B2/B1 over {len(kept)} kept frame(s): {fmt(median, 0, 3)} "
          f"(k^-5/3: {2 ** (-2 / 3):.3f})", file=text)
    if args.json:
        doc = {"grid": args.grid, "threshold": args.threshold, "block": args.block,
               "minSpan": args.min_span,
               "keptFrames": len(kept), "medianRatio": median if kept else None,
               "frames": results}
        s = json.dumps(finite_json(doc), indent=1)
        if args.json == "-":
            print(s)
        else:
            with open(args.json, "w") as fh:
                fh.write(s + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
