# SPDX-License-Identifier: Apache-2.0
"""The plume Python module (docs/python.md): scenes round-trip and refuse bad values as the
scene reader does, simulations give plume-cli's bytes for any thread count, checkpoints
continue exactly, bakes refuse, cancel and render from a cache as plume-cli does, and hostile
input raises instead of crashing."""

import filecmp
import json
import math
import os
import shutil
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import plume

SOURCE = os.environ.get("PLUME_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.environ.get("PLUME_CLI", os.path.join(SOURCE, "build", "bin", "plume-cli"))
SCENES = os.path.join(SOURCE, "resources", "scenes")


def small(name, resolution=24, frames=6):
    """An example scene made small, saved where a test can bake it (its own file name)."""
    scene = plume.Scene.load(os.path.join(SCENES, name + ".plume"))
    scene.domain.resolution = resolution
    scene.simulation.frameEnd = scene.simulation.frameStart + frames - 1
    return scene


def cli(*args):
    r = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return r


# --- scenes -----------------------------------------------------------------------------------

def test_load_save_load_gives_the_same_scene(tmp_path):
    scene = plume.Scene.load(os.path.join(SCENES, "knot-smoke-3d.plume"))  # a model file too
    scene.save(tmp_path / "copy.plume")
    again = plume.Scene.load(tmp_path / "copy.plume")
    assert again.to_json() == scene.to_json()
    assert again.file_stem == "copy"
    # The model's path was rewritten for the new folder and still resolves.
    mesh = [i for i in again.items if i.shape.type == "mesh"][0]
    assert os.path.isfile(os.path.join(str(tmp_path), mesh.shape.file))


@pytest.mark.parametrize("name", sorted(f for f in os.listdir(SCENES) if f.endswith(".plume")))
def test_an_unchanged_scene_saves_as_its_own_file(tmp_path, name):
    # Issue 48: every item came back hidden and locked and the adaptive domain on. The values
    # are the file's, and saving an unchanged scene over itself gives the file's own bytes (in
    # a copy of the folder, with the models and textures its paths name).
    for folder in ("models", "textures"):
        shutil.copytree(os.path.join(SCENES, folder), tmp_path / folder)
    path = str(tmp_path / name)
    shutil.copyfile(os.path.join(SCENES, name), path)
    with open(path) as f:
        data = json.load(f)
    scene = plume.Scene.load(path)
    for item in data["items"]:
        loaded = scene.items[item["name"]]
        assert loaded.hidden == item.get("hidden", False)
        assert loaded.locked == item.get("locked", False)
    if data["simulation"].get("scheme") == "smoke":
        assert scene.simulation.adaptiveDomain == data["simulation"].get("adaptiveDomain", False)
    scene.save(tmp_path / "saved.plume")
    assert filecmp.cmp(tmp_path / "saved.plume", os.path.join(SCENES, name), shallow=False)


def _reduced_example(name, folder, resolution=16, frames=2):
    """A shipped example at a reduced resolution and frame range, edited as JSON text (not
    through the module), beside copies of the models and textures its paths name."""
    with open(os.path.join(SCENES, name)) as f:
        data = json.load(f)
    data["domain"]["resolution"] = resolution
    first = data["simulation"].get("frameStart", 1)
    data["simulation"]["frameEnd"] = first + frames - 1
    for sub in ("models", "textures"):
        if not os.path.isdir(folder / sub):
            shutil.copytree(os.path.join(SCENES, sub), folder / sub)
    path = folder / name
    path.write_text(json.dumps(data, indent=1))
    return path, first + frames - 1, data["simulation"].get("scheme", "stam")


@pytest.mark.parametrize("name", sorted(f for f in os.listdir(SCENES) if f.endswith(".plume")))
def test_loaded_examples_simulate_as_the_cli_bakes(tmp_path, name):
    # Issue 48: plume.Scene.load(f) then plume.Simulation is the simulation plume-cli bake makes
    # of the same file (the module and the CLI each read the file themselves).
    pyopenvdb = pytest.importorskip("pyopenvdb")
    path, last, scheme = _reduced_example(name, tmp_path)
    if scheme == "ocean":
        pytest.skip("the ocean scheme bakes maps, not VDB files (tests/ocean_maps)")
    stem = os.path.splitext(name)[0]
    cli("bake", path, "-o", tmp_path / "cli", "--cache-only", "--frames", f"{last}:{last}",
        "--quiet", "--checkpoint-every", "0")
    vdb = str(tmp_path / "cli" / f"{stem}.{last:04d}.vdb")
    sim = plume.Simulation(plume.Scene.load(path))
    sim.advance(last - sim.scene.simulation.frameStart + 1)
    compared = 0
    for grid_name in ("density", "temperature", "fuel", "flame"):
        try:
            grid = pyopenvdb.read(vdb, grid_name)
        except KeyError:  # not in this file (no fire; liquids write their surface and points)
            continue
        mine = sim.field(grid_name)
        theirs = np.zeros(mine.shape, dtype=np.float32)
        grid.copyToArray(theirs, ijk=(0, 0, 0))
        kept = np.where(np.abs(mine) > 1e-6, mine, 0)  # the file keeps values above 1e-6
        assert np.array_equal(kept, theirs), f"{name}: {grid_name} differs"
        compared += 1
    if scheme in ("smoke", "stam"):
        assert compared >= 2


def test_keys_are_the_scene_formats():
    scene = plume.Scene.builtin("plume", dimension=3, resolution=32)
    assert scene.domain.dimension == "3d"
    assert scene.simulation.pressure.tolerance == pytest.approx(1e-5)
    assert scene.items.names() == ["source", "obstacle"]
    scene.simulation.vorticity = 0.35
    scene.simulation.pressure.maxIterations = 50
    scene.items["source"].emitter.temperature = 3
    assert scene.simulation.vorticity == pytest.approx(0.35)
    assert scene.simulation.pressure.maxIterations == 50
    assert json.loads(scene.to_json())["items"][0]["emitter"]["temperature"] == 3
    # Keys written only when set read as their defaults.
    assert list(scene.items[0].rotation) == [0, 0, 0]
    assert scene.export.render.exposure == 0
    assert "vorticity" in dir(scene.simulation)


def test_warnings_carry_their_kind_and_path(tmp_path):
    # Issue 48: facts as codes, not English to search.
    with open(os.path.join(SCENES, "plume-2d.plume")) as f:
        data = json.load(f)
    data["domain"]["fog"] = True
    data["simulation"]["scheme"] = "stam"
    data["items"][0]["emitter"]["fuel"] = 1
    (tmp_path / "w.plume").write_text(json.dumps(data))
    scene = plume.Scene.load(tmp_path / "w.plume")
    facts = sorted((w.kind, w.path) for w in scene.warnings)
    assert facts == [("ignored-by-scheme", "items[0].emitter.fuel"), ("unknown-key", "domain.fog")]
    assert all(isinstance(w, str) and w.startswith(str(tmp_path / "w.plume") + ": " + w.path)
               for w in scene.warnings)


def test_bad_value_raises_with_path_and_range_and_changes_nothing():
    scene = plume.Scene.builtin("plume", dimension=2, resolution=32)
    before = scene.to_json()
    with pytest.raises(ValueError, match=r"simulation\.vorticity: expected a number >= 0"):
        scene.simulation.vorticity = -1
    with pytest.raises(ValueError, match=r"domain\.resolution: expected an integer in \[8, 16384\]"):
        scene.domain.resolution = 4
    with pytest.raises(ValueError, match=r"simulation\.scheme"):
        scene.simulation.scheme = "lbm"
    with pytest.raises(ValueError, match=r"simulation\.frameRate"):
        scene.simulation.frameRate = math.nan
    with pytest.raises(ValueError, match=r"simulation\.vorticity: expected a number"):
        scene.simulation.vorticity = "strong"
    with pytest.raises(ValueError):
        scene.domain = 5
    with pytest.raises(AttributeError, match="no such key"):
        scene.simulation.vorticty = 1
    with pytest.raises(TypeError):
        scene.simulation.vorticity = object()
    assert scene.to_json() == before


def test_items_added_removed_and_keyframed():
    scene = plume.Scene.builtin("plume", dimension=2, resolution=32)
    item = scene.add_item("emitter", {"type": "sphere", "centre": [0.3, 0.2, 0.5],
                                      "radius": 0.05}, name="puff", emitter={"density": 2})
    assert scene.items.names() == ["source", "obstacle", "puff"]
    assert item.emitter.density == 2
    item.offset.keys = [(1, [0, 0, 0]), (24, [0.2, 0, 0])]
    assert item.offset.animated and item.offset.keys == [(1, [0, 0, 0]), (24, [0.2, 0, 0])]
    item.offset.interpolation = "smooth"
    assert scene.items["puff"].offset.interpolation == "smooth"
    item.emitter.rate.keys = [(1, 0.0), (12, 2.0)]
    with pytest.raises(ValueError, match="keys"):  # frames must increase
        item.emitter.rate.keys = [(12, 0.0), (1, 2.0)]
    item.offset = [0.1, 0, 0]  # a constant again
    assert not item.offset.animated and item.offset == [0.1, 0, 0]
    with pytest.raises(ValueError, match="name"):  # names are unique
        scene.add_item("obstacle", {"type": "box"}, name="puff")
    scene.remove_item("puff")
    assert scene.items.names() == ["source", "obstacle"]
    with pytest.raises(KeyError):
        scene.items["nothing"]


def test_reading_a_bad_file_names_file_and_path(tmp_path):
    path = tmp_path / "bad.plume"
    text = open(os.path.join(SCENES, "plume-2d.plume")).read().replace(
        '"resolution": 128', '"resolution": -3')
    path.write_text(text)
    with pytest.raises(ValueError, match=r"bad\.plume: domain\.resolution"):
        plume.Scene.load(path)
    with pytest.raises(ValueError, match="no such scene file"):
        plume.Scene.load(tmp_path / "none.plume")
    path.write_text("{ not json")
    with pytest.raises(ValueError, match="line 1"):
        plume.Scene.load(path)


# --- simulation -------------------------------------------------------------------------------

def test_field_is_a_float32_copy_with_voxel_size_and_origin():
    scene = plume.Scene.builtin("plume", dimension=3, resolution=24)
    sim = plume.Simulation(scene, threads=2)
    assert sim.frame == scene.simulation.frameStart - 1
    stats = sim.advance(4)
    assert sim.frame == scene.simulation.frameStart + 3
    assert stats["pressure_converged"] and stats["pressure_iterations"] > 0
    d = sim.field("density")
    assert d.dtype == np.float32 and d.shape == sim.cells == (24, 24, 24)
    assert d.voxel_size == pytest.approx(1 / 24) and d.origin == (0.0, 0.0, 0.0)
    assert d.sum() > 0 and np.isfinite(d).all()
    d[:] = 0  # a copy: the simulation keeps its own
    assert sim.field("density").sum() > 0
    with pytest.raises(ValueError, match="no field 'smoke'"):
        sim.field("smoke")
    assert "temperature" in plume.field_names()


def test_stats_say_when_smoke_reaches_an_open_side():
    # plume-2d at 16 cells: walls, but an open top the rising smoke reaches.
    scene = small("plume-2d", resolution=16, frames=120)
    sim = plume.Simulation(scene, threads=1)
    notes = [sim.advance()["smoke_at_sides"] for _ in range(120)]
    said = [n for n in notes if n]
    assert len(said) == 1, notes  # once
    assert said[0].startswith("frame %d: smoke reached the open side ymax (" % (notes.index(said[0]) + 1))
    assert "cut off" in said[0]


def test_pythons_floating_point_mode_is_kept(tmp_path):
    # The solver flushes denormals to zero on its threads; Python's arithmetic must not.
    tiny = np.float32(1e-39)
    scene = plume.Scene.builtin("plume", dimension=2, resolution=32)
    sim = plume.Simulation(scene)
    sim.advance(2)
    sim.field("density")
    assert tiny * np.float32(1.0) != 0
    seen = []
    plume.bake(scene, tmp_path, vdb=True, frames=(1, 2),
               progress=lambda *a: seen.append(float(tiny * np.float32(1.0))))
    assert seen and all(v != 0 for v in seen)
    assert tiny * np.float32(1.0) != 0


def test_threads_do_not_change_the_bytes():
    scene = plume.Scene.builtin("plume", dimension=3, resolution=24)
    one, two = plume.Simulation(scene, threads=1), plume.Simulation(scene, threads=2)
    one.advance(5)
    two.advance(5)
    for name in ("density", "temperature", "velocity-x"):
        assert one.field(name).tobytes() == two.field(name).tobytes()


def test_fields_are_what_the_cli_bakes(tmp_path):
    pyopenvdb = pytest.importorskip("pyopenvdb")
    scene = small("plume-3d", resolution=20, frames=4)
    scene.save(tmp_path / "s.plume")
    cli("bake", tmp_path / "s.plume", "-o", tmp_path / "cli", "--vdb", "--frames", "4:4",
        "--quiet")
    sim = plume.Simulation(scene)
    sim.advance(4)
    mine = sim.field("density")
    grid = pyopenvdb.read(str(tmp_path / "cli" / "s.0004.vdb"), "density")
    theirs = np.zeros(mine.shape, dtype=np.float32)
    grid.copyToArray(theirs, ijk=(0, 0, 0))
    # The file keeps values above 1e-6 exactly; the rest is background 0.
    kept = np.where(np.abs(mine) > 1e-6, mine, 0)
    assert np.array_equal(kept, theirs)
    assert theirs.sum() > 0


def test_the_gil_is_released_while_the_solver_runs():
    scene = plume.Scene.builtin("plume", dimension=3, resolution=48)
    sim = plume.Simulation(scene, threads=1)
    worker = threading.Thread(target=sim.advance, args=(12,))
    start = time.monotonic()
    worker.start()
    ticks = 0
    while worker.is_alive():  # runs only while the worker does not hold the GIL
        ticks += 1
        time.sleep(0.002)
    took = time.monotonic() - start
    assert sim.frame == scene.simulation.frameStart + 11
    assert took > 0.05, "the simulation was too quick to tell"
    # Held, the loop would run once or twice; released, about every 2 ms (sleep overshoots
    # on a loaded machine: a tenth of that is plenty).
    assert ticks >= max(5, 0.1 * took / 0.002), (ticks, took)


def test_checkpoint_continues_with_the_same_bytes():
    scene = plume.Scene.builtin("plume", dimension=2, resolution=48)
    sim = plume.Simulation(scene)
    sim.advance(3)
    data = sim.checkpoint()
    sim.advance(3)
    later = sim.field("density").tobytes()
    again = plume.Simulation.restore(scene, data)
    assert again.frame == sim.frame - 3
    again.advance(3)
    assert again.field("density").tobytes() == later
    other = scene.copy()
    other.simulation.vorticity = 0.7
    with pytest.raises(ValueError, match="scene"):
        plume.Simulation.restore(other, data)
    with pytest.raises(ValueError):
        plume.Simulation.restore(scene, data[:100])


def test_hostile_input_is_refused():
    scene = plume.Scene.builtin("plume", dimension=3, resolution=32)
    with pytest.raises(ValueError, match=r"16384 x 16384 x 16384 = 4398046511104 cells, about "
                                         r"262144\.0 GiB"):
        scene.domain.resolution = 16384  # within the axis limit; the cell limit names memory
    assert scene.domain.resolution == 32
    with pytest.raises(TypeError):
        plume.Simulation("scene.plume")
    with pytest.raises(TypeError):
        plume.Simulation(plume.Scene.builtin(), threads="two")
    with pytest.raises(ValueError):
        plume.Simulation(plume.Scene.builtin(), threads=-1)
    with pytest.raises(ValueError):
        plume.Scene.builtin("fountain")
    with pytest.raises(ValueError):
        plume.Simulation(plume.Scene.builtin()).advance(0)


# --- bakes ------------------------------------------------------------------------------------

def test_bake_is_the_clis_bake(tmp_path):
    scene = small("fireball-3d", resolution=20, frames=6)
    scene.save(tmp_path / "fire.plume")
    cli("bake", tmp_path / "fire.plume", "-o", tmp_path / "cli", "--vdb", "--flipbook", "2x3",
        "--frames", "1:6", "--size", "32x32", "--quiet")
    files = plume.bake(scene, tmp_path / "py", vdb=True, flipbook=(2, 3), frames=(1, 6),
                       size=(32, 32), threads=1)
    assert len(files) == 6 + 3
    compare = filecmp.dircmp(tmp_path / "cli", tmp_path / "py")
    assert compare.left_list == compare.right_list
    assert not compare.diff_files and not compare.funny_files
    _, mismatch, errors = filecmp.cmpfiles(tmp_path / "cli", tmp_path / "py",
                                           compare.common_files, shallow=False)
    assert not mismatch and not errors


def test_render_from_a_cache_in_chunks(tmp_path):
    scene = small("fireball-3d", resolution=16, frames=6)
    look = dict(flipbook=(2, 3), frames=(1, 6), size=(24, 24))
    plume.bake(scene, tmp_path / "one", **look)
    plume.bake(scene, tmp_path / "cache", cache_only=True, frames=(1, 6))
    for chunk in ((1, 3), (4, 6)):
        assert plume.render(scene, tmp_path / "cache", tmp_path / "cache", chunk=chunk,
                            **look) == []
    plume.render(scene, tmp_path / "cache", tmp_path / "cache", **look)
    name = scene.file_stem + "_flipbook.png"
    assert filecmp.cmp(tmp_path / "one" / name, tmp_path / "cache" / name, shallow=False)


def test_bake_refuses_as_the_cli_does(tmp_path):
    scene = small("plume-3d", resolution=16, frames=4)
    with pytest.raises(ValueError, match="frame range 1:40 lies outside"):
        plume.bake(scene, tmp_path, frames=(1, 40))
    with pytest.raises(ValueError, match=r"frame range 4:1 is empty"):
        plume.bake(scene, tmp_path, frames=(4, 1))
    with pytest.raises(ValueError, match="a bake from a cache reads the VDB files"):
        plume.render(scene, tmp_path, tmp_path / "out", vdb=True)
    with pytest.raises(ValueError, match="has no frame 1"):
        plume.render(scene, tmp_path / "none", tmp_path / "out", images=True)
    with pytest.raises(TypeError):
        plume.bake(scene, tmp_path, progress=3)


def test_progress_can_cancel(tmp_path):
    scene = small("plume-3d", resolution=16, frames=6)
    seen = []

    def progress(frame, done, total, ms):
        seen.append((frame, done, total))
        return frame < 3

    with pytest.raises(plume.Cancelled):
        plume.bake(scene, tmp_path, vdb=True, progress=progress)
    assert seen == [(1, 1, 6), (2, 2, 6), (3, 3, 6)]
    written = sorted(f for f in os.listdir(tmp_path) if f.endswith(".vdb"))
    assert written == [f"plume-3d.000{f}.vdb" for f in (1, 2, 3)]

    def raises(frame, done, total, ms):
        raise KeyError("from the callback")

    with pytest.raises(KeyError, match="from the callback"):
        plume.bake(scene, tmp_path / "again", vdb=True, progress=raises)


def test_wedge_is_the_clis_wedge(tmp_path):
    scene = small("explosion-3d", resolution=16, frames=4)
    scene.save(tmp_path / "boom.plume")
    manifest, variations = plume.wedge(scene, tmp_path / "py", {
        "simulation.vorticity": [0.1, 0.2], "items[charge].emitter.fuel": "4:12:3"})
    cli("wedge", tmp_path / "boom.plume", "-o", tmp_path / "cli", "--quiet",
        "--vary", "simulation.vorticity=0.1,0.2", "--vary", "items[charge].emitter.fuel=4:12:3")
    assert [v.file_stem for v in variations] == [f"boom_w{k}" for k in range(6)]
    assert variations[5].simulation.vorticity == pytest.approx(0.2)
    assert variations[5].items["charge"].emitter.fuel == 12
    for k in range(6):
        assert filecmp.cmp(tmp_path / "py" / f"boom_w{k}.plume",
                           tmp_path / "cli" / f"boom_w{k}.plume", shallow=False)
    assert json.load(open(manifest))["variations"][1]["values"] == {
        "simulation.vorticity": 0.1, "items[charge].emitter.fuel": 8}
    with pytest.raises(ValueError, match=r"simulation\.vorticity"):
        plume.wedge(scene, tmp_path / "bad", {"simulation.vorticity": [-1]})
    with pytest.raises(ValueError, match=r"items\[nobody\]"):
        plume.wedge(scene, tmp_path / "bad", {"items[nobody].emitter.fuel": [1]})
    manifest, drawn = plume.wedge(scene, tmp_path / "random", {"simulation.vorticity": "0:1"},
                                  random=3, seed=7)
    assert len(drawn) == 3 and all(0 <= d.simulation.vorticity <= 1 for d in drawn)
    with pytest.raises(TypeError):
        plume.wedge(scene, tmp_path / "bad", {"simulation.vorticity": [object()]})


# --- examples ---------------------------------------------------------------------------------

EXAMPLES = os.path.join(SOURCE, "examples", "python")


@pytest.mark.parametrize("script", sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".py"))
                         if os.path.isdir(EXAMPLES) else [])
def test_example_runs(script, tmp_path):
    package = os.path.dirname(os.path.dirname(os.path.abspath(plume.__file__)))
    env = dict(os.environ, PLUME_EXAMPLE_QUICK="1", MPLBACKEND="Agg", PYTHONPATH=package)
    r = subprocess.run([sys.executable, os.path.join(EXAMPLES, script), str(tmp_path)],
                       capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
