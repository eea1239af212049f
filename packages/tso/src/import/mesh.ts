/**
 * A TSO mesh into a glTF mesh node: real vertices out of bone space, blend vertices applied, the
 * raw records kept (attributes or extras) so export gives the same bytes back.
 */
import { FormatError, type WarningCollector } from '@gltf-legacy/core';
import { decodeQ15 } from '@gltf-legacy/quantize';
import type { Accessor, Document, Node } from '@gltf-transform/core';
import type { TsoMesh } from '../mesh.js';
import { inv, isIdentity, mat, transformPoint } from '../space.js';
import { BLEND_ATTRIBUTES, RAW_POSITION_ATTRIBUTE } from '../extras.js';
import { floatWords, keepRun, keepWords } from '../kept.js';

export function buildMesh(
  doc: Document,
  buffer: ReturnType<Document['createBuffer']>,
  mesh: TsoMesh,
  meshBone: number[],
  nodes: Node[],
  worlds: Float64Array[],
  skeletonRoot: Node | undefined,
  name: string,
  warnings: WarningCollector,
): Node {
  const n = mesh.uvs.length / 2;
  const blendCount = mesh.blendData.length / 2;
  // Bone (index into nodes) of every real and blend vertex.
  const vBone = new Int32Array(n).fill(-1);
  const bBone = new Int32Array(blendCount).fill(-1);
  for (const b of mesh.bindings) {
    const bone = meshBone[b.boneIndex];
    for (let k = 0; k < b.realVertexCount; k++) vBone[b.firstRealVertex + k] = bone;
    for (let k = 0; k < b.blendVertexCount; k++) bBone[b.firstBlendVertex + k] = bone;
  }
  let unbound = 0;
  const fallback = meshBone.length ? meshBone[0] : -1;
  for (let v = 0; v < n; v++) {
    if (vBone[v] < 0) {
      unbound++;
      vBone[v] = fallback;
    }
  }
  warnings.warn('UNBOUND_VERTEX', 'vertices outside every binding; bound to the first mesh bone', unbound);

  const raw = mesh.realVertices;
  const position = new Float32Array(n * 3);
  const normal = new Float32Array(n * 3);
  const I = mat();
  const boneIdentity = worlds.map((m) => isIdentity(m));
  // Each hot loop is its own function: V8 optimizes (and keeps) small functions, while one long
  // function with many loops was deoptimized and re-entered through OSR loop after loop.
  const nonUnit = placeRealVertices(raw, vBone, worlds, boneIdentity, I, position, normal);

  // Real positions that export (glTF position through the bone's inverse world, in float32)
  // would not give back bit for bit: keep their raw values so import → export is exact.
  const listed = unfaithfulPositions(raw, vBone, worlds, boneIdentity, position, mesh.blendData);
  // Few: sparse kept bytes, u32 words [vertex, x, y, z bits]…; many (rotated bones lose a bit
  // on most vertices): a float32 attribute with every raw position.
  const rawAttribute = listed.length > 0 && listed.length > n / 8;
  const rawPositions = new Uint32Array(rawAttribute ? 0 : listed.length * 4);
  if (!rawAttribute) {
    const bits = floatWords(raw);
    listed.forEach((v, i) => {
      rawPositions.set([v, bits[v * 6], bits[v * 6 + 1], bits[v * 6 + 2]], i * 4);
    });
  }

  // Skin influences: the real bone, then blend bones pulling on the vertex.
  const joints = new Uint16Array(n * 4);
  const weights = new Float32Array(n * 4);
  const blendedReal = new Float32Array(blendCount * 3);
  const truncated = applyBlends(mesh, vBone, bBone, worlds, position, joints, weights, blendedReal);
  warnings.warn(
    'WEIGHTS_TRUNCATED',
    'a real vertex has more than 3 blend vertices; extra ones ignored',
    truncated,
  );

  // Finite bone-space coordinates can still leave the float32 range once bound to a far or
  // rotated bone (or through a non-finite skeleton matrix): glTF cannot hold the result, and
  // export could not give the file back.
  const bad = firstNonFinite(position);
  if (bad >= 0)
    throw new FormatError(
      `vertex ${Math.floor(bad / 3)} bound to its bone is ${position[bad]}: outside the float32 range glTF positions hold`,
      { code: 'VERTEX_OUT_OF_RANGE', field: `realVertices[${Math.floor(bad / 3) * 6 + (bad % 3)}]` },
    );

  const indices = flippedIndices(mesh.indices, n);

  const acc = (
    array: Float32Array | Uint16Array | Uint32Array,
    type: 'SCALAR' | 'VEC2' | 'VEC3' | 'VEC4' | 'MAT4',
  ) => doc.createAccessor().setBuffer(buffer).setType(type).setArray(array);
  const material = doc.createMaterial('tso').setMetallicFactor(0).setRoughnessFactor(1);
  const prim = doc
    .createPrimitive()
    .setMaterial(material)
    .setIndices(acc(indices, 'SCALAR'))
    .setAttribute('POSITION', acc(position, 'VEC3'))
    .setAttribute('NORMAL', acc(normal, 'VEC3'))
    .setAttribute('TEXCOORD_0', acc(mesh.uvs.slice(), 'VEC2'));
  if (rawAttribute) prim.setAttribute(RAW_POSITION_ATTRIBUTE, acc(rawColumns(raw, 0), 'VEC3'));
  // The raw (bone-space, non-unit) normals FreeSO writes, for a lossless round trip.
  if (nonUnit) prim.setAttribute('_TSO_NORMAL', acc(rawColumns(raw, 3), 'VEC3'));
  const gltfMesh = doc.createMesh(name).addPrimitive(prim);
  gltfMesh.setExtras({
    tso: {
      version: mesh.version,
      vertexCount2: mesh.vertexCount2,
      boneNames: mesh.boneNames,
      bindings: mesh.bindings.map((b) => [
        b.boneIndex,
        b.firstRealVertex,
        b.realVertexCount,
        b.firstBlendVertex,
        b.blendVertexCount,
      ]),
      blend: blendAttributes(prim, acc, mesh, blendedReal) ?? { count: mesh.blendData.length / 2 },
      ...(rawAttribute ? { rawPositionAttribute: true } : {}),
    },
  });
  // Bytes glTF has no place for, as bytes (GLTF_LEGACY_kept_bytes; see kept.ts).
  if (!prim.getAttribute(BLEND_ATTRIBUTES.record) && mesh.blendData.length) {
    // Raw blend records no attribute can carry: u32 words, data ‖ vertices ‖ real positions
    // (float32 bit patterns, −0 included).
    const words = new Uint32Array((mesh.blendData.length * 11) / 2);
    words.set(mesh.blendData);
    words.set(floatWords(mesh.blendVertices), mesh.blendData.length);
    words.set(floatWords(blendedReal), mesh.blendData.length * 4);
    keepWords(gltfMesh, 'blend', words);
  }
  keepWords(gltfMesh, 'rawPositions', rawPositions);
  keepRun(gltfMesh, 'trailing', mesh.trailing);
  const node = doc.createNode(name).setMesh(gltfMesh);
  if (meshBone.length) {
    prim.setAttribute('JOINTS_0', acc(joints, 'VEC4')).setAttribute('WEIGHTS_0', acc(weights, 'VEC4'));
    const ibm = new Float32Array(nodes.length * 16);
    for (let i = 0; i < nodes.length; i++) ibm.set(inv(worlds[i]), i * 16);
    const skin = doc.createSkin(`${name}_skin`).setInverseBindMatrices(acc(ibm, 'MAT4'));
    for (const nd of nodes) skin.addJoint(nd);
    if (skeletonRoot) skin.setSkeleton(skeletonRoot);
    node.setSkin(skin);
  }
  return node;
}

