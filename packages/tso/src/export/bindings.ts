import type { TsoBinding, TsoMesh } from '../mesh.js';
import { convertVectors } from '../space.js';

import type { BoneInfo } from './common.js';
import type { Verts } from './geometry.js';

export /** glTF space → TSO space for the whole mesh: mirror X, reverse winding. */
function flip(mesh: TsoMesh): void {
  convertVectors(mesh.realVertices, 3);
  convertVectors(mesh.blendVertices, 3);
  const ix = mesh.indices;
  for (let i = 0; i + 2 < ix.length; i += 3) {
    const t = ix[i + 1];
    ix[i + 1] = ix[i + 2];
    ix[i + 2] = t;
  }
}

export /** Groups vertices by bone into bindings (FreeSO's layout) and writes blend records. */
function assemble(vs: Verts, tris: Uint32Array, bones: BoneInfo[]): TsoMesh {
  const n = vs.count;
  const used = new Uint8Array(bones.length);
  for (let v = 0; v < n; v++) {
    used[vs.bone[v]] = 1;
    if (vs.blendBone[v] >= 0) used[vs.blendBone[v]] = 1;
  }
  const boneList: number[] = [];
  const meshIndex = new Int32Array(bones.length).fill(-1);
  for (let b = 0; b < bones.length; b++) if (used[b]) meshIndex[b] = boneList.push(b) - 1;
  // Counting sort of real vertices and blend vertices by mesh bone (stable).
  const k = boneList.length;
  const realStart = new Uint32Array(k + 1);
  const blendStart = new Uint32Array(k + 1);
  for (let v = 0; v < n; v++) {
    realStart[meshIndex[vs.bone[v]] + 1]++;
    if (vs.blendBone[v] >= 0) blendStart[meshIndex[vs.blendBone[v]] + 1]++;
  }
  for (let i = 0; i < k; i++) {
    realStart[i + 1] += realStart[i];
    blendStart[i + 1] += blendStart[i];
  }
  const blendTotal = blendStart[k];
  const remap = new Uint32Array(n);
  const uvs = new Float32Array(n * 2);
  const real = new Float32Array(n * 6);
  const blendData = new Uint32Array(blendTotal * 2);
  const blendVertices = new Float32Array(blendTotal * 6);
  const realAt = realStart.slice(0, k);
  for (let v = 0; v < n; v++) {
    const at = realAt[meshIndex[vs.bone[v]]]++;
    remap[v] = at;
    uvs[at * 2] = vs.uv[v * 2];
    uvs[at * 2 + 1] = vs.uv[v * 2 + 1];
    for (let c = 0; c < 3; c++) {
      real[at * 6 + c] = vs.p[v * 3 + c];
      real[at * 6 + 3 + c] = vs.n[v * 3 + c];
    }
  }
  const blendAt = blendStart.slice(0, k);
  for (let v = 0; v < n; v++) {
    if (vs.blendBone[v] < 0) continue;
    const j = blendAt[meshIndex[vs.blendBone[v]]]++;
    blendData[j * 2] = vs.blendWeight[v];
    blendData[j * 2 + 1] = remap[v];
    for (let c = 0; c < 3; c++) {
      blendVertices[j * 6 + c] = vs.bp[v * 3 + c];
      blendVertices[j * 6 + 3 + c] = vs.bn[v * 3 + c];
    }
  }
  const bindings: TsoBinding[] = [];
  for (let i = 0; i < k; i++) {
    const blends = blendStart[i + 1] - blendStart[i];
    bindings.push({
      boneIndex: i,
      firstRealVertex: realStart[i],
      realVertexCount: realStart[i + 1] - realStart[i],
      firstBlendVertex: blends ? blendStart[i] : 0xffffffff,
      blendVertexCount: blends,
    });
  }
  const indices = new Uint32Array(tris.length);
  for (let i = 0; i < tris.length; i++) indices[i] = remap[tris[i]];
  const mesh: TsoMesh = {
    version: 2,
    boneNames: boneList.map((b) => bones[b].name),
    indices,
    bindings,
    uvs,
    blendData,
    vertexCount2: n,
    realVertices: real,
    blendVertices,
    trailing: new Uint8Array(0),
  };
  flip(mesh);
  return mesh;
}
