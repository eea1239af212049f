import { FormatError } from '@gltf-legacy/core';
import { readAnimation } from './anim.js';
import { readMesh } from './mesh.js';
import { readSkeleton } from './skel.js';

/** Which TSO file a byte string is. */
export type TsoFileKind = 'mesh' | 'skel' | 'anim';

/** Largest version field accepted by the structural checks (known files use 1 and 2). */
export const MAX_VERSION = 0xff;

function parses(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch (e) {
    if (e instanceof FormatError) return false;
    throw e;
  }
}

function beU32(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
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
  if (bytes.length < 8) return undefined;
  const version = beU32(bytes, 0);
  if (version === 0 || version > MAX_VERSION) return undefined;
  const order: TsoFileKind[] = name.toLowerCase().endsWith('.skel')
    ? ['skel', 'anim', 'mesh']
    : name.toLowerCase().endsWith('.anim')
      ? ['anim', 'skel', 'mesh']
      : ['mesh', 'skel', 'anim'];
  for (const kind of order) {
    if (kind === 'mesh' && parses(() => readMesh(bytes).trailing.length === 0 || fail())) return 'mesh';
    if (kind === 'skel' && parses(() => readSkeleton(bytes).trailing.length === 0 || fail())) return 'skel';
    if (kind === 'anim' && parses(() => readAnimation(bytes).trailing.length === 0 || fail())) return 'anim';
  }
  return undefined;
}

function fail(): never {
  throw new FormatError('trailing bytes', { code: 'TRAILING_BYTES' });
}
