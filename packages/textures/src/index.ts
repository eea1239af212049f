/**
 * @gltf-legacy/textures — the game texture files of all five formats ⇄ RGBA ⇄ the images glTF
 * holds. Knows no game and no glTF document: format packages call it from their mapping layer.
 *
 * API CONTRACT (fixed; implementations live in one file per codec):
 * - `RgbaImage`: `{ width, height, data }`, `data` is RGBA8, rows top-down, length w*h*4.
 * - `sniffTexture(bytes, name?)` → `TextureKind | undefined` (by magic first, extension second).
 * - `decodeTexture(bytes, name?)` → `RgbaImage` of the first (largest) mip; throws FormatError.
 * - `encodeTexture(image, kind, options?)` → bytes of that kind.
 * - `toGltfImage(bytes, name?)` → `{ bytes, mimeType, image? }`: PNG/JPEG/WebP pass through
 *   unchanged; PCX/BMP/TGA/DDS are decoded and encoded as PNG (`image` is the decoded RGBA).
 * - `fromGltfImage(bytes, mimeType)` → `RgbaImage` (PNG, JPEG).
 * - `alphaUse(image)` → 'opaque' | 'mask' | 'blend'.
 */
export * from './types.js';
export { alphaUse, hasAlpha } from './alpha.js';
export { decodeTexture, encodeTexture, fromGltfImage, sniffTexture, toGltfImage } from './api.js';
export { TEXTURE_LIMITS, type TextureLimits } from './limits.js';
export {
  decodePng,
  decodePngIndexed,
  ENCODE_PNG_DEFAULTS,
  type EncodePngOptions,
  encodePng,
  encodePngIndexed,
} from './png.js';
export { type PngPixels, type WritePngOptions, writePng, zlibDeflate } from './png-write.js';
export { MAX_PATCH, pcxToGltfImage, TEXTURE_REBUILDER } from './rebuild.js';
export { DDS_RESIDUAL_LEVEL, ddsResidual, rebuildDds } from './dds-rebuild.js';
export { predictBlocks } from './bc-predict.js';
export { decodeJpeg } from './jpeg.js';
export { decodePcx, DECODE_PCX_DEFAULTS, type DecodePcxOptions, type PcxImage } from './pcx.js';
export { encodePcx, encodePcxIndexed, ENCODE_PCX_DEFAULTS, type EncodePcxOptions } from './pcx-encode.js';
export { palettize, PALETTIZE_DEFAULTS, type IndexedImage, type PalettizeOptions } from './quantize.js';
export { type BmpImage, decodeBmp, encodeBmp, ENCODE_BMP_DEFAULTS, type EncodeBmpOptions } from './bmp.js';
export { decodePaletted, maskPaletteIndex0, type PalettedImage } from './paletted.js';
export { decodeTga, encodeTga, ENCODE_TGA_DEFAULTS, type EncodeTgaOptions } from './tga.js';
export { encodeDds, encodeBlocks, ENCODE_DDS_DEFAULTS, type EncodeDdsOptions } from './dds-encode.js';
export { encodeAlphaBlock, encodeColourBlock } from './bc-encode.js';
export { downsample, mipChain } from './mips.js';
export { decodeDds, DECODE_DDS_DEFAULTS, type DecodeDdsOptions, type DdsImage } from './dds.js';
export { readDdsHeader, type DdsInfo, type DdsLevel, type DdsPixelFormat } from './dds-header.js';
export {
  BC_BLOCK_BYTES,
  bcLevelSize,
  decodeBcBlock,
  decodeBlocks,
  EXPAND5,
  EXPAND6,
  type BcFormat,
} from './bc.js';
