/**
 * The extras both directions share: the attribute names and `extras.unigine` shapes import writes
 * and export reads back, so that a round trip restores the original bytes.
 */
import { getKeptBytes, getKeptNumbers, setKeptBytes, setKeptNumbers } from '@gltf-legacy/core';
import type { ExtensibleProperty } from '@gltf-transform/core';
import type { JsonF32 } from './jsonf32.js';

/** Raw tangent-space quaternions (i16 x, y, z, w), kept so export restores them exactly. */
export const ATTR_TBN = '_UNIGINE_TBN';
/** Coordinate-vertex index of each glTF vertex (positions and weights live per coordinate vertex). */
export const ATTR_COORD = '_UNIGINE_COORD';
/** Triangle-vertex index of each glTF vertex (only when glTF vertices are not the triangle vertices). */
export const ATTR_TRI = '_UNIGINE_TRI';
/** Raw weight records (≤ 4 influences): count, bone indices (i16), weight codes (u16). */
export const ATTR_WCOUNT = '_UNIGINE_WCOUNT';
export const ATTR_WBONES = '_UNIGINE_WBONES';
export const ATTR_WVALUES = '_UNIGINE_WVALUES';

/** What `extras.unigine` holds on the root (file-level fields glTF has no place for). */
export interface UnigineRootExtras {
  mesh?: {
    file: string;
    encoding: string;
    bounds: JsonF32;
    animationNames: string[];
    /**
     * Files written before kept bytes: the bytes after the closing magic (hex), a quirk import
     * tolerated (`TRAILING_DATA`); now kept bytes `trailing:<file>` of the root ({@link keptTrailing}).
     */
    trailing?: string;
  };
  animFiles: AnimFileExtras[];
}

export interface AnimFileExtras {
  file: string;
  encoding: string;
  bounds: JsonF32;
  bones: [string, number][];
  animationNames: string[];
  /** Bind-pose entries (10 floats, file axes) that differ from the node of the same name. */
  bindPoseOverrides?: Record<string, JsonF32>;
  /** Files written before kept bytes: the bytes after the closing magic (hex); now kept bytes `trailing:<file>` of the root. */
  trailing?: string;
}

/** `extras.unigine` of a glTF animation made from a UNIGINE block. */
export interface UnigineAnimationExtras {
  source: 'mesh' | 'anim';
  file: string;
  index: number;
  name: string;
  /** Names of the animated bones, in block order. */
  bones: string[];
  componentMask: number;
  numFrames: number;
  fps: number;
  boxes?: JsonF32;
  /**
   * Files written before kept bytes: u16 codes of axes whose range is too narrow for float32
   * ("pos0" … "scale2" → codes); now kept bytes `rawCodes:<axis>` of the animation (u16 LE).
   */
  rawCodes?: Record<string, number[]>;
  /**
   * Files written before kept bytes: frame flags as hex (2 digits per frame × bone) when they do
   * not follow the usual rule; now kept bytes `flags` of the animation (one byte per entry).
   */
  flags?: string;
  /** Set when some rotations had to be normalized (the file's codes are then not restorable). */
  normalized?: boolean;
}

/** `extras.unigine` of a primitive made from a surface. */
export interface UnigineSurfaceExtras {
  surface: string;
  bounds: JsonF32;
  targetNames: string[];
  numCoordVerts: number;
  numTriVerts: number;
  /**
   * The 1–2 indices after the last whole triangle (coordinate, triangle), a quirk import
   * tolerated (`INDICES_NOT_TRIANGLES`); export writes them back.
   */
  extraIndices?: [number[], number[]];
}

/** Bytes as lower-case hex (for quirk bytes kept in extras). */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** The bytes of a hex string from extras; undefined when absent or not hex (hand-edited extras). */
export function fromHex(hex: unknown): Uint8Array | undefined {
  if (typeof hex !== 'string' || !hex.length || hex.length % 2 || !/^[0-9a-f]+$/i.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * Keeps the bytes after a file's closing magic (`TRAILING_DATA`) as bytes on the document root
 * (`GLTF_LEGACY_kept_bytes` key `trailing:<file>`, the file's name as in `extras.unigine`).
 *
 * ```ts
 * keepTrailing(doc.getRoot(), 'box.mesh', mesh.trailing);
 * ```
 */
export function keepTrailing(root: ExtensibleProperty, file: string, trailing: Uint8Array | undefined): void {
  if (trailing?.length) setKeptBytes(root, `trailing:${file}`, trailing);
}

/**
 * The bytes after `file`'s closing magic: kept bytes ({@link keepTrailing}), else the hex of
 * files written before (`legacy`), else undefined.
 *
 * ```ts
 * const trailing = keptTrailing(doc.getRoot(), rx.mesh?.file, rx.mesh?.trailing);
 * ```
 */
export function keptTrailing(
  root: ExtensibleProperty,
  file: unknown,
  legacy: unknown,
): Uint8Array | undefined {
  const kept = typeof file === 'string' ? getKeptBytes(root, `trailing:${file}`) : undefined;
  return kept?.length ? kept : fromHex(legacy);
}

/**
 * Keeps an animation block's raw flags (when they do not follow the usual rule) and the u16 codes
 * of narrow axes as bytes on `anim`: `flags` (one byte per frame × bone) and `rawCodes:<axis>`
 * (u16 LE per entry), not as hex or number arrays in extras.
 *
 * ```ts
 * keepBlockCodes(anim, block.flags, { pos0: [1, 2, 3] });
 * ```
 */
export function keepBlockCodes(
  anim: ExtensibleProperty,
  flags: Uint8Array | undefined,
  rawCodes: Record<string, number[]>,
): void {
  if (flags?.length) setKeptBytes(anim, 'flags', flags.slice());
  for (const [axis, codes] of Object.entries(rawCodes))
    setKeptNumbers(anim, `rawCodes:${axis}`, 'u16', codes);
}

/**
 * `ex` with the kept bytes of {@link keepBlockCodes} back in their JSON form (`flags` as hex,
 * `rawCodes` as arrays) for the block writer; files written before already hold them.
 *
 * ```ts
 * const full = withKeptBlockCodes(anim, ex);
 * ```
 */
export function withKeptBlockCodes(
  anim: ExtensibleProperty,
  ex: Partial<UnigineAnimationExtras>,
): Partial<UnigineAnimationExtras> {
  const out = { ...ex };
  const flags = getKeptBytes(anim, 'flags');
  if (flags && out.flags === undefined) out.flags = toHex(flags);
  for (const axis of ['pos0', 'pos1', 'pos2', 'scale0', 'scale1', 'scale2']) {
    const codes = getKeptNumbers(anim, `rawCodes:${axis}`, 'u16');
    if (!codes || out.rawCodes?.[axis]) continue;
    out.rawCodes = { ...out.rawCodes, [axis]: Array.from(codes) };
  }
  return out;
}
