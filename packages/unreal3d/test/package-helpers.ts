import type { Document } from '@gltf-transform/core';
import { corpusRoot } from '@gltf-legacy/test-utils';
import { join } from 'node:path';

export const UT99_DIR = () => join(corpusRoot(), 'archives/unreal/Ut99Mods-v1.2.0');

/**
 * The triangles of frame `f` in world space (metres), each as a string key of its three corners
 * (position rounded to `step`, UV exact), rotated so the smallest corner comes first (winding kept):
 * a set comparable across vertex orders.
 */
export function frameTriangles(doc: Document, f: number, step = 1e-5): string[] {
  const out: string[] = [];
  for (const node of doc.getRoot().listNodes()) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const m = node.getWorldMatrix();
    for (const prim of mesh.listPrimitives()) {
      const pos = prim.getAttribute('POSITION')!;
      const uv = prim.getAttribute('TEXCOORD_0');
      const target = f > 0 ? prim.listTargets()[f - 1]?.getAttribute('POSITION') : undefined;
      const idx = prim.getIndices()!;
      const corner = (v: number) => {
        const p = pos.getElement(v, [0, 0, 0]);
        if (target) {
          const d = target.getElement(v, [0, 0, 0]);
          p[0] += d[0];
          p[1] += d[1];
          p[2] += d[2];
        }
        const w = [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
        const t = uv ? uv.getElement(v, [0, 0]) : [0, 0];
        return `${w.map((x) => Math.round(x / step)).join(',')}|${t.join(',')}`;
      };
      for (let i = 0; i < idx.getCount(); i += 3) {
        const c = [corner(idx.getScalar(i)), corner(idx.getScalar(i + 1)), corner(idx.getScalar(i + 2))];
        let k = 0;
        for (let j = 1; j < 3; j++) if (c[j] < c[k]) k = j;
        out.push([c[k], c[(k + 1) % 3], c[(k + 2) % 3]].join(' '));
      }
    }
  }
  return out.sort();
}
