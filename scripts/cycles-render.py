# SPDX-License-Identifier: Apache-2.0
"""Render one Plume VDB frame in Blender Cycles the way Plume's volume renderer sees it.

Run inside Blender (scripts/compare-cycles does this):

    blender -b --factory-startup --python scripts/cycles-render.py -- ARGS

ARGS is a JSON object, or the path of a JSON file holding one, with these keys (Plume's units
and axes: the Y-up world of the scene file; the VDB is baked with `--up z`):

    vdb             the Z-up VDB file (plume-cli bake --vdb --up z)
    output          the EXR to write: linear RGBA, 32-bit float, premultiplied over black
    width, height   frame size in pixels
    samples         Cycles samples per pixel
    volume_bounces  0: single scattering (Plume multipleScattering 0); 8 or so: multiple
    step_rate       Cycles volume_step_rate (step = step_rate voxels)
    max_steps       Cycles volume_max_steps
    threads         CPU threads (0: all)
    seed            Cycles seed
    blackbody       "plume" (default): Plume's blackbody colours on a colour ramp; "cycles":
                    the Blackbody node over its largest channel
    emission_scattering  false: emission reaches the camera only directly (Plume's
                    emissionScattering 0); default true
    voxel_shift     object offset in voxels along every axis (default -0.5: Cycles' half-voxel
                    shift, see setup_volume)
    domain          {"origin": [x, y, z], "cells": [nx, ny, nz], "cellSize": h}
    camera          {"yaw", "pitch", "zoom", "projection", "fov"}: Plume's render keys
    light           {"direction", "color", "intensity"}: Plume's lightDirection (towards the
                    light), lightColor, lightIntensity
    volume          {"densityScale", "smokeColor", "anisotropy", "emissionIntensity",
                     "emissionMin", "emissionMax", "flameIntensity", "ambientTemperature",
                     "flame"}: Plume's render keys; flame: the VDB has a flame grid

The mapping (docs in scripts/compare-cycles):

- Camera: core/render/camera.h. Orthographic: the domain box's projected half extents along
  the camera's right and up fitted into the frame (times zoom), so ortho_scale is the larger
  frame side in world units; the camera orbits the domain's centre (yaw about +y, pitch up).
  A Plume point (x, y, z) is (x, -z, y) in Blender (core/export/vdbwriter.cpp, --up z).
- Light: a sun of angle 0 towards `direction`; Plume adds albedo * lightIntensity * lightColor
  * T * (1 - exp(-sigma ds)) per step (isotropic phase 4 pi p = 1), physically sigma_s * p *
  E * T: the sun's irradiance (Strength) is 4 pi lightIntensity.
- Smoke: Principled Volume, Density = densityScale on the `density` grid, Color = smokeColor,
  Absorption Color black: sigma_t = densityScale * density, albedo = smokeColor.
- Emission (core/render/renderer.cpp emissionColor, volumemarch.cpp): radiance per unit
  length j = 0.5 densityScale bb(K) (t^2 emissionIntensity + flameIntensity flame), with t =
  clamp((temperature - ambientTemperature - emissionMin) / (emissionMax - emissionMin)), K =
  1000 + 5500 t, bb Plume's blackbody colour (largest channel 1; or the Blackbody node over
  its largest channel); Cycles' volume Emission strength is radiance per unit length
  (measured: a unit-depth cube of strength 2 renders 2.0).
- Film: transparent over a black world, Standard view, pixel filter a 0.01-pixel box (one
  ray through each pixel's centre, as Plume), no denoising, no adaptive sampling, no clamping.
"""

import json
import math
import os
import sys
import time

import bpy
from mathutils import Matrix, Vector


def to_blender(v):
    """A Plume (Y-up) vector in Blender's Z-up axes (--up z: (x, y, z) -> (x, -z, y))."""
    return Vector((v[0], -v[2], v[1]))


def normalized(v):
    n = math.sqrt(sum(c * c for c in v))
    return [c / n for c in v] if n > 0 else [0.0, 1.0, 0.0]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def read_args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if len(argv) != 1:
        sys.exit("cycles-render.py: expected one argument after --: JSON or a JSON file")
    text = argv[0]
    if not text.lstrip().startswith("{"):
        with open(text) as f:
            text = f.read()
    return json.loads(text)


