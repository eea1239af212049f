// Owns what every command shares: exit codes, the output sink, usage errors and flag parsers
// (main.ts, program.ts and run-convert.ts all import it; it imports none of them).
import type { LegacyFormat } from '@gltf-legacy/core';

/** Exit codes: 0 all ok, 1 some input failed, 2 usage error. */
export const EXIT = { OK: 0, FAILED: 1, USAGE: 2 } as const;

export interface Output {
  out: (s: string) => void;
  err: (s: string) => void;
  /** Raw stderr writes (progress bar); default: none. */
  progress?: (s: string) => void;
  /** Whether stderr is a terminal (progress bar instead of plain lines). */
  isTTY?: boolean;
}

/** How batch workers are started (tests inject a bundled worker and a formats module). */
export interface Runtime {
  workerUrl?: string | URL;
  formatsModule?: string;
}

export const defaultOutput: Output = {
  out: (s) => process.stdout.write(`${s}\n`),
  err: (s) => process.stderr.write(`${s}\n`),
  progress: (s) => process.stderr.write(s),
  isTTY: !!process.stderr.isTTY,
};

/** A usage error: printed as `error: message`, exit code 2. */
export class UsageError extends Error {
  readonly code = 'usage';
  readonly exitCode = EXIT.USAGE;
}

export function usage(message: string): UsageError {
  return new UsageError(message);
}

export function positiveNumber(flag: string, v: unknown, integer: boolean, min: number): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n)))
    throw usage(`${flag} expects ${integer ? 'an integer' : 'a number'} ≥ ${min}, got "${v}"`);
  return n;
}

/** Parses a byte size: `1048576`, `512K`, `64M`, `2G` (binary units; `KiB`/`MiB`/`GiB`/`B` accepted). */
export function parseByteSize(flag: string, v: unknown): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(String(v));
  const n = m ? Number(m[1]) * 1024 ** ' kmgt'.indexOf((m[2] || ' ').toLowerCase()) : Number.NaN;
  if (!Number.isFinite(n) || n < 1)
    throw usage(`${flag} expects a size in bytes such as 1073741824, 512M or 2G, got "${v}"`);
  return Math.floor(n);
}

/** What the convert command needs besides its arguments. */
export interface CommandContext {
  io: Output;
  /** Injected formats (tests); undefined: every registered one, loaded on demand. */
  formats?: readonly LegacyFormat[];
  setExit: (code: number) => void;
  runtime: Runtime;
}
