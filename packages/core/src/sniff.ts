import { baseName } from './format.js';
import type { FileSet, LegacyFormat } from './format.js';

/**
 * Format detection by bytes, shared by the CLI and the browser viewer (no Node APIs here).
 */

/** The glTF pseudo-formats. */
export type GltfKind = 'glb' | 'gltf';

/** True when the bytes are a GLB (magic `glTF`). */
export function isGlb(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 12 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46
  );
}

/** True when the bytes look like glTF JSON (`{` first, and a `.gltf` name or an `"asset"` member). */
export function isGltfJson(bytes: Uint8Array, name: string): boolean {
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)
  )
    i++;
  if (bytes[i] !== 0x7b) return false;
  if (name.toLowerCase().endsWith('.gltf')) return true;
  return new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.length, 4096))).includes('"asset"');
}

/**
 * Detects a file's format by its bytes (magic or structure), not its extension: a legacy format
 * from `formats` (first that claims it), `'glb'`/`'gltf'`, or undefined.
 *
 * ```ts
 * const kind = sniffFormat(bytes, 'Jack.mdl', [urho3d, unreal3d]);
 * ```
 */
export function sniffFormat(
  bytes: Uint8Array,
  name: string,
  formats: readonly LegacyFormat[],
): LegacyFormat | GltfKind | undefined {
  if (isGlb(bytes)) return 'glb';
  if (isGltfJson(bytes, name)) return 'gltf';
  for (const f of formats) {
    try {
      if (f.sniff(bytes, name)) return f;
    } catch {
      // a sniffer must never decide by throwing: treat as "not mine"
    }
  }
  return undefined;
}

/**
 * The entries of a container file (`.pak`), or undefined when `bytes` is not one: the format must
 * have `unpack`, the name must not be its main file, and unpacking must succeed (a format may
 * sniff models, animations and packages alike).
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
 * The base name of a legacy main file: its name without the format's main extension
 * (`Skull_d.3d` → `Skull`), else without its extension. Outputs are named after it.
 */
export function modelBaseName(name: string, format?: LegacyFormat): string {
  const b = baseName(name);
  const main = format?.mainExtension.toLowerCase();
  if (main && b.toLowerCase().endsWith(main) && b.length > main.length)
    return b.slice(0, b.length - main.length);
  const i = b.lastIndexOf('.');
  return i > 0 ? b.slice(0, i) : b;
}
