/**
 * Test packages written from scratch (never from corpus bytes): a texture package (`.utx`) with
 * P8 + Palette, RGBA8 and DXT1 textures in groups, and a code package with an Unreal 1 `Mesh`
 * whose skin slots and class `Skin` default name textures of other packages.
 */
import { encodeCompactIndex } from '../src/index.js';
import { buildPackage, cat, i32, type TestExport, type TestImport } from './package-builder.js';

/** One texture of a test `.utx`: mip 0 only, as stored (P8 indices, RGBA8 as BGRA, DXT1 blocks). */
export interface TestTexture {
  name: string;
  group: string;
  format: 'P8' | 'RGBA8' | 'DXT1';
  width: number;
  height: number;
  data: Uint8Array;
  /** P8: 256 RGBA colours. */
  palette?: Uint8Array;
  masked?: boolean;
}

const FORMAT_ID = { P8: 0, DXT1: 3, RGBA8: 5 } as const;

const f32 = (v: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, v, true);
  return b;
};
const ci = encodeCompactIndex;

/** A name table that hands out indices as names are asked for. */
class Names {
  readonly list = ['None'];
  of(name: string): number {
    const i = this.list.findIndex((n) => n.toLowerCase() === name.toLowerCase());
    if (i >= 0) return i;
    this.list.push(name);
    return this.list.length - 1;
  }
}

/** Imports `Core.Package`, `Engine.Texture`, `Engine.Palette` (and more classes on request). */
function engineImports(names: Names, classes: string[]): { imports: TestImport[]; cls: Map<string, number> } {
  const imports: TestImport[] = [
    { classPackage: names.of('Core'), className: names.of('Package'), outer: 0, name: names.of('Core') }, // -1
    { classPackage: names.of('Core'), className: names.of('Package'), outer: 0, name: names.of('Engine') }, // -2
    { classPackage: names.of('Core'), className: names.of('Class'), outer: -1, name: names.of('Package') }, // -3
  ];
  const cls = new Map<string, number>([['Package', -3]]);
  for (const c of classes) {
    imports.push({
      classPackage: names.of('Core'),
      className: names.of('Class'),
      outer: -2,
      name: names.of(c),
    });
    cls.set(c, -imports.length);
  }
  return { imports, cls };
}

/**
 * A `.utx` of `textures` (each in its group package, each P8 with its own `Palette` export).
 *
 * ```ts
 * const utx = buildTexturePackage([{ name: 'Red', group: 'Skins', format: 'RGBA8', width: 4, height: 4, data }]);
 * ```
 */
export function buildTexturePackage(textures: TestTexture[]): Uint8Array {
  const names = new Names();
  const { imports, cls } = engineImports(names, ['Texture', 'Palette']);
  const exports: TestExport[] = [];
  const groups = new Map<string, number>();
  for (const t of textures) {
    if (!groups.has(t.group.toLowerCase())) {
      exports.push({ classRef: cls.get('Package')!, name: names.of(t.group), data: Uint8Array.from([0]) });
      groups.set(t.group.toLowerCase(), exports.length);
    }
  }
  for (const t of textures) {
    const outer = groups.get(t.group.toLowerCase())!;
    let paletteRef = 0;
    if (t.format === 'P8') {
      const pal = t.palette ?? new Uint8Array(1024);
      exports.push({
        classRef: cls.get('Palette')!,
        name: names.of(`${t.name}Pal`),
        outer,
        data: cat([ci(names.of('None')), ci(256), pal]),
      });
      paletteRef = exports.length;
    }
    const props = cat([
      ci(names.of('Format')),
      [0x01],
      [FORMAT_ID[t.format]],
      ...(paletteRef ? [ci(names.of('Palette')), [0x55], [ci(paletteRef).length], ci(paletteRef)] : []),
      ...(t.masked ? [ci(names.of('bMasked')), [0x83]] : []),
      ci(names.of('None')),
    ]);
    const bits = (n: number) => Math.round(Math.log2(n));
    exports.push({
      classRef: cls.get('Texture')!,
      name: names.of(t.name),
      outer,
      data: (offset: number) => {
        // mips: one level; its lazy array holds the absolute offset of the byte after the data
        const head = cat([props, ci(1)]);
        const count = ci(t.data.length);
        const after = offset + head.length + 4 + count.length + t.data.length;
        return cat([
          head,
          i32(after),
          count,
          t.data,
          i32(t.width),
          i32(t.height),
          [bits(t.width), bits(t.height)],
        ]);
      },
    });
  }
  return buildPackage({ names: names.list, imports, exports });
}

/** A slot or class default naming a texture of another package: `Pkg.Group.Name`. */
export interface TestTextureRef {
  pkg: string;
  group: string;
  name: string;
}

/**
 * A code package with one Unreal 1 `Mesh` (`name`: a tetrahedron, one frame, triangles on skin
 * slot 0 and 1), its `Textures[n]` naming `slots[n]` (other packages' textures), and a class
 * `Visuals` whose defaults set `Mesh` and, when given, `Skin`.
 *
 * ```ts
 * const u = buildMeshPackage('Tetra', [{ pkg: 'MySkins', group: 'Skins', name: 'Red' }]);
 * ```
 */
