/**
 * Shared test helpers: the Khronos validator, the corpus walker and tolerance comparisons.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
// resolved by the Vitest alias to packages/core/src (no package dependency: core tests use test-utils)
import { MemoryResources } from '@gltf-legacy/core';
import { Document } from '@gltf-transform/core';
import { validateBytes, type ValidatorReport } from 'gltf-validator';

export type { ValidatorReport };

/** Repository root (three levels above this file). */
export const REPO_ROOT = resolve(import.meta.dirname, '../../..');

/** `test-assets/` of the repository. */
export const TEST_ASSETS = join(REPO_ROOT, 'test-assets');

/**
 * Validates GLB (or glTF JSON) bytes with the Khronos glTF-Validator. External resources are
 * refused (our outputs are self-contained GLBs); `resources` may supply them by URI.
 */
export async function validateGlb(
  bytes: Uint8Array,
  resources: Record<string, Uint8Array> = {},
): Promise<ValidatorReport> {
  return validateBytes(bytes, {
    uri: 'model.glb',
    maxIssues: 200,
    externalResourceFunction: (uri: string) => {
      const r = resources[decodeURIComponent(uri)];
      return r ? Promise.resolve(r) : Promise.reject(new Error(`external resource not available: ${uri}`));
    },
  });
}

/** The validator's error messages as one readable string (for assertion messages). */
export function validatorErrors(report: ValidatorReport): string {
  return report.issues.messages
    .filter((m) => m.severity === 0)
    .map((m) => `${m.code} ${m.pointer ?? ''}: ${m.message}`)
    .join('\n');
}

/**
 * The corpus root: `GLTF_LEGACY_CORPUS` (CI sets it) or `../shared/corpus` beside the repository.
 */
export function corpusRoot(): string {
  return resolve(REPO_ROOT, process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus');
}

/**
 * Files of one corpus folder whose names end with one of `extensions` (case-insensitive), sorted.
 * When `GLTF_LEGACY_CORPUS` is set and the folder is missing, this throws (CI must not pass by
 * skipping); without the variable a missing folder yields `[]` so a checkout without ../shared
 * can still run the unit tests.
 */
export function corpusFiles(folder: string, extensions: string[]): string[] {
  const dir = join(corpusRoot(), folder);
  if (!existsSync(dir)) {
    if (process.env.GLTF_LEGACY_CORPUS || process.env.CI) {
      throw new Error(
        `corpus folder ${dir} is missing (GLTF_LEGACY_CORPUS=${process.env.GLTF_LEGACY_CORPUS})`,
      );
    }
    return [];
  }
  const lower = extensions.map((e) => e.toLowerCase());
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (lower.some((e) => name.toLowerCase().endsWith(e))) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** True when the corpus is present (tests use it to decide `describe.skipIf`, never in CI). */
export function hasCorpus(folder: string): boolean {
  if (process.env.GLTF_LEGACY_CORPUS || process.env.CI) return true;
  return existsSync(join(corpusRoot(), folder));
}

/**
 * The input of a fuzz regression note (`test-assets/fuzz-regressions/<format>/<hash>.json`).
 * Inputs made from corpus files are stored as patches over them (no corpus bytes in the
 * repository) and rebuilt here, checked against their sha256; `io` turns a glTF-corpus seed
 * into the GLB the fuzzer mutated.
 */
export async function regressionInput(format: string, hash: string, io: unknown): Promise<Uint8Array> {
  // @ts-expect-error plain ES module without type declarations
  const { storedInput } = await import('../../fuzz/src/stored-input.mjs');
  return storedInput(join(REPO_ROOT, 'test-assets', 'fuzz-regressions', format), hash, async () => io);
}

/**
 * Every file below `dir` as a `MemoryResources` (root-relative `/` paths), for importers that read
 * textures and material files; `textured/...` folders of the corpus are small enough to hold.
 *
 * ```ts
 * const root = join(corpusRoot(), 'textured/unreal3d/MushMatch');
 * const { document } = await unreal3d.import(files, { main: 'Sporifier_d.3d', resources: folderResources(root), resourcePath: 'Models/Sporifier_d.3d' });
 * ```
 */
export function folderResources(dir: string): MemoryResources {
  const files: [string, Uint8Array][] = [];
  const walk = (d: string, rel: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(p).isDirectory()) walk(p, r);
      else files.push([r, readBytes(p)]);
    }
  };
  walk(dir, '');
  return new MemoryResources(files, dir);
}

