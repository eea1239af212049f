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
