/** Unpacking container inputs (`.pak`) so that their limits are reported, not swallowed. */
import { baseName, type FileSet, type LegacyFormat, ResourceError } from '@gltf-legacy/core';

/** Error codes of unpacking that are answers, not "this is not a container". */
const LIMIT_CODES = new Set(['UNPACKED_TOO_LARGE', 'RESOURCE_TOO_LARGE', 'ENCRYPTED_ENTRY']);

/**
 * The entries of a container input, or undefined when the file is not one (like core's
 * `tryUnpack`: the format must be a container with `unpack`, the name must not be its main file,
 * and unpacking must succeed). Unlike `tryUnpack`, a decompression limit (`UNPACKED_TOO_LARGE`)
 * or a refused path is thrown, so the user sees it instead of a "not a container" error.
 *
 * ```ts
 * const entries = unpackInput(urho3d, bytes, 'Data.pak'); // Map('Models/Box.mdl' → bytes, …)
 * ```
 */
export function unpackInput(format: LegacyFormat, bytes: Uint8Array, name: string): FileSet | undefined {
  if (!format.capabilities.container || !format.unpack) return undefined;
  if (baseName(name).toLowerCase().endsWith(format.mainExtension.toLowerCase())) return undefined;
  try {
    return format.unpack(bytes, baseName(name));
  } catch (e) {
    if (e instanceof ResourceError || LIMIT_CODES.has((e as { code?: string })?.code ?? '')) throw e;
    return undefined;
  }
}
