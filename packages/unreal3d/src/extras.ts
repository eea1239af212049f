/**
 * The extras both directions share: what import stores on the glTF mesh (`mesh.extras.unreal3d`)
 * and the custom vertex attribute naming each glTF vertex's `_d.3d` vertex, so that export writes
 * an imported mesh back byte for byte.
 */
import { decodeBase64, getKeptBytes, getKeptNumbers, setKeptBytes, setKeptNumbers } from '@gltf-legacy/core';
import type { Mesh } from '@gltf-transform/core';
import type { Placement } from './transform.js';

/** Name of the custom vertex attribute holding each glTF vertex's `_d.3d` vertex index. */
export const VERTEX_ATTRIBUTE = '_UNREAL_VERTEX';

/** Extras stored on the glTF mesh (`mesh.extras.unreal3d`), enough for a byte-exact export. */
export interface UnrealMeshExtras {
  meshName: string;
  fileBase?: string;
  /**
   * Primitive index per run of triangles (−1 = weapon triangle), and run lengths: [g, n, g, n, …].
   * In the JSON while it has at most {@link RUNS_JSON_MAX} numbers; longer, it is kept bytes `runs`
   * of the mesh (int32 LE) and {@link withKeptArrays} puts it back here.
   */
  runs: number[];
  /** Raw weapon triangles in file order. */
  weapons: {
    vertices: number[];
    type: number;
    color: number;
    uvs: number[];
    texture: number;
    flags: number;
  }[];
  /**
   * How many vertices no rendered triangle uses. Their indices and raw X, Y, Z per frame are kept
   * bytes of the mesh: `orphanIndices` (u32 LE) and `orphanFrames` (float32 LE, frame by frame,
   * X Y Z per orphan); {@link withKeptOrphans} gives them back as `orphans`.
   */
  orphanCount?: number;
  /** Vertices no rendered triangle uses: indices and their raw X, Y, Z per frame (files written before kept bytes held them here as JSON). */
  orphans?: { indices: number[]; frames: number[][] };
  /** Header fields the engine ignores, when not zero. */
  header?: {
    bogusRot: number;
    bogusFrame: number;
    bogusNorm: number[];
    fixScale: number;
    unused: number[];
    padding: number[];
  };
  /** Header count fields when they differ from the data present (truncated files). */
  numPolys?: number;
  numFrames?: number;
  /**
   * Set when every frame of the `_a.3d` equals frame 0 (static props are often saved with 30
   * identical frames): the mesh then has no morph targets and export repeats frame 0 this many
   * times.
   */
  sameFrames?: number;
  layout: 'packed' | 'deusex';
  frameSize?: number;
  /** Files written before `GLTF_LEGACY_kept_bytes`: base64 of bytes beyond the data (now kept bytes, {@link UnrealKept}). */
  dataTrailing?: string;
  anivTrailing?: string;
  /** Bytes the `_a.3d`'s last frame lacked (read padded, `ANIV_TRUNCATED`); export leaves them out again. */
  anivMissing?: number;
  /**
   * Raw triangles naming vertex `numVertices` (one past the end, `INDEX_OUT_OF_RANGE`), in file
   * order: not in the glTF; `runs` places them (group −2) so export writes them back.
   */
  outOfRange?: UnrealMeshExtras['weapons'];
  frameExtra?: string;
  /** Files written before `GLTF_LEGACY_kept_bytes`: Deus Ex pad words when any is not zero (now kept bytes `pads`). */
  pads?: number[];
  numVertices: number;
  placement: Placement;
  /** `.uc`: the mesh's directives (raw lines) and the full text it came from. */
  uc?: {
    text?: string;
    encoding?: 'latin1';
    /** File name of the class file the text came from (written back under it when unchanged). */
    file?: string;
    directives: string[];
    unmirror: boolean;
    zeroTex: boolean;
    textures: { num: number; name: string; file?: string }[];
  };
}

/**
 * Bytes of the files the glTF does not hold, kept as bytes on the mesh (`GLTF_LEGACY_kept_bytes`,
 * keys as named here): `frameExtra` (each `_a.3d` frame's bytes past its vertices), `anivTrailing`
 * and `dataTrailing` (bytes after the last frame / triangle), `pads` (Deus Ex pad words, int16 LE).
 */
export interface UnrealKept {
  frameExtra?: Uint8Array;
  anivTrailing?: Uint8Array;
  dataTrailing?: Uint8Array;
  pads?: Int16Array;
}

/**
 * Keeps the files' leftover bytes on the mesh.
 *
 * ```ts
 * keepUnrealBytes(mesh, { dataTrailing: new Uint8Array([0, 0]) });
 * ```
 */
export function keepUnrealBytes(mesh: Mesh, kept: UnrealKept): void {
  for (const key of ['frameExtra', 'anivTrailing', 'dataTrailing'] as const) {
    const b = kept[key];
    if (b?.length) setKeptBytes(mesh, key, b);
  }
  if (kept.pads?.length) {
    const p = kept.pads;
    const le = new Uint8Array(p.length * 2);
    for (let i = 0; i < p.length; i++) {
      le[i * 2] = p[i]! & 255;
      le[i * 2 + 1] = (p[i]! >> 8) & 255;
    }
    setKeptBytes(mesh, 'pads', le);
  }
}

