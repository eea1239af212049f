// What one fuzz input goes through, inside a worker thread. A returned `finding` is a bug;
// `outcome` says how far a healthy input got. Allowed failures are LegacyErrors only.
import { MemoryResources } from '@gltf-legacy/core';
import { NodeIO } from '@gltf-transform/core';
import { describeError, Finding, fileModel, firstDiff, must, sameBytes, step } from './file-model.mjs';
import { buildDocument, sampleDocumentSpec } from './gltf-gen.mjs';

export { describeError, Finding, fileModel };

/** Compares two exported FileSets; returns undefined when equal, else a description. */
export function fileSetDiff(a, b) {
  const names = [...new Set([...a.keys(), ...b.keys()])].sort();
  for (const n of names) {
    const x = a.get(n);
    const y = b.get(n);
    if (!x || !y) return `${n} present in only one export`;
    if (!sameBytes(x, y)) return `${n} differs at byte ${firstDiff(x, y)} (sizes ${x.length} / ${y.length})`;
  }
  return undefined;
}

/**
 * Paths a resource reader must never be handed: absolute paths (`/x`, `\\x`, `C:`), URI schemes
 * and NUL. `resolveReference` never produces them, so seeing one means an importer passed a
 * reference found in a file to the reader without resolving it.
 */
const UNRESOLVED = /^(?:[\\/]|[a-z]:|[a-z][a-z0-9+.-]+:)|\u0000/i;

/**
 * The reader an import gets in the fuzzer: the input's own files (as the CLI gives a package's
 * entries), behind a tripwire. An unresolved path is a finding (`RESOURCE_ESCAPE`), whatever
 * the reader would have answered; `..` above the root is refused by MemoryResources itself
 * (`PATH_ESCAPE`, a LegacyError: allowed). The escape mutator (`mutate.mjs`) rewrites paths in
 * the inputs so that these checks keep being exercised.
 */
export function tripwireResources(files) {
  const inner = new MemoryResources(files, 'fuzz input');
  const check = (op, path) => {
    if (typeof path !== 'string' || UNRESOLVED.test(path))
      throw new Finding(
        'RESOURCE_ESCAPE',
        'import',
        undefined,
        `resources.${op} was asked for ${JSON.stringify(String(path).slice(0, 200))}: references must go through resolveReference`,
      );
  };
  return {
    label: inner.label,
    async read(path) {
      check('read', path);
      return inner.read(path);
    },
    async find(path) {
      check('find', path);
      return inner.find(path);
    },
    async list(dir, options) {
      if (dir) check('list', dir);
      return inner.list(dir, options);
    },
  };
}

/** Import options of the fuzzer: the main file and the tripwire reader over the set. */
function importOptions(files, main) {
  return { main, resources: tripwireResources(files), resourcePath: main };
}

/**
 * The main file of an exported set: the format's `exportEntry` (a Urho3D prefab, a TSO `.apr`),
 * else the one ending with the format's mainExtension.
 */
export function mainOf(legacy, files) {
  const entry = legacy.exportEntry?.(files);
  if (entry !== undefined && files.has(entry)) return entry;
  const ext = legacy.mainExtension.toLowerCase();
  for (const n of files.keys()) if (n.toLowerCase().endsWith(ext)) return n;
  return files.keys().next().value;
}

/** import → .glb → NodeIO → export → import → export; the two exports must be byte-equal. */
async function mapping(ctx, fmt, files, main, result) {
  const legacy = fmt.legacy;
  const imp = await step(ctx, 'import', 'CRASH', () => legacy.import(files, importOptions(files, main)));
  if (imp.rejected) {
    result.rejected ??= imp.rejected;
    return;
  }
  result.imported = (result.imported ?? 0) + 1;
  if (!legacy.export || legacy.capabilities?.export === false) {
    await must(ctx, 'writeBinary', 'GLB_WRITE', () => ctx.io.writeBinary(imp.value.document));
    return;
  }
  let doc = imp.value.document;
  if (ctx.glbTrip) {
    // the CLI's path: the document goes through a .glb before it is exported again
    const glb = await must(ctx, 'writeBinary', 'GLB_WRITE', () => ctx.io.writeBinary(doc));
    doc = await must(ctx, 'readBinary', 'GLB_READ', () => ctx.io.readBinary(glb));
  }
  await exportChain(ctx, legacy, doc, result);
}

