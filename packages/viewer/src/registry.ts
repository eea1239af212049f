/**
 * The viewer's own format registry: the five legacy packages imported directly (the CLI's registry
 * uses node:fs, so the browser cannot import it). Everything here is browser-safe.
 */
import { isGlb, isGltfJson, type LegacyFormat, sniffFormat, tryUnpack } from '@gltf-legacy/core';
import { legacyFormat as grimrock } from '@gltf-legacy/grimrock';
import { legacyFormat as tso } from '@gltf-legacy/tso';
import { legacyFormat as unigine } from '@gltf-legacy/unigine';
import { legacyFormat as unreal3d } from '@gltf-legacy/unreal3d';
import { legacyFormat as urho3d } from '@gltf-legacy/urho3d';

/** Every legacy format, in sniffing order (formats with magic bytes first, as in the CLI). */
export const FORMATS: readonly LegacyFormat[] = [urho3d, grimrock, unigine, tso, unreal3d];

/** What a file is: a legacy format, a glTF file, or nothing we know. */
export type FileKind = LegacyFormat | 'glb' | 'gltf' | undefined;

export { isGlb, isGltfJson };

/** Detects a file's format by its bytes (magic or structure), not its extension. */
export function sniff(bytes: Uint8Array, name: string, formats: readonly LegacyFormat[] = FORMATS): FileKind {
  return sniffFormat(bytes, name, formats);
}

/** The entries of a container (`.pak`), or undefined when `bytes` is not one. */
export const unpackContainer = tryUnpack;

/** A legacy format by id, or undefined. */
export function formatById(id: string, formats: readonly LegacyFormat[] = FORMATS): LegacyFormat | undefined {
  return formats.find((f) => f.id === id.toLowerCase());
}
