import { FormatError } from '@gltf-legacy/core';
import type { TsoMesh } from './mesh.js';

/**
 * A NaN or infinite vertex coordinate has no glTF meaning (glTF accessors hold finite floats):
 * bound to a rotated bone, ∞·0 and ∞−∞ give NaN positions, and JavaScript does not keep NaN bit
 * patterns through the X mirror, so import could not give the same file back: such meshes are
 * rejected (`NAN_VERTEX`). The file model reads them unchanged.
 */
export function rejectNonFinite(mesh: TsoMesh, size: number, file: string): void {
  const real = mesh.realVertices;
  const blend = mesh.blendVertices;
  const realAt = size - mesh.trailing.length - 4 * (real.length + blend.length);
  for (const [arr, field, at] of [
    [real, 'realVertices', realAt],
    [blend, 'blendVertices', realAt + 4 * real.length],
  ] as const) {
    for (let i = 0; i < arr.length; i++) {
      // x − x is 0 for finite x, NaN for NaN and ±∞
      if (arr[i] - arr[i] !== 0)
        throw new FormatError(`vertex ${Math.floor(i / 6)} has a non-finite coordinate (${arr[i]})`, {
          code: 'NAN_VERTEX',
          file,
          offset: at + 4 * i,
          field: `${field}[${i}]`,
        });
    }
  }
}