/**
 * The raw blend records as float32 vertex attributes of the primitive (binary in the .glb, and
 * they travel with their vertex) instead of JSON number arrays in extras, which were half of a
 * .glb's bytes for FreeSO-style meshes. Possible when every blend record pulls on a different
 * real vertex and weights and record counts fit a float32 exactly (< 2²⁴) — true of FreeSO files
 * and of our exports; otherwise returns undefined and the records stay in extras.
 */
function blendAttributes(
  prim: ReturnType<Document['createPrimitive']>,
  acc: (array: Float32Array, type: 'VEC2' | 'VEC3') => Accessor,
  mesh: TsoMesh,
  blendedReal: Float32Array,
): { attributes: true; count: number } | undefined {
  const n = mesh.uvs.length / 2;
  const count = mesh.blendData.length / 2;
  if (count === 0 || count >= 1 << 24) return undefined;
  const record = new Float32Array(n * 2);
  for (let j = 0; j < count; j++) {
    const weight = mesh.blendData[j * 2];
    const t = mesh.blendData[j * 2 + 1];
    if (weight >= 1 << 24 || record[t * 2] !== 0) return undefined;
    record[t * 2] = j + 1;
    record[t * 2 + 1] = weight;
  }
  const position = new Float32Array(n * 3);
  const normal = new Float32Array(n * 3);
  const real = new Float32Array(n * 3);
  const bv = mesh.blendVertices;
  for (let j = 0; j < count; j++) {
    const t = mesh.blendData[j * 2 + 1];
    for (let c = 0; c < 3; c++) {
      position[t * 3 + c] = bv[j * 6 + c];
      normal[t * 3 + c] = bv[j * 6 + 3 + c];
      real[t * 3 + c] = blendedReal[j * 3 + c];
    }
  }
  prim
    .setAttribute(BLEND_ATTRIBUTES.record, acc(record, 'VEC2'))
    .setAttribute(BLEND_ATTRIBUTES.position, acc(position, 'VEC3'))
    .setAttribute(BLEND_ATTRIBUTES.normal, acc(normal, 'VEC3'))
    .setAttribute(BLEND_ATTRIBUTES.realPosition, acc(real, 'VEC3'));
  return { attributes: true, count };
}

