// Issue 29: an animation block's narrow-axis u16 codes and raw flags travel as bytes
// (GLTF_LEGACY_kept_bytes `rawCodes:<axis>` / `flags` of the glTF animation), not as number
// arrays or hex in extras; a .glb written before (extras.unigine.rawCodes / flags) still exports.
import {
  getKeptBytes,
  KEPT_BYTES,
  KeptBytesExtension,
  listKeptBytes,
  removeKeptBytes,
} from '@gltf-legacy/core';
import { Document, NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { keepBlockCodes, withKeptBlockCodes } from '../src/extras.js';
import { exportUnigine, importUnigine, writeAnim } from '../src/index.js';
import { narrowScaleAnim } from './helpers.js';

const io = new NodeIO().registerExtensions([KeptBytesExtension]);

/** One bone whose scale y/z ranges are too narrow for float32 (the fuzz regression's file). */
const narrowAnim = (): Uint8Array => writeAnim(narrowScaleAnim());

const text = (glb: Uint8Array) => new TextDecoder().decode(glb);

describe('unigine narrow codes and raw flags as kept bytes', () => {
  it('are bytes of the animation, not JSON; byte-exact through a .glb', async () => {
    const bytes = narrowAnim();
    const { document } = importUnigine(new Map([['narrow.anim', bytes]]), { main: 'narrow.anim' });
    const anim = document.getRoot().listAnimations()[0];
    const keys = listKeptBytes(anim);
    expect(keys.filter((k) => k.startsWith('rawCodes:')).length).toBeGreaterThan(0);
    const glb = await io.writeBinary(document);
    expect(text(glb)).not.toMatch(/"rawCodes"|"flags":"/);
    const out = await exportUnigine(await io.readBinary(glb), { name: 'narrow' });
    expect(out.files.get('narrow.anim')).toEqual(bytes);
  });

  it('a .glb written the old way (rawCodes arrays and flags hex in extras) still exports byte for byte', async () => {
    const bytes = narrowAnim();
    const { document } = importUnigine(new Map([['narrow.anim', bytes]]), { main: 'narrow.anim' });
    const anim = document.getRoot().listAnimations()[0];
    const ex = (anim.getExtras() as { unigine: object }).unigine;
    anim.setExtras({ unigine: withKeptBlockCodes(anim, ex) });
    for (const k of listKeptBytes(anim)) removeKeptBytes(anim, k);
    expect(getKeptBytes(anim, 'flags')).toBeUndefined();
    const glb = await new NodeIO().writeBinary(document);
    expect(text(glb)).toMatch(/"rawCodes":\{/);
    expect(text(glb)).not.toContain(KEPT_BYTES);
    const out = await exportUnigine(await io.readBinary(glb), { name: 'narrow' });
    expect(out.files.get('narrow.anim')).toEqual(bytes);
  });

  it('flags not by the rule: one byte per entry as kept bytes, given back as the hex the block writer reads', async () => {
    const doc = new Document();
    doc.createBuffer();
    const anim = doc.createAnimation('a');
    keepBlockCodes(anim, Uint8Array.of(0x7f, 0x00, 0xa5), { scale1: [100, 2000, 40000] });
    const back = (await io.readBinary(await io.writeBinary(doc))).getRoot().listAnimations()[0];
    expect(withKeptBlockCodes(back, {})).toEqual({
      flags: '7f00a5',
      rawCodes: { scale1: [100, 2000, 40000] },
    });
  });
});
