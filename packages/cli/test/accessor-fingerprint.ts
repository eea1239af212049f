/**
 * What a `.glb` says about its geometry and animation, apart from images and kept bytes: the
 * SHA-256 of every accessor's JSON (type, count, component type, normalization, bounds, sparse
 * layout) and of the bytes it reads, in accessor order, plus `extensionsRequired`. Two files with
 * the same fingerprint hold the same vertex data, morph targets and animation tracks, however
 * their textures or leftovers are stored (issue 29 changed those, issue 30's `--compact` must not
 * change the rest).
 *
 * ```ts
 * expect(accessorFingerprint(compact)).toEqual(baseline['unreal3d/Sporifier_d.3d']);
 * ```
 */
import { createHash } from 'node:crypto';
import { Accessor as GltfAccessor } from '@gltf-transform/core';

interface View {
  byteOffset?: number;
  byteLength: number;
  byteStride?: number;
}
interface Accessor {
  bufferView?: number;
  byteOffset?: number;
  componentType: number;
  count: number;
  type: string;
  normalized?: boolean;
  min?: number[];
  max?: number[];
  sparse?: {
    count: number;
    indices: { bufferView: number; byteOffset?: number; componentType: number };
    values: { bufferView: number; byteOffset?: number };
  };
}

export interface AccessorFingerprint {
  /** Accessors in the file. */
  accessors: number;
  /** Bytes the accessors read (dense and sparse). */
  dataBytes: number;
  /** SHA-256 over every accessor's JSON and data. */
  sha256: string;
  extensionsRequired: string[];
}

/** The fingerprint of a `.glb` (see the module comment). */
export function accessorFingerprint(glb: Uint8Array): AccessorFingerprint {
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const binStart = 20 + jsonLength + 8;
  const bin = glb.subarray(
    binStart,
    binStart + (binStart <= glb.length ? dv.getUint32(binStart - 8, true) : 0),
  );
  const views: View[] = json.bufferViews ?? [];
  const hash = createHash('sha256');
  let dataBytes = 0;
  const take = (view: number, offset: number, length: number) => {
    const v = views[view];
    const start = (v.byteOffset ?? 0) + offset;
    hash.update(bin.subarray(start, start + length));
    dataBytes += length;
  };
  const accessors: Accessor[] = json.accessors ?? [];
  for (const a of accessors) {
    const { bufferView: _v, byteOffset: _o, sparse, ...meta } = a;
    hash.update(
      JSON.stringify({
        ...meta,
        sparse: sparse ? { count: sparse.count, index: sparse.indices.componentType } : undefined,
      }),
    );
    const element =
      GltfAccessor.getElementSize(a.type as GltfAccessor.Type) *
      GltfAccessor.getComponentSize(a.componentType as GltfAccessor.ComponentType);
    if (a.bufferView !== undefined) {
      const stride = views[a.bufferView].byteStride ?? element;
      if (stride === element) take(a.bufferView, a.byteOffset ?? 0, a.count * element);
      else for (let i = 0; i < a.count; i++) take(a.bufferView, (a.byteOffset ?? 0) + i * stride, element);
    }
    if (sparse) {
      take(
        sparse.indices.bufferView,
        sparse.indices.byteOffset ?? 0,
        sparse.count *
          GltfAccessor.getComponentSize(sparse.indices.componentType as GltfAccessor.ComponentType),
      );
      take(sparse.values.bufferView, sparse.values.byteOffset ?? 0, sparse.count * element);
    }
  }
  return {
    accessors: accessors.length,
    dataBytes,
    sha256: hash.digest('hex'),
    extensionsRequired: json.extensionsRequired ?? [],
  };
}
