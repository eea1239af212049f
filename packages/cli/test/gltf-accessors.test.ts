import { readFileSync } from 'node:fs';
import { corpusFiles } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { checkAccessorCounts } from '../src/gltf-accessors.js';
import { parseGltfJson } from '../src/gltf-input.js';

function jsonOf(path: string) {
  const b = new Uint8Array(readFileSync(path));
  if (path.endsWith('.gltf')) return parseGltfJson(b, path);
  const len = new DataView(b.buffer, b.byteOffset).getUint32(12, true);
  return parseGltfJson(b.subarray(20, 20 + len), path);
}

const base = {
  asset: { version: '2.0' },
  buffers: [{ byteLength: 64 }],
  bufferViews: [
    { buffer: 0, byteLength: 8 },
    { buffer: 0, byteOffset: 8, byteLength: 24 },
  ],
};
const code = (json: unknown) => {
  try {
    checkAccessorCounts(json as never, 'x.glb');
  } catch (e) {
    return `${(e as { code?: string }).code} ${(e as { field?: string }).field}`;
  }
  return 'ok';
};

describe('accessor counts checked before NodeIO reads an untrusted glTF', () => {
  it('accepts every file of the glTF corpus', () => {
    const files = corpusFiles('gltf', ['.glb', '.gltf']);
    for (const f of files) expect(code(jsonOf(f)), f).toBe('ok');
  });
  it('refuses a sparse count of 2^31 (NodeIO spun on it), counts beyond their views and huge zero accessors', () => {
    const sparse = (count: number) => ({
      ...base,
      accessors: [
        {
          componentType: 5126,
          type: 'VEC3',
          count: 2,
          sparse: { count, indices: { bufferView: 0, componentType: 5125 }, values: { bufferView: 1 } },
        },
      ],
    });
    expect(code(sparse(2))).toBe('ok');
    expect(code(sparse(2147483648))).toBe('BAD_ACCESSOR accessors[0].sparse.count');
    expect(
      code({ ...base, accessors: [{ bufferView: 1, componentType: 5126, type: 'VEC3', count: 3 }] }),
    ).toBe('BAD_ACCESSOR accessors[0].count');
    expect(code({ ...base, accessors: [{ componentType: 5126, type: 'VEC3', count: 1e9 }] })).toBe(
      'BAD_ACCESSOR accessors[0].count',
    );
    expect(
      code({ ...base, accessors: [{ bufferView: 1, componentType: 5126, type: 'VEC3', count: 1.5 }] }),
    ).toBe('BAD_ACCESSOR accessors[0].count');
  });
});
