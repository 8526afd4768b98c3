# SPDX-License-Identifier: Apache-2.0
"""Plume from Python: scenes, simulation and bakes (docs/python.md).

    import plume
    scene = plume.Scene.load("resources/scenes/plume-3d.plume")
    scene.simulation.vorticity = 0.4          # checked like a .plume file: ValueError if not
    sim = plume.Simulation(scene, threads=2)
    sim.advance(10)
    density = sim.field("density")            # float32 numpy array [i, j, k]
    plume.bake(scene, "out", flipbook=(4, 4)) # what plume-cli bake writes, byte for byte

A scene's attributes are the keys of the scene format (docs/scene-format.md) under the same
names; every change goes through the scene reader's checks, so a bad value raises ValueError
naming the JSON path and what is allowed, and leaves the scene as it was.
"""

import copy
import json
import os

import numpy as np

from . import _plume
from ._plume import Cancelled

__version__ = _plume.__version__
__all__ = ["Scene", "ReadWarning", "Item", "Animated", "Simulation", "Field", "bake", "render",
           "wedge", "Cancelled", "field_names", "builtin_names"]

# Keys marked *animatable* in docs/scene-format.md: a plain value or {interpolation, keys}.
_ANIMATABLE = {("offset",), ("rotation",), ("scale",), ("emitter", "rate"),
               ("emitter", "noise", "amplitude"), ("force", "strength")}


def _path_text(path):
    """('items', 0, 'emitter', 'rate') -> 'items[0].emitter.rate' (the reader's form)."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += ("." if text else "") + part
    return text


def _to_json(value, path):
    """A Python value as the scene format's JSON (lists for vectors, no NaN)."""
    if isinstance(value, Animated):
        return copy.deepcopy(value._json)
    if isinstance(value, (bool, str)) or value is None:
        return value
    if isinstance(value, (int, float, np.integer, np.floating)):
        v = value.item() if isinstance(value, (np.integer, np.floating)) else value
        return v
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_to_json(v, path) for v in value]
    if isinstance(value, dict):
        return {str(k): _to_json(v, path) for k, v in value.items()}
    raise TypeError(f"{_path_text(path)}: cannot store a {type(value).__name__} in a scene")


def _get(data, path):
    for part in path:
        data = data[part]
    return data


class _Node:
    """An object of the scene's JSON: its keys are attributes."""

    def __init__(self, scene, path):
        object.__setattr__(self, "_scene", scene)
        object.__setattr__(self, "_path", tuple(path))

    def _json(self):
        return _get(self._scene._data, self._path)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        data = self._json()
        if not isinstance(data, dict):
            raise AttributeError(name)
        if name not in data:
            if self._scene._known(self._path + (name,)):
                return None  # a key that is absent when off (a mask, noise, ...)
            raise AttributeError(f"{_path_text(self._path + (name,))}: no such key in the scene "
                                 f"format; keys here: {', '.join(sorted(data))}")
        return self._scene._wrap(self._path + (name,))

    def __setattr__(self, name, value):
        self._scene._set(self._path + (name,), value)

    def __delattr__(self, name):
        self._scene._delete(self._path + (name,))

    def __dir__(self):
        return sorted(self._json())

    def to_dict(self):
        """A copy of this object as the scene format's JSON (dicts and lists)."""
        return copy.deepcopy(self._json())

    def __eq__(self, other):
        return isinstance(other, _Node) and self._json() == other._json()

    def __repr__(self):
        return f"<plume {_path_text(self._path) or 'scene'}: {json.dumps(self._json())}>"


class Item(_Node):
    """An emitter, obstacle or force field (docs/scene-format.md, "Items")."""

    def animate(self, key, keys, interpolation="linear"):
        """Keyframes an animatable key ("offset", "emitter.rate", ...): keys = [(frame, value)]."""
        path = tuple(key.split("."))
        self._scene._set(self._path + path, {
            "interpolation": interpolation,
            "keys": [{"frame": f, "value": v} for f, v in keys]})


