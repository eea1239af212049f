/**
 * Original texture files of a conversion, so that an unchanged texture is written back byte for
 * byte (a PCX or DDS re-encoded from PNG would not be the same bytes) — keeping in the `.glb`
 * only what the glTF image cannot give back:
 *
 * - the original **is** the glTF image (a PNG or JPEG passed through): only its path and the
 *   image's hash are kept, in `texture.extras.gltfLegacySource = { path, imageSha256 }`;
 * - a {@link TextureRebuilder} makes the original back from the image plus small header fields
 *   (PCX/BMP/TGA, checked at import by rebuilding and comparing): `{ path, imageSha256, rebuild }`;
 * - a rebuilder that makes it back from the image plus a small **residual** (DDS: the blocks
 *   predicted from the image's pixels, XOR the original's, deflated with the mip levels): the
 *   residual's bytes through the `GLTF_LEGACY_kept_bytes` extension (key `sourceResidual`, with
 *   `path`, `imageSha256` and the rebuilder's fields beside them), checked at import like a rebuild;
 * - otherwise the bytes themselves, in a buffer view, through the `GLTF_LEGACY_kept_bytes`
 *   extension (key `source`, with `path` and `imageSha256` beside them).
 *
 * Export asks {@link unchangedTextureSource}: while the texture's image still has the hash it had
 * at import, the original bytes; once a user edits the image, `undefined` (re-encode it). Files
 * written before the extension existed (base64 in `extras.gltfLegacySource.data`) still read.
 */
import type { Texture } from '@gltf-transform/core';
import { decodeBase64 } from './base64.js';
import { sameBytes } from './same-bytes.js';
import type { Document } from '@gltf-transform/core';
import {
  dropKeptBytes,
  getKeptBytes,
  getKeptInfo,
  type KeptInfo,
  removeKeptBytes,
  setKeptBytes,
} from './kept-bytes.js';

/** The key under `Texture.extras` that holds the original file's path (and rebuild fields). */
export const TEXTURE_SOURCE_KEY = 'gltfLegacySource';

/** The kept-bytes key of an original texture file. */
export const TEXTURE_SOURCE_BYTES = 'source';

/** The kept-bytes key of the residual from which a rebuilder makes an original texture file back. */
export const TEXTURE_SOURCE_RESIDUAL = 'sourceResidual';

/** An original texture file kept in the glTF. */
export interface TextureSource {
  /** The path the game's files name it by (e.g. `Textures/JSporifier.pcx`), `/`-separated. */
  path: string;
  /** The file's bytes. */
  bytes: Uint8Array;
}

/**
 * Makes an original texture file back from the glTF image plus small fields (the textures
 * package's `TEXTURE_REBUILDER` does PCX, BMP and TGA). Both directions must be pure functions of
 * their inputs: `keepTextureSource` keeps the fields only when `rebuild` gives the original's
 * exact bytes.
 */
export interface TextureRebuilder {
  /** Small JSON fields from which `rebuild` may make `original` back, or undefined when it cannot. */
  describe(original: Uint8Array, path: string, image: Uint8Array, mimeType: string): KeptInfo | undefined;
  /**
   * The original file made from the image and the fields (and the residual bytes, for fields
   * made by `residual`), or undefined when they do not fit.
   */
  rebuild(
    fields: KeptInfo,
    image: Uint8Array,
    mimeType: string,
    residual?: Uint8Array,
  ): Uint8Array | undefined;
  /**
   * Optional, tried when `describe` gives nothing: small fields plus a residual (bytes, smaller
   * than the original) from which `rebuild` makes `original` back, or undefined.
   */
  residual?(
    original: Uint8Array,
    path: string,
    image: Uint8Array,
    mimeType: string,
  ): { fields: KeptInfo; bytes: Uint8Array } | undefined;
}

interface StoredSource {
  path: string;
  imageSha256?: string;
  /** Files written before `GLTF_LEGACY_kept_bytes`: the bytes as base64. */
  data?: string;
  rebuild?: KeptInfo;
}

/** SHA-256 of bytes as lower-case hex (Web Crypto: Node 20 and browsers). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

function setRecord(texture: Texture, stored: StoredSource | undefined): void {
  const { [TEXTURE_SOURCE_KEY]: _old, ...rest } = texture.getExtras() as Record<string, unknown>;
  texture.setExtras(stored ? { ...rest, [TEXTURE_SOURCE_KEY]: stored } : rest);
}

/**
 * Attaches the original file to a texture whose image was made from it (call after
 * `texture.setImage(...)`), keeping as little as gives it back exactly: nothing but the path when
 * the file is the image, the rebuilder's fields when `rebuilder` makes it back byte for byte,
 * else the bytes (in a buffer view).
 *
 * ```ts
 * const texture = doc.createTexture('JSporifier').setImage(png).setMimeType('image/png');
 * await keepTextureSource(texture, 'Textures/JSporifier.pcx', pcxBytes, TEXTURE_REBUILDER);
 * ```
 */
