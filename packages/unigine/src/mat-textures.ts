/**
 * Texture references of `.mat` materials → glTF textures: found the way the engine's data path
 * works, decoded to PNG, the original file kept for a byte-exact export.
 */
import {
  ResourceError,
  type ResourceReader,
  type WarningCollector,
  dirOf,
  keepTextureSource,
  resolveReference,
} from '@gltf-legacy/core';
import { toGltfImage, TEXTURE_REBUILDER } from '@gltf-legacy/textures';
import type { Document, Texture } from '@gltf-transform/core';
import type { ResolvedEntry } from './mat-resolve.js';

/** Textures read during one import, by root-relative path (null: unreadable), and lookups. */
export interface TextureCache {
  reader: ResourceReader;
  dataDir: string;
  textures: Map<string, Texture | null>;
  /** Texture lookups by library and reference. */
  lookups: Map<string, { found?: string; tried: string[] }>;
}

/**
 * The root-relative file of a texture reference, tried the way the engine's data path works:
 * relative to the `data/` folder, then to the root, then to the library's folder. A reference
 * that escapes from the data folder (absolute, `..` above the root, a URI) throws `ResourceError`.
 */
async function findTexture(
  cache: TextureCache,
  ref: string,
  library: string,
): Promise<{ found?: string; tried: string[] }> {
  const tried: string[] = [];
  const first = resolveReference(ref, cache.dataDir, { file: library });
  const candidates = [first];
  for (const base of ['', dirOf(library)]) {
    try {
      candidates.push(resolveReference(ref, base, { file: library }));
    } catch (e) {
      if (!(e instanceof ResourceError)) throw e;
    }
  }
  for (const c of candidates) {
    if (tried.includes(c)) continue;
    tried.push(c);
    const found = await cache.reader.find(c);
    if (found) return { found, tried };
  }
  return { tried };
}

export async function loadTexture(
  doc: Document,
  cache: TextureCache,
  entry: ResolvedEntry,
  label: string,
  warnings: WarningCollector,
): Promise<Texture | null> {
  const ref = entry.value;
  const key = `${entry.library}\u0000${ref}`;
  let lookup = cache.lookups.get(key);
  if (!lookup) {
    lookup = await findTexture(cache, ref, entry.library);
    cache.lookups.set(key, lookup);
  }
  const { found, tried } = lookup;
  if (!found) {
    warnings.warn('TEXTURE_MISSING', `${label}: texture "${ref}" not found (tried ${tried.join(', ')})`);
    return null;
  }
  const cached = cache.textures.get(found);
  if (cached !== undefined) return cached;
  const bytes = (await cache.reader.read(found)) as Uint8Array;
  let texture: Texture | null = null;
  try {
    const image = toGltfImage(bytes, found);
    const base = found.slice(found.lastIndexOf('/') + 1);
    texture = doc
      .createTexture(base.replace(/\.[^.]*$/, ''))
      .setImage(image.bytes)
      .setMimeType(image.mimeType);
    let sourcePath: string;
    try {
      sourcePath = resolveReference(ref, '');
    } catch {
      sourcePath = found;
    }
    await keepTextureSource(texture, sourcePath, bytes, TEXTURE_REBUILDER);
  } catch (e) {
    if (!(e instanceof Error && 'code' in e)) throw e;
    warnings.warn('TEXTURE_INVALID', `${label}: texture ${found} could not be decoded (${e.message})`);
    texture?.dispose();
    texture = null;
  }
  cache.textures.set(found, texture);
  return texture;
}
