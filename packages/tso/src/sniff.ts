import { FormatError } from '@gltf-legacy/core';
import { type TsoAnimation, readAnimation } from './anim.js';
import { type TsoMesh, readMesh } from './mesh.js';
import { type TsoSkeleton, readSkeleton } from './skel.js';

/** Which TSO file a byte string is. */
export type TsoFileKind = 'mesh' | 'skel' | 'anim';

/** Largest version field accepted by the structural checks (known files use 1 and 2). */
export const MAX_VERSION = 0xff;

/** A parsed TSO file and its kind (see {@link readTsoFile}). */
export type TsoFile =
  | { kind: 'mesh'; model: TsoMesh }
  | { kind: 'skel'; model: TsoSkeleton }
  | { kind: 'anim'; model: TsoAnimation };

function beU32(b: Uint8Array, at: number): number {
  return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
}

// Layout walkers: the offset just past each structure, or -1 when it runs past the end. They
// allocate nothing and throw nothing; a file fits a kind when its walk ends exactly at its end
// (or, for `sniffPadded`, before it: a trailing pad).
// Every structure consumes at least one byte per element, so hostile counts end the walk early.

function skipProps(b: Uint8Array, o: number): number {
  const n = b.length;
  if (o + 4 > n) return -1;
  const items = beU32(b, o);
  o += 4;
  for (let i = 0; i < items; i++) {
    if (o + 4 > n) return -1;
    const pairs = beU32(b, o);
    o += 4;
    for (let p = 0; p < pairs * 2; p++) {
      if (o >= n) return -1;
      o += 1 + b[o];
    }
  }
  return o > n ? -1 : o;
}

function meshEnd(b: Uint8Array): number {
  const n = b.length;
  let o = 8;
  if (n < 8) return -1;
  const bones = beU32(b, 4);
  for (let i = 0; i < bones; i++) {
    if (o >= n) return -1;
    o += 1 + b[o];
  }
  if (o + 4 > n) return -1;
  o += 4 + beU32(b, o) * 12; // faces
  if (o + 4 > n) return -1;
  o += 4 + beU32(b, o) * 20; // bindings
  if (o + 4 > n) return -1;
  const real = beU32(b, o);
  o += 4 + real * 8; // uvs
  if (o + 4 > n) return -1;
  const blend = beU32(b, o);
  o += 4 + blend * 8 + 4; // blend data, vertexCount2
  const end = o + (real + blend) * 24;
  return end <= n ? end : -1;
}

const meshFits = (b: Uint8Array): boolean => meshEnd(b) === b.length;

function skelEnd(b: Uint8Array): number {
  const n = b.length;
  let o = 4;
  if (o >= n) return -1;
  o += 1 + b[o]; // name
  if (o + 2 > n) return -1;
  const bones = (b[o] << 8) | b[o + 1];
  o += 2;
  for (let i = 0; i < bones; i++) {
    o += 4; // unknown
    for (let s = 0; s < 2; s++) {
      if (o >= n) return -1;
      o += 1 + b[o];
    }
    if (o >= n) return -1;
    const hasProps = b[o++];
    if (hasProps) {
      o = skipProps(b, o);
      if (o < 0) return -1;
    }
    o += 28 + 12 + 8; // translation, rotation, can*, wiggle
    if (o > n) return -1;
  }
  return o <= n ? o : -1;
}

const skelFits = (b: Uint8Array): boolean => skelEnd(b) === b.length;

function animEnd(b: Uint8Array): number {
  const n = b.length;
  let o = 4;
  if (o + 2 > n) return -1;
  o += 2 + ((b[o] << 8) | b[o + 1]) + 9; // name, duration, distance, isMoving
  if (o + 4 > n) return -1;
  o += 4 + beU32(b, o) * 12;
  if (o + 4 > n) return -1;
  o += 4 + beU32(b, o) * 16;
  if (o + 4 > n) return -1;
  const motions = beU32(b, o);
  o += 4;
  for (let i = 0; i < motions; i++) {
    o += 4; // unknown
    if (o >= n) return -1;
    o += 1 + b[o] + 18; // bone name, frameCount … firstRotation
    if (o >= n) return -1;
    if (b[o++] === 1) {
      if (o + 4 > n) return -1;
      const lists = beU32(b, o);
      o += 4;
      for (let k = 0; k < lists; k++) if ((o = skipProps(b, o)) < 0) return -1;
    }
    if (o >= n) return -1;
    if (b[o++] === 1) {
      if (o + 4 > n) return -1;
      const lists = beU32(b, o);
      o += 4;
      for (let k = 0; k < lists; k++) {
        if (o + 4 > n) return -1;
        const items = beU32(b, o);
        o += 4;
        for (let j = 0; j < items; j++) if ((o = skipProps(b, o + 4)) < 0) return -1;
      }
    }
    if (o > n) return -1;
  }
  return o <= n ? o : -1;
}

