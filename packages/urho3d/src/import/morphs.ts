/**
 * `.mdl` morphs → glTF morph targets: one target per morph on every primitive (glTF needs the same
 * count on all), deltas mirrored to glTF space, stored as sparse accessors when at most half the
 * vertices move (see {@link sparseWins}); vertex buffers a morph does not touch share one all-zero
 * accessor per vertex count. `frameNormals: false` leaves the NORMAL / TANGENT deltas out.
 * The deltas stay float32: they are float32 in the file, so there is nothing to quantize back to.
 */
import { type AxisMap, FormatError } from '@gltf-legacy/core';
import type { Accessor, Document } from '@gltf-transform/core';
import type { MdlModel } from '../mdl.js';
import { mirrorVec3, uniformZeroSigns } from '../space.js';

type Channel = [string, 'positions' | 'normals' | 'tangents'];

/**
 * Per morph, per vertex buffer: attribute → target accessor. `frameNormals: false` keeps only the
 * POSITION deltas (every morph still gets its target, all-zero if it moved normals only).
 *
 * ```ts
 * const targets = importMorphs(doc, model, vb.vbAttrs, urhoMirror('gltf'), true);
 * targets[0][0].get('POSITION')?.getSparse(); // true when at most half the vertices move
 * ```
 */
export function importMorphs(
  doc: Document,
  model: MdlModel,
  vbAttrs: Map<string, Accessor>[],
  mirror: AxisMap,
  frameNormals = true,
): Map<string, Accessor>[][] {
  const channels: Channel[] = [
    ['POSITION', 'positions'],
    ['NORMAL', 'normals'],
    ['TANGENT', 'tangents'],
  ];
  const usedChannels = frameNormals
    ? channels.filter(([, key]) => model.morphs.some((mm) => mm.buffers.some((b) => b[key])))
    : model.morphs.some((mm) => mm.buffers.length)
      ? channels.slice(0, 1)
      : [];
  let denseFloats = 0;
  for (const m of model.morphs)
    for (const b of m.buffers)
      denseFloats += model.vertexBuffers[b.vertexBuffer].vertexCount * 3 * usedChannels.length;
  if (denseFloats > 1 << 28) {
    throw new FormatError(`morphs would expand to ${denseFloats} floats of dense glTF targets`, {
      code: 'TOO_LARGE',
      field: 'morphs',
    });
  }
  const zeroCache = new Map<string, Accessor>();
  const morphTargets: Map<string, Accessor>[][] = model.morphs.map((m, mi) =>
    model.vertexBuffers.map((vb, v) => {
      const out = new Map<string, Accessor>();
      const bufs = m.buffers.filter((b) => b.vertexBuffer === v);
      for (const [attr, key] of usedChannels) {
        if (!vbAttrs[v].has(attr)) continue;
        if (!bufs.some((b) => b[key])) {
          // all-zero VEC3 targets of the same vertex count are one accessor (any buffer, channel)
          const zk = `${vb.vertexCount}`;
          let zero = zeroCache.get(zk);
          if (!zero) {
            zero = doc
              .createAccessor(`zeroMorph${vb.vertexCount}`)
              .setType('VEC3')
              .setArray(new Float32Array(vb.vertexCount * 3))
              .setSparse(true);
            zeroCache.set(zk, zero);
          }
          out.set(attr, zero);
          continue;
        }
        const dense = new Float32Array(vb.vertexCount * 3);
        // buffers whose zero deltas mix sign patterns: those keep their bits (one pattern: +0 here,
        // the pattern in the model extras, so a sparse target can drop them)
        const mixed = bufs.filter((b) => b[key] && uniformZeroSigns(b[key]) === null);
        for (const b of bufs) {
          const src = b[key];
          if (!src) continue;
          for (let i = 0; i < b.vertexCount; i++) {
            const o = b.indices[i] * 3;
            dense[o] = src[i * 3];
            dense[o + 1] = src[i * 3 + 1];
            dense[o + 2] = src[i * 3 + 2];
          }
        }
        mirrorVec3(dense, 3, mirror);
        // zero deltas are not mirrored (keepZeroDeltas, as export does): +0, or the file's bits
        for (let o = 0; o < dense.length; o += 3) {
          if (dense[o] === 0 && dense[o + 1] === 0 && dense[o + 2] === 0) {
            dense[o] = 0;
            dense[o + 1] = 0;
            dense[o + 2] = 0;
          }
        }
        for (const b of mixed) {
          const src = b[key]!;
          for (let i = 0; i < b.vertexCount; i++) {
            if (src[i * 3] === 0 && src[i * 3 + 1] === 0 && src[i * 3 + 2] === 0)
              dense.set(src.subarray(i * 3, i * 3 + 3), b.indices[i] * 3);
          }
        }
        out.set(
          attr,
          doc
            .createAccessor(`morph${mi}.vb${v}.${attr}`)
            .setType('VEC3')
            .setArray(dense)
            .setSparse(sparseWins(dense)),
        );
      }
      return out;
    }),
  );
  return morphTargets;
}

/**
 * Whether a VEC3 delta array is stored sparse. glTF-Transform's writer keeps the elements with a
 * component whose magnitude is above 0 (±0 and NaN count as "not moved"), reads the others back
 * as +0, and logs "sparse accessors have >50% non-zero elements" above half. Sparse when at most
 * half the elements move — then it is always smaller than dense: k·(12 + index bytes ≤ 4) ≤ 8n
 * < 12n — and every element it would drop is exactly +0 (no NaN, no -0, which a `.glb` would
 * lose: the export would not give the file's bytes back).
 *
 * ```ts
 * sparseWins(Float32Array.of(0, 0, 0, 0, 0, 0, 1, 0, 0)); // true: 1 of 3 moves
 * sparseWins(Float32Array.of(0, -0, 0, 1, 0, 0)); // false: the -0 would come back as +0
 * ```
 */
export function sparseWins(deltas: Float32Array): boolean {
  const n = deltas.length / 3;
  let moved = 0;
  for (let i = 0; i < deltas.length; i += 3) {
    const x = deltas[i];
    const y = deltas[i + 1];
    const z = deltas[i + 2];
    if (Number.isNaN(x) || Number.isNaN(y) || Number.isNaN(z)) return false;
    if (x !== 0 || y !== 0 || z !== 0) moved++;
    else if (Object.is(x, -0) || Object.is(y, -0) || Object.is(z, -0)) return false;
  }
  return moved * 2 <= n;
}
