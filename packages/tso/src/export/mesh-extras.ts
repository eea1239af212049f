import type { Mesh, Primitive } from '@gltf-transform/core';
import { BLEND_ATTRIBUTES, type MeshExtras, RAW_POSITION_ATTRIBUTE } from '../extras.js';
import { keptRun, keptWords, wordFloats } from '../kept.js';
import type { TsoBinding, TsoMesh } from '../mesh.js';
import { bitsToFloats } from '../space.js';

import { type BoneInfo, num } from './common.js';
import type { Verts } from './geometry.js';

interface RawBlend {
  blendData: Uint32Array;
  blendVertices: Float32Array;
  realPositions: Float32Array;
}

/**
 * Blend records kept as bytes (`blend`: u32 words, data ‖ vertices ‖ real positions), or none
 * when `count` is 0; null when they do not describe `count` records.
 */
function blendFromKept(mesh: Mesh | undefined, count: unknown): RawBlend | null {
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) return null;
  if (count === 0)
    return {
      blendData: new Uint32Array(0),
      blendVertices: new Float32Array(0),
      realPositions: new Float32Array(0),
    };
  const words = keptWords(mesh, 'blend', 11);
  if (!words || words.length !== count * 11) return null;
  return {
    blendData: words.slice(0, count * 2),
    blendVertices: wordFloats(words.subarray(count * 2, count * 8)),
    realPositions: wordFloats(words.subarray(count * 8)),
  };
}

/** Blend records kept as JSON arrays (float32 bit patterns) in extras: files written before kept bytes. */
function blendFromJson(b: { data?: unknown; vertices?: unknown; realPositions?: unknown }): RawBlend | null {
  if (!Array.isArray(b.data) || !Array.isArray(b.vertices) || !Array.isArray(b.realPositions)) return null;
  const blendData = Uint32Array.from(b.data);
  const count = blendData.length / 2;
  if (b.vertices.length !== count * 6 || b.realPositions.length !== count * 3) return null;
  return { blendData, blendVertices: bitsToFloats(b.vertices), realPositions: bitsToFloats(b.realPositions) };
}

/**
 * Blend records kept as `_TSO_BLEND*` vertex attributes (import's `blendAttributes`): null when
 * they no longer describe `count` records, each on its own vertex, numbered 1…count.
 */
function blendFromAttributes(prim: Primitive, n: number, count: unknown): RawBlend | null {
  if (typeof count !== 'number' || !Number.isInteger(count) || count <= 0 || count > n) return null;
  const get = (name: string, size: number) => {
    const a = prim.getAttribute(name);
    const arr = a?.getArray();
    return arr instanceof Float32Array && !a!.getNormalized() && arr.length === n * size ? arr : null;
  };
  const record = get(BLEND_ATTRIBUTES.record, 2);
  const position = get(BLEND_ATTRIBUTES.position, 3);
  const normal = get(BLEND_ATTRIBUTES.normal, 3);
  const real = get(BLEND_ATTRIBUTES.realPosition, 3);
  if (!record || !position || !normal || !real) return null;
  const blendData = new Uint32Array(count * 2);
  const blendVertices = new Float32Array(count * 6);
  const realPositions = new Float32Array(count * 3);
  const seen = new Uint8Array(count);
  let found = 0;
  for (let v = 0; v < n; v++) {
    const r = record[v * 2];
    if (r === 0) continue;
    const weight = record[v * 2 + 1];
    const j = r - 1;
    if (!Number.isInteger(j) || j < 0 || j >= count || seen[j] || !Number.isInteger(weight) || weight < 0)
      return null;
    seen[j] = 1;
    found++;
    blendData[j * 2] = weight;
    blendData[j * 2 + 1] = v;
    for (let c = 0; c < 3; c++) {
      blendVertices[j * 6 + c] = position[v * 3 + c];
      blendVertices[j * 6 + 3 + c] = normal[v * 3 + c];
      realPositions[j * 3 + c] = real[v * 3 + c];
    }
  }
  return found === count ? { blendData, blendVertices, realPositions } : null;
}

/**
 * Rebuilds the mesh exactly from extras.tso (and the bytes kept on `mesh`) when they still
 * describe these vertices.
 */
