/**
 * Axis-aligned bounds of xyz points: the one min/max loop every exporter that writes a bounding
 * box uses (UNIGINE surfaces, Urho3D geometries and models).
 */

/**
 * Extends `min`/`max` (3 numbers each, updated in place) by the points of `positions` (xyz
 * triples): all of them, or only those `indices` names. A NaN coordinate never extends them (the
 * comparisons are false), as every caller relied on.
 *
 * ```ts
 * const min = [Infinity, Infinity, Infinity];
 * const max = [-Infinity, -Infinity, -Infinity];
 * extendBounds(new Float32Array([0, 1, 2, -1, 5, 0]), min, max); // min [-1, 1, 0], max [0, 5, 2]
 * ```
 */
export function extendBounds(
  positions: ArrayLike<number>,
  min: { [i: number]: number },
  max: { [i: number]: number },
  indices?: ArrayLike<number>,
  from = 0,
  to = indices ? indices.length : Math.floor(positions.length / 3),
): void {
  let x0 = min[0];
  let y0 = min[1];
  let z0 = min[2];
  let x1 = max[0];
  let y1 = max[1];
  let z1 = max[2];
  for (let k = from; k < to; k++) {
    const i = (indices ? indices[k] : k) * 3;
    const x = positions[i];
    const y = positions[i + 1];
    const z = positions[i + 2];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (z < z0) z0 = z;
    if (z > z1) z1 = z;
  }
  min[0] = x0;
  min[1] = y0;
  min[2] = z0;
  max[0] = x1;
  max[1] = y1;
  max[2] = z1;
}