def clear_scene():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj, do_unlink=True)
    for coll in (bpy.data.meshes, bpy.data.lights, bpy.data.cameras, bpy.data.materials,
                 bpy.data.volumes):
        for block in list(coll):
            coll.remove(block)


def setup_render(scene, a):
    scene.render.engine = "CYCLES"
    c = scene.cycles
    c.device = "CPU"
    c.samples = int(a["samples"])
    c.use_adaptive_sampling = False
    c.use_denoising = False
    c.seed = int(a.get("seed", 0))
    c.sample_clamp_direct = 0.0
    c.sample_clamp_indirect = 0.0
    bounces = int(a["volume_bounces"])
    c.volume_bounces = bounces
    c.max_bounces = max(bounces, 1)
    c.diffuse_bounces = 0
    c.glossy_bounces = 0
    c.transmission_bounces = 0
    c.transparent_max_bounces = 128
    c.caustics_reflective = True
    c.caustics_refractive = True
    c.volume_step_rate = float(a.get("step_rate", 0.5))
    c.volume_max_steps = int(a.get("max_steps", 4096))
    c.pixel_filter_type = "BOX"
    c.filter_width = 0.01
    r = scene.render
    r.resolution_x = int(a["width"])
    r.resolution_y = int(a["height"])
    r.resolution_percentage = 100
    r.pixel_aspect_x = 1.0
    r.pixel_aspect_y = 1.0
    r.film_transparent = True
    r.use_motion_blur = False
    threads = int(a.get("threads", 0))
    r.threads_mode = "FIXED" if threads > 0 else "AUTO"
    if threads > 0:
        r.threads = threads
    r.use_persistent_data = False
    vs = scene.view_settings
    scene.display_settings.display_device = "sRGB"
    vs.view_transform = "Standard"
    vs.look = "None"
    vs.exposure = 0.0
    vs.gamma = 1.0
    im = r.image_settings
    im.file_format = "OPEN_EXR"
    im.color_mode = "RGBA"
    im.color_depth = "32"
    im.exr_codec = "ZIP"
    r.use_file_extension = False
    if scene.world is None:
        scene.world = bpy.data.worlds.new("black")
    scene.world.use_nodes = True
    bg = scene.world.node_tree.nodes.get("Background")
    if bg is not None:
        bg.inputs["Color"].default_value = (0.0, 0.0, 0.0, 1.0)
        bg.inputs["Strength"].default_value = 0.0


def domain_box(a):
    d = a["domain"]
    h = float(d["cellSize"])
    extent = [float(n) * h for n in d["cells"]]
    centre = [float(o) + 0.5 * e for o, e in zip(d["origin"], extent)]
    return extent, centre