export async function keepTextureSource(
  texture: Texture,
  path: string,
  bytes: Uint8Array,
  rebuilder?: TextureRebuilder,
): Promise<void> {
  const image = texture.getImage();
  if (!image) throw new RangeError('keepTextureSource: the texture has no image yet');
  removeKeptBytes(texture, TEXTURE_SOURCE_BYTES);
  removeKeptBytes(texture, TEXTURE_SOURCE_RESIDUAL);
  const imageSha256 = await sha256Hex(image);
  if (sameBytes(image, bytes)) {
    setRecord(texture, { path, imageSha256 });
    return;
  }
  const mimeType = texture.getMimeType();
  const fields = rebuilder?.describe(bytes, path, image, mimeType);
  const rebuilt = fields && rebuilder?.rebuild(fields, image, mimeType);
  if (fields && rebuilt && sameBytes(rebuilt, bytes)) {
    setRecord(texture, { path, imageSha256, rebuild: fields });
    return;
  }
  setRecord(texture, undefined);
  const residual = rebuilder?.residual?.(bytes, path, image, mimeType);
  if (residual && residual.bytes.byteLength < bytes.byteLength) {
    const back = rebuilder!.rebuild(residual.fields, image, mimeType, residual.bytes);
    if (back && sameBytes(back, bytes)) {
      const { path: _p, imageSha256: _h, sourceSha256: _s, ...fields } = residual.fields;
      const sourceSha256 = await sha256Hex(bytes);
      setKeptBytes(texture, TEXTURE_SOURCE_RESIDUAL, residual.bytes, {
        ...fields,
        path,
        imageSha256,
        sourceSha256,
      });
      return;
    }
  }
  setKeptBytes(texture, TEXTURE_SOURCE_BYTES, bytes, { path, imageSha256 });
}

/**
 * The original file of a texture, if one was kept and the image is still the one made from it.
 * Pass the rebuilder the import used, for originals kept as rebuild fields.
 *
 * ```ts
 * const original = await unchangedTextureSource(texture, TEXTURE_REBUILDER);
 * files.set(original ? original.path : 'Textures/skin.pcx', original ? original.bytes : encodePcx(rgba));
 * ```
 */
export async function unchangedTextureSource(
  texture: Texture,
  rebuilder?: TextureRebuilder,
): Promise<TextureSource | undefined> {
  const image = texture.getImage();
  if (!image) return undefined;
  const kept = getKeptBytes(texture, TEXTURE_SOURCE_BYTES);
  const info = getKeptInfo(texture, TEXTURE_SOURCE_BYTES);
  if (kept && info && typeof info.path === 'string') {
    if (typeof info.imageSha256 === 'string' && (await sha256Hex(image)) !== info.imageSha256)
      return undefined;
    return { path: info.path, bytes: kept };
  }
  const residual = getKeptBytes(texture, TEXTURE_SOURCE_RESIDUAL);
  const fields = getKeptInfo(texture, TEXTURE_SOURCE_RESIDUAL);
  if (residual && fields && typeof fields.path === 'string') {
    if (typeof fields.imageSha256 !== 'string' || (await sha256Hex(image)) !== fields.imageSha256)
      return undefined;
    const bytes = rebuilder?.rebuild(fields, image, texture.getMimeType(), residual);
    if (!bytes) return undefined;
    // the original's hash guards against a rebuilder that predicts differently from the writer's
    if (typeof fields.sourceSha256 === 'string' && (await sha256Hex(bytes)) !== fields.sourceSha256)
      return undefined;
    return { path: fields.path, bytes };
  }
  const stored = textureSourceRecord(texture);
  if (!stored) return undefined;
  if (stored.imageSha256 !== undefined && (await sha256Hex(image)) !== stored.imageSha256) return undefined;
  if (stored.data !== undefined) return { path: stored.path, bytes: decodeBase64(stored.data) };
  if (stored.rebuild) {
    const bytes = rebuilder?.rebuild(stored.rebuild, image, texture.getMimeType());
    return bytes ? { path: stored.path, bytes } : undefined;
  }
  // the original is the image (while it is of the kind the path names)
  return imageMatchesPath(image, stored.path) ? { path: stored.path, bytes: image } : undefined;
}

/** The path the original file had, kept or not unchanged (for naming re-encoded textures). */
export function textureSourcePath(texture: Texture): string | undefined {
  for (const key of [TEXTURE_SOURCE_BYTES, TEXTURE_SOURCE_RESIDUAL]) {
    const info = getKeptInfo(texture, key);
    if (info && typeof info.path === 'string') return info.path;
  }
  return textureSourceRecord(texture)?.path;
}

function imageMatchesPath(image: Uint8Array, path: string): boolean {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  if (ext === 'png') return image[0] === 0x89 && image[1] === 0x50 && image[2] === 0x4e && image[3] === 0x47;
  if (ext === 'jpg' || ext === 'jpeg') return image[0] === 0xff && image[1] === 0xd8;
  if (ext === 'webp')
    return image[8] === 0x57 && image[9] === 0x45 && image[10] === 0x42 && image[11] === 0x50;
  return false;
}

function textureSourceRecord(texture: Texture): StoredSource | undefined {
  const s = (texture.getExtras() as Record<string, unknown>)[TEXTURE_SOURCE_KEY] as StoredSource | undefined;
  if (!s || typeof s !== 'object' || typeof s.path !== 'string') return undefined;
  if (s.imageSha256 !== undefined && typeof s.imageSha256 !== 'string') return undefined;
  if (s.data !== undefined && (typeof s.data !== 'string' || s.imageSha256 === undefined)) return undefined;
  if (s.rebuild !== undefined && (typeof s.rebuild !== 'object' || s.rebuild === null)) return undefined;
  return s;
}

/**
 * `--lean`: drops every kept original and leftover of a document — the `GLTF_LEGACY_kept_bytes`
 * extension with all its bytes, and the texture-source records (`extras.gltfLegacySource`) — for
 * delivery to engines. An export from the result re-encodes textures and writes no trailing bytes.
 * Returns the number of kept bytes dropped.
 *
 * ```ts
 * const dropped = leanDocument(doc);
 * ```
 */
export function leanDocument(doc: Document): number {
  for (const t of doc.getRoot().listTextures()) if (textureSourceRecord(t)) setRecord(t, undefined);
  return dropKeptBytes(doc);
}
