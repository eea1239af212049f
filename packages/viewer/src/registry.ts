/**
 * The viewer's own format registry: the five legacy packages imported directly (the CLI's registry
 * uses node:fs, so the browser cannot import it). Everything here is browser-safe.
 */
import { baseName, type FileSet, type LegacyFormat } from '@gltf-legacy/core';
import { legacyFormat as grimrock } from '@gltf-legacy/grimrock';
import { legacyFormat as tso } from '@gltf-legacy/tso';
import { legacyFormat as unigine } from '@gltf-legacy/unigine';
import { legacyFormat as unreal3d } from '@gltf-legacy/unreal3d';
import { legacyFormat as urho3d } from '@gltf-legacy/urho3d';

/** Every legacy format, in sniffing order (formats with magic bytes first, as in the CLI). */
export const FORMATS: readonly LegacyFormat[] = [urho3d, grimrock, unigine, tso, unreal3d];

/** What a file is: a legacy format, a glTF file, or nothing we know. */
export type FileKind = LegacyFormat | 'glb' | 'gltf' | undefined;

/** True when the bytes are a GLB (magic `glTF`). */
export function isGlb(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 12 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46
  );
}

/** True when the bytes look like glTF JSON (`{` first, and `.gltf` or an `"asset"` member). */
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

/** Detects a file's format by its bytes (magic or structure), not its extension. */
export function sniff(bytes: Uint8Array, name: string, formats: readonly LegacyFormat[] = FORMATS): FileKind {
  if (isGlb(bytes)) return 'glb';
  if (isGltfJson(bytes, name)) return 'gltf';
  for (const f of formats) {
    try {
      if (f.sniff(bytes, name)) return f;
    } catch {
      // a sniffer must never decide by throwing: "not mine"
    }
  }
  return undefined;
}

/** The entries of a container (`.pak`), or undefined when `bytes` is not one. */
export function unpackContainer(format: LegacyFormat, bytes: Uint8Array, name: string): FileSet | undefined {
  if (!format.capabilities.container || !format.unpack) return undefined;
  if (baseName(name).toLowerCase().endsWith(format.mainExtension.toLowerCase())) return undefined;
  try {
    return format.unpack(bytes, baseName(name));
  } catch {
    return undefined;
  }
}

/** A legacy format by id, or undefined. */
export function formatById(id: string, formats: readonly LegacyFormat[] = FORMATS): LegacyFormat | undefined {
  return formats.find((f) => f.id === id.toLowerCase());
}