def setup_camera(scene, a):
    """core/render/camera.h, in Plume's axes, then rotated into Blender's."""
    cam = a["camera"]
    extent, centre = domain_box(a)
    width, height = int(a["width"]), int(a["height"])
    yaw = math.radians(float(cam.get("yaw", 0.0)))
    pitch = math.radians(max(-89.0, min(89.0, float(cam.get("pitch", 0.0)))))
    zoom = float(cam.get("zoom", 1.0))
    to_camera = [math.sin(yaw) * math.cos(pitch), math.sin(pitch),
                 math.cos(yaw) * math.cos(pitch)]
    forward = [-c for c in to_camera]
    right = normalized(cross(forward, [0.0, 1.0, 0.0]))
    up = cross(right, forward)
    radius = 0.5 * math.sqrt(dot(extent, extent))
    data = bpy.data.cameras.new("plume")
    data.sensor_fit = "AUTO"
    if cam.get("projection", "orthographic") == "perspective":
        half = 0.5 * math.radians(max(1.0, min(170.0, float(cam.get("fov", 40.0)))))
        distance = radius / math.sin(half)
        position = [c + t * distance for c, t in zip(centre, to_camera)]
        data.type = "PERSP"
        data.sensor_fit = "VERTICAL"
        # Plume: focal (pixels) = halfH / tan(half) * zoom.
        data.angle_y = 2.0 * math.atan(math.tan(half) / zoom)
        data.clip_start = max(1e-4, 0.01 * (distance - radius))
        data.clip_end = 2.0 * (distance + radius)
    else:
        ex = ey = 0.0
        for c in range(8):
            corner = [(0.5 if c & 1 else -0.5) * extent[0], (0.5 if c & 2 else -0.5) * extent[1],
                      (0.5 if c & 4 else -0.5) * extent[2]]
            ex = max(ex, abs(dot(corner, right)))
            ey = max(ey, abs(dot(corner, up)))
        scale = min(0.5 * width / max(ex, 1e-6), 0.5 * height / max(ey, 1e-6)) * zoom
        position = [c - f * 2.0 * radius for c, f in zip(centre, forward)]
        data.type = "ORTHO"
        # AUTO sensor fit: ortho_scale spans the frame's larger side.
        data.ortho_scale = max(width, height) / scale
        data.clip_start = 1e-3 * radius
        data.clip_end = 4.0 * radius
    obj = bpy.data.objects.new("plume-camera", data)
    scene.collection.objects.link(obj)
    # Blender's camera looks down its -Z with +Y up: columns right, up, -forward.
    r, u, b = to_blender(right), to_blender(up), to_blender(to_camera)
    rot = Matrix(((r.x, u.x, b.x), (r.y, u.y, b.y), (r.z, u.z, b.z)))
    obj.matrix_world = Matrix.Translation(to_blender(position)) @ rot.to_4x4()
    scene.camera = obj


def setup_sun(scene, a):
    light = a["light"]
    intensity = float(light.get("intensity", 1.0))
    if intensity <= 0.0:
        return
    data = bpy.data.lights.new("plume-sun", "SUN")
    data.angle = 0.0
    data.energy = 4.0 * math.pi * intensity  # irradiance: 4 pi lightIntensity (docstring)
    data.color = tuple(float(c) for c in light.get("color", (1.0, 1.0, 1.0)))
    data.cycles.cast_shadow = True
    data.cycles.max_bounces = 1024
    obj = bpy.data.objects.new("plume-sun", data)
    scene.collection.objects.link(obj)
    # The sun shines along its -Z: point its +Z towards the light.
    towards = to_blender(normalized([float(c) for c in light["direction"]]))
    obj.rotation_mode = "QUATERNION"
    obj.rotation_quaternion = towards.to_track_quat("Z", "Y")


def plume_blackbody(kelvin):
    """core/render/blackbody.cpp: Planck through the Wyman-Sloan-Shirley CIE fit, XYZ to
    linear sRGB (no chromatic adaptation), negatives clamped, largest channel 1."""
    def lobe(nm, peak, left, right):
        t = (nm - peak) * (left if nm < peak else right)
        return math.exp(-0.5 * t * t)

    c2 = 1.438776877e-2
    X = Y = Z = 0.0
    for nm in range(360, 831):
        lam = nm * 1e-9
        rad = 1.0 / (lam ** 5 * math.expm1(c2 / (lam * kelvin)))
        X += rad * (1.056 * lobe(nm, 599.8, 0.0264, 0.0323) + 0.362 * lobe(nm, 442.0, 0.0624, 0.0374)
                    - 0.065 * lobe(nm, 501.1, 0.0490, 0.0382))
        Y += rad * (0.821 * lobe(nm, 568.8, 0.0213, 0.0247) + 0.286 * lobe(nm, 530.9, 0.0613, 0.0322))
        Z += rad * (1.217 * lobe(nm, 437.0, 0.0845, 0.0278) + 0.681 * lobe(nm, 459.0, 0.0385, 0.0725))
    rgb = (3.2406 * X - 1.5372 * Y - 0.4986 * Z, -0.9689 * X + 1.8758 * Y + 0.0415 * Z,
           0.0557 * X - 0.2040 * Y + 1.0570 * Z)
    top = max(rgb)
    return tuple(max(c, 0.0) / top for c in rgb) if top > 0 else (1.0, 0.0, 0.0)


