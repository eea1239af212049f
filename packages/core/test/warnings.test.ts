import { describe, expect, it } from 'vitest';
import { ExportError, FormatError, isLegacyError, WarningCollector } from '../src/index.js';

describe('warnings and errors', () => {
  it('merges repeats and counts them', () => {
    const w = new WarningCollector();
    w.warn('WEIGHTS_TRUNCATED', 'kept the 4 largest', 3);
    w.warn('WEIGHTS_TRUNCATED', 'kept the 4 largest');
    w.warn('VALUE_QUANTIZED', 'uv to bytes');
    w.warn('NOTHING', 'zero', 0);
    expect(w.list()).toEqual([
      { code: 'WEIGHTS_TRUNCATED', message: 'kept the 4 largest', count: 4 },
      { code: 'VALUE_QUANTIZED', message: 'uv to bytes', count: 1 },
    ]);
    expect(w.has('NOTHING')).toBe(false);
    const other = new WarningCollector();
    other.merge(w);
    other.warn('WEIGHTS_TRUNCATED', 'another message', 2);
    expect(other.byCode().get('WEIGHTS_TRUNCATED')).toEqual({
      count: 6,
      messages: ['kept the 4 largest', 'another message'],
    });
  });

  it('errors carry stable codes', () => {
    const fe = new FormatError('bad', { code: 'BAD_MAGIC', file: 'a.mdl', offset: 16, field: 'magic' });
    expect(fe.message).toBe('a.mdl, offset 16 (0x10), field magic: bad');
    expect(fe.detail).toBe('bad');
    expect(isLegacyError(fe)).toBe(true);
    expect(isLegacyError(new ExportError('TOO_MANY_VERTICES', 'x'))).toBe(true);
    expect(isLegacyError(new RangeError('x'))).toBe(false);
    expect(new FormatError('x').code).toBe('FORMAT_ERROR');
  });
});

describe('base64', () => {
  it('round-trips any bytes and matches Node’s encoder', async () => {
    const { decodeBase64, encodeBase64 } = await import('../src/index.js');
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70000 }), (b) => {
        const text = encodeBase64(b);
        expect(text).toBe(Buffer.from(b).toString('base64'));
        expect(decodeBase64(text)).toEqual(b);
      }),
      { numRuns: 30 },
    );
  });
});

describe('sniffing', () => {
  it('detects glb, glTF JSON and legacy formats by bytes; names outputs after the main extension', async () => {
    const { isGlb, isGltfJson, modelBaseName, sniffFormat } = await import('../src/index.js');
    const glb = new Uint8Array([0x67, 0x6c, 0x54, 0x46, 2, 0, 0, 0, 12, 0, 0, 0]);
    expect(isGlb(glb)).toBe(true);
    expect(isGlb(glb.subarray(0, 11))).toBe(false);
    const json = new TextEncoder().encode('\ufeff  {"asset":{"version":"2.0"}}');
    expect(isGltfJson(json, 'x.bin')).toBe(true);
    expect(isGltfJson(new TextEncoder().encode('{"a":1}'), 'x.json')).toBe(false);
    const fmt = {
      id: 'x',
      label: 'X',
      extensions: ['.3d'],
      mainExtension: '_d.3d',
      capabilities: { import: true, export: false, skins: false, morphTargets: false, animations: false },
      sniff: (b: Uint8Array) => {
        if (b[0] === 0xff) throw new Error('sniffers must not throw, but one that does means "no"');
        return b[0] === 1;
      },
      import: async () => ({ document: null as never, warnings: [] }),
    };
    expect(sniffFormat(new Uint8Array([1]), 'a', [fmt])).toBe(fmt);
    expect(sniffFormat(new Uint8Array([0xff]), 'a', [fmt])).toBeUndefined();
    expect(sniffFormat(glb, 'a.3d', [fmt])).toBe('glb');
    expect(modelBaseName('dir/Skull_d.3d', fmt)).toBe('Skull');
    expect(modelBaseName('C:\\x\\Jack.mdl')).toBe('Jack');
    expect(modelBaseName('noext')).toBe('noext');
  });
});
