/**
 * Face-normal accumulation for smooth vertex normals: the hot loop shared by the mappings that
 * generate normals. Each package normalizes the sums itself (its fallback for a vertex without
 * area and its axes differ).
 */

/**
 * Adds every triangle's unnormalized face normal `cross(p[b] − p[a], p[c] − p[a])` (its length is
 * twice the triangle's area, so larger faces weigh more) to its three corners in `out` (packed
 * xyz per vertex, summed in float32, triangles in order). `pos` holds packed xyz positions;
 * `tris` a triangle list (a trailing partial triangle is ignored); `mask[t]` zero skips triangle
 * `t` (null: all count).
 *
 * ```ts
 * const sums = new Float32Array(pos.length);
 * accumulateFaceNormals(pos, indices, sums);
 * // then divide each xyz by its length
 * ```
 */
export function accumulateFaceNormals(
  pos: Float32Array,
  tris: Uint32Array | Uint16Array,
  out: Float32Array,
  mask: Uint8Array | null = null,
): void {
  for (let i = 0, t = 0; i + 2 < tris.length; i += 3, t++) {
    if (mask !== null && !mask[t]) continue; // past the mask's end: skipped too
    const a = tris[i] * 3;
    const b = tris[i + 1] * 3;
    const c = tris[i + 2] * 3;
    const ux = pos[b] - pos[a];
    const uy = pos[b + 1] - pos[a + 1];
    const uz = pos[b + 2] - pos[a + 2];
    const vx = pos[c] - pos[a];
    const vy = pos[c + 1] - pos[a + 1];
    const vz = pos[c + 2] - pos[a + 2];
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    out[a] += nx;
    out[a + 1] += ny;
    out[a + 2] += nz;
    out[b] += nx;
    out[b + 1] += ny;
    out[b + 2] += nz;
    out[c] += nx;
    out[c + 1] += ny;
    out[c + 2] += nz;
  }
}