export function restoreFromExtras(
  x: MeshExtras,
  mesh: Mesh | undefined,
  prim: Primitive,
  vs: Verts,
  bones: BoneInfo[],
  rawNormals?: Float32Array,
): TsoMesh | null {
  if (!x || !Array.isArray(x.boneNames) || !Array.isArray(x.bindings) || !x.blend) return null;
  const n = vs.count;
  const blend =
    x.blend.attributes === true
      ? blendFromAttributes(prim, n, x.blend.count)
      : 'data' in x.blend
        ? blendFromJson(x.blend)
        : blendFromKept(mesh, x.blend.count);
  if (!blend) return null;
  const { blendData, blendVertices, realPositions } = blend;
  const bindings: TsoBinding[] = x.bindings.map((b) => ({
    boneIndex: b[0],
    firstRealVertex: b[1],
    realVertexCount: b[2],
    firstBlendVertex: b[3],
    blendVertexCount: b[4],
  }));
  const blendCount = blendData.length / 2;
  // Every real vertex's bone must still be the bone its binding names.
  const names = x.boneNames.map((s) => String(s).toLowerCase());
  const boneNames = bones.map((b) => b.name.toLowerCase());
  let covered = 0;
  for (const b of bindings) {
    const name = names[b.boneIndex];
    if (name === undefined || b.firstRealVertex + b.realVertexCount > n) return null;
    for (let k = 0; k < b.realVertexCount; k++) {
      if (boneNames[vs.bone[b.firstRealVertex + k]] !== name) return null;
    }
    covered += b.realVertexCount;
  }
  if (covered !== n) return null;
  for (let j = 0; j < blendCount; j++) if (blendData[j * 2 + 1] >= n) return null;
  if (rawNormals && rawNormals.length !== n * 3) rawNormals = undefined;

  const real = new Float32Array(n * 6);
  for (let v = 0; v < n; v++) {
    real[v * 6] = vs.p[v * 3];
    real[v * 6 + 1] = vs.p[v * 3 + 1];
    real[v * 6 + 2] = vs.p[v * 3 + 2];
    if (rawNormals) {
      // Raw normals are in TSO axes; pre-mirror so the final flip restores them.
      real[v * 6 + 3] = -rawNormals[v * 3];
      real[v * 6 + 4] = rawNormals[v * 3 + 1];
      real[v * 6 + 5] = rawNormals[v * 3 + 2];
    } else {
      real[v * 6 + 3] = vs.n[v * 3];
      real[v * 6 + 4] = vs.n[v * 3 + 1];
      real[v * 6 + 5] = vs.n[v * 3 + 2];
    }
  }
  // Raw positions whose float32 trip through the bone's world matrix lost a bit (kept at import).
  const raw = new Float32Array(3);
  const boneDistance = bones.map((b) => Math.hypot(b.world[12], b.world[13], b.world[14]));
  const restore = (v: number) => {
    raw[0] = -raw[0]; // pre-mirror, like the rest of `real`
    // The trip loses ~2⁻²⁴ of the glTF position's magnitude (≤ |raw| + the bone's distance).
    let scale = 1 + (boneDistance[vs.bone[v]] ?? 0);
    for (let c = 0; c < 3; c++) scale = Math.max(scale, Math.abs(raw[c]));
    for (let c = 0; c < 3; c++) if (!(Math.abs(raw[c] - real[v * 6 + c]) <= scale * 1e-5)) return;
    real.set(raw, v * 6);
  };
  if (x.rawPositionAttribute === true) {
    const a = prim.getAttribute(RAW_POSITION_ATTRIBUTE);
    const all = a?.getArray();
    if (!(all instanceof Float32Array) || a!.getNormalized() || all.length !== n * 3) return null;
    for (let v = 0; v < n; v++) {
      raw.set(all.subarray(v * 3, v * 3 + 3));
      restore(v);
    }
  }
  const keptRaw = keptWords(mesh, 'rawPositions', 4);
  const rawPositions: ArrayLike<unknown> = keptRaw ?? (Array.isArray(x.rawPositions) ? x.rawPositions : []);
  for (let i = 0; i + 3 < rawPositions.length; i += 4) {
    const v = rawPositions[i];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= n) continue;
    if (keptRaw) raw.set(wordFloats(keptRaw.subarray(i + 1, i + 4)));
    else raw.set(bitsToFloats((x.rawPositions as unknown[]).slice(i + 1, i + 4)));
    restore(v);
  }
  for (let j = 0; j < blendCount; j++) {
    const t = blendData[j * 2 + 1];
    real[t * 6] = -realPositions[j * 3];
    real[t * 6 + 1] = realPositions[j * 3 + 1];
    real[t * 6 + 2] = realPositions[j * 3 + 2];
    // Blend vertices are stored raw: pre-mirror them too.
    blendVertices[j * 6] = -blendVertices[j * 6];
    blendVertices[j * 6 + 3] = -blendVertices[j * 6 + 3];
  }
  return {
    version: num(x.version, 2),
    boneNames: x.boneNames.map(String),
    indices: new Uint32Array(0),
    bindings,
    uvs: vs.uv.slice(),
    blendData,
    vertexCount2: num(x.vertexCount2, n),
    realVertices: real,
    blendVertices,
    trailing: keptRun(mesh, 'trailing', x.trailing),
  };
}
