import { FormatError } from '@gltf-legacy/core';

/**
 * Limits every decoder checks before it allocates: a header may claim any size, the pixels are
 * allocated only when the claimed size fits these and the bytes left in the file.
 */
export interface TextureLimits {
  /** Largest width or height accepted (default 16384). */
  maxDimension: number;
  /** Largest decoded RGBA size in bytes (default 256 MiB). */
  maxDecodedBytes: number;
}

export const TEXTURE_LIMITS: Readonly<TextureLimits> = Object.freeze({
  maxDimension: 16384,
  maxDecodedBytes: 256 * 1024 * 1024,
});

/** Throws a FormatError (code BAD_TEXTURE unless given). */
export function textureError(
  detail: string,
  file: string | undefined,
  offset?: number,
  field?: string,
  code = 'BAD_TEXTURE',
): never {
  throw new FormatError(detail, { code, file, offset, field });
}

/** Checks a claimed image size against {@link TEXTURE_LIMITS} before anything is allocated. */
export function checkDimensions(
  width: number,
  height: number,
  file: string | undefined,
  offset: number,
  field: string,
): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    textureError(`image size ${width}×${height} is empty or invalid`, file, offset, field);
  }
  const max = TEXTURE_LIMITS.maxDimension;
  if (width > max || height > max) {
    textureError(
      `image size ${width}×${height} exceeds the ${max}×${max} limit`,
      file,
      offset,
      field,
      'TEXTURE_TOO_LARGE',
    );
  }
  if (width * height * 4 > TEXTURE_LIMITS.maxDecodedBytes) {
    textureError(
      `image size ${width}×${height} decodes to more than ${TEXTURE_LIMITS.maxDecodedBytes} bytes`,
      file,
      offset,
      field,
      'TEXTURE_TOO_LARGE',
    );
  }
}

/** Little-endian u16 at `o` (caller checked bounds). */
export function u16(b: Uint8Array, o: number): number {
  return b[o]! | (b[o + 1]! << 8);
}

/** Little-endian u32 at `o` (caller checked bounds). */
export function u32(b: Uint8Array, o: number): number {
  return (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;
}

/** Throws unless `size` bytes are left at `offset`. */
export function need(
  bytes: Uint8Array,
  offset: number,
  size: number,
  file: string | undefined,
  field: string,
): void {
  if (offset + size > bytes.length) {
    textureError(
      `${field} needs ${size} bytes at offset ${offset}, the file has ${Math.max(0, bytes.length - offset)} left`,
      file,
      offset,
      field,
      'TRUNCATED',
    );
  }
}
