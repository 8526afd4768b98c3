#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Look figures of baked effects: soft edges, fire colour, smoke cut by the domain or a tile.

Usage: bench/look.py edges FRAME.png...|DIR [--inside 8] [--reach 32]
       bench/look.py fire FRAME.png...|DIR [--visible auto|alpha|luminance]
       bench/look.py cutoff VDB...|DIR [--scene SCENE.plume | --cells XxYxZ] [--ground SIDE]
       bench/look.py tiles ATLAS.png [--grid RxC] [--padding P]
Each takes --json FILE|- (the figures as JSON; '-': stdout, the text then goes to stderr).

edges   at every pixel of the silhouette (alpha >= 0.5 with a 4-neighbour below 0.5), alpha
        is sampled (bilinear, every 0.1 px, linear between samples) along its gradient (central
        differences): from the 0.5 crossing inwards to 0.9, outwards to 0.1. The edge width is
        the distance from 0.1 to 0.9 in pixels (a linear ramp over W pixels: 0.8 W; a hard
        step: 0.8). Only dense smoke counts: where 0.9 is reached within --inside pixels of the
        0.5 crossing (and 0.1 within --reach). Prints the median per frame and over all
        silhouette pixels of all frames, and the share of silhouette pixels kept.
fire    the visible pixels (alpha > 0.5 or light above luminance 0.05: bake with --alpha
        premultiplied, as fire flipbooks are; for opaque images, luminance above the background:
        the median of the image's outer pixel ring, plus --margin), ranked by luminance (Rec.
        709 weights on the linear colour); per frame the brightest 1 % (at least one pixel).
        At the brightest frame (highest mean luminance of its brightest 1 %): the mean sRGB R,
        G, B of those pixels (0-255, as stored: straight alpha gives the smoke's colour) and
        G/R and B/R of the means. Target (issue 46): G/R >= 0.85 and B/R >= 0.45.
cutoff  per frame, the largest density within --band (2) cells of each domain side, relative
        to the peak density over all the frames, sides named in the scene's axes (xmin ... zmax,
        y up) whatever the file's up axis. The domain's cells: the scene's domain.size over the
        VDB's voxel size (--scene, or resources/scenes/<scene>.plume named by the file's
        metadata), or --cells. Target: nothing above --limit (1 %) but the --ground side.
tiles   for a flipbook atlas, the largest alpha on the outermost pixel ring of each frame (the
        tile less its gutter of --padding pixels a side): smoke cut at the tile's edge.
        --ignore bottom leaves out the bottom edge, where a ground effect meets its ground.
        --grid and --padding default to the sidecar ATLAS.json when it is there; tiles past
        its frame count are skipped. Prints the worst tile and the tiles above --limit.
