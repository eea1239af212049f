/**
 * Urho3D vertex elements: element types, semantics, the legacy UMDL element mask and UMD2
 * descriptors, and the conversions between them. Shared by `.mdl` reading/writing and the
 * glTF attribute mapping.
 */
import { FormatError } from '@gltf-legacy/core';

/** `VertexElementType` of the engine. */
export const ElementType = {
  INT: 0,
  FLOAT: 1,
  VECTOR2: 2,
  VECTOR3: 3,
  VECTOR4: 4,
  UBYTE4: 5,
  UBYTE4_NORM: 6,
} as const;
/** Byte size of each {@link ElementType}. */
export const ELEMENT_TYPE_SIZES = [4, 4, 8, 12, 16, 4, 4] as const;
/** `VertexElementSemantic` of the engine. */
export const Semantic = {
  POSITION: 0,
  NORMAL: 1,
  BINORMAL: 2,
  TANGENT: 3,
  TEXCOORD: 4,
  COLOR: 5,
  BLENDWEIGHTS: 6,
  BLENDINDICES: 7,
  OBJECTINDEX: 8,
} as const;
export const SEMANTIC_NAMES = [
  'POSITION',
  'NORMAL',
  'BINORMAL',
  'TANGENT',
  'TEXCOORD',
  'COLOR',
  'BLENDWEIGHTS',
  'BLENDINDICES',
  'OBJECTINDEX',
] as const;

/** One vertex element: type, semantic and semantic index, at a byte offset in the vertex. */
export interface VertexElement {
  type: number;
  semantic: number;
  index: number;
  /** Byte offset inside one vertex. */
  offset: number;
  /** Per-instance element (legacy instance-matrix bits only). */
  perInstance?: boolean;
}

/** Legacy UMDL element mask bits, in vertex order: [type, semantic, index, perInstance]. */
export const LEGACY_ELEMENTS: readonly (readonly [number, number, number, boolean])[] = [
  [ElementType.VECTOR3, Semantic.POSITION, 0, false],
  [ElementType.VECTOR3, Semantic.NORMAL, 0, false],
  [ElementType.UBYTE4_NORM, Semantic.COLOR, 0, false],
  [ElementType.VECTOR2, Semantic.TEXCOORD, 0, false],
  [ElementType.VECTOR2, Semantic.TEXCOORD, 1, false],
  [ElementType.VECTOR3, Semantic.TEXCOORD, 0, false],
  [ElementType.VECTOR3, Semantic.TEXCOORD, 1, false],
  [ElementType.VECTOR4, Semantic.TANGENT, 0, false],
  [ElementType.VECTOR4, Semantic.BLENDWEIGHTS, 0, false],
  [ElementType.UBYTE4, Semantic.BLENDINDICES, 0, false],
  [ElementType.VECTOR4, Semantic.TEXCOORD, 4, true],
  [ElementType.VECTOR4, Semantic.TEXCOORD, 5, true],
  [ElementType.VECTOR4, Semantic.TEXCOORD, 6, true],
  [ElementType.INT, Semantic.OBJECTINDEX, 0, false],
];

/** Decodes a UMDL element mask into elements; null for unknown bits. */
export function elementsFromMask(mask: number): VertexElement[] | null {
  if (mask >>> 0 >= 1 << LEGACY_ELEMENTS.length) return null;
  const out: VertexElement[] = [];
  let offset = 0;
  for (let bit = 0; bit < LEGACY_ELEMENTS.length; bit++) {
    if (!(mask & (1 << bit))) continue;
    const [type, semantic, index, perInstance] = LEGACY_ELEMENTS[bit];
    out.push({ type, semantic, index, offset, ...(perInstance ? { perInstance } : {}) });
    offset += ELEMENT_TYPE_SIZES[type];
  }
  return out;
}

/** The legacy mask equal to `elements` (same order, all legacy, no duplicates), or null. */
export function maskFromElements(
  elements: readonly { type: number; semantic: number; index: number }[],
): number | null {
  let mask = 0;
  let lastBit = -1;
  for (const e of elements) {
    const bit = LEGACY_ELEMENTS.findIndex(
      (l) => l[0] === e.type && l[1] === e.semantic && l[2] === e.index && !l[3],
    );
    if (bit < 0 || bit <= lastBit) return null;
    mask |= 1 << bit;
    lastBit = bit;
  }
  return mask;
}

/** Elements of a UMD2 descriptor list, or throws on an unknown type. */
export function elementsFromDescriptors(desc: Uint32Array, err?: (msg: string) => never): VertexElement[] {
  const out: VertexElement[] = [];
  let offset = 0;
  for (let i = 0; i < desc.length; i++) {
    const d = desc[i];
    const type = d & 0xff;
    if (type >= ELEMENT_TYPE_SIZES.length) {
      const msg = `element ${i} has unknown type ${type}`;
      if (err) err(msg);
      throw new FormatError(msg, { code: 'BAD_ELEMENT_TYPE' });
    }
    out.push({ type, semantic: (d >>> 8) & 0xff, index: (d >>> 16) & 0xff, offset });
    offset += ELEMENT_TYPE_SIZES[type];
  }
  return out;
}

/** Encodes an element as a UMD2 descriptor. */
export function descriptorOf(e: { type: number; semantic: number; index: number }): number {
  return (e.type | (e.semantic << 8) | (e.index << 16)) >>> 0;
}

/** Bytes of one morph vertex record for a morph element mask. */
export function morphRecordSize(mask: number): number {
  return 4 + (mask & 1 ? 12 : 0) + (mask & 2 ? 12 : 0) + (mask & 0x80 ? 12 : 0);
}
