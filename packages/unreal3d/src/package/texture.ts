/**
 * `Texture` and `Palette` exports. A texture's properties give its format (`Format`, default P8),
 * palette and flags; its data is the mip chain (`TArray<FMipmap>`: a lazy byte array, USize,
 * VSize, UBits, VBits each). A palette is 256 `FColor` (R, G, B, A).
 */
import type { ByteReader } from '@gltf-legacy/core';
import { decodeBlocks, type RgbaImage } from '@gltf-legacy/textures';
import { readArrayCount, readLazyArrayHeader } from './lazy-array.js';
import type { PackageObject } from './object.js';

/** `ETextureFormat` of UE1. */
export const TEXTURE_FORMATS = ['P8', 'RGBA7', 'RGB16', 'DXT1', 'RGB8', 'RGBA8'] as const;

/** One mip level: its bytes as stored (a view into the package). */
export interface PackageMip {
  width: number;
  height: number;
  data: Uint8Array;
}

/** A texture read from a package. */
export interface PackageTexture {
  name: string;
  /** `ETextureFormat` id (0 P8, 3 DXT1, 5 RGBA8, …). */
  format: number;
  /** Palette object reference (P8). */
  palette: number;
  masked: boolean;
  mips: PackageMip[];
}

/** The name of a texture format id. */
export function textureFormatName(format: number): string {
  return TEXTURE_FORMATS[format] ?? `format ${format}`;
}

/** Bytes per pixel of level data, or undefined for block formats/unknown. */
function levelBytes(format: number, w: number, h: number): number | undefined {
  if (format === 0) return w * h;
  if (format === 3) return Math.max(1, Math.ceil(w / 4)) * Math.max(1, Math.ceil(h / 4)) * 8;
  if (format === 5) return w * h * 4;
  return undefined;
}

/**
 * Reads a texture's mip chain (the cursor on the class data).
 *
 * ```ts
 * const tex = readTexture(r, obj);
 * ```
 */
export function readTexture(r: ByteReader, obj: PackageObject): PackageTexture {
  const { props, version, end } = obj;
  const n = readArrayCount(r, 10, 'mips', end);
  const mips: PackageMip[] = [];
  for (let i = 0; i < n; i++) {
    const f = `mips[${i}]`;
    const h = readLazyArrayHeader(r, version, 1, `${f}.data`, end);
    const data = r.bytesView(h.count, `${f}.data`);
    const width = r.i32(`${f}.uSize`);
    const height = r.i32(`${f}.vSize`);
    r.u8(`${f}.uBits`);
    r.u8(`${f}.vBits`);
    mips.push({ width, height, data });
  }
  return {
    name: obj.name,
    format: props.number('Format', 0),
    palette: props.number('Palette', 0),
    masked: props.number('bMasked', 0) !== 0,
    mips,
  };
}

/** Reads a palette's 256 colours as RGBA bytes (the cursor on the class data). */
export function readPalette(r: ByteReader, obj: PackageObject): Uint8Array {
  const n = readArrayCount(r, 4, 'colors', obj.end);
  return r.bytesCopy(n * 4, 'colors');
}

/**
 * Decodes mip 0 to RGBA: P8 through `palette` (index 0 transparent when `masked`), RGBA8 (stored
 * BGRA), DXT1. Returns undefined for formats this reader does not decode.
 *
 * ```ts
 * const rgba = decodeTextureMip(tex, paletteRgba, tex.masked);
 * ```
 */
export function decodeTextureMip(
  tex: PackageTexture,
  palette: Uint8Array | undefined,
  masked: boolean,
): RgbaImage | undefined {
  const mip = tex.mips[0];
  if (!mip || mip.width <= 0 || mip.height <= 0 || mip.width > 8192 || mip.height > 8192) return undefined;
  const need = levelBytes(tex.format, mip.width, mip.height);
  if (need === undefined || mip.data.length < need) return undefined;
  const { width, height } = mip;
  const out = new Uint8Array(width * height * 4);
  if (tex.format === 0) {
    if (!palette) return undefined;
    const colours = palette.length >> 2;
    for (let i = 0; i < width * height; i++) {
      const p = mip.data[i];
      if (p >= colours) continue;
      out[4 * i] = palette[4 * p];
      out[4 * i + 1] = palette[4 * p + 1];
      out[4 * i + 2] = palette[4 * p + 2];
      out[4 * i + 3] = masked && p === 0 ? 0 : 255;
    }
  } else if (tex.format === 5) {
    for (let i = 0; i < width * height; i++) {
      out[4 * i] = mip.data[4 * i + 2];
      out[4 * i + 1] = mip.data[4 * i + 1];
      out[4 * i + 2] = mip.data[4 * i];
      out[4 * i + 3] = mip.data[4 * i + 3];
    }
  } else {
    decodeBlocks('bc1', mip.data, 0, width, height, out);
  }
  return { width, height, data: out };
}