class Animated:
    """An animatable key: a constant `value`, or keyframes `keys` = [(frame, value), ...]
    with an `interpolation` ("linear" or "smooth"). Setting `keys` or `value` changes the scene."""

    def __init__(self, scene, path):
        self._scene, self._path = scene, tuple(path)

    @property
    def _json(self):
        return _get(self._scene._data, self._path)

    @property
    def animated(self):
        return isinstance(self._json, dict)

    @property
    def value(self):
        """The constant value, or the first key's."""
        j = self._json
        return j["keys"][0]["value"] if isinstance(j, dict) else j

    @value.setter
    def value(self, v):
        self._scene._set(self._path, v)

    @property
    def keys(self):
        j = self._json
        return [(k["frame"], k["value"]) for k in j["keys"]] if isinstance(j, dict) else []

    @keys.setter
    def keys(self, keys):
        interpolation = self._json.get("interpolation", "linear") if self.animated else "linear"
        if not keys:
            raise ValueError(f"{_path_text(self._path)}: keys needs at least one (frame, value); "
                             "set .value for a constant")
        self._scene._set(self._path, {"interpolation": interpolation,
                                      "keys": [{"frame": f, "value": _to_json(v, self._path)}
                                               for f, v in keys]})

    @property
    def interpolation(self):
        return self._json.get("interpolation") if self.animated else None

    @interpolation.setter
    def interpolation(self, name):
        if not self.animated:
            raise ValueError(f"{_path_text(self._path)}: not animated; set keys first")
        j = copy.deepcopy(self._json)
        j["interpolation"] = name
        self._scene._set(self._path, j)

    def __eq__(self, other):
        if isinstance(other, Animated):
            return self._json == other._json
        return not self.animated and self.value == other

    def __float__(self):
        return float(self.value)

    def __iter__(self):
        return iter(self.value)

    def __getitem__(self, i):
        return self.value[i]

    def __repr__(self):
        if self.animated:
            return f"Animated({self.interpolation}, keys={self.keys})"
        return f"Animated({self.value!r})"


class _Items:
    """The scene's items: by index or by name."""

    def __init__(self, scene):
        self._scene = scene

    def _index(self, key):
        items = self._scene._data["items"]
        if isinstance(key, int):
            if not -len(items) <= key < len(items):
                raise IndexError(f"items[{key}]: the scene has {len(items)} items")
            return key % len(items)
        for n, item in enumerate(items):
            if item["name"] == key:
                return n
        raise KeyError(f"items[{key}]: no item of that name; names: "
                       f"{', '.join(i['name'] for i in items)}")

    def __getitem__(self, key):
        return Item(self._scene, ("items", self._index(key)))

    def __delitem__(self, key):
        self._scene.remove_item(key)

    def __len__(self):
        return len(self._scene._data["items"])

    def __iter__(self):
        return (self[n] for n in range(len(self)))

    def names(self):
        return [i["name"] for i in self._scene._data["items"]]

    def __repr__(self):
        return f"<plume items: {self.names()}>"


class ReadWarning(str):
    """A scene reader's warning: the message (it is a str), with the facts as codes: `kind`
    ("unknown-key": kept as is, from a newer version?; "ignored-by-scheme": a setting the
    scene's scheme does not use) and `path`, the JSON path it is about (e.g. "items[0].force.mask")."""

    def __new__(cls, kind, path, message):
        self = super().__new__(cls, message)
        self.kind = kind
        self.path = path
        return self


def _warnings(triples):
    return [w if isinstance(w, ReadWarning) else ReadWarning(*w) for w in triples]


