# SPDX-License-Identifier: Apache-2.0
# Reads Plume's Y-up, Z-up and Z-up half-float files of one frame with OpenVDB's own tools and
# checks the Z-up mapping of docs/using-exports.md. Run by tests/readers/run-check openvdb:
#
#   python3 openvdb_check.py Y.vdb Z.vdb ZHALF.vdb NZ      (NZ: the domain's cells along z)
#
# - vdb_print -l: each file has density, temperature (float trees), vel and Cd (vec3s trees);
#   the half file's grids say is_saved_as_half_float: true, the others false; the Z-up boxes
#   of active voxels are the Y-up ones rotated.
# - pyopenvdb: every voxel (i, j, k) of the Y-up file is at (i, nz-1-k, j) in the Z-up file
#   with the same activity and value, vel (x, y, z) as (x, -z, y), Cd unchanged; the world
#   position of each voxel is the Y-up one rotated; the strongest upward velocity (+y) is the
#   strongest +z; the half file holds the Z-up values rounded to half floats.
# Prints "openvdb_check: FAIL: ..." and exits 1 on the first failed check.
import re
import struct
import subprocess
import sys

import pyopenvdb as vdb

GRIDS = {"density": "float", "temperature": "float", "vel": "vec3s", "Cd": "vec3s"}


def fail(message):
    print("openvdb_check: FAIL: " + message, flush=True)
    sys.exit(1)


def info(message):
    print("openvdb_check: " + message, flush=True)


def vdb_print(path):
    """Name -> {type, half, bbox} from vdb_print -l."""
    text = subprocess.run(["vdb_print", "-l", path], check=True, capture_output=True,
                          text=True).stdout
    grids = {}
    for block in text.split("Name: ")[1:]:
        name = block.split("\n", 1)[0].strip()
        tree = re.search(r"Type: Tree_(\w+?)_5_4_3", block)
        half = re.search(r"is_saved_as_half_float: (\w+)", block)
        box = re.search(r"Bounding box of active voxels: \[(-?\d+), (-?\d+), (-?\d+)\] -> "
                        r"\[(-?\d+), (-?\d+), (-?\d+)\]", block)
        if not (tree and half and box):
            fail("vdb_print -l %s: no type, half flag or box for grid %s" % (path, name))
        grids[name] = {"type": tree.group(1), "half": half.group(1) == "true",
                       "box": tuple(int(v) for v in box.groups())}
        info("vdb_print %s: %s %s, half %s, active box %s"
             % (path.split("/")[-2], name, tree.group(1), half.group(1), grids[name]["box"]))
    return grids


def check_listing(y, z, zhalf, nz):
    for path, grids, half in ((y, vdb_print(y), False), (z, vdb_print(z), False),
                              (zhalf, vdb_print(zhalf), True)):
        if sorted(grids) != sorted(GRIDS):
            fail("%s holds grids %s, expected %s" % (path, sorted(grids), sorted(GRIDS)))
        for name, g in grids.items():
            if g["type"] != GRIDS[name] or g["half"] != half:
                fail("%s: %s is %s, half %s; expected %s, half %s"
                     % (path, name, g["type"], g["half"], GRIDS[name], half))
        if path == y:
            ybox = grids
        else:
            for name, g in grids.items():
                x0, y0, z0, x1, y1, z1 = ybox[name]["box"]
                rotated = (x0, nz - 1 - z1, y0, x1, nz - 1 - z0, y1)
                if g["box"] != rotated:
                    fail("%s: %s active box %s, expected the Y-up box rotated: %s"
                         % (path, name, g["box"], rotated))
    info("vdb_print: grids, types, half storage and rotated boxes as expected")


def read(path):
    return {g.name: g for g in vdb.readAll(path)[0]}


def half(v):
    """A float as a half-float grid gives it back (round to nearest even)."""
    if isinstance(v, tuple):
        return tuple(half(c) for c in v)
    return struct.unpack("e", struct.pack("e", v))[0]


def plain(v):
    """A voxel value comparable with ==: vectors as tuples."""
    return v if isinstance(v, float) else tuple(v)


def check_values(y, z, zhalf, nz):
    yg, zg, hg = read(y), read(z), read(zhalf)
    box = yg["density"].evalActiveVoxelBoundingBox()
    count = 0
    best_up = (0.0, None)
    for name in GRIDS:
        ya = yg[name].getConstAccessor()
        za = zg[name].getConstAccessor()
        ha = hg[name].getConstAccessor()
        lo, hi = yg[name].evalActiveVoxelBoundingBox()
        for i in range(lo[0], hi[0] + 1):
            for j in range(lo[1], hi[1] + 1):
                for k in range(lo[2], hi[2] + 1):
                    value, on = ya.probeValue((i, j, k))
                    value = plain(value)
                    at = (i, nz - 1 - k, j)
                    zvalue, zon = za.probeValue(at)
                    hvalue, hon = ha.probeValue(at)
                    want = value
                    if name == "vel":
                        want = (value[0], -value[2], value[1])
                        if on and value[1] > best_up[0]:
                            best_up = (value[1], at)
                    if zon != on or plain(zvalue) != want:
                        fail("%s (%d, %d, %d): Y up %s %s, Z up at %s %s %s"
                             % (name, i, j, k, value, on, at, zvalue, zon))
                    if hon != on or plain(hvalue) != half(want):
                        fail("%s at %s: half file %s %s, expected %s %s"
                             % (name, at, hvalue, hon, half(want), on))
                    count += on
    info("%d active voxels of 4 grids at their rotated places with the same values "
         "(half file: the same, rounded to half floats)" % count)
    if best_up[1] is None:
        fail("no upward velocity in the Y-up file")
    largest_z = max(v[2] for _, _, _, v in active_vectors(zg["vel"]))
    at_best = zg["vel"].getConstAccessor().getValue(best_up[1])
    if largest_z != best_up[0] or at_best[2] != best_up[0]:
        fail("the strongest upward velocity %.4f should be the strongest +z (%.4f) and sit "
             "at %s (%s)" % (best_up[0], largest_z, best_up[1], tuple(at_best)))
    info("strongest upward velocity %.4f (Y up: +y) is +z in the Z-up file at %s"
         % best_up)
    ty, tz = yg["density"].transform, zg["density"].transform
    for i, j, k in ((box[0][0], box[0][1], box[0][2]), (box[1][0], box[1][1], box[1][2])):
        p = ty.indexToWorld((i, j, k))
        q = tz.indexToWorld((i, nz - 1 - k, j))
        if max(abs(a - b) for a, b in zip((p[0], -p[2], p[1]), q)) > 1e-9:
            fail("voxel (%d, %d, %d) is at %s in the Y-up file, %s in the Z-up one"
                 % (i, j, k, tuple(p), tuple(q)))
    info("world positions: Z-up voxel centres are the Y-up ones rotated (x, -z, y)")


def active_vectors(grid):
    lo, hi = grid.evalActiveVoxelBoundingBox()
    acc = grid.getConstAccessor()
    for i in range(lo[0], hi[0] + 1):
        for j in range(lo[1], hi[1] + 1):
            for k in range(lo[2], hi[2] + 1):
                value, on = acc.probeValue((i, j, k))
                if on:
                    yield i, j, k, value


def main():
    if len(sys.argv) != 5:
        fail("usage: openvdb_check.py Y.vdb Z.vdb ZHALF.vdb NZ")
    y, z, zhalf, nz = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    check_listing(y, z, zhalf, nz)
    check_values(y, z, zhalf, nz)
    info("PASS")


main()
