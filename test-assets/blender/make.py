# Makes test-assets/blender/crate_blender.glb with Blender's own glTF exporter (issue 29):
#   blender -b --factory-startup --python test-assets/blender/make.py -- scratch/crate.glb test-assets/blender/crate_blender.glb
# The input is our CLI's output for test-assets/grimrock/crate_mod (see README.md): its geometry is
# kept, its materials are replaced by one Principled BSDF whose base colour is a procedural 64x64
# texture (below), so nothing of the file comes from a game.
import sys

import bpy
import numpy

# Debian's Blender 3.4.1 glTF add-on still uses `numpy.bool`, which numpy 1.24 (Debian 12's
# python3-numpy) removed: give the alias back so the add-on runs unchanged.
if not hasattr(numpy, 'bool'):
    numpy.bool = bool

args = sys.argv[sys.argv.index('--') + 1 :]
src, dst = args[0], args[1]

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)

# 16 colours, each exactly representable in RGB565 (R and B: 5 bits widened by bit replication,
# G: 6 bits), in 8x8-pixel cells: every 4x4 block holds one colour, so a BC1 (DXT1) encoder can hit
# it exactly, and 16 colours fit an 8-bit palette (PCX).
def widen5(q):
    return (q << 3) | (q >> 2)


def widen6(q):
    return (q << 2) | (q >> 4)


PALETTE = [
    (widen5(r), widen6(g), widen5(b))
    for (r, g, b) in [
        (31, 0, 0), (0, 63, 0), (0, 0, 31), (31, 63, 0),
        (0, 63, 31), (31, 0, 31), (31, 63, 31), (4, 8, 4),
        (20, 40, 10), (10, 20, 25), (25, 12, 6), (6, 50, 18),
        (16, 32, 16), (28, 44, 2), (2, 14, 28), (22, 6, 14),
    ]
]
SIZE = 64


def colour(x, y):
    # x to the right, y down from the top row (as PNG stores it); asymmetric so a flip shows
    cx, cy = x // 8, y // 8
    return PALETTE[(cx * 3 + cy * 5 + (cx * cy) % 3) % 16]


img = bpy.data.images.new('crate_paint', SIZE, SIZE, alpha=False)
px = []
for row in range(SIZE):  # Blender's rows go bottom-up
    y = SIZE - 1 - row
    for x in range(SIZE):
        r, g, b = colour(x, y)
        px += [r / 255, g / 255, b / 255, 1.0]
img.pixels = px
img.file_format = 'PNG'
img.pack()

mat = bpy.data.materials.new('crate_paint')
mat.use_nodes = True
nodes = mat.node_tree.nodes
bsdf = nodes['Principled BSDF']
tex = nodes.new('ShaderNodeTexImage')
tex.image = img
tex.interpolation = 'Closest'
mat.node_tree.links.new(tex.outputs['Color'], bsdf.inputs['Base Color'])
bsdf.inputs['Roughness'].default_value = 0.8
bsdf.inputs['Metallic'].default_value = 0.0

for obj in bpy.data.objects:
    if obj.type == 'MESH':
        obj.data.materials.clear()
        obj.data.materials.append(mat)

bpy.ops.export_scene.gltf(filepath=dst, export_format='GLB', export_image_format='AUTO')
print('wrote', dst)