def math_node(nodes, links, op, a, b=None, clamp=False):
    n = nodes.new("ShaderNodeMath")
    n.operation = op
    n.use_clamp = clamp
    for i, v in enumerate((a, b)):
        if v is None:
            continue
        if isinstance(v, (int, float)):
            n.inputs[i].default_value = float(v)
        else:
            links.new(v, n.inputs[i])
    return n.outputs[0]


def build_material(a, has_cd):
    v = a["volume"]
    scale = float(v.get("densityScale", 20.0))
    mat = bpy.data.materials.new("plume-volume")
    mat.use_nodes = True
    mat.cycles.volume_sampling = "MULTIPLE_IMPORTANCE"
    mat.cycles.volume_interpolation = "LINEAR"
    mat.cycles.homogeneous_volume = False
    mat.cycles.volume_step_rate = 1.0
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    nodes.clear()
    out = nodes.new("ShaderNodeOutputMaterial")
    out.target = "CYCLES"
    pv = nodes.new("ShaderNodeVolumePrincipled")
    color = [float(c) for c in v.get("smokeColor", (0.9, 0.9, 0.9))]
    if has_cd:  # dye: Plume's albedo is Cd (clamped to 1)
        pv.inputs["Color Attribute"].default_value = "Cd"
        color = [1.0, 1.0, 1.0]
    pv.inputs["Color"].default_value = (*color, 1.0)
    pv.inputs["Density"].default_value = scale
    pv.inputs["Density Attribute"].default_value = "density"
    pv.inputs["Anisotropy"].default_value = float(v.get("anisotropy", 0.0))
    pv.inputs["Absorption Color"].default_value = (0.0, 0.0, 0.0, 1.0)
    pv.inputs["Emission Strength"].default_value = 0.0
    pv.inputs["Blackbody Intensity"].default_value = 0.0
    shader = pv.outputs["Volume"]

    intensity = float(v.get("emissionIntensity", 0.0))
    flame_intensity = float(v.get("flameIntensity", 0.0)) if v.get("flame") else 0.0
    if intensity > 0.0 or flame_intensity > 0.0:
        lo, hi = float(v.get("emissionMin", 0.5)), float(v.get("emissionMax", 6.0))
        temp = nodes.new("ShaderNodeAttribute")
        temp.attribute_type = "GEOMETRY"
        temp.attribute_name = "temperature"
        above = math_node(nodes, links, "SUBTRACT", temp.outputs["Fac"],
                          float(v.get("ambientTemperature", 0.0)) + lo)
        t = math_node(nodes, links, "DIVIDE", above, hi - lo, clamp=True)
        brightness = math_node(nodes, links, "MULTIPLY",
                               math_node(nodes, links, "MULTIPLY", t, t), intensity)
        if flame_intensity > 0.0:
            flame = nodes.new("ShaderNodeAttribute")
            flame.attribute_type = "GEOMETRY"
            flame.attribute_name = "flame"
            fl = math_node(nodes, links, "MAXIMUM", flame.outputs["Fac"], 0.0)
            brightness = math_node(nodes, links, "ADD", brightness,
                                   math_node(nodes, links, "MULTIPLY", fl, flame_intensity))
        em = nodes.new("ShaderNodeEmission")
        if a.get("blackbody", "plume") == "cycles":
            # Cycles' Blackbody node over its largest channel.
            kelvin = math_node(nodes, links, "MULTIPLY_ADD", t, 5500.0)
            kelvin.node.inputs[2].default_value = 1000.0
            bb = nodes.new("ShaderNodeBlackbody")
            links.new(kelvin, bb.inputs["Temperature"])
            sep = nodes.new("ShaderNodeSeparateColor")
            sep.mode = "RGB"
            links.new(bb.outputs["Color"], sep.inputs["Color"])
            top = math_node(nodes, links, "MAXIMUM",
                            math_node(nodes, links, "MAXIMUM", sep.outputs["Red"],
                                      sep.outputs["Green"]), sep.outputs["Blue"])
            inv = math_node(nodes, links, "DIVIDE", 1.0, top)
            norm = nodes.new("ShaderNodeVectorMath")
            norm.operation = "SCALE"
            links.new(bb.outputs["Color"], norm.inputs[0])
            links.new(inv, norm.inputs["Scale"])
            links.new(norm.outputs["Vector"], em.inputs["Color"])
        else:
            # Plume's own blackbody colours (core/render/blackbody.cpp) on a colour ramp over
            # t: 32 stops at (i / 31)^1.5, within 0.05 % in luminance of the exact curve.
            # Cycles' node differs from it by up to 2x in green below 1500 K (see the report).
            ramp = nodes.new("ShaderNodeValToRGB")
            ramp.color_ramp.interpolation = "LINEAR"
            ramp.color_ramp.color_mode = "RGB"
            elements = ramp.color_ramp.elements
            while len(elements) < 32:
                elements.new(0.5)
            for i, e in enumerate(elements):
                pos = (i / 31.0) ** 1.5
                e.position = pos
                e.color = (*plume_blackbody(1000.0 + 5500.0 * pos), 1.0)
            links.new(t, ramp.inputs["Fac"])
            links.new(ramp.outputs["Color"], em.inputs["Color"])
        # Radiance per unit length: 0.5 densityScale times the emission colour.
        strength = math_node(nodes, links, "MULTIPLY", brightness, 0.5 * scale)
        if not a.get("emission_scattering", True):
            # Cycles with 0 volume bounces still lets a scattered path pick up volume emission
            # (the glow scattered once: +23 % in a test slab of albedo 0.9, optical depth
            # 0.75). Plume's emissionScattering 0 has none: show emission to camera rays only.
            path = nodes.new("ShaderNodeLightPath")
            strength = math_node(nodes, links, "MULTIPLY", strength,
                                 path.outputs["Is Camera Ray"])
        links.new(strength, em.inputs["Strength"])
        add = nodes.new("ShaderNodeAddShader")
        links.new(shader, add.inputs[0])
        links.new(em.outputs["Emission"], add.inputs[1])
        shader = add.outputs["Shader"]
    links.new(shader, out.inputs["Volume"])
    return mat


