// Issue 18.1: quirks the engine tolerates are read with a warning (strict: the FormatError they
// were), and the round trip through a .glb gives the original bytes. The files are hand-made by
// test-assets/urho3d/quirks/make.mjs (field by field; the test checks they are what it writes).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstByteDiff } from '@gltf-legacy/test-utils';
import { NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { legacyFormat, MSFTLod, readAni, WARNING_CODES, writeAni } from '../src/index.js';

const dir = join(__dirname, '../../../test-assets/urho3d/quirks');
const io = new NodeIO().registerExtensions([MSFTLod]);

describe('quirk: the last key of an .ani is cut short (ANI_LAST_KEY_SHORT)', async () => {
  const { shortLastKey } = await import(join(dir, 'make.mjs'));
  const bytes = new Uint8Array(readFileSync(join(dir, 'short_last_key.ani')));
  const files = new Map([['short_last_key.ani', bytes]]);

  it('the committed file is what make.mjs writes', () => {
    expect(firstByteDiff(shortLastKey(), bytes)).toBe(-1);
  });

  it('reads with a warning naming file, offset and count; the key is padded from the previous one', async () => {
    const anim = readAni(bytes, 'short_last_key.ani');
    expect(anim.missingBytes).toBe(4);
    const bone = anim.tracks[1];
    expect([...bone.rotations!.subarray(4)]).toEqual([Math.fround(0.6), Math.fround(0.8), 0, 0]);
    expect([...bone.positions!.subarray(3)]).toEqual([4, 5, 6]);
    const { document, warnings } = await legacyFormat.import(files, { main: 'short_last_key.ani' });
    const w = warnings.find((x) => x.code === 'ANI_LAST_KEY_SHORT')!;
    expect(w.count).toBe(4);
    expect(w.message).toContain('short_last_key.ani');
    expect(w.message).toContain('offset 129');
    expect(WARNING_CODES.ANI_LAST_KEY_SHORT).toBeTruthy();
    expect(legacyFormat.inspect!(files)[0].facts).toMatchObject({ tracks: 2, keys: 4, lastKeyShortBy: 4 });
    // glTF: the last rotation key of "Bone" is (0.8, 0, 0, 0.6) with X mirrored (x, −y, −z, w)
    const ch = document
      .getRoot()
      .listAnimations()[0]
      .listChannels()
      .find((c) => c.getTargetNode()!.getName() === 'Bone' && c.getTargetPath() === 'rotation')!;
    const out = ch.getSampler()!.getOutput()!.getArray()!;
    expect([...out.subarray(4)].map((x) => +x.toFixed(6))).toEqual([0.8, 0, 0, 0.6]);
  });

  it('strict: true refuses it with the FormatError of a truncated file', async () => {
    await expect(
      legacyFormat.import(files, { main: 'short_last_key.ani', strict: true }),
    ).rejects.toMatchObject({
      name: 'FormatError',
      code: 'COUNT_TOO_LARGE',
    });
    expect(() => readAni(bytes, 'short_last_key.ani', { strict: true })).toThrow();
  });

  it('.ani → .glb → .ani gives the original bytes (the quirk is kept in extras)', async () => {
    expect(firstByteDiff(writeAni(readAni(bytes)), bytes)).toBe(-1);
    const { document } = await legacyFormat.import(files, { main: 'short_last_key.ani' });
    const back = await io.readBinary(await io.writeBinary(document));
    const out = await legacyFormat.export!(back, {});
    const ani = [...out.files.entries()].find(([n]) => n.endsWith('.ani'))!;
    expect(ani[0]).toBe('short_last_key.ani');
    expect(firstByteDiff(ani[1], bytes)).toBe(-1);
  });

  it('an edited last key is written whole: cutting it short would read back other values (fuzz 56a15d1e)', async () => {
    const { document } = await legacyFormat.import(files, { main: 'short_last_key.ani' });
    const ch = document
      .getRoot()
      .listAnimations()[0]
      .listChannels()
      .find((c) => c.getTargetNode()!.getName() === 'Bone' && c.getTargetPath() === 'rotation')!;
    const output = ch.getSampler()!.getOutput()!;
    // the cut bytes are the last key's z and w in file order (w, x, y, z): give it another z
    const edited = Float32Array.from(output.getArray()!);
    edited.set([0.8, 0, 0.6, 0], 4);
    output.setArray(edited);
    const out = await legacyFormat.export!(document, {});
    const ani = [...out.files.values()].find((_, i) => [...out.files.keys()][i].endsWith('.ani'))!;
    expect(ani.length).toBe(bytes.length + 4);
    const key = readAni(ani).tracks[1].rotations!.subarray(4);
    expect([...key].map((x) => x + 0)).toEqual([0, Math.fround(0.8), 0, Math.fround(-0.6)]); // (w, x, y, z), z mirrored
    // and the unedited file still round-trips short (the check above)
    expect(writeAni(readAni(bytes)).length).toBe(bytes.length);
  });
});