const animFits = (b: Uint8Array): boolean => animEnd(b) === b.length;

const FITS: Record<TsoFileKind, (b: Uint8Array) => boolean> = {
  mesh: meshFits,
  skel: skelFits,
  anim: animFits,
};

/**
 * The file parsed as the first kind it is (same test as {@link detectTsoKind}), or undefined.
 * A cheap layout walk rules kinds out first, so a file that is no TSO file costs no parse and no
 * exception.
 *
 * ```ts
 * const found = readTsoFile(bytes, 'body.mesh'); // { kind: 'mesh', model: TsoMesh } | undefined
 * ```
 */
export function readTsoFile(bytes: Uint8Array, name = ''): TsoFile | undefined {
  if (bytes.length < 8) return undefined;
  const version = beU32(bytes, 0);
  if (version === 0 || version > MAX_VERSION) return undefined;
  const lower = name.toLowerCase();
  const order: TsoFileKind[] = lower.endsWith('.skel')
    ? ['skel', 'anim', 'mesh']
    : lower.endsWith('.anim')
      ? ['anim', 'skel', 'mesh']
      : ['mesh', 'skel', 'anim'];
  for (const kind of order) {
    if (!FITS[kind](bytes)) continue;
    try {
      // The walk matched the layout; the reader also checks indices, parents and pool ranges.
      if (kind === 'mesh') return { kind, model: readMesh(bytes, name || undefined) };
      if (kind === 'skel') return { kind, model: readSkeleton(bytes, name || undefined) };
      return { kind, model: readAnimation(bytes, name || undefined) };
    } catch (e) {
      if (!(e instanceof FormatError)) throw e;
    }
  }
  return undefined;
}

/**
 * Structural check (these formats have no magic): the leading big-endian version must be small
 * (rejects e.g. Unigine `ms11`/`an10` magics read as integers), then the whole file must parse
 * with every count consistent with the file size and nothing left over.
 *
 * ```ts
 * detectTsoKind(bytes); // 'mesh' | 'skel' | 'anim' | undefined
 * ```
 */
export function detectTsoKind(bytes: Uint8Array, name = ''): TsoFileKind | undefined {
  return readTsoFile(bytes, name)?.kind;
}

const ENDS: Record<TsoFileKind, (b: Uint8Array) => number> = { mesh: meshEnd, skel: skelEnd, anim: animEnd };

/**
 * A file whose extension names its kind (`.mesh`, `.skel`, `.anim`) and whose layout ends before
 * its last byte: the trailing-pad quirk (`TRAILING_BYTES`), which {@link detectTsoKind} leaves out
 * (for magic-less files "nothing left over" is what tells the kinds apart). The walk must end
 * inside the file and the reader must accept it.
 *
 * ```ts
 * sniffPadded(padded, 'twobone-pad.mesh'); // 'mesh'
 * ```
 */
export function sniffPadded(bytes: Uint8Array, name: string): TsoFileKind | undefined {
  const kind = (/\.(mesh|skel|anim)$/i.exec(name)?.[1]?.toLowerCase() ?? '') as TsoFileKind | '';
  if (!kind || bytes.length < 8) return undefined;
  const version = beU32(bytes, 0);
  if (version === 0 || version > MAX_VERSION) return undefined;
  const end = ENDS[kind](bytes);
  if (end < 0 || end >= bytes.length) return undefined;
  try {
    if (kind === 'mesh') readMesh(bytes, name);
    else if (kind === 'skel') readSkeleton(bytes, name);
    else readAnimation(bytes, name);
    return kind;
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    return undefined;
  }
}
