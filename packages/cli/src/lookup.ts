import {
  baseName,
  extName,
  type GltfKind,
  isMainFileName,
  type LegacyFormat,
  sniffFormat,
  tryUnpack,
} from '@gltf-legacy/core';

/** The parts of a format that pick it from an output name (a `LegacyFormat` or a table entry). */
export interface OutputFormatInfo {
  id: string;
  extensions: readonly string[];
  mainExtension: string;
  export?: unknown;
}

/** A legacy format by id (`unreal3d`, …), or undefined. */
export function formatById<F extends { id: string }>(id: string, formats: readonly F[]): F | undefined {
  return formats.find((f) => f.id === id.toLowerCase());
}

/**
 * The legacy format a glTF → legacy output path asks for, from its extension (`.mdl` → urho3d,
 * `_d.3d` → unreal3d). Undefined when no format or more than one claims the extension (`.mesh`
 * is both Unigine and The Sims Online: pass `--to`).
 */
export function formatForOutput<F extends OutputFormatInfo>(
  path: string,
  formats: readonly F[],
): F | undefined {
  const lower = path.toLowerCase();
  const byMain = formats.filter((f) => f.export && lower.endsWith(f.mainExtension.toLowerCase()));
  if (byMain.length === 1) return byMain[0];
  if (byMain.length > 1) {
    // the longest main extension wins (`_d.3d` over `.3d`) if it is unique
    const longest = Math.max(...byMain.map((f) => f.mainExtension.length));
    const best = byMain.filter((f) => f.mainExtension.length === longest);
    return best.length === 1 ? best[0] : undefined;
  }
  const ext = extName(path);
  const byExt = formats.filter((f) => f.export && f.extensions.includes(ext));
  return byExt.length === 1 ? byExt[0] : undefined;
}

/**
 * True when a file found while walking a folder is something to convert on its own: glTF, a
 * format's main file (sniffed by bytes and named with its main extension), or a container.
 * Companions (animations, `_a.3d`, `.uc`, …) are not: they are picked up by their main file.
 */
export function mainFormatOf(
  bytes: Uint8Array,
  name: string,
  formats: readonly LegacyFormat[],
): LegacyFormat | GltfKind | undefined {
  const kind = sniffFormat(bytes, name, formats);
  if (!kind || typeof kind === 'string') return kind;
  if (isMainFileName(kind, baseName(name))) return kind;
  if (tryUnpack(kind, bytes, name)) return kind;
  return undefined;
}
