# SPDX-License-Identifier: Apache-2.0
# Opens a Plume OpenVDB frame in Blender the way docs/using-exports.md says and checks what a
# Blender user would see. Run by tests/readers/run-check blender (ctest readers_blender):
#
#   blender -b --factory-startup --python-exit-code 1 --python blender_check.py -- \
#       FILE.vdb --up z|y --grids density,vel --domain X0,Y0,Z0,X1,Y1,Z1 --source X,Y,Z \
#       [--sequence] [--render OUT.png]
#
# --domain is the domain's box and --source the emitter's centre, both in Blender's world
# (already rotated for a Z-up file). Checks:
# - the import gives one volume object whose grids include --grids, with `vel` as its velocity
#   grid; with --sequence every .vdb file in FILE's folder is imported at once, as
#   docs/using-exports.md says: one object playing them as a sequence from scene frame 1, and
#   the checks below look at the scene frame that shows FILE;
# - its bounding box is tallest along the plume's rising axis: Blender's Z for a Z-up file
#   (upright), Blender's Y for a Y-up file (lying on its side), and lies inside the domain;
# - not mirrored: the smoke's box centre is on the source's side of the domain's centre on
#   both horizontal axes;
# - with --render, a small Cycles image from the front (looking along +Y, Z up): smoke covers
#   part of the frame, its silhouette is taller than wide, there is more smoke on the
#   source's side of the domain's middle (left or right in the front view) than on the other,
#   and it has the dye's colour (the Cd grid as the Color Attribute: orange, red > blue).
# Prints "blender_check: FAIL: ..." and exits 1 on the first failed check.
import math
import os
import sys

import bpy
from mathutils import Vector


def fail(message):
    print("blender_check: FAIL: " + message, flush=True)
    sys.exit(1)


def info(message):
    print("blender_check: " + message, flush=True)


def numbers(text, count):
    values = [float(v) for v in text.split(",")]
    if len(values) != count:
        fail("expected %d numbers, got '%s'" % (count, text))
    return values


def parse_arguments():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    options = {"up": "z", "grids": "density", "render": None, "sequence": False}
    path = None
    i = 0
    while i < len(argv):
        if argv[i] == "--sequence":
            options["sequence"] = True
            i += 1
        elif argv[i].startswith("--") and i + 1 < len(argv):
            options[argv[i][2:]] = argv[i + 1]
            i += 2
        else:
            path = argv[i]
            i += 1
    if path is None or "domain" not in options or "source" not in options:
        fail("usage: FILE.vdb --up z|y --grids a,b --domain box --source point [--render png]")
    options["domain"] = numbers(options["domain"], 6)
    options["source"] = numbers(options["source"], 3)
    return os.path.abspath(path), options


def import_volume(path, sequence):
    for ob in list(bpy.data.objects):
        bpy.data.objects.remove(ob)
    folder, name = os.path.split(path)
    names = sorted(f for f in os.listdir(folder) if f.endswith(".vdb")) if sequence else [name]
    result = bpy.ops.object.volume_import(filepath=os.path.join(folder, names[0]),
                                          directory=folder, files=[{"name": f} for f in names])
    volumes = [ob for ob in bpy.data.objects if ob.type == "VOLUME"]
    if result != {"FINISHED"} or len(volumes) != 1:
        fail("importing %s gave %s and %d volume objects" % (path, result, len(volumes)))
    ob = volumes[0]
    ob.data.grids.load()
    if ob.data.grids.error_message:
        fail("Blender cannot read the grids: " + ob.data.grids.error_message)
    if sequence:
        data = ob.data
        if not data.is_sequence or data.frame_duration != len(names):
            fail("%d files did not become a sequence of %d frames (sequence %s, %d frames)"
                 % (len(names), len(names), data.is_sequence, data.frame_duration))
        info("%d files import as one sequence (start %d, offset %d)"
             % (len(names), data.frame_start, data.frame_offset))
    return ob


