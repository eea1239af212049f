/**
 * `.mdl` morphs → glTF morph targets: one target per morph on every primitive (glTF needs the same
 * count on all), dense deltas mirrored to glTF space (sparse accessors when most vertices do not
 * move); vertex buffers a morph does not touch share one all-zero accessor per vertex count.
 */
import { type AxisMap, FormatError } from '@gltf-legacy/core';
import type { Accessor, Document } from '@gltf-transform/core';
import type { MdlModel } from '../mdl.js';
import { mirrorVec3 } from '../space.js';

/** Per morph, per vertex buffer: attribute → target accessor. */
export function importMorphs(
  doc: Document,
  model: MdlModel,
  vbAttrs: Map<string, Accessor>[],
  mirror: AxisMap,
): Map<string, Accessor>[][] {
  const channels: [string, 'positions' | 'normals' | 'tangents'][] = [
    ['POSITION', 'positions'],
    ['NORMAL', 'normals'],
    ['TANGENT', 'tangents'],
  ];
  const usedChannels = channels.filter(([, key]) =>
    model.morphs.some((mm) => mm.buffers.some((b) => b[key])),
  );
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
        out.set(
          attr,
          doc
            .createAccessor(`morph${mi}.vb${v}.${attr}`)
            .setType('VEC3')
            .setArray(dense)
            // Sparse storage when most vertices do not move (the usual case for morphs).
            .setSparse(bufs.reduce((n, b) => n + b.vertexCount, 0) * 2 < vb.vertexCount),
        );
      }
      return out;
    }),
  );
  return morphTargets;
}
