// The file-model check shared by both tiers: read → write → read → write of one file, with
// the allowed failure (a LegacyError at the first read) told apart from findings. Imports only
// @gltf-legacy/core, so the fast tier's worker loads no glTF code (its coverage takes stay small).
import { isDeepStrictEqual } from 'node:util';
import { isLegacyError } from '@gltf-legacy/core';
import { pairFor } from './formats.mjs';

/** A bug found while running an input. */
export class Finding extends Error {
  constructor(kind, stage, error, detail) {
    super(`${kind} at ${stage}`);
    this.kind = kind;
    this.stage = stage;
    this.error = error === undefined ? undefined : describeError(error);
    this.detail = detail;
  }
}

/** Plain, cloneable description of an error. */
export function describeError(e) {
  if (!(e instanceof Error)) return { name: typeof e, message: String(e).slice(0, 500), legacy: false };
  return {
    name: e.name,
    code: e.code,
    message: String(e.message).slice(0, 500),
    legacy: isLegacyError(e),
    stack: (e.stack ?? '')
      .split('\n')
      .slice(1, 9)
      .map((l) => l.trim()),
  };
}

/** Runs `fn`; a LegacyError returns `{ rejected }`, anything else is a finding of `kind`. */
export async function step(ctx, stage, kind, fn) {
  ctx.progress(stage);
  try {
    return { value: await fn() };
  } catch (e) {
    if (e instanceof Finding) throw e;
    if (isLegacyError(e)) return { rejected: { stage, code: e.code } };
    throw new Finding(kind, stage, e);
  }
}

/** Runs `fn`; ANY error (typed or not) is a finding: our own output must always be readable. */
export async function must(ctx, stage, kind, fn) {
  ctx.progress(stage);
  try {
    return await fn();
  } catch (e) {
    if (e instanceof Finding) throw e;
    throw new Finding(kind, stage, e);
  }
}

export function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function firstDiff(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

/** File model: read → write → read → write; the second write must equal the first. */
export async function fileModel(ctx, fmt, job, result) {
  const own = pairFor(fmt.pairs, job.name);
  const pairs = job.allPairs ? fmt.pairs : own ? [own] : [];
  for (const p of pairs) {
    const r = await step(ctx, `read:${p.read}`, 'CRASH', () => p.readFn(job.bytes, job.name));
    if (r.rejected) {
      if (p === own) result.rejected = r.rejected;
      continue;
    }
    const m1 = r.value;
    if (p === own) result.parsed = true;
    const w = await step(ctx, `write:${p.write}`, 'CRASH', () => p.writeFn(m1));
    if (w.rejected)
      throw new Finding(
        'WRITE_REJECTS_READ',
        `write:${p.write}`,
        undefined,
        `${p.write} refused a model ${p.read} accepted (${w.rejected.code})`,
      );
    const b1 = w.value;
    const m2 = await must(ctx, `reread:${p.read}`, 'REREAD', () => p.readFn(b1, job.name));
    const b2 = await must(ctx, `rewrite:${p.write}`, 'CRASH', () => p.writeFn(m2));
    if (!sameBytes(b1, b2))
      throw new Finding(
        'FIXED_POINT_FILE',
        `rewrite:${p.write}`,
        undefined,
        `write(read(write(read(x)))) differs from write(read(x)) at byte ${firstDiff(b1, b2)}`,
      );
    if (!isDeepStrictEqual(m1, m2))
      throw new Finding(
        'FIXED_POINT_MODEL',
        `reread:${p.read}`,
        undefined,
        `read(write(read(x))) is not deep-equal to read(x)`,
      );
    result.fileModel = (result.fileModel ?? 0) + 1;
  }
}
