import type { BcFormat } from './bc.js';
import { bcLevelSize } from './bc.js';
import { checkDimensions, need, textureError, u32 } from './limits.js';

/** The pixel layout of a DDS: a block format, or uncompressed pixels described by bit masks. */
export type DdsPixelFormat =
  | { kind: 'bc'; format: BcFormat }
  | {
      kind: 'masks';
      bitCount: 8 | 16 | 24 | 32;
      /** R, G, B, A masks (0 = channel absent; luminance files use R for grey). */
      masks: [number, number, number, number];
      luminance: boolean;
    };

/** One mip level: its size and where its bytes are. */
export interface DdsLevel {
  width: number;
  height: number;
  offset: number;
  size: number;
}

/** What a DDS header says. */
export interface DdsInfo {
  width: number;
  height: number;
  pixelFormat: DdsPixelFormat;
  /** Mip levels, largest first (at least one). */
  levels: DdsLevel[];
  /** The FourCC (`DXT1`, `ATI2`, `DX10`, …) or '' for uncompressed files. */
  fourCC: string;
  /** The DXGI format number when the file has a DX10 extended header. */
  dxgiFormat?: number;
  /** True for the `_SRGB` DXGI formats. */
  srgb: boolean;
}

const DDSD_MIPMAPCOUNT = 0x20000;
const DDPF_ALPHAPIXELS = 0x1;
const DDPF_ALPHA = 0x2;
const DDPF_FOURCC = 0x4;
const DDPF_RGB = 0x40;
const DDPF_LUMINANCE = 0x20000;
const DDSCAPS2_CUBEMAP = 0x200;
const DDSCAPS2_VOLUME = 0x200000;

const FOURCC: Record<string, BcFormat> = {
  DXT1: 'bc1',
  DXT2: 'bc2',
  DXT3: 'bc2',
  DXT4: 'bc3',
  DXT5: 'bc3',
  ATI1: 'bc4',
  BC4U: 'bc4',
  ATI2: 'bc5',
  BC5U: 'bc5',
};

const DXGI_BC: Record<number, BcFormat> = {
  70: 'bc1',
  71: 'bc1',
  72: 'bc1',
  73: 'bc2',
  74: 'bc2',
  75: 'bc2',
  76: 'bc3',
  77: 'bc3',
  78: 'bc3',
  79: 'bc4',
  80: 'bc4',
  82: 'bc5',
  83: 'bc5',
};
const DXGI_SRGB = new Set([29, 72, 75, 78, 91, 93]);
const RGBA_MASKS: [number, number, number, number] = [0xff, 0xff00, 0xff0000, 0xff000000];
const BGRA_MASKS: [number, number, number, number] = [0xff0000, 0xff00, 0xff, 0xff000000];
const BGRX_MASKS: [number, number, number, number] = [0xff0000, 0xff00, 0xff, 0];
const DXGI_MASKS: Record<number, [number, number, number, number]> = {
  27: RGBA_MASKS,
  28: RGBA_MASKS,
  29: RGBA_MASKS,
  87: BGRA_MASKS,
  90: BGRA_MASKS,
  91: BGRA_MASKS,
  88: BGRX_MASKS,
  92: BGRX_MASKS,
  93: BGRX_MASKS,
};

function fourCCText(v: number): string {
  return String.fromCharCode(v & 255, (v >> 8) & 255, (v >> 16) & 255, (v >>> 24) & 255);
}

function levelSize(pf: DdsPixelFormat, w: number, h: number): number {
  return pf.kind === 'bc' ? bcLevelSize(pf.format, w, h) : ((w * pf.bitCount + 7) >> 3) * h;
}

/**
 * Reads a DDS header (with the DX10 extension when the FourCC is `DX10`) and lays out its mip
 * chain. Cube maps, volume textures and formats other than BC1–BC5 and 8/16/24/32-bit masks are
 * refused with a FormatError; so is a mip chain the file does not hold completely.
 *
 * ```ts
 * const info = readDdsHeader(bytes, 'slug_dif.dds');
 * info.pixelFormat; // { kind: 'bc', format: 'bc1' }
 * info.levels.length; // 11
 * ```
 */
