/**
 * The export matrix of issue 17: every glTF of ../shared/corpus/gltf, exported to each of the five
 * formats. The shared stage decides the preparation steps from the format's limits alone, so
 * (1) each export reports exactly the preparation codes `prepare(document, format.limits)` gives,
 * and (2) formats whose limits agree on a step report the same code for it on the same file.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Document } from '@gltf-transform/core';
import { createCodecNodeIO, readGlbFile, readGltfJson } from '@gltf-legacy/cli';
import { type LegacyFormat, type LegacyLimits, isLegacyError } from '@gltf-legacy/core';
import { legacyFormat as grimrock } from '@gltf-legacy/grimrock';
import { STAGE_WARNING_CODES, animationFps, prepare, stageWarningCodes } from '@gltf-legacy/prepare';
import { corpusFiles, hasCorpus } from '@gltf-legacy/test-utils';
import { legacyFormat as tso } from '@gltf-legacy/tso';
import { legacyFormat as unigine } from '@gltf-legacy/unigine';
import { legacyFormat as unreal3d } from '@gltf-legacy/unreal3d';
import { legacyFormat as urho3d } from '@gltf-legacy/urho3d';
import { describe, expect, it } from 'vitest';

const FORMATS: LegacyFormat[] = [unreal3d, urho3d, grimrock, tso, unigine];

/** The codes the shared stage owns: one per kind of preparation step. */
const STAGE_CODES = STAGE_WARNING_CODES;

/** Codes that were once spelled differently per format, for the same step. */
const RETIRED_CODES = ['PRIMITIVE_CONVERTED', 'PRIMITIVE_SKIPPED', 'INFLUENCES_LIMITED'];

/** The limits a step depends on, as a key: formats with equal keys must agree on its code. */
const STEP_KEYS: Record<(typeof STAGE_CODES)[number], (l: LegacyLimits, d: Document) => string> = {
  ATTRIBUTE_DEQUANTIZED: (l) => String(l.floatAttributes),
  PRIMITIVE_TRIANGULATED: (l) => [...l.modes].sort().join(),
  PRIMITIVE_DROPPED: (l) => [...l.modes].sort().join(),
  TRANSFORMS_BAKED: (l) => String(l.nodeTree),
  WEIGHTS_TRUNCATED: (l) => String(l.maxInfluences),
  PRIMITIVE_SPLIT: (l) => `${l.maxVertices}/${l.maxBonesPerDraw}/${[...l.modes].sort().join()}`,
  // the rate a format picks for each clip of this document (a function for per-clip rates)
  ANIMATION_RESAMPLED: (l, d) =>
    JSON.stringify(
      l.animation && {
        ...l.animation,
        fps: d
          .getRoot()
          .listAnimations()
          .map((a) => animationFps(l.animation!, a)),
      },
    ),
};

async function readGltf(path: string): Promise<Document> {
  const bytes = new Uint8Array(readFileSync(path));
  const draco = Buffer.from(bytes).includes('KHR_draco_mesh_compression');
  const io = await createCodecNodeIO(FORMATS, { draco });
  return path.toLowerCase().endsWith('.glb')
    ? readGlbFile(io, path, bytes)
    : readGltfJson(io, path, bytes, { resourceDir: dirname(path) });
}

const codesOf = stageWarningCodes;

describe.skipIf(!hasCorpus('gltf'))('export matrix: corpus/gltf × five formats', () => {
  const files = hasCorpus('gltf') ? corpusFiles('gltf', ['.glb', '.gltf']) : [];

  it('every format declares its limits', () => {
    for (const f of FORMATS) expect(f.limits, `${f.id}.limits`).toBeDefined();
  });

  it('the same preparation step gives the same warning code in every format', async () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
    const failures: string[] = [];
    let exports = 0;
    let stageWarnings = 0;
    let refused = 0;
    const perCode = new Map<string, number>();
    for (const file of files) {
      const document = await readGltf(file);
      // No preparation step depends on textures, and encoding them (PCX palettes, DDS blocks) was
      // 65 % of this test's time: texture export is each package's own foreign-glTF test.
      for (const texture of document.getRoot().listTextures()) texture.dispose();
      const byFormat = new Map<string, string[]>();
      const limitsOf = new Map<string, LegacyLimits>();
      for (const format of FORMATS) {
        const limits = format.exportLimits?.(document, { name: 'matrix' }) ?? format.limits!;
        limitsOf.set(format.id, limits);
        const expected = codesOf((await prepare(document, limits)).warnings.list());
        let got: string[];
        try {
          const result = await format.export!(document, { name: 'matrix' });
          for (const w of result.warnings)
            if (RETIRED_CODES.includes(w.code))
              failures.push(`${file} → ${format.id}: retired code ${w.code}`);
          got = codesOf(result.warnings);
          exports++;
        } catch (e) {
          if (!isLegacyError(e)) failures.push(`${file} → ${format.id}: ${(e as Error).stack}`);
          refused++;
          continue; // a clear refusal (the format cannot hold this file) has no warnings to compare
        }
        if (got.join() !== expected.join())
          failures.push(
            `${file} → ${format.id}: export reported [${got}], the shared stage gives [${expected}]`,
          );
        byFormat.set(format.id, got);
        stageWarnings += got.length;
        for (const c of got) perCode.set(c, (perCode.get(c) ?? 0) + 1);
      }
      // Formats that agree on a step's limits agree on its code.
      for (const code of STAGE_CODES) {
        const groups = new Map<string, string[]>();
        for (const format of FORMATS) {
          if (!byFormat.has(format.id)) continue;
          const key = STEP_KEYS[code](limitsOf.get(format.id)!, document);
          groups.set(key, [...(groups.get(key) ?? []), format.id]);
        }
        for (const ids of groups.values()) {
          const has = ids.map((id) => byFormat.get(id)!.includes(code));
          if (has.some((h) => h !== has[0]))
            failures.push(`${file}: ${code} reported by some of [${ids}] only`);
        }
      }
    }
    console.info(
      `export matrix: ${files.length} files × ${FORMATS.length} formats: ${exports} exported, ${refused} refused with a LegacyError; stage codes (exports reporting each): ${JSON.stringify(Object.fromEntries(perCode))}`,
    );
    expect(failures).toEqual([]);
    expect(exports).toBeGreaterThan(files.length * 3);
    expect(stageWarnings).toBeGreaterThan(0);
  });
});
