// Every warning code the package emits is listed once: in core's SHARED_WARNING_CODES or in the
// package's WARNING_CODES (what `gltf-legacy warnings` prints), never in both.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_WARNING_CODES } from '@gltf-legacy/core';
import { describe, expect, it } from 'vitest';
import { WARNING_CODES } from '../src/index.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('warning codes', () => {
  it('each code in the sources is in SHARED_WARNING_CODES or WARNING_CODES, and no code in both', () => {
    const used = new Set<string>();
    for (const f of sources(join(__dirname, '../src'))) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/\.warn\(\s*'([A-Z0-9_]+)'/g)) used.add(m[1]);
      // import/vertex-buffers.ts: `${kind.toUpperCase()}_SANITIZED` for normal, tangent, weights
      if (text.includes('_SANITIZED`'))
        for (const k of ['NORMAL', 'TANGENT', 'WEIGHTS']) used.add(`${k}_SANITIZED`);
    }
    expect(used.size).toBeGreaterThan(30);
    const missing = [...used].filter((c) => !(c in SHARED_WARNING_CODES) && !(c in WARNING_CODES));
    expect(missing).toEqual([]);
    expect(Object.keys(WARNING_CODES).filter((c) => c in SHARED_WARNING_CODES)).toEqual([]);
  });
});
