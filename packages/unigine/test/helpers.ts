import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { corpusFiles, readBytes } from '@gltf-legacy/test-utils';
import { animCompanions } from '../src/import.js';
import type { AnimFile } from '../src/index.js';

/** Versions this package reads. */
export const SUPPORTED = /^(ms11|an10)$/;

/** Corpus files of the format, split by whether their version is supported. */
export function unigineCorpus(): { supported: string[]; unsupported: string[] } {
  const all = corpusFiles('unigine', ['.mesh', '.anim']);
  const supported: string[] = [];
  const unsupported: string[] = [];
  for (const f of all) {
    const magic = new TextDecoder('latin1').decode(readBytes(f).subarray(0, 4));
    (SUPPORTED.test(magic) ? supported : unsupported).push(f);
  }
  return { supported, unsupported };
}

/** A file set: the main file plus the companions `legacyFormat.companions` picks. */
export function fileSet(path: string): Map<string, Uint8Array> {
  const name = basename(path);
  const files = new Map([[name, readBytes(path)]]);
  if (name.toLowerCase().endsWith('.mesh')) {
    for (const c of animCompanions(name, readdirSync(dirname(path))))
      files.set(c, readBytes(join(dirname(path), c)));
  }
  return files;
}

export function stemOf(name: string): string {
  return name.replace(/\.[^.]*$/, '');
}

/**
 * One bone whose scale y/z boxes are narrower than float32 resolution (offset ≈ 1, size ≈ 1e-6;
 * fuzz campaign seed 99): 3 frames, every component in frame 0, then scale y and z (flags 0x60).
 * Import keeps such axes as raw u16 codes.
 */
export function narrowScaleAnim(): AnimFile {
  const frames = 3;
  const scales = new Uint16Array(frames * 3);
  [
    [100, 31043],
    [2000, 20695],
    [40000, 13797],
  ].forEach(([y, z], f) => {
    scales[f * 3 + 1] = y!;
    scales[f * 3 + 2] = z!;
  });
  const rotations = new Int16Array(frames * 4);
  rotations[3] = 32767;
  return {
    magic: 'an10',
    encoding: 'utf8',
    bounds: new Float32Array(10),
    bones: [{ name: 'root', parent: -1 }],
    animationNames: ['narrow'],
    bindPose: Float32Array.from([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]),
    animations: [
      {
        bones: Int16Array.of(0),
        boxes: Float32Array.from([
          0, 0, 0, 0, 0, 0, 0.999999463558197, 0.9999926686286926, 0.999999463558197, 7.7e-7, 7.7e-6, 1.13e-6,
        ]),
        componentMask: 0x7f,
        numFrames: frames,
        flags: Uint8Array.from([0x7f, 0x60, 0x60]),
        positions: new Uint16Array(frames * 3),
        rotations,
        scales,
      },
    ],
  };
}
