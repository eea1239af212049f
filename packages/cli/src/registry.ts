import {
  type GltfKind,
  isGlb,
  isGltfJson,
  type LegacyFormat,
  sniffFormat as sniffWith,
  tryUnpack,
} from '@gltf-legacy/core';
import { FORMATS } from './formats.js';
import * as lookup from './lookup.js';

// The library API: the same lookups as lookup.ts with every format as the default. Modules on
// the command line's path import lookup.ts / format-table.ts instead, so that starting the CLI
// does not load every format package.

export { FORMATS };
export { type GltfKind, isGlb, isGltfJson, tryUnpack };

/** A legacy format by id (`unreal3d`, …), or undefined. */
export function formatById(id: string, formats: readonly LegacyFormat[] = FORMATS): LegacyFormat | undefined {
  return lookup.formatById(id, formats);
}

/**
 * Detects the format of a file by its bytes (magic or structure), not its extension. Returns a
 * legacy format, `'glb'`/`'gltf'`, or undefined when nothing claims it.
 */
export function sniffFormat(
  bytes: Uint8Array,
  name: string,
  formats: readonly LegacyFormat[] = FORMATS,
): LegacyFormat | GltfKind | undefined {
  return sniffWith(bytes, name, formats);
}

/**
 * The legacy format a glTF → legacy output path asks for, from its extension (`.mdl` → urho3d,
 * `_d.3d` → unreal3d). Undefined when no format or more than one claims the extension (`.mesh`
 * is both Unigine and The Sims Online: pass `--to`).
 */
export function formatForOutput(
  path: string,
  formats: readonly LegacyFormat[] = FORMATS,
): LegacyFormat | undefined {
  return lookup.formatForOutput(path, formats);
}

/**
 * True when a file found while walking a folder is something to convert on its own: glTF, a
 * format's main file (sniffed by bytes and named with its main extension), or a container.
 * Companions (animations, `_a.3d`, `.uc`, …) are not: they are picked up by their main file.
 */
export function mainFormatOf(
  bytes: Uint8Array,
  name: string,
  formats: readonly LegacyFormat[] = FORMATS,
): LegacyFormat | GltfKind | undefined {
  return lookup.mainFormatOf(bytes, name, formats);
}
