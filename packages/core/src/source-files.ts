/**
 * Original texture files kept inside the `.glb`, so that an unchanged texture is written back
 * byte for byte (a PCX or DDS re-encoded from PNG would not be the same bytes).
 *
 * Import converts the game's texture to an image glTF holds (PNG) and attaches the original file
 * to the glTF `Texture` with {@link keepTextureSource}: its path (as the game names it) and bytes
 * go into `texture.extras.gltfLegacySource`, with the SHA-256 of the glTF image they were decoded
 * to. Export asks {@link unchangedTextureSource}: while the texture's image still has that hash,
 * the original bytes are returned; once a user edits the image, `undefined` (re-encode it).
 */
import type { Texture } from '@gltf-transform/core';
import { decodeBase64, encodeBase64 } from './base64.js';

/** The key under `Texture.extras` that holds the original file. */
export const TEXTURE_SOURCE_KEY = 'gltfLegacySource';

/** An original texture file kept in the glTF. */
export interface TextureSource {
  /** The path the game's files name it by (e.g. `Textures/JSporifier.pcx`), `/`-separated. */
  path: string;
  /** The file's bytes. */
  bytes: Uint8Array;
}

interface StoredSource {
  path: string;
  imageSha256: string;
  data: string;
}

/** SHA-256 of bytes as lower-case hex (Web Crypto: Node 20 and browsers). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Attaches the original file to a texture whose image was made from it. Call after
 * `texture.setImage(...)`.
 *
 * ```ts
 * const texture = doc.createTexture('JSporifier').setImage(png).setMimeType('image/png');
 * await keepTextureSource(texture, 'Textures/JSporifier.pcx', pcxBytes);
 * ```
 */
export async function keepTextureSource(texture: Texture, path: string, bytes: Uint8Array): Promise<void> {
  const image = texture.getImage();
  if (!image) throw new RangeError('keepTextureSource: the texture has no image yet');
  const stored: StoredSource = { path, imageSha256: await sha256Hex(image), data: encodeBase64(bytes) };
  texture.setExtras({ ...texture.getExtras(), [TEXTURE_SOURCE_KEY]: stored });
}

/**
 * The original file of a texture, if one was kept and the image is still the one made from it.
 *
 * ```ts
 * const original = await unchangedTextureSource(texture);
 * files.set(original ? original.path : 'Textures/skin.pcx', original ? original.bytes : encodePcx(rgba));
 * ```
 */
export async function unchangedTextureSource(texture: Texture): Promise<TextureSource | undefined> {
  const stored = textureSourceRecord(texture);
  const image = texture.getImage();
  if (!stored || !image) return undefined;
  if ((await sha256Hex(image)) !== stored.imageSha256) return undefined;
  return { path: stored.path, bytes: decodeBase64(stored.data) };
}

/** The path the original file had, kept or not unchanged (for naming re-encoded textures). */
export function textureSourcePath(texture: Texture): string | undefined {
  return textureSourceRecord(texture)?.path;
}

function textureSourceRecord(texture: Texture): StoredSource | undefined {
  const s = (texture.getExtras() as Record<string, unknown>)[TEXTURE_SOURCE_KEY] as StoredSource | undefined;
  if (!s || typeof s !== 'object' || typeof s.path !== 'string' || typeof s.data !== 'string')
    return undefined;
  if (typeof s.imageSha256 !== 'string') return undefined;
  return s;
}
