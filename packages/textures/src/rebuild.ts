/**
 * Original texture files made back from the glTF image plus a few header bytes (core's
 * `TextureRebuilder`), so a `.glb` need not carry them: an 8-bit PCX from the indexed PNG that
 * holds its indices and palette (`pcxToGltfImage`), a BMP or TGA from the RGBA of the PNG. The
 * fields are `{ kind, options…, patch }` where `patch` lists the bytes where the file differs from
 * our encoder's output (`"offset:hex offset:hex"`, at most {@link MAX_PATCH} of them; usually
 * empty). Core keeps the fields only when the rebuild gives the file back byte for byte, else the
 * file's bytes: nothing is ever lost.
 */
import type { KeptInfo, TextureRebuilder } from '@gltf-legacy/core';
import { encodeBmp } from './bmp.js';
import { ddsResidual, rebuildDds } from './dds-rebuild.js';
import { decodePcx } from './pcx.js';
import { encodePcxIndexed } from './pcx-encode.js';
import { decodePng, decodePngIndexed, encodePngIndexed } from './png.js';
import { sniffTexture } from './sniff.js';
import { encodeTga } from './tga.js';
import type { GltfImage } from './types.js';

/** Most differing bytes a rebuild may patch (beyond that the file is kept as bytes). */
export const MAX_PATCH = 48;

/**
 * The glTF image of an 8-bit paletted PCX: an indexed PNG with the PCX's 256-entry palette in its
 * order and its indices unchanged (the same information, so the PCX rebuilds from it); entry 0
 * transparent when `transparentIndex0` (Unreal's masked skins). Undefined for other PCX.
 *
 * ```ts
 * const { bytes: png, image } = pcxToGltfImage(pcx, 'JSporifier.pcx')!;
 * ```
 */
export function pcxToGltfImage(
  bytes: Uint8Array,
  name?: string,
  options: { transparentIndex0?: boolean } = {},
): GltfImage | undefined {
  const pcx = decodePcx(bytes, { file: name });
  if (!pcx.indices || !pcx.palette) return undefined;
  if (options.transparentIndex0)
    for (let i = 0; i < pcx.indices.length; i++) if (!pcx.indices[i]) pcx.data[i * 4 + 3] = 0;
  const png = encodePngIndexed(pcx.width, pcx.height, pcx.indices, pcx.palette, options);
  return {
    bytes: png,
    mimeType: 'image/png',
    image: { width: pcx.width, height: pcx.height, data: pcx.data },
  };
}

function diffPatch(original: Uint8Array, rebuilt: Uint8Array): string | undefined {
  if (original.byteLength !== rebuilt.byteLength) return undefined;
  const parts: string[] = [];
  for (let i = 0; i < original.byteLength; i++)
    if (original[i] !== rebuilt[i]) {
      if (parts.length === MAX_PATCH) return undefined;
      parts.push(`${i}:${original[i]!.toString(16).padStart(2, '0')}`);
    }
  return parts.join(' ');
}

function applyPatch(bytes: Uint8Array, patch: unknown): Uint8Array | undefined {
  if (typeof patch !== 'string') return undefined;
  for (const part of patch.split(' ')) {
    if (!part) continue;
    const [o, v] = part.split(':');
    const at = Number(o);
    const value = Number.parseInt(v ?? '', 16);
    if (!Number.isInteger(at) || at < 0 || at >= bytes.byteLength || !(value >= 0 && value < 256))
      return undefined;
    bytes[at] = value;
  }
  return bytes;
}

/** Our encoder's file for these fields and this image (before the patch). */
function encodeFor(fields: KeptInfo, image: Uint8Array): Uint8Array | undefined {
  switch (fields.kind) {
    case 'pcx': {
      const indexed = decodePngIndexed(image);
      if (!indexed) return undefined;
      if (indexed.palette.byteLength !== 768) return undefined;
      return encodePcxIndexed(indexed.width, indexed.height, indexed.indices, indexed.palette, {
        dpi: typeof fields.dpi === 'number' ? fields.dpi : 72,
      });
    }
    case 'bmp': {
      const bpp = fields.bitsPerPixel;
      if (bpp !== 24 && bpp !== 32) return undefined;
      return encodeBmp(decodePng(image), { bitsPerPixel: bpp });
    }
    case 'tga': {
      const bpp = fields.bitsPerPixel;
      if (bpp !== 24 && bpp !== 32) return undefined;
      return encodeTga(decodePng(image), { bitsPerPixel: bpp, rle: fields.rle === true });
    }
    default:
      return undefined;
  }
}

/** The encoder settings to try for an original of this kind. */
function candidates(original: Uint8Array, path: string): KeptInfo[] {
  const kind = sniffTexture(original, path);
  if (kind === 'pcx' && original.byteLength >= 16) {
    const dpi = original[12]! | (original[13]! << 8);
    return [{ kind: 'pcx', dpi }];
  }
  if (kind === 'bmp')
    return [
      { kind: 'bmp', bitsPerPixel: 24 },
      { kind: 'bmp', bitsPerPixel: 32 },
    ];
  if (kind === 'tga')
    return [24, 32].flatMap((bitsPerPixel) => [
      { kind: 'tga', bitsPerPixel, rle: false },
      { kind: 'tga', bitsPerPixel, rle: true },
    ]);
  return [];
}

/**
 * Rebuilds PCX (8-bit paletted, from an indexed PNG made by {@link pcxToGltfImage}), BMP and
 * TGA (24/32-bit, from the PNG's RGBA) originals, and block-compressed DDS from the PNG plus a
 * residual (`dds-rebuild.ts`). Pass it to core's `keepTextureSource` and
 * `unchangedTextureSource`.
 *
 * ```ts
 * await keepTextureSource(texture, 'Textures/Skin.pcx', pcxBytes, TEXTURE_REBUILDER);
 * const original = await unchangedTextureSource(texture, TEXTURE_REBUILDER);
 * ```
 */
export const TEXTURE_REBUILDER: TextureRebuilder = {
  describe(original, path, image, mimeType) {
    if (mimeType !== 'image/png') return undefined;
    for (const fields of candidates(original, path)) {
      let rebuilt: Uint8Array | undefined;
      try {
        rebuilt = encodeFor(fields, image);
      } catch {
        continue;
      }
      const patch = rebuilt && diffPatch(original, rebuilt);
      if (patch !== undefined) return { ...fields, patch };
    }
    return undefined;
  },
  residual(original, path, image, mimeType) {
    if (mimeType !== 'image/png' || sniffTexture(original, path) !== 'dds') return undefined;
    try {
      return ddsResidual(original, image);
    } catch {
      return undefined;
    }
  },
  rebuild(fields, image, mimeType, residual) {
    if (mimeType !== 'image/png') return undefined;
    try {
      if (fields.kind === 'dds') return residual && rebuildDds(fields, image, residual);
      const bytes = encodeFor(fields, image);
      return bytes && applyPatch(bytes, fields.patch);
    } catch {
      return undefined;
    }
  },
};
