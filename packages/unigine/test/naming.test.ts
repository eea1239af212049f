/**
 * Names (issue 21): clip names come from file names by core's one rule (`strip_wave.anim` beside
 * `strip.mesh` is the clip `wave`), and clip files are named by it without doubled prefixes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportUnigine, importUnigine } from '../src/index.js';

const asset = (f: string) =>
  new Uint8Array(readFileSync(new URL(`../../../test-assets/unigine/${f}`, import.meta.url)));

describe('names', () => {
  it('strip_wave.anim beside strip.mesh is the clip "wave"; a clip named hero_wave is written as hero_wave.anim', async () => {
    const files = new Map([
      ['strip.mesh', asset('strip.mesh')],
      ['strip_wave.anim', asset('strip_wave.anim')],
    ]);
    const { document } = importUnigine(files, { main: 'strip.mesh' });
    const anim = document.getRoot().listAnimations()[0];
    expect(anim.getName()).toBe('wave');
    // as a foreign clip (no UNIGINE extras) already carrying the model prefix
    anim.setName('hero_wave').setExtras({});
    const out = await exportUnigine(document, { name: 'hero' });
    expect([...out.files.keys()].sort()).toEqual(['hero.mesh', 'hero_wave.anim']);
  });
});