class Scene:
    """A scene (docs/scene-format.md). Load one, build one in, change its keys as attributes,
    add and remove items, save it. Every change is checked as the scene reader checks a file."""

    def __init__(self, text, directory, stem=None, warnings=()):
        data, directory, warnings2 = _plume.check_scene(text, directory)
        object.__setattr__(self, "_data", json.loads(data))
        object.__setattr__(self, "_directory", directory)
        object.__setattr__(self, "_stem", stem)
        # The file's own warnings name the file; checking its text again finds the same facts.
        read = _warnings(warnings)
        seen = {(w.kind, w.path) for w in read}
        again = [w for w in _warnings(warnings2) if (w.kind, w.path) not in seen]
        object.__setattr__(self, "warnings", read + again)

    @classmethod
    def load(cls, path):
        """Reads a .plume file; ValueError names the file, the JSON path and what was expected."""
        text, directory, warnings = _plume.read_scene(os.fspath(path))
        stem = os.path.splitext(os.path.basename(os.fspath(path)))[0]
        return cls(text, directory, stem, warnings)

    @classmethod
    def builtin(cls, name="plume", dimension=2, resolution=64):
        """A built-in scene ("plume": hot smoke past an obstacle; "ocean"), as plume-cli
        simulate runs it."""
        return cls(_plume.builtin_scene(name, dimension, resolution), os.getcwd())

    @classmethod
    def from_json(cls, text, directory="."):
        """A scene from the text of a .plume file (relative paths resolve from `directory`)."""
        return cls(text, os.path.abspath(directory))

    def save(self, path):
        """Writes a .plume file atomically; image and model paths are rewritten for its folder,
        and the scene now belongs to that file (its name is the bake's base name)."""
        text, directory, _ = _plume.write_scene(self.to_json(), self._directory, os.fspath(path))
        object.__setattr__(self, "_data", json.loads(text))
        object.__setattr__(self, "_directory", directory)
        object.__setattr__(self, "_stem", os.path.splitext(os.path.basename(os.fspath(path)))[0])

    def to_json(self):
        """The scene as .plume JSON text (every key)."""
        return json.dumps(self._data, indent=4)

    def copy(self):
        other = object.__new__(Scene)
        for key in ("_data", "_directory", "_stem", "warnings"):
            object.__setattr__(other, key, copy.deepcopy(getattr(self, key)))
        return other

    @property
    def file_stem(self):
        """The name bakes give their files: the file's name when loaded or saved, else the
        scene's name."""
        return self._stem or self._data["name"]

    @property
    def directory(self):
        return self._directory

    @property
    def items(self):
        return _Items(self)

    def add_item(self, kind, shape, name=None, **keys):
        """Adds an item: kind "emitter", "obstacle" or "force"; shape a dict such as
        {"type": "sphere", "centre": [0.5, 0.2, 0.5], "radius": 0.1}; other keys as in the
        format (emitter={"temperature": 2}, offset=[0, 0.1, 0]). Returns the new Item."""
        names = self.items.names()
        if name is None:
            n = 1
            while f"{kind}{n}" in names:
                n += 1
            name = f"{kind}{n}"
        item = {"name": name, "kind": kind, "shape": _to_json(shape, ("items",))}
        item.update({k: _to_json(v, ("items", k)) for k, v in keys.items()})
        data = copy.deepcopy(self._data)
        data["items"].append(item)
        self._replace(data, ("items", len(data["items"]) - 1))
        return self.items[name]

    def remove_item(self, key):
        """Removes an item by name or index."""
        index = self.items._index(key)
        data = copy.deepcopy(self._data)
        del data["items"][index]
        self._replace(data, ())

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return _Node(self, ()).__getattr__(name)

    def __setattr__(self, name, value):
        if name == "items":
            raise AttributeError("items: use add_item(), remove_item() and the items' keys")
        self._set((name,), value)

    def __dir__(self):
        return sorted(set(self._data) | {"items", "add_item", "remove_item", "save", "copy",
                                         "to_json", "file_stem", "directory", "warnings"})

    def __repr__(self):
        d = self._data["domain"]
        return (f"<plume.Scene {self._data['name']!r}: {d['dimension']} {d['resolution']}, "
                f"{len(self._data['items'])} items>")

    # The one way anything changes: the new JSON through the reader.
    def _replace(self, data, path):
        text, directory, warnings = _plume.check_scene(json.dumps(data), self._directory)
        here = _path_text(path)
        for w in _warnings(warnings):
            if here and w.kind == "unknown-key" and w.path == here:
                raise AttributeError(f"{here}: no such key in the scene format")
        object.__setattr__(self, "_data", json.loads(text))
        object.__setattr__(self, "warnings", _warnings(warnings))

    def _set(self, path, value):
        data = copy.deepcopy(self._data)
        parent = _get(data, path[:-1])
        if not isinstance(parent, (dict, list)):
            raise AttributeError(f"{_path_text(path)}: {_path_text(path[:-1])} is not an object")
        if isinstance(parent, dict) and path[-1] not in parent and not self._known(path):
            raise AttributeError(f"{_path_text(path)}: no such key in the scene format; keys "
                                 f"here: {', '.join(sorted(parent))}")
        parent[path[-1]] = _to_json(value, path)
        self._replace(data, path)

    def _delete(self, path):
        data = copy.deepcopy(self._data)
        parent = _get(data, path[:-1])
        if path[-1] in parent:
            del parent[path[-1]]
        self._replace(data, ())

    def _known(self, path):
        """Whether a key absent from the JSON is one the format knows: the reader refuses a
        null there (it warns about an unknown key instead)."""
        data = copy.deepcopy(self._data)
        _get(data, path[:-1])[path[-1]] = None
        try:
            _, _, warnings = _plume.check_scene(json.dumps(data), self._directory)
        except ValueError:
            return True
        here = _path_text(path)
        return not any(w.kind == "unknown-key" and w.path == here for w in _warnings(warnings))

    def _wrap(self, path):
        value = _get(self._data, path)
        if path[0] == "items" and tuple(p for p in path[2:]) in _ANIMATABLE:
            return Animated(self, path)
        if isinstance(value, dict):
            return _Node(self, path)
        return copy.deepcopy(value)