def setup_volume(scene, a):
    vol = bpy.data.volumes.new("plume")
    vol.filepath = os.path.abspath(a["vdb"])
    vol.is_sequence = False
    vol.render.precision = "FULL"
    vol.render.clipping = 0.0
    vol.render.space = "OBJECT"
    vol.render.step_size = 0.0  # automatic: the voxel size times volume_step_rate
    if not vol.grids.load():
        sys.exit("cycles-render.py: cannot read %s: %s" % (a["vdb"], vol.grids.error_message))
    names = {g.name for g in vol.grids}
    if "density" not in names:
        sys.exit("cycles-render.py: %s has no density grid" % a["vdb"])
    a["volume"]["flame"] = bool(a["volume"].get("flame", True)) and "flame" in names
    obj = bpy.data.objects.new("plume-volume", vol)
    # Cycles (3.4) puts voxel (i, j, k)'s value at index (i, j, k) + 0.5, not at (i, j, k) as
    # OpenVDB (and so Plume's cell centres): measured with a box of voxels, it renders shifted
    # by +half a voxel along every axis. Moving the object back by half a voxel undoes that.
    shift = float(a.get("voxel_shift", -0.5)) * float(a["domain"]["cellSize"])
    obj.location = (shift, shift, shift)
    scene.collection.objects.link(obj)
    vol.materials.append(build_material(a, "Cd" in names))
    return sorted(names)


def main():
    a = read_args()
    clear_scene()
    scene = bpy.context.scene
    setup_render(scene, a)
    setup_camera(scene, a)
    setup_sun(scene, a)
    grids = setup_volume(scene, a)
    scene.render.filepath = os.path.abspath(a["output"])
    start = time.time()
    bpy.ops.render.render(write_still=True)
    print("cycles-render: %s (%s) %dx%d, %d samples, %d volume bounces: %.1f s"
          % (os.path.basename(a["output"]), ",".join(grids), scene.render.resolution_x,
             scene.render.resolution_y, scene.cycles.samples, scene.cycles.volume_bounces,
             time.time() - start), flush=True)


if __name__ == "__main__":
    main()