/**
 * The leftover bytes of an imported mesh: kept bytes, else the extras of files written before
 * the extension (base64 strings, a `pads` number array).
 *
 * ```ts
 * const { dataTrailing } = unrealKeptBytes(mesh, extras);
 * ```
 */
export function unrealKeptBytes(mesh: Mesh, E: UnrealMeshExtras): UnrealKept {
  const b64 = (s: unknown) => (typeof s === 'string' && s ? decodeBase64(s) : undefined);
  const le = getKeptBytes(mesh, 'pads');
  let pads: Int16Array | undefined;
  if (le) {
    pads = new Int16Array(le.length >> 1);
    for (let i = 0; i < pads.length; i++) pads[i] = ((le[i * 2]! | (le[i * 2 + 1]! << 8)) << 16) >> 16;
  } else if (Array.isArray(E.pads)) pads = Int16Array.from(E.pads);
  return {
    frameExtra: getKeptBytes(mesh, 'frameExtra') ?? b64(E.frameExtra),
    anivTrailing: getKeptBytes(mesh, 'anivTrailing') ?? b64(E.anivTrailing),
    dataTrailing: getKeptBytes(mesh, 'dataTrailing') ?? b64(E.dataTrailing),
    pads,
  };
}

/**
 * Keeps the orphan vertices (used by no rendered triangle) as bytes on the mesh: `orphanIndices`
 * (u32 LE) and `orphanFrames` (float32 LE, frame by frame, X Y Z per orphan).
 *
 * ```ts
 * keepOrphans(mesh, [7, 8], [[1, 2, 3, 4, 5, 6]]);
 * ```
 */
export function keepOrphans(mesh: Mesh, indices: number[], frames: ArrayLike<number>[]): void {
  if (!indices.length) return;
  const xyz = new Float32Array(frames.length * indices.length * 3);
  let at = 0;
  for (const row of frames) for (let i = 0; i < indices.length * 3; i++) xyz[at++] = row[i] ?? 0;
  setKeptNumbers(mesh, 'orphanIndices', 'u32', indices);
  setKeptNumbers(mesh, 'orphanFrames', 'f32', xyz); // no frames: nothing kept (no empty buffer view)
}

/**
 * `E` with `orphans` filled from the kept bytes of {@link keepOrphans} when its JSON has
 * `orphanCount` (files written before kept bytes already hold `orphans`).
 *
 * ```ts
 * const E = withKeptOrphans(mesh, extras); // E.orphans?.frames[f][k * 3 + c]
 * ```
 */
export function withKeptOrphans(mesh: Mesh, E: UnrealMeshExtras): UnrealMeshExtras {
  const n = E.orphanCount;
  if (E.orphans || !Number.isInteger(n) || !(n! > 0)) return E;
  const idx = getKeptNumbers(mesh, 'orphanIndices', 'u32');
  const xyz = getKeptBytes(mesh, 'orphanFrames')
    ? getKeptNumbers(mesh, 'orphanFrames', 'f32', n! * 3)
    : new Float32Array(0);
  if (!idx || idx.length !== n! || !xyz) return E;
  const frames = Array.from({ length: xyz.length / (n! * 3) }, (_, f) =>
    Array.from(xyz.subarray(f * n! * 3, (f + 1) * n! * 3)),
  );
  return { ...E, orphans: { indices: Array.from(idx), frames } };
}

/** Longest `runs` list written as JSON; longer ones are kept bytes (no number arrays in extras). */
export const RUNS_JSON_MAX = 16;

/**
 * Keeps a `runs` list longer than {@link RUNS_JSON_MAX} as bytes on the mesh (int32 LE) and
 * returns what the JSON holds (`runs` itself, or undefined when kept).
 *
 * ```ts
 * const json = keepRuns(mesh, runs); // extras.runs = json when defined
 * ```
 */
export function keepRuns(mesh: Mesh, runs: number[]): number[] | undefined {
  if (runs.length <= RUNS_JSON_MAX) return runs;
  setKeptNumbers(mesh, 'runs', 'i32', runs);
  return undefined;
}

/**
 * `E` with what import kept as bytes back in place: `runs` ({@link keepRuns}) and `orphans`
 * ({@link withKeptOrphans}).
 *
 * ```ts
 * const E = withKeptArrays(mesh, extras);
 * ```
 */
export function withKeptArrays(mesh: Mesh, E: UnrealMeshExtras): UnrealMeshExtras {
  let out = withKeptOrphans(mesh, E);
  if (!Array.isArray(out.runs)) {
    const runs = getKeptNumbers(mesh, 'runs', 'i32', 2);
    if (runs) out = { ...out, runs: Array.from(runs) };
  }
  return out;
}