/** export → import → export, asserting our own output always imports and is a fixed point. */
async function exportChain(ctx, legacy, doc, result) {
  const e1 = await step(ctx, 'export', 'CRASH', () => legacy.export(doc, { name: 'fuzz' }));
  if (e1.rejected) {
    result.exportRejected = e1.rejected;
    return;
  }
  result.exported = (result.exported ?? 0) + 1;
  const files1 = e1.value.files;
  const d2 = await must(ctx, 'reimport', 'REIMPORT', () =>
    legacy.import(files1, importOptions(files1, mainOf(legacy, files1))),
  );
  if (ctx.glbTrip)
    await must(ctx, 'reimport:writeBinary', 'GLB_WRITE', () => ctx.io.writeBinary(d2.document));
  const e2 = await must(ctx, 'reexport', 'REEXPORT', () => legacy.export(d2.document, { name: 'fuzz' }));
  if (ctx.fixedPoint(legacy.id) === 'first') {
    const diff = fileSetDiff(files1, e2.files);
    if (diff)
      throw new Finding(
        'FIXED_POINT',
        'reexport',
        undefined,
        `export(import(export(import(x)))) != export(import(x)): ${diff}`,
      );
  } else {
    // formats that normalise on the first trip: one more round must be stable
    const d3 = await must(ctx, 'reimport2', 'REIMPORT', () =>
      legacy.import(e2.files, importOptions(e2.files, mainOf(legacy, e2.files))),
    );
    const e3 = await must(ctx, 'reexport2', 'REEXPORT', () => legacy.export(d3.document, { name: 'fuzz' }));
    const diff = fileSetDiff(e2.files, e3.files);
    if (diff)
      throw new Finding(
        'FIXED_POINT',
        'reexport2',
        undefined,
        `third export differs from the second: ${diff}`,
      );
  }
  result.fixedPoint = (result.fixedPoint ?? 0) + 1;
}

async function runLegacy(ctx, job) {
  const fmt = ctx.formats.get(job.format);
  const result = {};
  await fileModel(ctx, fmt, job, result);
  if (!fmt.legacy || job.fileModelOnly) return result;
  const files = new Map([[job.name, job.bytes], ...(job.companions ?? [])]);
  const legacy = fmt.legacy;
  // sniff answers yes/no and never throws; inspect reads like import (LegacyError allowed)
  await must(ctx, 'sniff', 'CRASH', () => legacy.sniff(job.bytes, job.name));
  if (legacy.inspect)
    await step(ctx, 'inspect', 'CRASH', () => legacy.inspect(files, importOptions(files, job.name)));
  if (legacy.unpack && legacy.capabilities?.container && !legacy.sniff(job.bytes, job.name)) {
    // not a main file by magic: maybe a container
    const u = await step(ctx, 'unpack', 'CRASH', () => legacy.unpack(job.bytes, job.name));
    if (u.value) {
      result.unpacked = u.value.size;
      let n = 0;
      for (const [name, bytes] of u.value) {
        if (n >= 3) break;
        let mine = false;
        try {
          mine = legacy.sniff(bytes, name);
        } catch (e) {
          throw new Finding('CRASH', 'sniff', e);
        }
        if (!mine) continue;
        n++;
        await mapping(ctx, fmt, u.value, name, result);
      }
      return result;
    }
  }
  await mapping(ctx, fmt, files, job.name, result);
  return result;
}

async function runGltf(ctx, job) {
  const fmt = ctx.formats.get(job.format);
  const result = {};
  if (!fmt.legacy?.export) return { skipped: 'no export' };
  let doc;
  if (job.source === 'gen')
    doc = await must(ctx, 'generate', 'GENERATOR', () => buildDocument(sampleDocumentSpec(job.seed)));
  else {
    ctx.progress('readBinary');
    try {
      // the CLI's path: accessor counts are checked before glTF-Transform allocates or loops
      // over them (a mutated `"count": 2147483648` spins in NodeIO.readBinary for minutes)
      const read = await glbReader();
      doc = read ? await read(ctx.io, job.name, job.bytes) : await ctx.io.readBinary(job.bytes);
    } catch {
      return { invalidInput: true };
    }
  }
  await exportChain(ctx, fmt.legacy, doc, result);
  return result;
}

/** Runs one job; returns `{ result }` or `{ finding }`. */
export async function runJob(ctx, job) {
  try {
    const result = job.kind === 'gltf' ? await runGltf(ctx, job) : await runLegacy(ctx, job);
    return { result };
  } catch (e) {
    if (e instanceof Finding)
      return { finding: { kind: e.kind, stage: e.stage, error: e.error, detail: e.detail } };
    return { finding: { kind: 'HARNESS', stage: 'unknown', error: describeError(e) } };
  }
}

let cliReadGlb;
/** The CLI's guarded `.glb` reader (`readGlbFile`), or null when the CLI is not built. */
async function glbReader() {
  if (cliReadGlb === undefined) {
    try {
      cliReadGlb = (await import('@gltf-legacy/cli')).readGlbFile ?? null;
    } catch {
      cliReadGlb = null;
    }
  }
  return cliReadGlb;
}

/** A NodeIO with every extension the CLI registers (plain NodeIO if the CLI is not built). */
export async function makeIO() {
  try {
    const cli = await import('@gltf-legacy/cli');
    return await cli.createNodeIO();
  } catch {
    return new NodeIO();
  }
}
