import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusFiles } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import { main } from '../src/index.js';

const chromium = existsSync('/usr/bin/chromium');
const skull = corpusFiles('unreal3d', ['skull_d.3d'])[0];

describe('gltf-legacy preview', () => {
  it.skipIf(!skull || (!chromium && !process.env.CI))(
    'renders a PNG per model through the viewer package',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-preview-'));
      const out: string[] = [];
      const err: string[] = [];
      const code = await main(
        ['node', 'gltf-legacy', 'preview', skull, '--out-dir', dir, '--size', '64', '--timeout', '20'],
        {
          out: (s) => out.push(s),
          err: (s) => err.push(s),
        },
      );
      expect(err.join('\n')).toBe('');
      expect(code).toBe(0);
      const pngs = readdirSync(dir).filter((f) => f.endsWith('.png'));
      expect(pngs).toEqual(['Skull.png']);
      const png = readFileSync(join(dir, pngs[0]));
      expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
      // width and height from the IHDR chunk
      expect(png.readUInt32BE(16)).toBe(64);
      expect(png.readUInt32BE(20)).toBe(64);
    },
    // bounded: a Chromium that stops answering is a PREVIEW_TIMEOUT after 20 s (+ one retry), not a hang
    60_000,
  );

  it('needs --out-dir (usage error, exit 2)', async () => {
    const code = await main(['node', 'gltf-legacy', 'preview', 'x.mdl'], { out: () => {}, err: () => {} });
    expect(code).toBe(2);
  });
});
