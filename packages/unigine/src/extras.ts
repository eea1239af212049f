/**
 * The extras both directions share: the attribute names and `extras.unigine` shapes import writes
 * and export reads back, so that a round trip restores the original bytes.
 */
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
    /** Bytes after the closing magic (hex), a quirk import tolerated (`TRAILING_DATA`). */
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
  /** Bytes after the closing magic (hex), a quirk import tolerated (`TRAILING_DATA`). */
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
  /** u16 codes of axes whose range is too narrow for float32 ("pos0" … "scale2" → codes). */
  rawCodes?: Record<string, number[]>;
  /** Frame flags as hex (2 digits per frame × bone) when they do not follow the usual rule. */
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