class Field(np.ndarray):
    """A field sampled at cell centres: a float32 array indexed [i, j, k] (x, y, z), with the
    cells' size (`voxel_size`, world units) and the world position of cell (0, 0, 0)'s low
    corner (`origin`): cell (i, j, k)'s centre is origin + (i + 0.5, j + 0.5, k + 0.5) *
    voxel_size."""

    def __new__(cls, array, voxel_size, origin, name):
        out = np.asarray(array).view(cls)
        out.voxel_size = float(voxel_size)
        out.origin = tuple(float(o) for o in origin)
        out.name = name
        return out

    def __array_finalize__(self, obj):
        self.voxel_size = getattr(obj, "voxel_size", None)
        self.origin = getattr(obj, "origin", None)
        self.name = getattr(obj, "name", None)


class Simulation:
    """A scene simulated frame by frame, as plume-cli bake simulates it: the fields are the
    bytes a bake writes, for any thread count. The solver runs with the GIL released."""

    def __init__(self, scene, threads=0):
        if not isinstance(scene, Scene):
            raise TypeError("Simulation needs a plume.Scene")
        if not isinstance(threads, int) or isinstance(threads, bool):
            raise TypeError("threads must be an integer (0: all cores)")
        self.scene = scene.copy()
        self._sim = _plume.Simulation(scene.to_json(), scene.directory, threads)

    @property
    def frame(self):
        """The scene frame last simulated (frameStart - 1 before the first)."""
        return self._sim.frame

    @property
    def stats(self):
        """The last frame's: substeps, pressure iterations and residual, fallbacks, time."""
        return self._sim.stats

    @property
    def cells(self):
        """The sampled cells (nx, ny, nz): the domain's, or upres's finer ones."""
        return self._sim.cells

    def advance(self, count=1):
        """Simulates `count` frames (the scene's inputs at each); returns the last one's stats.
        A blow-up raises RuntimeError naming the frame, step and field."""
        return self._sim.advance(count)

    def field(self, name):
        """A copy of a field (plume.field_names(): density, temperature, velocity-x, ...)."""
        array, voxel, origin = self._sim.field(name)
        return Field(array, voxel, origin, name)

    def checkpoint(self):
        """The complete state as bytes: Simulation.restore() continues with the same bytes as
        never stopping."""
        return self._sim.checkpoint()

    @classmethod
    def restore(cls, scene, data, threads=0):
        """A simulation of `scene` continued from checkpoint(); ValueError for a checkpoint of
        another scene or a damaged one."""
        sim = cls(scene, threads)
        sim._sim.restore(data)
        return sim


