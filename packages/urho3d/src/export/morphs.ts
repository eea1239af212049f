/**
 * Morph targets → Urho3D morphs: per vertex buffer, only the vertices a target moves (sparse), with
 * the element mask an imported model had, and each vertex buffer's morph range.
 */
import type { UrhoModelExtras } from '../extras.js';
import type { MdlMorph, MdlVertexBuffer } from '../mdl.js';
import { setZeroSigns } from '../space.js';
import type { VPrim } from './common.js';

type ZeroSigns = NonNullable<UrhoModelExtras['morphs'][number]['buffers'][number]['zeroSigns']>;

/** One morph per target name (`targetKeys` order), with a buffer for each vertex buffer it moves. */
export function buildMorphs(
  targetKeys: string[],
  groupList: VPrim[][],
  hx: UrhoModelExtras | undefined,
): MdlMorph[] {
  const morphs: MdlMorph[] = [];
  targetKeys.forEach((key, mi) => {
    const hm = hx?.morphs[mi];
    const morph: MdlMorph = { name: key, buffers: [] };
    groupList.forEach((group, v) => {
      const t = group[0].targets.find((x) => x.key === key);
      if (!t || (!t.pos && !t.nrm && !t.tan)) return;
      const n = group[0].vertexCount;
      const hb = hm?.name === key ? hm.buffers.find((b) => b.vertexBuffer === v) : undefined;
      let mask = hb ? hb.elementMask : (t.pos ? 1 : 0) | (t.nrm ? 2 : 0) | (t.tan ? 0x80 : 0);
      // an imported morph whose normal / tangent deltas were left out (frameNormals: false) keeps
      // them out rather than writing zeros (the import gives every morph of a vertex buffer with
      // NORMAL / TANGENT such a target otherwise; a buffer without one cannot have it in glTF)
      if (!t.nrm && group[0].attrs.has('NORMAL')) mask &= ~2;
      if (!t.tan && group[0].attrs.has('TANGENT')) mask &= ~0x80;
      const list = movedVertices(n, t.pos, t.nrm, t.tan);
      const pick = (a: Float32Array | undefined, bit: number, channel: keyof ZeroSigns) => {
        if (!(mask & bit)) return null;
        const out = new Float32Array(list.length * 3);
        if (a) {
          // through integer views: float bits (NaN payloads) copied exactly
          const src = new Uint32Array(a.buffer, a.byteOffset, a.length);
          const dst = new Uint32Array(out.buffer);
          for (let k = 0; k < list.length; k++) {
            const x = list[k] * 3;
            dst[k * 3] = src[x];
            dst[k * 3 + 1] = src[x + 1];
            dst[k * 3 + 2] = src[x + 2];
          }
        }
        // the file's sign pattern of the zero deltas of listed vertices (glTF holds them as +0)
        const zeroSigns = hb?.zeroSigns?.[channel];
        if (zeroSigns) setZeroSigns(out, zeroSigns);
        return out;
      };
      if (!list.length && !hb) return;
      morph.buffers.push({
        vertexBuffer: v,
        elementMask: mask,
        vertexCount: list.length,
        indices: list,
        positions: pick(t.pos, 1, 'positions'),
        normals: pick(t.nrm, 2, 'normals'),
        tangents: pick(t.tan, 0x80, 'tangents'),
      });
    });
    morphs.push(morph);
  });
  return morphs;
}

/**
 * Each vertex buffer's morph range (the vertices morphs touch); an imported model's range is kept
 * while it covers them. `hx` only when every vertex buffer kept its hinted layout.
 */
export function setMorphRanges(
  vertexBuffers: MdlVertexBuffer[],
  morphs: MdlMorph[],
  hx: UrhoModelExtras | undefined,
): void {
  vertexBuffers.forEach((vb, v) => {
    const h = hx?.vertexBuffers[v];
    let lo = Infinity;
    let hi = -1;
    for (const m of morphs)
      for (const b of m.buffers) {
        if (b.vertexBuffer !== v) continue;
        const idx = b.indices;
        for (let k = 0; k < idx.length; k++) {
          if (idx[k] < lo) lo = idx[k];
          if (idx[k] > hi) hi = idx[k];
        }
      }
    const start = hi < 0 ? 0 : lo;
    const count = hi < 0 ? 0 : hi - lo + 1;
    const hintCovers =
      h && (hi < 0 || (h.morphRangeStart <= start && h.morphRangeStart + h.morphRangeCount >= start + count));
    vb.morphRangeStart = hintCovers ? h!.morphRangeStart : start;
    vb.morphRangeCount = hintCovers ? h!.morphRangeCount : count;
  });
}

/** Vertices (of `n`) where any of the morph channels is not (0, 0, 0). */
export function movedVertices(n: number, ...channels: (Float32Array | undefined)[]): Uint32Array {
  const list = new Uint32Array(n);
  let count = 0;
  const present = channels.filter((a): a is Float32Array => !!a);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < present.length; k++) {
      const a = present[k];
      if (a[i * 3] !== 0 || a[i * 3 + 1] !== 0 || a[i * 3 + 2] !== 0) {
        list[count++] = i;
        break;
      }
    }
  }
  return list.slice(0, count);
}
