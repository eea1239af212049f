/**
 * Triangles of the native path: the `_d.3d` poly table in the file's original order (the runs
 * kept in extras interleave the primitives' triangles and the weapon triangles as they were),
 * corners and byte UVs from the glTF primitives, type / texture / flags / colour from their
 * extras, and the header fields the engine ignores.
 */
import type { Primitive } from '@gltf-transform/core';
import { accessorFloats, getKeptBytes } from '@gltf-legacy/core';
import { encodeByteUV } from '@gltf-legacy/quantize';
import { createDataHeader, createPolys, isWeaponType, type UnrealData } from '../data.js';
import { type UnrealMeshExtras, VERTEX_ATTRIBUTE } from '../extras.js';
import { fromB64 } from './common.js';

/** Extras of a native primitive (`primitive.extras.unreal3d`). */
export interface NativePrimExtras {
  textureNum?: number;
  type?: number;
  flags?: number;
  color?: number;
  colors?: ArrayLike<number>;
}

/** The written `_d.3d`, and per primitive its extras and how many rendered triangles it drew. */
export interface NativeTriangles {
  data: UnrealData;
  /** Rendered triangles written per primitive: only those give a texture slot a material. */
  drawn: Int32Array;
  primExtras: NativePrimExtras[];
}

/**
 * The `_d.3d` of a native document.
 *
 * ```ts
 * const { data, drawn } = nativeTriangles(mesh.listPrimitives(), extras);
 * ```
 */
export function nativeTriangles(
  prims: Primitive[],
  E: UnrealMeshExtras,
  trailing?: Uint8Array,
): NativeTriangles {
  const nv = E.numVertices;
  // Triangles in the original order.
  const outOfRange = E.outOfRange ?? [];
  let total = E.weapons.length + outOfRange.length;
  for (const p of prims) total += (p.getIndices()?.getCount() ?? 0) / 3;
  const polys = createPolys(total);
  const cursors = new Int32Array(prims.length);
  // Rendered triangles written per primitive: only those give a texture slot a material (the
  // importer makes none for a slot that draws nothing, so its skin would not come back).
  const drawn = new Int32Array(prims.length);
  const primData = prims.map((p) => {
    const ex = ((
      p.getExtras() as {
        unreal3d?: { textureNum?: number; type?: number; flags?: number; color?: number; colors?: number[] };
      }
    ).unreal3d ?? {}) as {
      textureNum?: number;
      type?: number;
      flags?: number;
      color?: number;
      colors?: ArrayLike<number>;
    };
    // per-triangle colours: kept bytes `colors` (files written before kept bytes: a JSON array)
    const keptColors = getKeptBytes(p, 'colors');
    if (keptColors && !Array.isArray(ex.colors)) ex.colors = keptColors;
    return {
      idx: accessorFloats(p.getIndices() as NonNullable<ReturnType<Primitive['getIndices']>>),
      orig: accessorFloats(
        p.getAttribute(VERTEX_ATTRIBUTE) as NonNullable<ReturnType<Primitive['getAttribute']>>,
      ),
      uv: p.getAttribute('TEXCOORD_0')
        ? accessorFloats(p.getAttribute('TEXCOORD_0') as NonNullable<ReturnType<Primitive['getAttribute']>>)
        : null,
      ex,
    };
  });
  let t = 0;
  let weaponAt = 0;
  const emit = (g: number) => {
    const pd = primData[g];
    const k = cursors[g]++;
    if (k * 3 + 2 >= pd.idx.length) return false;
    const corners = [pd.idx[k * 3], pd.idx[k * 3 + 2], pd.idx[k * 3 + 1]]; // undo the winding swap
    for (let c = 0; c < 3; c++) {
      const gv = corners[c];
      polys.vertices[t * 3 + c] = pd.orig[gv];
      polys.uvs[t * 6 + c * 2] = pd.uv ? encodeByteUV(pd.uv[gv * 2]) : 0;
      polys.uvs[t * 6 + c * 2 + 1] = pd.uv ? encodeByteUV(pd.uv[gv * 2 + 1]) : 0;
    }
    polys.types[t] = pd.ex.type ?? 0;
    if (!isWeaponType(polys.types[t])) drawn[g]++;
    polys.textures[t] = pd.ex.textureNum ?? 0;
    polys.flags[t] = pd.ex.flags ?? 0;
    polys.colors[t] = pd.ex.colors ? (pd.ex.colors[k] ?? 0) : (pd.ex.color ?? 0);
    t++;
    return true;
  };
  let pastAt = 0;
  // Weapon triangles and those naming vertex numVertices (kept raw in extras) go back as they were.
  const emitRaw = (w: UnrealMeshExtras['weapons'][number] | undefined) => {
    if (!w) return;
    polys.vertices.set(w.vertices, t * 3);
    polys.uvs.set(w.uvs, t * 6);
    polys.types[t] = w.type;
    polys.colors[t] = w.color;
    polys.textures[t] = w.texture;
    polys.flags[t] = w.flags;
    t++;
  };
  const emitWeapon = () => emitRaw(E.weapons[weaponAt++]);
  const emitPastEnd = () => emitRaw(outOfRange[pastAt++]);
  for (let r = 0; r + 1 < E.runs.length; r += 2) {
    const g = E.runs[r];
    for (let k = 0; k < E.runs[r + 1]; k++) {
      if (g === -2) emitPastEnd();
      else if (g < 0) emitWeapon();
      else if (g < prims.length) emit(g);
    }
  }
  for (let g = 0; g < prims.length; g++) while (cursors[g] * 3 < primData[g].idx.length && emit(g));
  while (weaponAt < E.weapons.length) emitWeapon();
  while (pastAt < outOfRange.length) emitPastEnd();

  const header = createDataHeader(E.numPolys ?? t, nv);
  if (E.header) {
    header.bogusRot = E.header.bogusRot;
    header.bogusFrame = E.header.bogusFrame;
    header.bogusNorm = [E.header.bogusNorm[0], E.header.bogusNorm[1], E.header.bogusNorm[2]];
    header.fixScale = E.header.fixScale;
    header.unused = [E.header.unused[0], E.header.unused[1], E.header.unused[2]];
    header.padding = new Uint8Array(E.header.padding);
  }
  const data: UnrealData = { header, polys: sliceP(polys, t), trailing: trailing ?? fromB64(E.dataTrailing) };
  return { data, drawn, primExtras: primData.map((p) => p.ex) };
}

function sliceP(p: ReturnType<typeof createPolys>, n: number): ReturnType<typeof createPolys> {
  if (p.types.length === n) return p;
  return {
    vertices: p.vertices.slice(0, n * 3),
    types: p.types.slice(0, n),
    colors: p.colors.slice(0, n),
    uvs: p.uvs.slice(0, n * 6),
    textures: p.textures.slice(0, n),
    flags: p.flags.slice(0, n),
  };
}
