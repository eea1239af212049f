/**
 * Accessor counts of an untrusted glTF, checked before NodeIO reads it: NodeIO allocates what a
 * count claims (an accessor without a buffer view is `count` zeros; a sparse accessor loops over
 * `sparse.count`), so a 2-byte edit (`"count": 2147483648`) makes it allocate gigabytes or spin.
 * A count must be a whole number the accessor's bytes can hold: sparse counts at most the
 * accessor's count and within their index/value buffer views; dense counts within their buffer
 * view; accessors with no buffer view (zeros) at most {@link MAX_ZERO_ACCESSOR_BYTES} in all.
 */
import type { JSONDocument } from '@gltf-transform/core';
import { FormatError } from '@gltf-legacy/core';

/** Bytes of all accessors without a buffer view together (NodeIO fills them with zeros): 256 MiB. */
export const MAX_ZERO_ACCESSOR_BYTES = 256 * 1024 * 1024;

const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_SIZE: Record<string, number> = {
  SCALAR: 1,
  VEC2: 2,
  VEC3: 3,
  VEC4: 4,
  MAT2: 4,
  MAT3: 9,
  MAT4: 16,
};

interface JsonAccessor {
  bufferView?: number;
  byteOffset?: number;
  componentType?: number;
  count?: unknown;
  type?: string;
  sparse?: {
    count?: unknown;
    indices?: { bufferView?: number; byteOffset?: number; componentType?: number };
    values?: { bufferView?: number; byteOffset?: number };
  };
}

/**
 * Throws a `FormatError` BAD_ACCESSOR (file, field `accessors[i]…`) for a count its bytes do not
 * justify.
 *
 * ```ts
 * checkAccessorCounts(json, 'model.glb'); // before io.readBinary / io.readJSON
 * ```
 */
export function checkAccessorCounts(json: JSONDocument['json'], file: string): void {
  const accessors = (json as { accessors?: JsonAccessor[] }).accessors;
  const views = ((json as { bufferViews?: { byteLength?: number }[] }).bufferViews ?? []) as {
    byteLength?: number;
  }[];
  if (!Array.isArray(accessors)) return;
  const viewBytes = (index: number | undefined, offset = 0): number => {
    const v = typeof index === 'number' ? views[index] : undefined;
    return Math.max(0, (typeof v?.byteLength === 'number' ? v.byteLength : 0) - (offset || 0));
  };
  let zeros = 0;
  accessors.forEach((a, i) => {
    const bad = (field: string, what: string) => {
      throw new FormatError(what, { code: 'BAD_ACCESSOR', file, field: `accessors[${i}].${field}` });
    };
    if (!a || typeof a !== 'object') return;
    const count = a.count;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
      bad('count', `count ${String(count)} is not a whole number`);
    const n = count as number;
    const elementBytes = (COMPONENT_BYTES[a.componentType ?? 0] ?? 4) * (TYPE_SIZE[a.type ?? ''] ?? 1);
    if (typeof a.bufferView === 'number') {
      // a valid accessor ends inside its view: offset + (count − 1) × stride + element ≤ length,
      // and the stride is at least the element size
      if (n * elementBytes > viewBytes(a.bufferView, a.byteOffset))
        bad(
          'count',
          `count ${n} does not fit its buffer view (${viewBytes(a.bufferView, a.byteOffset)} bytes)`,
        );
    } else {
      zeros += n * elementBytes;
      if (zeros > MAX_ZERO_ACCESSOR_BYTES)
        bad(
          'count',
          `accessors without a buffer view claim more than ${MAX_ZERO_ACCESSOR_BYTES} bytes of zeros`,
        );
    }
    const s = a.sparse;
    if (s && typeof s === 'object') {
      const sc = s.count;
      if (typeof sc !== 'number' || !Number.isInteger(sc) || sc < 1 || sc > n)
        bad('sparse.count', `sparse count ${String(sc)} is not a whole number from 1 to the count ${n}`);
      const idx = (COMPONENT_BYTES[s.indices?.componentType ?? 0] ?? 4) * (sc as number);
      if (idx > viewBytes(s.indices?.bufferView, s.indices?.byteOffset))
        bad('sparse.indices', `${sc} sparse indices do not fit their buffer view`);
      if (elementBytes * (sc as number) > viewBytes(s.values?.bufferView, s.values?.byteOffset))
        bad('sparse.values', `${sc} sparse values do not fit their buffer view`);
    }
  });
}
