import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { corpusFiles, corpusRoot, hasCorpus, validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { type BatchReport, FORMATS, main, mainFormatOf, validateFile } from '../src/index.js';
import { extrasFindings } from './extras-audit.js';
import { bundleWorker } from './worker-bundle.js';

/** Corpus folder of each format package (folder names differ from ids for urho3d). */
const FOLDER: Record<string, string> = {
  unreal3d: 'unreal3d',
  urho3d: 'urho',
  grimrock: 'grimrock',
  tso: 'tso',
  unigine: 'unigine',
};
const out = mkdtempSync(join(tmpdir(), 'gltf-legacy-corpus-'));
const STABLE_CODE = /^[A-Z][A-Z0-9_]+$/;

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

describe.skipIf(!hasCorpus('gltf'))(
  'the whole corpus in one batch (--jobs 2, --report, real formats)',
  () => {
    it('every main file has exactly one record; ok ones are valid glTF, failed ones carry a stable code and leave nothing', async () => {
      const root = corpusRoot();
      const runtime = await bundleWorker();
      const lines: string[] = [];
      const report = join(out, 'report.json');
      const code = await main(
        [
          'node',
          'gltf-legacy',
          'convert',
          root,
          '--out-dir',
          join(out, 'glb'),
          '--to',
          'glb',
          '--jobs',
          '2',
          '--report',
          report,
          '-q',
        ],
        { out: (s) => lines.push(s), err: (s) => lines.push(s) },
        FORMATS,
        { workerUrl: runtime.workerUrl },
      );
      const r = JSON.parse(readFileSync(report, 'utf8')) as BatchReport;

      // the inputs: every glTF and every main file of a format that is registered, each exactly once
      const all = corpusFiles('.', ['']);
      const expected = all.filter((p) => mainFormatOf(new Uint8Array(readFileSync(p)), p, FORMATS)).sort();
      expect(r.records.map((x) => x.input).sort()).toEqual(expected);
      // companions (animations, _a.3d, .uc, …) are skipped, not converted on their own
      const known = (p: string) => FORMATS.some((f) => f.extensions.some((e) => p.toLowerCase().endsWith(e)));
      expect(r.summary.skipped).toBe(all.filter((p) => known(p) && !expected.includes(p)).length);
      for (const f of FORMATS) {
        const mains = corpusFiles(FOLDER[f.id] ?? f.id, [f.mainExtension]);
        for (const m of mains) expect(expected, `${f.id} main file ${m}`).toContain(m);
      }
      for (const g of corpusFiles('gltf', ['.glb', '.gltf'])) expect(expected).toContain(g);

      // every record
      let legacyOutputs = 0;
      for (const rec of r.records) {
        if (rec.status === 'ok') {
          expect(rec.error, rec.input).toBeUndefined();
          // a package holding no model (CoreData.pak: materials, textures) converts to nothing, with a warning
          const empty = rec.warnings.some((w) => w.code === 'CONTAINER_EMPTY');
          expect(rec.outputs.length > 0, rec.input).toBe(!empty);
          if (!empty) expect(rec.stats, rec.input).toBeDefined();
          for (const o of rec.outputs) {
            expect(o.endsWith('.glb'), o).toBe(true);
            const v = await validateGlb(new Uint8Array(readFileSync(o)));
            // a glTF input keeps its own validator errors (SimpleSkin-multi-joint-set has 16); we add none
            const own =
              v.issues.numErrors && (rec.format === 'glb' || rec.format === 'gltf')
                ? (await validateFile(rec.input)).errors
                : 0;
            expect(v.issues.numErrors, `${o}\n${validatorErrors(v)}`).toBeLessThanOrEqual(own);
            // issue 30: what we write from a game file opens in every client by default
            if (rec.format !== 'glb' && rec.format !== 'gltf') {
              const bytes = readFileSync(o);
              const json = JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString('utf8'));
              expect(json.extensionsRequired ?? [], o).toEqual([]);
              // issue 29: kept bytes travel as bytes — no number arrays or base64 in any extras
              // (extras-audit.ts; a glTF input's own extras are the user's data, passed through)
              expect(extrasFindings(json), o).toEqual([]);
              legacyOutputs++;
            }
          }
          // the tree is mirrored below --out-dir
          const rel = relative(root, dirname(rec.input));
          if (!empty)
            expect(
              relative(join(out, 'glb'), rec.outputs[0]).startsWith(rel),
              `${rec.outputs[0]} mirrors ${rel}`,
            ).toBe(true);
        } else {
          expect(rec.error?.code, rec.input).toMatch(STABLE_CODE);
          expect(
            ['INTERNAL_ERROR', 'WORKER_CRASHED', 'TIMEOUT', 'OUTPUT_EXISTS', 'OUTPUT_CONFLICT'],
            `${rec.input}: ${rec.error?.message}`,
          ).not.toContain(rec.error?.code);
          expect(rec.error?.message.length).toBeGreaterThan(10);
          expect(rec.outputs).toEqual([]);
        }
        for (const w of rec.warnings) {
          expect(w.code).toMatch(STABLE_CODE);
          expect(w.count).toBeGreaterThan(0);
        }
        expect(rec.ms).toBeGreaterThanOrEqual(0);
      }
      expect(legacyOutputs).toBeGreaterThan(100);
      expect(r.summary.total).toBe(r.records.length);
      expect(r.summary.ok + r.summary.failed).toBe(r.records.length);
      expect(code).toBe(r.summary.failed ? 1 : 0);
      // the glTF sample models all convert (they need no legacy format)
      const gltfFailures = r.records.filter(
        (x) => x.status === 'error' && x.input.startsWith(join(root, 'gltf')),
      );
      expect(gltfFailures.map((x) => `${x.input}: ${x.error?.message}`)).toEqual([]);
      // no temp file left anywhere
      const leftovers: string[] = [];
      const walk = (d: string) => {
        for (const e of readdirSync(d, { withFileTypes: true })) {
          if (e.isDirectory()) walk(join(d, e.name));
          else if (e.name.includes('.tmp-')) leftovers.push(join(d, e.name));
        }
      };
      walk(out);
      expect(leftovers).toEqual([]);
      expect(existsSync(report)).toBe(true);
      // the whole corpus (archives included: Fetch Quest.dat alone decodes a 2048² DXT5 normal map)
      // takes ~23 s of CPU; 68 s wall at load average 22 on 2 cores, so the default 60 s is too short
    }, 180_000);
  },
);