/** Real vertices out of bone space: glTF positions and unit normals; true when raw normals must be kept. */
function placeRealVertices(
  raw: Float32Array,
  vBone: Int32Array,
  worlds: Float64Array[],
  boneIdentity: boolean[],
  I: Float64Array,
  position: Float32Array,
  normal: Float32Array,
): boolean {
  let nonUnit = false;
  const n = position.length / 3;
  for (let v = 0; v < n; v++) {
    const x = -raw[v * 6];
    const y = raw[v * 6 + 1];
    const z = raw[v * 6 + 2];
    const nx = -raw[v * 6 + 3];
    const ny = raw[v * 6 + 4];
    const nz = raw[v * 6 + 5];
    const m = vBone[v] >= 0 ? worlds[vBone[v]] : I;
    // An identity bone copies exactly (arithmetic would turn −0 into +0).
    const identity = vBone[v] >= 0 ? boneIdentity[vBone[v]] : true;
    let dx = nx;
    let dy = ny;
    let dz = nz;
    if (identity) {
      position[v * 3] = x;
      position[v * 3 + 1] = y;
      position[v * 3 + 2] = z;
    } else {
      position[v * 3] = m[0] * x + m[4] * y + m[8] * z + m[12];
      position[v * 3 + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
      position[v * 3 + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
      dx = m[0] * nx + m[4] * ny + m[8] * nz;
      dy = m[1] * nx + m[5] * ny + m[9] * nz;
      dz = m[2] * nx + m[6] * ny + m[10] * nz;
    }
    const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (len > 0) {
      normal[v * 3] = dx / len;
      normal[v * 3 + 1] = dy / len;
      normal[v * 3 + 2] = dz / len;
    } else normal[v * 3 + 1] = 1;
    // Keep raw normals when the glTF normal would not give the same bits back (FreeSO writes
    // normals of length 3; bones with a skeleton rotate them).
    if (
      !nonUnit &&
      (!identity ||
        !Object.is(-normal[v * 3], raw[v * 6 + 3]) ||
        !Object.is(normal[v * 3 + 1], raw[v * 6 + 4]) ||
        !Object.is(normal[v * 3 + 2], raw[v * 6 + 5]))
    ) {
      nonUnit = true;
    }
  }

  return nonUnit;
}

/** Real vertices whose position the float32 trip glTF → bone space would not give back bit for bit. */
function unfaithfulPositions(
  raw: Float32Array,
  vBone: Int32Array,
  worlds: Float64Array[],
  boneIdentity: boolean[],
  position: Float32Array,
  blendData: Uint32Array,
): number[] {
  const n = position.length / 3;
  const blendCount = blendData.length / 2;
  const listed: number[] = [];
  const back = new Float64Array(3);
  const inverses = new Map<number, Float64Array>();
  // Blend targets are restored from blend.realPositions instead.
  const target = new Uint8Array(n);
  for (let j = 0; j < blendCount; j++) target[blendData[j * 2 + 1]] = 1;
  for (let v = 0; v < n; v++) {
    const b = vBone[v];
    if (b < 0 || boneIdentity[b] || target[v]) continue;
    let m = inverses.get(b);
    if (!m) inverses.set(b, (m = inv(worlds[b])));
    transformPoint(m, position, v * 3, back, 0);
    if (
      !Object.is(Math.fround(back[0]), -raw[v * 6]) ||
      !Object.is(Math.fround(back[1]), raw[v * 6 + 1]) ||
      !Object.is(Math.fround(back[2]), raw[v * 6 + 2])
    )
      listed.push(v);
  }
  return listed;
}

/**
 * Blend vertices pull their real vertex toward the blend bone (positions blended in place), and
 * give it a second influence; `blendedReal` gets the unblended real positions. Returns how many
 * blend vertices found no free influence slot.
 */
function applyBlends(
  mesh: TsoMesh,
  vBone: Int32Array,
  bBone: Int32Array,
  worlds: Float64Array[],
  position: Float32Array,
  joints: Uint16Array,
  weights: Float32Array,
  blendedReal: Float32Array,
): number {
  const n = vBone.length;
  const blendCount = mesh.blendData.length / 2;
  const raw = mesh.realVertices;
  const src = new Float64Array(3);
  for (let v = 0; v < n; v++) {
    joints[v * 4] = Math.max(0, vBone[v]);
    weights[v * 4] = 1;
  }
  const blendPos = new Float64Array(3);
  let truncated = 0;
  for (let j = 0; j < blendCount; j++) {
    const target = mesh.blendData[j * 2 + 1];
    const w = Math.min(1, decodeQ15(mesh.blendData[j * 2]));
    for (let c = 0; c < 3; c++) blendedReal[j * 3 + c] = raw[target * 6 + c];
    const bone = bBone[j];
    if (bone < 0) continue;
    for (let c = 0; c < 3; c++) src[c] = mesh.blendVertices[j * 6 + c];
    src[0] = -src[0];
    transformPoint(worlds[bone], src, 0, blendPos, 0);
    for (let c = 0; c < 3; c++)
      position[target * 3 + c] = (1 - w) * position[target * 3 + c] + w * blendPos[c];
    // Scale the existing influences by (1 − w) and add the blend bone with w.
    let slot = -1;
    for (let k = 0; k < 4; k++) weights[target * 4 + k] *= 1 - w;
    for (let k = 0; k < 4 && slot < 0; k++)
      if (weights[target * 4 + k] > 0 && joints[target * 4 + k] === bone) slot = k;
    for (let k = 0; k < 4 && slot < 0; k++) if (weights[target * 4 + k] === 0) slot = k;
    if (slot < 0) {
      truncated++;
      continue;
    }
    joints[target * 4 + slot] = bone;
    weights[target * 4 + slot] += w;
  }
  return truncated;
}

/** Index of the first coordinate that is NaN or ±∞, or -1. */
function firstNonFinite(a: Float32Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] - a[i] !== 0) return i;
  return -1;
}

/** Triangles with the 2nd and 3rd index swapped (the X mirror reverses the winding). */
function flippedIndices(ix: Uint32Array, vertices: number): Uint16Array | Uint32Array {
  const out = vertices < 65536 ? new Uint16Array(ix.length) : new Uint32Array(ix.length);
  for (let i = 0; i < ix.length; i += 3) {
    out[i] = ix[i];
    out[i + 1] = ix[i + 2];
    out[i + 2] = ix[i + 1];
  }
  return out;
}

/** Columns `from…from+2` of the 6-float raw vertex records, packed as VEC3. */
function rawColumns(raw: Float32Array, from: number): Float32Array {
  const n = raw.length / 6;
  const out = new Float32Array(n * 3);
  for (let v = 0; v < n; v++) {
    out[v * 3] = raw[v * 6 + from];
    out[v * 3 + 1] = raw[v * 6 + from + 1];
    out[v * 3 + 2] = raw[v * 6 + from + 2];
  }
  return out;
}