/** Reads a file as a Uint8Array. */
export function readBytes(path: string): Uint8Array {
  const b = readFileSync(path);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** Largest absolute difference between two numeric arrays (throws on length mismatch). */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} ≠ ${b.length}`);
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (d > m || Number.isNaN(d)) m = Number.isNaN(d) ? Number.POSITIVE_INFINITY : d;
  }
  return m;
}

/**
 * Asserts two arrays match within `tolerance` (absolute), naming the first bad index. The
 * tolerance must come from the codec's documented worst-case error, not from trial and error.
 */
export function expectClose(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  tolerance: number,
  what = 'values',
): void {
  if (actual.length !== expected.length)
    throw new Error(`${what}: length ${actual.length} ≠ ${expected.length}`);
  for (let i = 0; i < actual.length; i++) {
    const d = Math.abs(actual[i] - expected[i]);
    if (!(d <= tolerance)) {
      throw new Error(`${what}[${i}]: ${actual[i]} vs ${expected[i]} differs by ${d} > ${tolerance}`);
    }
  }
}

/** Index of the first differing byte, or -1 when equal (for byte-exact assertions). */
export function firstByteDiff(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/**
 * Loads GLB bytes with three.js GLTFLoader in Node (geometry, skins, morphs, animations), as a
 * user's viewer would. Images are not decoded.
 */
export async function loadWithThree(bytes: Uint8Array): Promise<any> {
  const g = globalThis as any;
  g.self ??= globalThis;
  g.createImageBitmap ??= async () => ({ width: 1, height: 1, close() {} });
  const { GLTFLoader } = await import('three/examples/jsm/loaders/GLTFLoader.js');
  const loader = new GLTFLoader();
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return loader.parseAsync(ab as ArrayBuffer, '');
}

/**
 * The warning codes a package's sources emit (`warn('CODE'` / `warn(\n 'CODE'`), read from every
 * `.ts` file below `srcDir`, so a test can check each is declared in a warning-code table.
 *
 * ```ts
 * const emitted = emittedWarningCodes(new URL('../src/', import.meta.url));
 * ```
 */
export function emittedWarningCodes(srcDir: URL): Set<string> {
  const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  const src = files.map((f) => readFileSync(new URL(f, srcDir), 'utf8')).join('\n');
  return new Set([...src.matchAll(/warn\(\s*'([A-Z_]+)'/g)].map((m) => m[1]));
}

/** Options of {@link animatedDocument}. */
export interface AnimatedDocumentOptions {
  /** Name of the animated node (default `bone`). */
  node?: string;
  /** Key times of every channel (default 0 and 1 s). */
  times?: number[];
  /** VEC3 translation values, 3 per key (default (0, 0, 0) then (0, 1, 0)). */
  values?: number[];
}

/**
 * A document with one node and, per name, an animation of one LINEAR translation channel on it:
 * what the naming tests export to see which clip file names come out.
 *
 * ```ts
 * const doc = animatedDocument(['Walk', 'walk'], { node: 'Bone' });
 * ```
 */
export function animatedDocument(names: string[], options: AnimatedDocumentOptions = {}): Document {
  const { node: nodeName = 'bone', times = [0, 1], values = [0, 0, 0, 0, 1, 0] } = options;
  const doc = new Document();
  const buffer = doc.createBuffer();
  const node = doc.createNode(nodeName);
  doc.createScene().addChild(node);
  for (const name of names) {
    const input = doc.createAccessor().setType('SCALAR').setArray(Float32Array.from(times)).setBuffer(buffer);
    const output = doc.createAccessor().setType('VEC3').setArray(Float32Array.from(values)).setBuffer(buffer);
    const sampler = doc.createAnimationSampler().setInput(input).setOutput(output);
    const channel = doc.createAnimationChannel().setTargetNode(node).setTargetPath('translation');
    doc.createAnimation(name).addSampler(sampler).addChannel(channel.setSampler(sampler));
  }
  return doc;
}
