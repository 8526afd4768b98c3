# SPDX-License-Identifier: Apache-2.0
"""bench/spectrum.py and bench/look.py against synthetic inputs with exact answers, and (when
PLUME_CLI names a built plume-cli) on a tiny real bake. Run with the system python3:
    PLUME_CLI=build/bin/plume-cli /usr/bin/python3 -m pytest -q tests/look_tools
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

SOURCE = os.environ.get("PLUME_SOURCE_DIR") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SOURCE, "bench"))

vdb = pytest.importorskip("pyopenvdb")
Image = pytest.importorskip("PIL.Image")

import look  # noqa: E402
import spectrum  # noqa: E402


# ------------------------------------------------------------------------------------------
# helpers


def write_vdb(path, density, lo=(0, 0, 0), vel=None, vel_lo=None, voxel=1.0, meta=None):
    """A VDB file with a FloatGrid density (and a Vec3SGrid vel) from dense arrays placed at
    index lo; zeros stay inactive."""
    xform = vdb.createLinearTransform(voxelSize=voxel)
    grids = []
    d = vdb.FloatGrid()
    d.name = "density"
    d.transform = xform
    d.copyFromArray(np.ascontiguousarray(density, dtype=np.float32), ijk=tuple(lo))
    grids.append(d)
    if vel is not None:
        v = vdb.Vec3SGrid()
        v.name = "vel"
        v.transform = xform
        v.copyFromArray(np.ascontiguousarray(vel, dtype=np.float32),
                        ijk=tuple(vel_lo if vel_lo is not None else lo))
        grids.append(v)
    vdb.write(str(path), grids=grids, metadata=meta or {})


def mode(n, k, axis, component, amplitude=1.0, phase=0.0):
    """An (n, n, n, 3) field with one component a sine of integer wavevector k."""
    idx = np.indices((n, n, n)).astype(np.float64)
    arg = 2 * np.pi * sum(kk * idx[a] for a, kk in enumerate(k)) / n + phase
    u = np.zeros((n, n, n, 3))
    u[..., component] = amplitude * np.sin(arg)
    return u


def write_png(path, rgba):
    a = np.clip(np.rint(np.asarray(rgba, dtype=np.float64) * 255), 0, 255).astype(np.uint8)
    Image.fromarray(a, "RGBA" if a.shape[-1] == 4 else "RGB").save(str(path))


# ------------------------------------------------------------------------------------------
# spectrum


def test_single_mode_lands_in_its_shell(tmp_path):
    n, k0 = 32, 5
    u = mode(n, (0, 0, k0), 2, 0)  # u_x = sin(2 pi k0 z / N)
    path = tmp_path / "single.0007.vdb"
    write_vdb(path, np.ones((n, n, n)), lo=(3, -4, 10), vel=u)
    r = spectrum.frame_spectrum(str(path))
    assert r["frame"] == 7
    assert r["box"]["size"] == [n, n, n] and r["N"] == n
    e = np.array(r["E"])
    assert len(e) == n // 2 + 1
    # Parseval: half the mean of u_x^2 = 0.25, all of it in shell k0.
    assert e[k0] == pytest.approx(0.25, rel=1e-5)
    assert np.delete(e, k0).sum() < 1e-9 * e[k0]
    # k0 = 5 lies in B2 = [4, 8): B1 is empty.
    assert r["B2"] == pytest.approx(0.25, rel=1e-5) and r["B1"] < 1e-9


def test_oblique_mode_rounds_to_its_shell():
    # Wavevector (3, 4, 0): |k| = 5; (2, 2, 1): |k| = 3; (1, 1, 1): |k| = 1.73 -> shell 2.
    n = 24
    for k, shell in (((3, 4, 0), 5), ((2, 2, 1), 3), ((1, 1, 1), 2)):
        e, nn = spectrum.shell_spectrum(mode(n, k, 0, 1, amplitude=2.0))
        assert nn == n
        assert e[shell] == pytest.approx(1.0, rel=1e-6)
        assert e.sum() == pytest.approx(1.0, rel=1e-6)


def test_two_shells_give_the_known_band_ratio(tmp_path):
    n = 32  # B1 = [2, 4), B2 = [4, 8), B3 = [8, 16]
    u = mode(n, (3, 0, 0), 0, 1, 1.0) + mode(n, (0, 6, 0), 1, 2, 0.5)
    path = tmp_path / "two.0001.vdb"
    write_vdb(path, np.ones((n, n, n)), vel=u)
    r = spectrum.frame_spectrum(str(path))
    assert r["B1"] == pytest.approx(0.25, rel=1e-5)
    assert r["B2"] == pytest.approx(0.0625, rel=1e-5)
    assert r["ratio"] == pytest.approx(0.25, rel=1e-5)
    assert r["b3_below_b2"] is True
    octaves = {tuple(o["k"]): o["E"] for o in r["octaves"]}
    assert octaves[(2, 4)] == pytest.approx(0.25, rel=1e-5)
    assert octaves[(4, 8)] == pytest.approx(0.0625, rel=1e-5)
    # A third mode in B3 above B2: a pile-up.
    u += mode(n, (0, 0, 12), 2, 0, 1.0)
    write_vdb(path, np.ones((n, n, n)), vel=u)
    r = spectrum.frame_spectrum(str(path))
    assert r["B3"] == pytest.approx(0.25, rel=1e-5) and r["b3_below_b2"] is False


def test_box_is_padded_to_a_cube(tmp_path):
    # A 32 x 16 x 8 box of smoke: the field is padded to a 32-cube; the energy's sum is half
    # the mean of |u|^2 over the cube (Parseval, no corner modes for this smooth field).
    n = 32
    u = mode(n, (1, 0, 0), 0, 2)[:, :16, :8]
    path = tmp_path / "pad.0002.vdb"
    dens = np.zeros((40, 30, 20))
    dens[4:36, 7:23, 5:13] = 1.0
    dens[0, 0, 0] = 0.005  # under 1 % of the peak: outside the smoke box
    write_vdb(path, dens, lo=(-4, -7, -5), vel=u, vel_lo=(0, 0, 0))
    r = spectrum.frame_spectrum(str(path))
    assert r["box"]["lo"] == [0, 0, 0] and r["box"]["size"] == [32, 16, 8]
    assert r["N"] == 32
    assert sum(r["E"]) == pytest.approx(0.5 * (u ** 2).sum() / n ** 3, rel=1e-3)


def test_kolmogorov_slope():
    n = 64
    rng = np.random.default_rng(46)
    kx = np.fft.fftfreq(n) * n
    kk = np.sqrt(kx[:, None, None] ** 2 + kx[None, :, None] ** 2 + kx[None, None, :] ** 2)
    shell = np.rint(kk).astype(int)
    counts = np.bincount(shell.ravel())
    amp = np.zeros_like(kk)
    live = (shell >= 1) & (shell <= n // 2)
    amp[live] = np.sqrt(shell[live] ** (-5.0 / 3.0) / counts[shell[live]])
    u = np.empty((n, n, n, 3))
    for c in range(3):
        phase = np.exp(2j * np.pi * rng.random(kk.shape))
        u[..., c] = np.real(np.fft.ifftn(amp * phase))
    e, nn = spectrum.shell_spectrum(u)
    fig = spectrum.figures(e, nn)
    assert fig["slope"] == pytest.approx(-5.0 / 3.0, abs=0.15)
    k = np.arange(len(e))
    expect = (k[(k >= 8) & (k < 16)] ** (-5 / 3)).sum() / (k[(k >= 4) & (k < 8)] ** (-5 / 3)).sum()
    assert fig["ratio"] == pytest.approx(expect, rel=0.1)
    assert fig["b3_below_b2"] is True


def test_scalar_grid_has_its_mean_removed(tmp_path):
    n = 16
    z = np.arange(n)
    dens = 1.0 + 0.5 * np.sin(2 * np.pi * 3 * z / n)[None, None, :] * np.ones((n, n, 1))
    path = tmp_path / "scalar.0003.vdb"
    write_vdb(path, dens)
    r = spectrum.frame_spectrum(str(path), grid="density")
    e = np.array(r["E"])
    assert e[0] < 1e-12
    assert e[3] == pytest.approx(0.5 * 0.125, rel=1e-5)  # half of mean((0.5 sin)^2)


def test_spectrum_cli_folder_min_span_and_json(tmp_path, capsys):
    for frame, n in ((1, 16), (2, 32), (3, 32)):
        u = mode(n, (3 * n // 32 or 1, 0, 0), 0, 1) + mode(n, (0, 6 * n // 32, 0), 1, 0, 0.5)
        write_vdb(tmp_path / f"s.{frame:04d}.vdb", np.ones((n, n, n)), vel=u)
    out = tmp_path / "spectrum.json"
    assert spectrum.main([str(tmp_path), "--min-span", "32", "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert [f["frame"] for f in doc["frames"]] == [1, 2, 3]
    assert [f["kept"] for f in doc["frames"]] == [False, True, True]
    assert doc["keptFrames"] == 2
    assert doc["medianRatio"] == pytest.approx(0.25, rel=1e-5)
    assert "median B2/B1 over 2 kept frame(s): 0.25" in capsys.readouterr().out


# ------------------------------------------------------------------------------------------
# edges


def ramp_image(width, h=24, w=64, x0=10):
    x = np.arange(w, dtype=np.float64)
    a = np.clip((x - x0) / width, 0.0, 1.0) if width > 0 else (x >= x0).astype(float)
    rgba = np.ones((h, w, 4)) * 0.5
    rgba[..., 3] = a[None, :]
    return rgba


@pytest.mark.parametrize("width", [4, 10, 16])
def test_linear_ramp_edge_width(tmp_path, width):
    path = tmp_path / f"ramp.{width:04d}.png"
    write_png(path, ramp_image(width))
    _, alpha = look.read_image(str(path))
    w, n = look.edge_widths(alpha)
    assert n == 24 and len(w) == 24
    assert np.median(w) == pytest.approx(0.8 * width, abs=0.1)


def test_hard_step_and_wide_ramp(tmp_path):
    _, alpha = look.read_image(_png(tmp_path, "step.0001.png", ramp_image(0)))
    w, _ = look.edge_widths(alpha)
    assert len(w) and np.median(w) <= 1.0
    # 0.9 lies 0.4 * 40 = 16 px inside the 0.5 crossing: not dense smoke by default.
    _, alpha = look.read_image(_png(tmp_path, "wide.0001.png", ramp_image(40, w=96)))
    assert len(look.edge_widths(alpha)[0]) == 0
    w, _ = look.edge_widths(alpha, inside=20)
    assert np.median(w) == pytest.approx(32.0, abs=0.1)


def test_radial_edge_and_cli(tmp_path):
    # A disc whose alpha falls linearly over 8 px at radius 20: 0.8 * 8 along the normal.
    yy, xx = np.mgrid[0:64, 0:64].astype(np.float64)
    r = np.hypot(xx - 31.7, yy - 32.2)
    rgba = np.zeros((64, 64, 4))
    rgba[..., 3] = np.clip((24.0 - r) / 8.0, 0, 1)
    _png(tmp_path, "disc.0002.png", rgba)
    _png(tmp_path, "ramp.0001.png", ramp_image(10))
    out = tmp_path / "edges.json"
    assert look.main(["edges", str(tmp_path), "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert [f["frame"] for f in doc["frames"]] == [1, 2]
    assert doc["frames"][0]["median"] == pytest.approx(8.0, abs=0.1)
    assert doc["frames"][1]["median"] == pytest.approx(6.4, abs=0.25)


def _png(tmp_path, name, rgba):
    path = tmp_path / name
    write_png(path, rgba)
    return str(path)


# ------------------------------------------------------------------------------------------
# fire


def test_fire_ratios_at_the_brightest_frame(tmp_path, capsys):
    def frame(bright):
        rgba = np.zeros((20, 20, 4))
        rgba[..., :3] = (0.1, 0.1, 0.1)  # transparent, too little light to show: not visible
        rgba[:10, :, :3] = np.array((40, 30, 20)) / 255.0
        rgba[:10, :, 3] = 1.0  # 200 visible pixels: the brightest 1 % is 2 of them
        rgba[0, 0, :3] = np.array(bright) / 255.0
        rgba[5, 7, :3] = np.array(bright) / 255.0
        rgba[6, 6, :3] = np.array((60, 50, 40)) / 255.0
        return rgba

    _png(tmp_path, "f.0001.png", frame((200, 100, 40)))
    _png(tmp_path, "f.0002.png", frame((240, 216, 120)))
    _png(tmp_path, "f.0003.png", frame((180, 170, 160)))
    out = tmp_path / "fire.json"
    assert look.main(["fire", str(tmp_path), "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["frame"] == 2 and doc["pixels"] == 2
    assert (doc["R"], doc["G"], doc["B"]) == pytest.approx((240, 216, 120), abs=1e-9)
    assert doc["GR"] == pytest.approx(0.9, abs=1e-12)
    assert doc["BR"] == pytest.approx(0.5, abs=1e-12)
    assert doc["targetMet"] is True
    assert "G/R 0.900  B/R 0.500" in capsys.readouterr().out


def test_fire_counts_light_where_the_smoke_is_thin(tmp_path):
    # Premultiplied: a flame's emission shows at alpha 0.1; transparent black does not.
    rgba = np.zeros((10, 10, 4))
    rgba[:5, :, :3] = np.array((250, 200, 125)) / 255.0
    rgba[:5, :, 3] = 0.1
    _png(tmp_path, "thin.0001.png", rgba)
    out = tmp_path / "thin.json"
    assert look.main(["fire", str(tmp_path), "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["frames"][0]["visible"] == 50
    assert doc["GR"] == pytest.approx(0.8, abs=1e-12)
    assert doc["BR"] == pytest.approx(0.5, abs=1e-12)


def test_fire_opaque_image_uses_the_background():
    rgb = np.full((10, 30, 3), 0.1)  # background
    rgb[2:8, 5:25] = (0.3, 0.2, 0.1)  # 120 smoke pixels
    rgb[4, 10] = (0.8, 0.6, 0.4)
    rgb[5, 11] = (1.0, 0.5, 0.25)  # 2 bright pixels of the 120 visible: the top 1 % is 2 pixels
    cols, _, nvis = look.brightest(rgb, None)
    assert nvis == 120
    np.testing.assert_allclose(cols.mean(axis=0), (0.9, 0.55, 0.325))


# ------------------------------------------------------------------------------------------
# cutoff


def cutoff_scene(tmp_path):
    scene = {"format": "plume-scene", "name": "box",
             "domain": {"dimension": "3d", "size": [2, 1, 1.5], "origin": [0, 0, 0],
                        "resolution": 16}}
    p = tmp_path / "box.plume"
    p.write_text(json.dumps(scene))
    return str(p)  # cells 16 x 8 x 12 at h = 0.125


def test_cutoff_finds_the_side(tmp_path):
    scene = cutoff_scene(tmp_path)
    d = np.zeros((16, 8, 12))
    d[6:10, 3:5, 5:7] = 2.0  # the peak, inside
    d[15, 4, 6] = 0.5  # touches xmax: 25 %
    d[8, 1, 6] = 0.1  # within 2 cells of ymin: 5 % (the ground)
    d[8, 4, 2] = 0.6  # 3 cells from zmin: not counted
    write_vdb(tmp_path / "box.0001.vdb", d, voxel=0.125, meta={"up_axis": "y", "scene": "box"})
    d2 = np.zeros((16, 8, 12))
    d2[6:10, 3:5, 5:7] = 1.0
    d2[7, 4, 10] = 0.04  # zmax: 2 %
    write_vdb(tmp_path / "box.0002.vdb", d2, voxel=0.125)
    r = look.cutoff(look.list_files([str(tmp_path)], ".vdb"),
                    scene=json.load(open(scene)), ground="ymin")
    assert r["peak"] == pytest.approx(2.0)
    f1, f2 = r["frames"]
    assert f1["cells"] == [16, 8, 12]
    assert f1["relative"]["xmax"] == pytest.approx(0.25)
    assert f1["relative"]["ymin"] == pytest.approx(0.05)
    assert f1["relative"]["zmin"] == 0.0
    assert f2["relative"]["zmax"] == pytest.approx(0.02)
    assert r["worst"]["side"] == "xmax" and r["worst"]["frame"] == 1
    assert r["ground"]["side"] == "ymin" and r["ground"]["relative"] == pytest.approx(0.05)


def test_cutoff_z_up_file_and_cli(tmp_path, capsys):
    scene = cutoff_scene(tmp_path)
    # Z-up: file voxel (i, j, k) holds cell (i, k, nz-1-j); the file box is 16 x 12 x 8.
    d = np.zeros((16, 12, 8))
    d[6:10, 5:7, 3:5] = 1.0
    d[8, 0, 4] = 0.3  # j = 0: cell z = 11, the zmax side
    d[8, 6, 7] = 0.02  # k = 7: cell y = 7, the ymax side
    write_vdb(tmp_path / "box.0005.vdb", d, voxel=0.125, meta={"up_axis": "z"})
    out = tmp_path / "cutoff.json"
    assert look.main(["cutoff", str(tmp_path), "--scene", scene, "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    rel = doc["frames"][0]["relative"]
    assert rel["zmax"] == pytest.approx(0.3) and rel["ymax"] == pytest.approx(0.02)
    assert rel["zmin"] == 0.0 and rel["ymin"] == 0.0
    assert doc["worst"]["side"] == "zmax" and doc["targetMet"] is False
    assert "worst side zmax at frame 5: 30.00 %" in capsys.readouterr().out
    # --cells instead of the scene.
    r = look.cutoff([str(tmp_path / "box.0005.vdb")], cells=(16, 8, 12))
    assert r["worst"]["side"] == "zmax"


# ------------------------------------------------------------------------------------------
# tiles


def test_tiles_worst_tile(tmp_path):
    rows, cols, tile, pad = 2, 3, 20, 2
    rgba = np.zeros((rows * tile, cols * tile, 4))
    rgba[..., :3] = 0.5

    def frame(n):
        r, c = divmod(n, cols)
        return rgba[r * tile + pad:(r + 1) * tile - pad, c * tile + pad:(c + 1) * tile - pad]

    for n in range(rows * cols):
        frame(n)[4:12, 4:12, 3] = 1.0  # smoke well inside every frame
    rgba[0:pad, 0:tile, 3] = 1.0  # tile 0's gutter: not the frame
    frame(4)[7, -1, 3] = 0.6  # tile 4 cut on its right edge
    frame(2)[0, 5, 3] = 0.2  # tile 2 on its top edge
    atlas = _png(tmp_path, "fx_flipbook.png", rgba)
    out = tmp_path / "tiles.json"
    assert look.main(["tiles", atlas, "--grid", "2x3", "--padding", "2",
                      "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["worst"] == {"tile": 4, "row": 1, "column": 1, "alpha": pytest.approx(0.6),
                            "side": "right"}
    assert doc["above"] == [2, 4]
    # The sidecar gives the layout and the frame count (tile 4 is past it).
    (tmp_path / "fx_flipbook.json").write_text(json.dumps(
        {"atlas": {"rows": 2, "columns": 3, "padding": 2}, "frames": {"count": 4}}))
    assert look.main(["tiles", atlas, "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert doc["worst"]["tile"] == 2 and len(doc["tiles"]) == 4


# ------------------------------------------------------------------------------------------
# a tiny real bake


def cli():
    p = os.environ.get("PLUME_CLI")
    return p if p and os.path.isfile(p) and os.access(p, os.X_OK) else None


@pytest.mark.skipif(cli() is None, reason="PLUME_CLI is not set to a built plume-cli")
def test_tiny_bake(tmp_path):
    with open(os.path.join(SOURCE, "resources", "scenes", "fireball-3d.plume")) as fh:
        scene = json.load(fh)
    scene["domain"]["resolution"] = 24
    scene.get("export", {}).pop("flipbook", None)
    path = tmp_path / "fireball-3d.plume"
    path.write_text(json.dumps(scene))
    out = tmp_path / "bake"
    subprocess.run([cli(), "bake", str(path), "-o", str(out), "--frames", "1:8", "--vdb",
                    "--images", "--alpha", "straight", "--size", "64x64", "--quiet",
                    "--threads", "2", "--checkpoint-every", "0"], check=True, timeout=120)
    files = spectrum.vdb_files([str(out)])
    assert len(files) == 8
    r = spectrum.frame_spectrum(files[-1])
    assert "error" not in r
    assert all(np.isfinite(r["E"])) and sum(r["E"]) > 0
    assert np.isfinite(r["B2"]) and np.isfinite(r["B3"]) and np.isfinite(r["slope"])
    c = look.cutoff(files, scene=scene)
    assert c["peak"] > 0 and c["frames"][0]["cells"] == [24, 24, 24]
    assert look.main(["edges", str(out)]) == 0
    assert look.main(["fire", str(out)]) == 0


@pytest.mark.skipif(cli() is None, reason="PLUME_CLI is not set to a built plume-cli")
def test_effect_framing_fills_tiles_and_cuts_nothing(tmp_path):
    # The fireball's flipbook framed to the domain and to the effect (docs/flipbook.md,
    # "Framing"): effect framing leaves no tile's outer ring above the alpha look counts as
    # cut, and its smoke spans more of the tile than with the domain's framing.
    with open(os.path.join(SOURCE, "resources", "scenes", "fireball-3d.plume")) as fh:
        scene = json.load(fh)
    scene["domain"]["resolution"] = 24
    path = tmp_path / "fireball-3d.plume"
    path.write_text(json.dumps(scene))
    spans = {}
    for framing in ("domain", "effect"):
        out = tmp_path / framing
        subprocess.run([cli(), "bake", str(path), "-o", str(out), "--frames", "1:12",
                        "--flipbook", "2x2", "--step", "3", "--loop", "0", "--size", "48x48",
                        "--framing", framing, "--quiet", "--threads", "2",
                        "--checkpoint-every", "0"], check=True, timeout=120)
        atlas = str(out / "fireball-3d_flipbook.png")
        report = tmp_path / (framing + ".json")
        assert look.main(["tiles", atlas, "--json", str(report)]) == 0
        doc = json.loads(report.read_text())
        spans[framing] = doc
        _, alpha = look.read_image(atlas)
        tile, pad = 48 + 2 * doc["padding"], doc["padding"]
        extent = 0
        for r in range(2):
            for c in range(2):
                t = alpha[r * tile + pad:r * tile + pad + 48, c * tile + pad:c * tile + pad + 48]
                ys, xs = np.nonzero(t >= 1.0 / 255)
                extent = max(extent, ys.max() - ys.min() + 1, xs.max() - xs.min() + 1)
        spans[framing]["extent"] = extent
    assert spans["effect"]["above"] == []  # no tile's outer ring above look's 0.01
    assert spans["effect"]["extent"] > spans["domain"]["extent"]


def test_tiles_leave_out_the_ground_edge(tmp_path):
    # A 1x2 atlas: tile 0 has smoke on its bottom ring (a ground effect), tile 1 on its right.
    rgba = np.zeros((16, 32, 4))
    rgba[14, 3:10, 3] = 1.0
    rgba[5:9, 30, 3] = 0.5
    atlas = _png(tmp_path, "ground.png", rgba)
    out = tmp_path / "tiles.json"
    assert look.main(["tiles", atlas, "--grid", "1x2", "--padding", "1", "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert (doc["worst"]["tile"], doc["worst"]["side"]) == (0, "bottom")
    assert look.main(["tiles", atlas, "--grid", "1x2", "--padding", "1", "--ignore", "bottom",
                      "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert (doc["worst"]["tile"], doc["worst"]["side"]) == (1, "right")
    assert doc["worst"]["alpha"] == pytest.approx(0.5, abs=0.003)


def test_spectrum_block_reads_a_fine_grid_on_coarse_cells():
    # A mode of wavenumber 3 over 16 coarse cells, each held by 2^3 equal fine voxels: averaged
    # back over blocks of 2, all the energy is in shell 3 of the 16-cube.
    n = 16
    z = (np.arange(n) + 0.5) / n
    coarse = np.zeros((n, n, n, 3))
    coarse[..., 0] = np.sin(2 * np.pi * 3 * z)[None, None, :]
    fine = np.repeat(np.repeat(np.repeat(coarse, 2, axis=0), 2, axis=1), 2, axis=2)
    back = spectrum.block_mean(fine, 2)
    assert back.shape == coarse.shape
    assert np.allclose(back, coarse)
    e, size = spectrum.shell_spectrum(back)
    assert size == n
    assert e[3] == pytest.approx(e.sum(), rel=1e-9)
    assert spectrum.block_mean(fine[:31], 2).shape == (15, 16, 16, 3)  # whole blocks only