Needs Debian's python3-openvdb, numpy and python3-pil (the system python3).
"""
import argparse
import json
import math
import os
import re
import sys

import numpy as np

# ------------------------------------------------------------------------------------------
# Files


def frame_number(path):
    """The frame of <name>.<frame>.<ext> (or <name>_<frame>.<ext>); None when there is none."""
    m = re.search(r"[._](\d+)\.[A-Za-z]+$", os.path.basename(path))
    return int(m.group(1)) if m else None


def list_files(inputs, ext):
    """The files named, a folder standing for its files ending in ext that carry a frame
    number, sorted by frame number (then name)."""
    files = []
    for p in inputs:
        if os.path.isdir(p):
            files += [os.path.join(p, f) for f in os.listdir(p)
                      if f.endswith(ext) and frame_number(f) is not None]
        else:
            files.append(p)

    def key(f):
        n = frame_number(f)
        return (n is None, n if n is not None else 0, f)

    return sorted(files, key=key)


def read_image(path):
    """(rgb, alpha): the image as floats in [0, 1], rgb (H, W, 3) as stored (sRGB-encoded),
    alpha (H, W) or None when the image has no alpha channel."""
    from PIL import Image

    im = Image.open(path)
    im.load()
    mode = im.mode
    if mode in ("I;16", "I;16B", "I;16L", "I"):
        a = np.asarray(im, dtype=np.float64) / 65535.0
        return np.repeat(a[..., None], 3, axis=2), None
    if mode == "P":
        im = im.convert("RGBA")
        mode = "RGBA"
    if mode == "LA":
        a = np.asarray(im, dtype=np.float64) / 255.0
        return np.repeat(a[..., :1], 3, axis=2), a[..., 1]
    if mode == "L":
        a = np.asarray(im, dtype=np.float64) / 255.0
        return np.repeat(a[..., None], 3, axis=2), None
    if mode not in ("RGB", "RGBA"):
        im = im.convert("RGBA")
        mode = "RGBA"
    a = np.asarray(im, dtype=np.float64) / 255.0
    if mode == "RGB":
        return a, None
    return a[..., :3], a[..., 3]


def finite_json(x):
    """x with every NaN or infinity replaced by None (JSON has no NaN), numpy scalars as
    Python numbers."""
    if isinstance(x, (np.floating, np.integer, np.bool_)):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: finite_json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [finite_json(v) for v in x]
    return x


def write_json(target, doc):
    s = json.dumps(finite_json(doc), indent=1)
    if target == "-":
        print(s)
    else:
        with open(target, "w") as fh:
            fh.write(s + "\n")


def fmt(x, w=7, p=3):
    return f"{x:{w}.{p}f}" if x is not None and math.isfinite(x) else f"{'-':>{w}s}"


# ------------------------------------------------------------------------------------------
# edges


def bilinear(img, x, y):
    """img sampled at (x, y) (pixel centres at integers, x along columns), clamped to the
    image."""
    h, w = img.shape
    x = np.clip(x, 0.0, w - 1.0)
    y = np.clip(y, 0.0, h - 1.0)
    x0 = np.minimum(np.floor(x).astype(np.int64), w - 2 if w > 1 else 0)
    y0 = np.minimum(np.floor(y).astype(np.int64), h - 2 if h > 1 else 0)
    x1 = np.minimum(x0 + 1, w - 1)
    y1 = np.minimum(y0 + 1, h - 1)
    fx = x - x0
    fy = y - y0
    top = img[y0, x0] * (1 - fx) + img[y0, x1] * fx
    bottom = img[y1, x0] * (1 - fx) + img[y1, x1] * fx
    return top * (1 - fy) + bottom * fy


def silhouette_pixels(alpha, level=0.5):
    """(ys, xs) of the pixels with alpha >= level that have a 4-neighbour below level."""
    inside = alpha >= level
    p = np.pad(inside, 1, mode="edge")
    out_n = ~p[:-2, 1:-1] | ~p[2:, 1:-1] | ~p[1:-1, :-2] | ~p[1:-1, 2:]
    return np.nonzero(inside & out_n)


def edge_widths(alpha, lo=0.1, mid=0.5, hi=0.9, inside=8.0, reach=32.0, step=0.1):
    """Edge widths (pixels from alpha lo to hi along the gradient) at the silhouette pixels
    of one alpha image, and the number of silhouette pixels (kept or not)."""
    alpha = np.asarray(alpha, dtype=np.float64)
    ys, xs = silhouette_pixels(alpha, mid)
    count = len(ys)
    if count == 0:
        return np.zeros(0), 0
    gy, gx = np.gradient(alpha)
    dx, dy = gx[ys, xs], gy[ys, xs]
    norm = np.hypot(dx, dy)
    ok = norm > 1e-12
    ys, xs, dx, dy, norm = ys[ok], xs[ok], dx[ok], dy[ok], norm[ok]
    if len(ys) == 0:
        return np.zeros(0), count
    dx /= norm
    dy /= norm
    m = int(round(reach / step))
    t = np.arange(-m, m + 1) * step
    i0 = m
    prof = bilinear(alpha, xs[:, None] + dx[:, None] * t[None, :],
                    ys[:, None] + dy[:, None] * t[None, :])
    rows = np.arange(len(ys))
    # The 0.5 crossing: the first sample below mid going outwards from t = 0 (whose sample,
    # the pixel's own alpha, is >= mid), between samples j and j + 1.
    out = prof[:, i0::-1] < mid
    has5 = out.any(axis=1)
    j = i0 - np.argmax(out, axis=1)
    # 0.9 inwards: the first sample >= hi after j (samples j + 1 ... are >= mid up to it).
    after = np.arange(len(t))[None, :] > j[:, None]
    inn = (prof >= hi) & after
    has9 = inn.any(axis=1)
    i9 = np.argmax(inn, axis=1)
    # 0.1 outwards: the first sample <= lo at or before j.
    before = np.arange(len(t))[None, :] <= j[:, None]
    low = (prof <= lo) & before
    rev = low[:, ::-1]
    has1 = rev.any(axis=1)
    i1 = len(t) - 1 - np.argmax(rev, axis=1)
    keep = has5 & has9 & has1
    rows, j, i9, i1 = rows[keep], j[keep], i9[keep], i1[keep]
    if len(rows) == 0:
        return np.zeros(0), count

    def cross(a, b, level):
        # The level crossing between samples a and a + 1 = b (linear), as t.
        pa, pb = prof[rows, a], prof[rows, b]
        d = pb - pa
        f = np.where(np.abs(d) > 1e-15, (level - pa) / np.where(d == 0, 1, d), 0.0)
        return t[a] + np.clip(f, 0.0, 1.0) * step

    t5 = cross(j, j + 1, mid)
    t9 = cross(i9 - 1, i9, hi)
    t1 = cross(i1, i1 + 1, lo)
    dense = (t9 - t5) <= inside
    return (t9 - t1)[dense], count


def cmd_edges(args, text):
    files = list_files(args.frames, ".png")
    rows, pooled = [], []
    print(f"edge width (alpha {args.low:g} to {args.high:g} along the gradient, pixels); dense "
          f"smoke: alpha {args.high:g} within {args.inside:g} px of the 0.5 crossing", file=text)
    print(f"{'frame':>24s} {'median':>7s} {'p10':>7s} {'p90':>7s} {'kept':>6s} {'of':>6s}",
          file=text)
    for f in files:
        _, alpha = read_image(f)
        if alpha is None:
            print(f"{os.path.basename(f):>24s} no alpha channel", file=text)
            rows.append({"file": f, "error": "no alpha channel"})
            continue
        w, n = edge_widths(alpha, args.low, 0.5, args.high, args.inside, args.reach)
        r = {"file": f, "frame": frame_number(f), "silhouettePixels": int(n),
             "kept": int(len(w)),
             "median": float(np.median(w)) if len(w) else None,
             "p10": float(np.percentile(w, 10)) if len(w) else None,
             "p90": float(np.percentile(w, 90)) if len(w) else None}
        rows.append(r)
        pooled.append(w)
        print(f"{os.path.basename(f):>24s} {fmt(r['median'])} {fmt(r['p10'])} {fmt(r['p90'])} "
              f"{len(w):6d} {n:6d}", file=text)
    allw = np.concatenate(pooled) if pooled else np.zeros(0)
    meds = [r["median"] for r in rows if r.get("median") is not None]
    overall = float(np.median(allw)) if len(allw) else None
    per_frame = float(np.median(meds)) if meds else None
    print(f"overall: median {fmt(overall, 0)} px over {len(allw)} silhouette pixels of "
          f"{len(meds)} frame(s); median of the frame medians {fmt(per_frame, 0)} px", file=text)
    return {"measure": "edges", "inside": args.inside, "overallMedian": overall,
            "medianOfFrameMedians": per_frame, "pixels": int(len(allw)), "frames": rows}


# ------------------------------------------------------------------------------------------
# fire


def srgb_to_linear(c):
    c = np.asarray(c, dtype=np.float64)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def luminance(rgb):
    """Relative luminance (Rec. 709 weights) of sRGB-encoded colours in [0, 1]."""
    lin = srgb_to_linear(rgb)
    return lin[..., 0] * 0.2126 + lin[..., 1] * 0.7152 + lin[..., 2] * 0.0722


def visible_mask(rgb, alpha, mode="auto", margin=0.02):
    """The visible pixels: alpha > 0.5 (mode alpha); in mode auto with alpha also the pixels
    whose light (the colour as stored, premultiplied) has a luminance above 0.05, since a
    flame's additive emission shows where its smoke is thin; for an opaque image (no alpha,
    or alpha 1 everywhere; mode luminance) luminance above the background (the median
    luminance of the outer pixel ring) plus margin."""
    if mode == "alpha" or (mode == "auto" and alpha is not None and alpha.min() < 1.0):
        if alpha is None:
            raise ValueError("the image has no alpha channel")
        if mode == "auto":
            return (alpha > 0.5) | (luminance(rgb) > 0.05)
        return alpha > 0.5
    y = luminance(rgb)
    ring = np.concatenate([y[0, :], y[-1, :], y[:, 0], y[:, -1]])
    return y > float(np.median(ring)) + margin


def brightest(rgb, alpha, share=0.01, mode="auto", margin=0.02):
    """The brightest share (by luminance) of the visible pixels: (their sRGB colours (M, 3),
    their mean luminance, the number of visible pixels)."""
    vis = visible_mask(rgb, alpha, mode, margin)
    colours = rgb[vis]
    if len(colours) == 0:
        return np.zeros((0, 3)), float("nan"), 0
    y = luminance(colours)
    count = max(1, int(math.ceil(share * len(colours))))
    order = np.argsort(-y, kind="stable")[:count]
    return colours[order], float(y[order].mean()), int(len(colours))


def cmd_fire(args, text):
    files = list_files(args.frames, ".png")
    best = None
    frames = []
    for f in files:
        rgb, alpha = read_image(f)
        cols, ymean, nvis = brightest(rgb, alpha, args.share, args.visible, args.margin)
        frames.append({"file": f, "frame": frame_number(f), "visible": nvis,
                       "brightLuminance": ymean})
        if nvis and (best is None or ymean > best[1]):
            best = (f, ymean, cols)
    if best is None:
        print("fire: no visible pixels", file=text)
        return {"measure": "fire", "error": "no visible pixels", "frames": frames}
    f, ymean, cols = best
    mean = cols.mean(axis=0) * 255.0
    gr = mean[1] / mean[0] if mean[0] > 0 else float("nan")
    br = mean[2] / mean[0] if mean[0] > 0 else float("nan")
    met = bool(gr >= 0.85 and br >= 0.45)
    print(f"brightest frame {os.path.basename(f)} (mean luminance {ymean:.3f} of its brightest "
          f"{100 * args.share:g} %, {len(cols)} pixels)", file=text)
    print(f"mean sRGB R {mean[0]:.1f} G {mean[1]:.1f} B {mean[2]:.1f}   G/R {gr:.3f}  "
          f"B/R {br:.3f}   target G/R >= 0.85, B/R >= 0.45: {'met' if met else 'not met'}",
          file=text)
    return {"measure": "fire", "file": f, "frame": frame_number(f), "pixels": int(len(cols)),
            "luminance": ymean, "R": float(mean[0]), "G": float(mean[1]), "B": float(mean[2]),
            "GR": float(gr), "BR": float(br), "targetMet": met, "frames": frames}


# ------------------------------------------------------------------------------------------
# cutoff

SIDES = ("xmin", "xmax", "ymin", "ymax", "zmin", "zmax")


def scene_cells(scene, voxel_size=None):
    """The domain's cells (x, y, z; y up) of a scene (a dict read from a .plume file): its
    size over the cell size, as the core's domainCells() computes it. voxel_size, when given
    (a VDB's), replaces the scene's cell size (longest side over resolution)."""
    d = scene["domain"]
    size = [float(s) for s in d["size"]]
    three = d.get("dimension", "3d") == "3d"
    if voxel_size is None:
        longest = max(size) if three else max(size[:2])
        voxel_size = longest / max(1, int(d.get("resolution", 128)))
    cells = [max(1, int(math.floor(s / voxel_size + 0.5))) for s in size]
    if not three:
        cells[2] = 1
    return tuple(cells)


def file_sides(cells, up):
    """For each file index axis, (cells along it, name of its low side, of its high side),
    and the file's index box. A Z-up file's voxel (i, j, k) holds cell (i, k, nz-1-j)
    (core/export/vdbwriter.cpp)."""
    cx, cy, cz = cells
    if up == "z":
        return [(cx, "xmin", "xmax"), (cz, "zmax", "zmin"), (cy, "ymin", "ymax")]
    return [(cx, "xmin", "xmax"), (cy, "ymin", "ymax"), (cz, "zmin", "zmax")]


def side_maxima(grid, cells, up="y", band=2):
    """The largest value of a scalar grid within band cells of each domain side (dict by side
    name; sides across an axis of one cell, a 2D domain's z, are left out), and the grid's
    peak."""
    axes = file_sides(cells, up)
    n = [a[0] for a in axes]
    out = {}
    for ax, (length, low, high) in enumerate(axes):
        if length <= 1:
            continue
        b = min(band, length)
        for name, start in ((low, 0), (high, length - b)):
            shape = list(n)
            shape[ax] = b
            lo = [0, 0, 0]
            lo[ax] = start
            a = np.zeros(shape, np.float32)
            grid.copyToArray(a, ijk=tuple(lo))
            out[name] = float(a.max()) if a.size else 0.0
    if grid.activeVoxelCount():
        peak = float(grid.evalMinMax()[1])
    else:
        peak = 0.0
    return out, peak


def file_up(path):
    import pyopenvdb as vdb

    meta = vdb.readMetadata(path)
    return str(meta.get("up_axis", "y")).lower(), meta


def repo_scene(name):
    """resources/scenes/<name>.plume of the checkout this tool lives in, or None."""
    root = os.environ.get("PLUME_SOURCE_DIR") or os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    p = os.path.join(root, "resources", "scenes", f"{name}.plume")
    return p if os.path.isfile(p) else None


def cutoff(files, scene=None, cells=None, band=2, ground=None):
    """The cutoff figures of VDB files (dict): per frame the side maxima relative to the peak
    density over all the frames, the worst side (the ground side left out) and frame."""
    import pyopenvdb as vdb

    per = []
    peak = 0.0
    notes = []
    for f in files:
        up, meta = file_up(f)
        g = vdb.read(f, "density")
        h = float(g.transform.voxelSize()[0])
        c = cells
        if c is None:
            sc = scene
            if sc is None:
                p = repo_scene(str(meta.get("scene", "")))
                if p is None:
                    raise ValueError(f"{f}: give --scene or --cells (no scene file named by "
                                     f"its metadata in resources/scenes)")
                with open(p) as fh:
                    sc = json.load(fh)
                if not notes:
                    notes.append(f"domain from {p}")
            c = scene_cells(sc, h)
            own = scene_cells(sc)
            if own != c and not any("voxel size" in x for x in notes):
                notes.append(f"the VDB's voxel size {h:g} is not the scene's cell size: "
                             f"{'x'.join(map(str, c))} cells, not {'x'.join(map(str, own))}")
        sides, fpeak = side_maxima(g, c, up, band)
        peak = max(peak, fpeak)
        per.append({"file": f, "frame": frame_number(f), "up": up,
                    "cells": list(c), "peak": fpeak, "sides": sides})
    for r in per:
        r["relative"] = {s: (v / peak if peak > 0 else 0.0) for s, v in r["sides"].items()}
    worst = None
    ground_worst = None
    for r in per:
        for s, v in r["relative"].items():
            if s == ground:
                if ground_worst is None or v > ground_worst[0]:
                    ground_worst = (v, s, r)
            elif worst is None or v > worst[0]:
                worst = (v, s, r)
    return {"peak": peak, "frames": per, "notes": notes,
            "worst": None if worst is None else
            {"relative": worst[0], "side": worst[1], "frame": worst[2]["frame"],
             "file": worst[2]["file"]},
            "ground": None if ground_worst is None else
            {"relative": ground_worst[0], "side": ground_worst[1],
             "frame": ground_worst[2]["frame"], "file": ground_worst[2]["file"]}}


def cmd_cutoff(args, text):
    files = list_files(args.vdbs, ".vdb")
    scene = None
    if args.scene:
        with open(args.scene) as fh:
            scene = json.load(fh)
    cells = None
    if args.cells:
        cells = tuple(int(v) for v in args.cells.lower().split("x"))
        if len(cells) != 3:
            raise SystemExit("look: --cells expects XxYxZ")
    if args.ground and args.ground not in SIDES:
        raise SystemExit(f"look: --ground expects one of {', '.join(SIDES)}")
    r = cutoff(files, scene, cells, args.band, args.ground)
    for n in r["notes"]:
        print(n, file=text)
    print(f"density within {args.band} cells of each side, % of the peak over all frames "
          f"({r['peak']:.4g})", file=text)
    print(f"{'frame':>6s} " + " ".join(f"{s:>7s}" for s in SIDES), file=text)
    for fr in r["frames"]:
        label = str(fr["frame"]) if fr["frame"] is not None else os.path.basename(fr["file"])
        print(f"{label:>6s} " + " ".join(
            fmt(100 * fr["relative"][s]) if s in fr["relative"] else f"{'-':>7s}"
            for s in SIDES), file=text)
    w = r["worst"]
    if w:
        ok = w["relative"] <= args.limit
        print(f"worst side {w['side']} at frame {w['frame']}: {100 * w['relative']:.2f} % of the "
              f"peak" + (f" (ground {args.ground} left out)" if args.ground else "")
              + f"; target <= {100 * args.limit:g} %: {'met' if ok else 'not met'}", file=text)
        r["targetMet"] = bool(ok)
    if r["ground"]:
        g = r["ground"]
        print(f"ground {g['side']}: at most {100 * g['relative']:.2f} % (frame {g['frame']})",
              file=text)
    r["measure"] = "cutoff"
    r["limit"] = args.limit
    return r


# ------------------------------------------------------------------------------------------
# tiles


def tile_ring_maxima(alpha, rows, cols, padding=0, count=None, ignore=()):
    """For each tile (row-major, frame n at row n // cols, column n % cols) the largest alpha
    on the outermost pixel ring of its frame (the tile less padding pixels a side), with the
    side it lies on: [(n, row, col, alpha, side)]; tiles from count on are skipped, and the
    sides in `ignore` (a ground effect's "bottom") are not looked at."""
    h, w = alpha.shape
    if h % rows or w % cols:
        raise ValueError(f"a {w}x{h} atlas does not split into {rows}x{cols} tiles")
    th, tw = h // rows, w // cols
    if 2 * padding >= min(th, tw):
        raise ValueError(f"padding {padding} leaves nothing of {tw}x{th} tiles")
    count = rows * cols if count is None else count
    out = []
    for n in range(min(count, rows * cols)):
        r, c = divmod(n, cols)
        f = alpha[r * th + padding:(r + 1) * th - padding, c * tw + padding:(c + 1) * tw - padding]
        edges = {"top": f[0, :], "bottom": f[-1, :], "left": f[:, 0], "right": f[:, -1]}
        edges = {s: e for s, e in edges.items() if s not in ignore}
        side, v = max(((s, float(e.max())) for s, e in edges.items()), key=lambda x: x[1])
        out.append((n, r, c, v, side))
    return out


def cmd_tiles(args, text):
    rows = cols = None
    padding = args.padding
    count = None
    sidecar = os.path.splitext(args.atlas)[0] + ".json"
    if os.path.isfile(sidecar):
        with open(sidecar) as fh:
            doc = json.load(fh)
        atlas = doc.get("atlas", {})
        rows, cols = atlas.get("rows"), atlas.get("columns")
        if padding is None:
            padding = atlas.get("padding")
        count = doc.get("frames", {}).get("count")
    if args.grid:
        rows, cols = (int(v) for v in args.grid.lower().split("x"))
    if rows is None:
        raise SystemExit("look: tiles needs --grid RxC (no sidecar JSON next to the atlas)")
    padding = int(padding or 0)
    _, alpha = read_image(args.atlas)
    if alpha is None:
        raise SystemExit(f"look: {args.atlas} has no alpha channel")
    ignore = tuple(s for s in (args.ignore or "").split(",") if s)
    tiles = tile_ring_maxima(alpha, rows, cols, padding, count, ignore)
    worst = max(tiles, key=lambda t: t[3])
    over = [t for t in tiles if t[3] > args.limit]
    print(f"{os.path.basename(args.atlas)}: {rows}x{cols} tiles, padding {padding}, "
          f"{len(tiles)} frames; largest alpha on each frame's outer ring (%):", file=text)
    table = {(t[1], t[2]): t[3] for t in tiles}
    for r in range(rows):
        print(" ".join(f"{100 * table[(r, c)]:5.1f}" if (r, c) in table else f"{'-':>5s}"
                       for c in range(cols)), file=text)
    print(f"worst tile {worst[0]} (row {worst[1]}, column {worst[2]}): alpha {worst[3]:.3f} on "
          f"its {worst[4]} edge; {len(over)} tile(s) above {args.limit:g}", file=text)
    return {"measure": "tiles", "atlas": args.atlas, "rows": rows, "columns": cols,
            "padding": padding, "limit": args.limit,
            "worst": {"tile": worst[0], "row": worst[1], "column": worst[2],
                      "alpha": worst[3], "side": worst[4]},
            "above": [t[0] for t in over],
            "tiles": [{"tile": t[0], "row": t[1], "column": t[2], "alpha": t[3], "side": t[4]}
                      for t in tiles]}


# ------------------------------------------------------------------------------------------


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("edges", help="edge width of dense smoke's silhouette")
    p.add_argument("frames", nargs="+", help="PNG frames with alpha, or folders of them")
    p.add_argument("--inside", type=float, default=8.0,
                   help="dense smoke: alpha reaches --high within this many px (default 8)")
    p.add_argument("--reach", type=float, default=32.0, help="how far to sample, px")
    p.add_argument("--low", type=float, default=0.1)
    p.add_argument("--high", type=float, default=0.9)
    p = sub.add_parser("fire", help="colour of the brightest 1 %% at the brightest frame")
    p.add_argument("frames", nargs="+", help="PNG frames, or folders of them")
    p.add_argument("--share", type=float, default=0.01, help="the brightest share (0.01)")
    p.add_argument("--visible", choices=("auto", "alpha", "luminance"), default="auto")
    p.add_argument("--margin", type=float, default=0.02,
                   help="opaque images: luminance this far above the background is visible")
    p = sub.add_parser("cutoff", help="smoke cut by the domain's sides")
    p.add_argument("vdbs", nargs="+", help="VDB files or folders of them")
    p.add_argument("--scene", help="the scene file (domain.size, origin, resolution)")
    p.add_argument("--cells", help="the domain's cells XxYxZ (y up) instead of a scene")
    p.add_argument("--ground", help="a side left out of the target (e.g. ymin)")
    p.add_argument("--band", type=int, default=2, help="cells from each side (2)")
    p.add_argument("--limit", type=float, default=0.01, help="target, share of the peak")
    p = sub.add_parser("tiles", help="smoke cut at a flipbook tile's edge")
    p.add_argument("atlas")
    p.add_argument("--grid", help="ROWSxCOLUMNS (default: the sidecar's)")
    p.add_argument("--padding", type=int, help="gutter pixels a side (default: the sidecar's, "
                                               "or 0)")
    p.add_argument("--limit", type=float, default=0.01, help="alpha counted as cut (0.01)")
    p.add_argument("--ignore", help="tile sides not looked at, comma-separated: top, bottom, "
                                    "left, right (a ground effect's bottom)")
    for p in sub.choices.values():
        p.add_argument("--json", help="write the figures as JSON to FILE ('-': stdout)")
    args = ap.parse_args(argv)
    text = sys.stderr if args.json == "-" else sys.stdout
    run = {"edges": cmd_edges, "fire": cmd_fire, "cutoff": cmd_cutoff, "tiles": cmd_tiles}
    doc = run[args.command](args, text)
    if args.json:
        write_json(args.json, doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