def show_file(ob, path):
    """Goes to the scene frame that shows `path` (Blender plays file N at frame N - offset)."""
    number = int(os.path.basename(path).split(".")[-2])
    frame = ob.data.frame_start + number - 1 - ob.data.frame_offset
    bpy.context.scene.frame_set(frame)
    shown = ob.evaluated_get(bpy.context.evaluated_depsgraph_get())
    shown.data.grids.load()
    if os.path.basename(shown.data.grids.frame_filepath) != os.path.basename(path):
        fail("scene frame %d shows %s, not %s" % (frame, shown.data.grids.frame_filepath, path))
    info("scene frame %d shows %s" % (frame, os.path.basename(path)))
    return shown


def world_box(ob):
    corners = [ob.matrix_world @ Vector(c) for c in ob.bound_box]
    low = Vector([min(c[a] for c in corners) for a in range(3)])
    high = Vector([max(c[a] for c in corners) for a in range(3)])
    return low, high


def check_box(ob, options):
    low, high = world_box(ob)
    size = high - low
    info("bounding box %s .. %s, size x %.3f, y %.3f, z %.3f"
         % (tuple(round(v, 3) for v in low), tuple(round(v, 3) for v in high), *size))
    rising = 2 if options["up"] == "z" else 1
    axis = "xyz"[rising]
    tallest = max(range(3), key=lambda a: size[a])
    if tallest != rising:
        fail("the plume should rise along Blender's %s, but its box is largest along %s"
             % (axis, "xyz"[tallest]))
    others = [size[a] for a in range(3) if a != rising]
    if size[rising] < 1.3 * max(others):
        fail("the box is not clearly taller along %s: %s" % (axis, tuple(size)))
    info("tallest along Blender's %s: %s" % (axis, "upright" if axis == "z" else "on its side"))
    d = options["domain"]
    # Blender's box is the grids' voxel bounds, up to a voxel beyond the voxel centres.
    margin = 0.05 * max(d[3] - d[0], d[4] - d[1], d[5] - d[2])
    for a in range(3):
        if low[a] < d[a] - margin or high[a] > d[a + 3] + margin:
            fail("the box leaves the domain along %s" % "xyz"[a])
    centre = (low + high) / 2
    source = options["source"]
    for a in range(3):
        if a == rising:
            continue
        middle = (d[a] + d[a + 3]) / 2
        if (centre[a] - middle) * (source[a] - middle) <= 0:
            fail("mirrored along %s: the smoke's centre %.3f and the source %.3f are on "
                 "different sides of the domain's middle %.3f" % ("xyz"[a], centre[a],
                                                                 source[a], middle))
    info("on the source's side of the domain on both horizontal axes (not mirrored)")
    return low, high


def check_grids(ob, options):
    names = [g.name for g in ob.data.grids]
    info("grids: " + ", ".join("%s (%s)" % (g.name, g.data_type) for g in ob.data.grids))
    for wanted in options["grids"].split(","):
        if wanted not in names:
            fail("grid '%s' missing; Blender sees %s" % (wanted, names))
    # Motion blur: Blender picks `vel` as the velocity grid by itself (its unit stays per frame
    # unless the user sets "Second", as docs/using-exports.md says).
    if "vel" in names:
        if ob.data.velocity_grid != "vel":
            fail("Blender's velocity grid is '%s', not vel" % ob.data.velocity_grid)
        info("velocity grid for motion blur: vel")


def smoke_material(ob):
    material = bpy.data.materials.new("plume smoke")
    material.use_nodes = True
    nodes = material.node_tree.nodes
    nodes.clear()
    volume = nodes.new("ShaderNodeVolumePrincipled")
    volume.inputs["Density"].default_value = 20.0
    volume.inputs["Color Attribute"].default_value = "Cd"  # the dye, as docs/using-exports.md
    output = nodes.new("ShaderNodeOutputMaterial")
    material.node_tree.links.new(volume.outputs["Volume"], output.inputs["Volume"])
    ob.data.materials.append(material)


