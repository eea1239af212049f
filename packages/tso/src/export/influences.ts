/**
 * The joint influences export reads per vertex: at most two (the real vertex's bone, then the
 * blend vertex's), strongest first — core's `readInfluences(prim, 2)`, with a one-pass reader for
 * what the shared stage leaves.
 */
import { accessorFloats, readInfluences } from '@gltf-legacy/core';
import type { Primitive } from '@gltf-transform/core';

/**
 * The influences of every vertex, strongest first (the real vertex's bone, then the blend
 * vertex's): core's `readInfluences(prim, 2)`. After the shared stage no vertex has more than two
 * (`limitInfluences` kept the largest, `WEIGHTS_TRUNCATED`), so `truncated` is 0 on export.
 */
export function twoInfluences(
  prim: Primitive,
): { joints: Uint16Array; weights: Float32Array; truncated: number } | null {
  const fast = preparedInfluences(prim);
  if (fast) return fast;
  const inf = readInfluences(prim, 2);
  return inf && { joints: inf.joints, weights: inf.weights, truncated: inf.truncated };
}

/**
 * `readInfluences(prim, 2)` for what the shared stage leaves (one JOINTS_0/WEIGHTS_0 set, at most
 * two non-zero weights per vertex) in one pass without its general top-N machinery: the same
 * merging of a joint named twice, the same order (the larger first, the first on a tie) and the
 * same renormalization, so the result is identical. Null when a vertex has more than two joints
 * or the layout is another (the caller then uses `readInfluences`).
 */
function preparedInfluences(
  prim: Primitive,
): { joints: Uint16Array; weights: Float32Array; truncated: number } | null {
  const jAcc = prim.getAttribute('JOINTS_0');
  const wAcc = prim.getAttribute('WEIGHTS_0');
  if (!jAcc || !wAcc || prim.getAttribute('JOINTS_1') || prim.getAttribute('WEIGHTS_1')) return null;
  const size = jAcc.getElementSize();
  if (wAcc.getElementSize() !== size) return null;
  const js = accessorFloats(jAcc);
  const ws = accessorFloats(wAcc);
  const n = prim.getAttribute('POSITION')?.getCount() ?? 0;
  if (js.length < n * size || ws.length < n * size) return null;
  const joints = new Uint16Array(n * 2);
  const weights = new Float32Array(n * 2);
  for (let v = 0; v < n; v++) {
    let len = 0;
    let j0 = 0;
    let j1 = 0;
    let w0 = 0;
    let w1 = 0;
    for (let k = v * size, end = k + size; k < end; k++) {
      const wt = ws[k];
      if (!(wt > 0)) continue;
      const jt = js[k];
      if (len > 0 && jt === j0) w0 += wt;
      else if (len > 1 && jt === j1) w1 += wt;
      else if (len === 0) {
        j0 = jt;
        w0 = wt;
        len = 1;
      } else if (len === 1) {
        j1 = jt;
        w1 = wt;
        len = 2;
      } else return null;
    }
    if (len === 2 && w1 > w0) {
      const tj = j0;
      j0 = j1;
      j1 = tj;
      const tw = w0;
      w0 = w1;
      w1 = tw;
    }
    const kept = len === 2 ? w0 + w1 : w0;
    if (len > 0) {
      joints[v * 2] = j0;
      weights[v * 2] = kept > 0 ? w0 / kept : 0;
    }
    if (len > 1) {
      joints[v * 2 + 1] = j1;
      weights[v * 2 + 1] = kept > 0 ? w1 / kept : 0;
    }
  }
  return { joints, weights, truncated: 0 };
}