export function readDdsHeader(bytes: Uint8Array, file?: string): DdsInfo {
  need(bytes, 0, 128, file, 'header');
  if (u32(bytes, 0) !== 0x20534444) textureError('not a DDS (no "DDS " magic)', file, 0, 'magic');
  if (u32(bytes, 4) !== 124) textureError(`header size ${u32(bytes, 4)} is not 124`, file, 4, 'dwSize');
  const flags = u32(bytes, 8);
  const height = u32(bytes, 12);
  const width = u32(bytes, 16);
  checkDimensions(width, height, file, 12, 'dwHeight/dwWidth');
  const claimedMips = u32(bytes, 28);
  const pfFlags = u32(bytes, 80);
  const fourCCValue = u32(bytes, 84);
  const caps2 = u32(bytes, 112);
  if (caps2 & DDSCAPS2_CUBEMAP) {
    textureError(
      'cube maps are not supported (a model texture is one 2D image)',
      file,
      112,
      'dwCaps2',
      'UNSUPPORTED_TEXTURE',
    );
  }
  if (caps2 & DDSCAPS2_VOLUME)
    textureError('volume textures are not supported', file, 112, 'dwCaps2', 'UNSUPPORTED_TEXTURE');
  let offset = 128;
  let fourCC = '';
  let dxgiFormat: number | undefined;
  let pixelFormat: DdsPixelFormat;
  if (pfFlags & DDPF_FOURCC) {
    fourCC = fourCCText(fourCCValue);
    if (fourCC === 'DX10') {
      need(bytes, 128, 20, file, 'DDS_HEADER_DXT10');
      dxgiFormat = u32(bytes, 128);
      const dimension = u32(bytes, 132);
      const misc = u32(bytes, 136);
      offset = 148;
      if (misc & 0x4)
        textureError('cube maps are not supported', file, 136, 'miscFlag', 'UNSUPPORTED_TEXTURE');
      if (dimension !== 3 && dimension !== 0) {
        textureError(
          `resource dimension ${dimension} is not a 2D texture`,
          file,
          132,
          'resourceDimension',
          'UNSUPPORTED_TEXTURE',
        );
      }
      const bc = DXGI_BC[dxgiFormat];
      const masks = DXGI_MASKS[dxgiFormat];
      if (bc) pixelFormat = { kind: 'bc', format: bc };
      else if (masks) pixelFormat = { kind: 'masks', bitCount: 32, masks, luminance: false };
      else
        textureError(
          `DXGI format ${dxgiFormat} is not supported (BC1–BC5, R8G8B8A8, B8G8R8A8/X8)`,
          file,
          128,
          'dxgiFormat',
          'UNSUPPORTED_TEXTURE',
        );
    } else {
      const bc = FOURCC[fourCC];
      if (!bc)
        textureError(
          `FourCC ${JSON.stringify(fourCC)} is not supported`,
          file,
          84,
          'ddspf.dwFourCC',
          'UNSUPPORTED_TEXTURE',
        );
      pixelFormat = { kind: 'bc', format: bc };
    }
  } else if (pfFlags & (DDPF_RGB | DDPF_LUMINANCE | DDPF_ALPHA)) {
    const bitCount = u32(bytes, 88);
    if (bitCount !== 8 && bitCount !== 16 && bitCount !== 24 && bitCount !== 32) {
      textureError(
        `${bitCount} bits per pixel is not supported`,
        file,
        88,
        'ddspf.dwRGBBitCount',
        'UNSUPPORTED_TEXTURE',
      );
    }
    const alpha = pfFlags & (DDPF_ALPHAPIXELS | DDPF_ALPHA) ? u32(bytes, 104) : 0;
    const onlyAlpha = (pfFlags & (DDPF_RGB | DDPF_LUMINANCE)) === 0;
    pixelFormat = {
      kind: 'masks',
      bitCount,
      masks: [
        onlyAlpha ? 0 : u32(bytes, 92),
        onlyAlpha ? 0 : u32(bytes, 96),
        onlyAlpha ? 0 : u32(bytes, 100),
        alpha,
      ],
      luminance: (pfFlags & DDPF_LUMINANCE) !== 0,
    };
  } else {
    textureError(
      `pixel format flags 0x${pfFlags.toString(16)} name no format`,
      file,
      80,
      'ddspf.dwFlags',
      'UNSUPPORTED_TEXTURE',
    );
  }
  const maxMips = 32 - Math.clz32(Math.max(width, height));
  const mipCount = flags & DDSD_MIPMAPCOUNT && claimedMips > 0 ? claimedMips : 1;
  if (mipCount > maxMips) {
    textureError(
      `${mipCount} mip levels for ${width}×${height} (at most ${maxMips})`,
      file,
      28,
      'dwMipMapCount',
    );
  }
  const levels: DdsLevel[] = [];
  let w = width;
  let h = height;
  for (let i = 0; i < mipCount; i++) {
    const size = levelSize(pixelFormat, w, h);
    if (offset + size > bytes.length) {
      textureError(
        `mip level ${i} (${w}×${h}) needs ${size} bytes, the file has ${Math.max(0, bytes.length - offset)} left (truncated mip chain)`,
        file,
        offset,
        `mip[${i}]`,
        'TRUNCATED',
      );
    }
    levels.push({ width: w, height: h, offset, size });
    offset += size;
    w = Math.max(1, w >> 1);
    h = Math.max(1, h >> 1);
  }
  return {
    width,
    height,
    pixelFormat,
    levels,
    fourCC,
    dxgiFormat,
    srgb: dxgiFormat !== undefined && DXGI_SRGB.has(dxgiFormat),
  };
}