def render(ob, low, high, path):
    scene = bpy.context.scene
    smoke_material(ob)
    centre = (low + high) / 2
    size = high - low
    camera_data = bpy.data.cameras.new("front")
    camera_data.type = "ORTHO"
    camera_data.ortho_scale = 1.25 * max(size.x, size.z)
    camera = bpy.data.objects.new("front", camera_data)
    camera.location = (centre.x, low.y - 2.0 * size.y - 1.0, centre.z)
    camera.rotation_euler = (math.pi / 2, 0.0, 0.0)  # looks along +Y with Z up: the front view
    scene.collection.objects.link(camera)
    scene.camera = camera
    sun_data = bpy.data.lights.new("sun", "SUN")
    sun_data.energy = 3.0
    sun = bpy.data.objects.new("sun", sun_data)
    sun.rotation_euler = (math.radians(50), 0.0, math.radians(-30))
    scene.collection.objects.link(sun)
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = 16
    scene.cycles.use_denoising = False  # Debian's Blender has no denoiser
    scene.render.threads_mode = "FIXED"
    scene.render.threads = 2
    scene.render.film_transparent = True
    scene.render.resolution_x = 96
    scene.render.resolution_y = 96
    scene.render.resolution_percentage = 100
    scene.render.image_settings.file_format = "PNG"
    scene.render.image_settings.color_mode = "RGBA"
    scene.render.filepath = path
    bpy.ops.render.render(write_still=True)
    if not os.path.exists(path):
        fail("Cycles wrote no image to " + path)
    info("rendered " + path)
    # Where the domain's middle (x) and the source fall in the image's columns.
    column = lambda x: (x - (centre.x - camera_data.ortho_scale / 2)) / camera_data.ortho_scale
    return column


def check_image(path, column, options):
    image = bpy.data.images.load(path)
    w, h = image.size
    pixels = list(image.pixels)
    alpha = [[pixels[4 * (y * w + x) + 3] for x in range(w)] for y in range(h)]  # y up
    covered = [(x, y) for y in range(h) for x in range(w) if alpha[y][x] > 0.1]
    fraction = len(covered) / float(w * h)
    info("smoke covers %.1f%% of the image" % (100 * fraction))
    if fraction < 0.02 or fraction > 0.9:
        fail("the render shows no plume (%.1f%% of the pixels have smoke)" % (100 * fraction))
    xs = [p[0] for p in covered]
    ys = [p[1] for p in covered]
    width, height = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    info("smoke silhouette %d x %d pixels" % (width, height))
    if height < 1.3 * width:
        fail("the rendered plume is not upright: %d wide, %d tall" % (width, height))
    d = options["domain"]
    middle = column((d[0] + d[3]) / 2) * w
    source_left = column(options["source"][0]) * w < middle
    left = sum(alpha[y][x] for (x, y) in covered if x < middle)
    right = sum(alpha[y][x] for (x, y) in covered if x >= middle)
    info("opacity left of the domain's middle %.1f, right %.1f (source on the %s)"
         % (left, right, "left" if source_left else "right"))
    if (left > right) != source_left:
        fail("there should be more smoke on the source's side")
    red = sum(pixels[4 * (y * w + x)] for (x, y) in covered)
    blue = sum(pixels[4 * (y * w + x) + 2] for (x, y) in covered)
    info("smoke colour: red %.1f, blue %.1f" % (red, blue))
    if not red > 1.5 * blue:
        fail("the smoke does not have the dye's orange colour (Cd)")


def main():
    path, options = parse_arguments()
    ob = import_volume(path, options["sequence"])
    shown = show_file(ob, path) if options["sequence"] else ob
    check_grids(shown, options)
    low, high = check_box(shown, options)
    if options["render"]:
        column = render(ob, low, high, os.path.abspath(options["render"]))
        check_image(os.path.abspath(options["render"]), column, options)
    info("PASS " + os.path.basename(path))


main()
