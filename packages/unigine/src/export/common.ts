/**
 * Small helpers every export step shares: f64 matrices, world matrices, `extras.unigine` access.
 */
import type { Node } from '@gltf-transform/core';
import type { mat4 } from 'gl-matrix';

export type M4 = Float64Array;
export const asMat = (m: M4) => m as unknown as mat4;

export const UNUSED = 0xffffffff;
export function worldMatrix(node: Node): M4 {
  const m = new Float64Array(16);
  const w = node.getWorldMatrix();
  for (let i = 0; i < 16; i++) m[i] = w[i];
  return m;
}

export function isIdentity(m: ArrayLike<number>, eps = 1e-9): boolean {
  for (let i = 0; i < 16; i++) if (Math.abs(m[i] - (i % 5 === 0 ? 1 : 0)) > eps) return false;
  return true;
}

export function unigineExtras(obj: {
  getExtras(): Record<string, unknown>;
}): Record<string, unknown> | undefined {
  const u = obj.getExtras()?.unigine;
  return u && typeof u === 'object' ? (u as Record<string, unknown>) : undefined;
}