def bake(scene, out, *, vdb=None, flipbook=None, images=None, frames=None, size=None,
         mesh=False, cache_only=False, from_cache=None, chunk=None, checkpoint_every=0,
         resume=False, progress=None, threads=0, name=None):
    """Bakes `scene` into the folder `out` as plume-cli bake does (the same plan, refusals and
    bytes): VDB files (`vdb`; the default when no flipbook or images are asked for or preset),
    a flipbook atlas (`flipbook=(rows, columns)`), images, OBJ meshes; `frames=(first, last)`,
    `size=(width, height)`; the rest from the scene's export presets. `cache_only` writes the
    VDB files alone; `from_cache=DIR` renders from them (`chunk=(a, b)`: only those frames,
    kept for the bake that writes the outputs; docs/farm.md). `progress(frame, done, total, ms)`
    is called after every frame; returning False stops the bake (plume.Cancelled).
    Refusals raise ValueError (MemoryError when the grid does not fit) with the plan's message;
    failures while running raise RuntimeError. Returns the files written."""
    if not isinstance(scene, Scene):
        raise TypeError("bake needs a plume.Scene")
    if progress is not None and not callable(progress):
        raise TypeError("progress must be callable: progress(frame, done, total, ms)")
    options = {"vdb": vdb, "flipbook": flipbook, "images": images, "frames": frames,
               "size": size, "mesh": mesh, "cache_only": cache_only,
               "from_cache": None if from_cache is None else os.fspath(from_cache),
               "chunk": chunk, "checkpoint_every": checkpoint_every, "resume": resume}
    return _plume.bake(scene.to_json(), scene.directory, name or scene.file_stem,
                       os.fspath(out), options, progress, threads)


def render(scene, cache, out, **options):
    """Renders a VDB cache (a bake with cache_only=True) into `out` without simulating: the
    flipbook, images and meshes that bake() would write (docs/farm.md)."""
    return bake(scene, out, from_cache=cache, **options)


def _values_text(values):
    """A key's values as plume-cli wedge reads them: "A:B:N" as it is, a list joined by commas."""
    if isinstance(values, str):
        return values
    def one(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float, np.integer, np.floating)):
            return repr(float(v)) if isinstance(v, (float, np.floating)) else str(int(v))
        if isinstance(v, str) and "," not in v:
            return v
        raise TypeError(f"a wedge value must be a number, a boolean or a string without commas, "
                        f"got {v!r}")
    try:
        items = list(values)
    except TypeError:
        raise TypeError(f"a key's values must be a list or a range string 'A:B:N', got {values!r}")
    if not items:
        raise ValueError("a key's values must not be empty")
    return ",".join(one(v) for v in items)


def wedge(scene, out, vary, *, random=None, seed=0):
    """Variations of `scene` (docs/wedges.md), as plume-cli wedge writes them: one scene file per
    variation, `<out>/<stem>_w<k>.plume`, and the manifest `<out>/<stem>_wedge.json`. `vary`
    maps keys (scene-format JSON paths; `items[name]` picks an item) to values: a list
    ([0.1, 0.2, 0.4]) or a range "A:B:N" (N values from A to B). The variations are the product
    of the keys' values, or with random=N, N draws with `seed`. Every variation goes through the
    scene reader: a bad key or value raises ValueError naming the key and the rule. Returns
    (manifest path, [Scene of each variation])."""
    if not isinstance(scene, Scene):
        raise TypeError("wedge needs a plume.Scene")
    if not isinstance(vary, dict) or not vary:
        raise TypeError("vary must be a dict of key -> values")
    axes = [(str(k), _values_text(v)) for k, v in vary.items()]
    source = os.path.join(scene.directory, scene.file_stem + ".plume") if scene._stem else ""
    manifest, files = _plume.wedge(scene.to_json(), scene.directory, scene.file_stem, source,
                                   os.fspath(out), axes, random, seed)
    return manifest, [Scene.load(f) for f in files]


def field_names():
    """The fields Simulation.field() samples."""
    return _plume.field_names()


def builtin_names():
    """The built-in scenes' names."""
    return _plume.builtin_names()