export function buildMeshPackage(
  name: string,
  slots: (TestTextureRef | undefined)[],
  skin?: TestTextureRef,
): Uint8Array {
  const names = new Names();
  const { imports, cls } = engineImports(names, ['Mesh', 'Texture']);
  const refOf = (t: TestTextureRef): number => {
    let pkg = imports.findIndex(
      (i) => i.outer === 0 && names.list[i.name].toLowerCase() === t.pkg.toLowerCase(),
    );
    if (pkg < 0) {
      imports.push({
        classPackage: names.of('Core'),
        className: names.of('Package'),
        outer: 0,
        name: names.of(t.pkg),
      });
      pkg = imports.length - 1;
    }
    imports.push({
      classPackage: names.of('Core'),
      className: names.of('Package'),
      outer: -pkg - 1,
      name: names.of(t.group),
    });
    const group = -imports.length;
    imports.push({
      classPackage: names.of('Engine'),
      className: names.of('Texture'),
      outer: group,
      name: names.of(t.name),
    });
    return -imports.length;
  };
  const slotRefs = slots.map((t) => (t ? refOf(t) : 0));
  const skinRef = skin ? refOf(skin) : 0;
  // a tetrahedron in the packed 11/11/10-bit frame words
  const pack = (x: number, y: number, z: number) =>
    ((x & 0x7ff) | ((y & 0x7ff) << 11) | ((z & 0x3ff) << 22)) >>> 0;
  const corners = [pack(0, 0, 0), pack(100, 0, 0), pack(0, 100, 0), pack(0, 0, 100)];
  const verts = cat(corners.map((w) => i32(w | 0)));
  const tris: [number, number, number, number][] = [
    [0, 2, 1, 0],
    [0, 1, 3, 0],
    [0, 3, 2, 1],
    [1, 2, 3, 1],
  ];
  const triBytes = cat(
    tris.flatMap(([a, b, c, tex]) => [
      Uint8Array.from([a, 0, b, 0, c, 0]),
      Uint8Array.from([0, 0, 255, 0, 0, 255]),
      i32(0),
      i32(tex),
    ]),
  );
  const box = new Uint8Array(25);
  const sphere = new Uint8Array(16);
  const mesh = (offset: number) => {
    const props = ci(names.of('None'));
    const parts: Uint8Array[] = [props, box, sphere];
    const lazy = (count: number, bytes: Uint8Array) => {
      const at = offset + parts.reduce((n, p) => n + p.length, 0);
      const c = ci(count);
      parts.push(i32(at + 4 + c.length + bytes.length), c, bytes);
    };
    lazy(corners.length, verts);
    lazy(tris.length, triBytes);
    parts.push(ci(0)); // animSeqs
    lazy(0, new Uint8Array(0)); // connects
    parts.push(box, sphere);
    lazy(0, new Uint8Array(0)); // vertLinks
    parts.push(ci(slotRefs.length), ...slotRefs.map((r) => ci(r)));
    parts.push(ci(0), ci(0)); // bounding boxes, spheres
    parts.push(i32(corners.length), i32(1), i32(0), i32(0)); // frameVerts, animFrames, and/or flags
    parts.push(f32(1), f32(1), f32(1), f32(0), f32(0), f32(0), i32(0), i32(0), i32(0)); // scale, origin, rot
    parts.push(i32(0), i32(0), ci(0)); // curPoly, curVertex, textureLOD
    return cat(parts);
  };
  const exports: TestExport[] = [{ classRef: cls.get('Mesh')!, name: names.of(name), data: mesh }];
  // class defaults: Mesh=<mesh>, Skin=<ref>; a Class export's data ends with its defaults
  const defaults = cat([
    ci(names.of('Mesh')),
    [0x55, ci(1).length],
    ci(1),
    ...(skinRef ? [ci(names.of('Skin')), [0x55, ci(skinRef).length], ci(skinRef)] : []),
    ci(names.of('None')),
  ]);
  exports.push({ classRef: 0, name: names.of('Visuals'), data: defaults });
  return buildPackage({ names: names.list, imports, exports });
}

/** 8×8 P8: index (x + y) % 4, palette 0 black/transparent when masked, 1 red, 2 green, 3 blue. */
export function p8Texture(name: string, masked: boolean): TestTexture {
  const palette = new Uint8Array(1024);
  palette.set([10, 20, 30, 255, 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255]);
  const data = new Uint8Array(64);
  for (let i = 0; i < 64; i++) data[i] = ((i % 8) + (i >> 3)) % 4;
  return { name, group: 'Skins', format: 'P8', width: 8, height: 8, data, palette, masked };
}

/** 4×4 RGBA8, stored BGRA: pixel i = (i·16, 255 − i·16, 7, 200). */
export function rgba8Texture(name: string): TestTexture {
  const data = new Uint8Array(64);
  for (let i = 0; i < 16; i++) data.set([7, 255 - i * 16, i * 16, 200], 4 * i);
  return { name, group: 'Skins', format: 'RGBA8', width: 4, height: 4, data };
}

/** 4×4 DXT1, one block: colour 0 red, colour 1 blue; row 1 blue, the others red. */
export function dxt1Texture(name: string): TestTexture {
  return {
    name,
    group: 'Other',
    format: 'DXT1',
    width: 4,
    height: 4,
    data: Uint8Array.from([0x00, 0xf8, 0x1f, 0x00, 0x00, 0x55, 0x00, 0x00]),
  };
}
