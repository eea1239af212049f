import type { FileSet, LegacyFormat } from '@gltf-legacy/core';
import { baseName, extName } from '@gltf-legacy/core';
import * as grimrock from '@gltf-legacy/grimrock';
import * as tso from '@gltf-legacy/tso';
import * as unigine from '@gltf-legacy/unigine';
import * as unreal3d from '@gltf-legacy/unreal3d';
import * as urho3d from '@gltf-legacy/urho3d';

/** The `legacyFormat` a package exports, or undefined while it is still being written. */
function formatOf(mod: object): LegacyFormat | undefined {
  const f = (mod as { legacyFormat?: LegacyFormat }).legacyFormat;
  return f && typeof f.sniff === 'function' && typeof f.import === 'function' ? f : undefined;
}

/** Every legacy format the CLI knows, in sniffing order (formats with magic bytes first). */
export const FORMATS: readonly LegacyFormat[] = [urho3d, grimrock, unigine, tso, unreal3d]
  .map(formatOf)
  .filter((f): f is LegacyFormat => !!f);

/** The glTF pseudo-formats. */
export type GltfKind = 'glb' | 'gltf';

/** A legacy format by id (`unreal3d`, …), or undefined. */
export function formatById(id: string, formats: readonly LegacyFormat[] = FORMATS): LegacyFormat | undefined {
  return formats.find((f) => f.id === id.toLowerCase());
}

/** True when the bytes are a GLB (magic `glTF`). */
export function isGlb(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 12 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46
  );
}

/** True when the bytes look like glTF JSON (an object with an `asset` member). */
export function isGltfJson(bytes: Uint8Array, name: string): boolean {
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)
  )
    i++;
  if (bytes[i] !== 0x7b) return false;
  if (extName(name) === '.gltf') return true;
  const head = new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.length, 4096)));
  return head.includes('"asset"');
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
  if (isGlb(bytes)) return 'glb';
  if (isGltfJson(bytes, name)) return 'gltf';
  for (const f of formats) {
    try {
      if (f.sniff(bytes, name)) return f;
    } catch {
      // a sniffer must never decide by throwing; treat as "not mine"
    }
  }
  return undefined;
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
 * The entries of a container file (`.pak`), or undefined when `bytes` is not one: the format must
 * have `unpack`, the name must not be its main file, and unpacking must succeed (formats such as
 * urho3d sniff models, animations and packages alike).
 */
export function tryUnpack(format: LegacyFormat, bytes: Uint8Array, name: string): FileSet | undefined {
  if (!format.capabilities.container || !format.unpack) return undefined;
  if (baseName(name).toLowerCase().endsWith(format.mainExtension.toLowerCase())) return undefined;
  try {
    return format.unpack(bytes, baseName(name));
  } catch {
    return undefined;
  }
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
  const kind = sniffFormat(bytes, name, formats);
  if (!kind || typeof kind === 'string') return kind;
  if (baseName(name).toLowerCase().endsWith(kind.mainExtension.toLowerCase())) return kind;
  if (tryUnpack(kind, bytes, name)) return kind;
  return undefined;
}
