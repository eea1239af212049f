/**
 * Errors and warnings shared by every gltf-legacy format.
 *
 * A `FormatError` is raised when bytes cannot be read as the format they claim to be; an
 * `ExportError` when a glTF document holds something the target format cannot express. Both
 * carry a stable `code` that scripts can match on.
 */

/** Options accepted by {@link FormatError}. */
export interface FormatErrorOptions {
  /** Stable machine-readable code, e.g. `TRUNCATED`, `BAD_MAGIC`, `COUNT_TOO_LARGE`. */
  code?: string;
  /** Name of the file being read. */
  file?: string;
  /** Byte offset in the file where the problem was found. */
  offset?: number;
  /** Field path, e.g. `geometries[2].lods[0].indexCount`. */
  field?: string;
}

/** Base class of the errors gltf-legacy raises on purpose. */
export class LegacyError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
    this.name = 'LegacyError';
  }
}

/**
 * Bytes that do not form a valid file of the expected format.
 *
 * ```ts
 * throw new FormatError('numVerts exceeds the file', { code: 'COUNT_TOO_LARGE', file: 'x_d.3d', offset: 2, field: 'header.numVerts' });
 * ```
 */
export class FormatError extends LegacyError {
  readonly file?: string;
  readonly offset?: number;
  readonly field?: string;
  /** The message without the file/offset/field prefix. */
  readonly detail: string;

  constructor(detail: string, options: FormatErrorOptions = {}) {
    super(options.code ?? 'FORMAT_ERROR', formatErrorMessage(detail, options));
    this.name = 'FormatError';
    this.detail = detail;
    this.file = options.file;
    this.offset = options.offset;
    this.field = options.field;
  }
}

function formatErrorMessage(detail: string, o: FormatErrorOptions): string {
  const where: string[] = [];
  if (o.file !== undefined) where.push(o.file);
  if (o.offset !== undefined) where.push(`offset ${o.offset} (0x${o.offset.toString(16)})`);
  if (o.field) where.push(`field ${o.field}`);
  return where.length ? `${where.join(', ')}: ${detail}` : detail;
}

/** A glTF document that cannot be written to the target format (too many vertices, …). */
export class ExportError extends LegacyError {
  constructor(code: string, message: string) {
    super(code, message);
    this.name = 'ExportError';
  }
}

/** True for errors gltf-legacy raises on purpose (anything else is a bug: `INTERNAL_ERROR`). */
export function isLegacyError(e: unknown): e is LegacyError {
  return e instanceof LegacyError;
}

/** A lossy or surprising step, reported to the user. Repeats are merged and counted. */
export interface Warning {
  /** Stable code, e.g. `WEIGHTS_TRUNCATED`, `VALUE_QUANTIZED`, `ATTRIBUTE_DROPPED`. */
  code: string;
  /** One sentence a modder understands (the first one seen for this code). */
  message: string;
  /** How many times it happened. */
  count: number;
}

/**
 * Collects warnings, merging repeats of the same code and message.
 *
 * ```ts
 * const warnings = new WarningCollector();
 * warnings.warn('WEIGHTS_TRUNCATED', 'More than 4 influences; kept the 4 largest', 12);
 * warnings.list(); // [{ code: 'WEIGHTS_TRUNCATED', message: '…', count: 12 }]
 * ```
 */
export class WarningCollector {
  private readonly map = new Map<string, Warning>();

  /** Records a warning `count` times (default 1). A count of 0 records nothing. */
  warn(code: string, message: string, count = 1): void {
    if (count <= 0) return;
    const key = `${code}\u0000${message}`;
    const existing = this.map.get(key);
    if (existing) existing.count += count;
    else this.map.set(key, { code, message, count });
  }

  /** Adds every warning of another collector or list. */
  merge(other: WarningCollector | readonly Warning[]): void {
    const list = other instanceof WarningCollector ? other.list() : other;
    for (const w of list) this.warn(w.code, w.message, w.count);
  }

  /** True if a warning with this code was recorded. */
  has(code: string): boolean {
    for (const w of this.map.values()) if (w.code === code) return true;
    return false;
  }

  /** The merged warnings, in first-seen order. */
  list(): Warning[] {
    return [...this.map.values()].map((w) => ({ ...w }));
  }

  /** Warnings grouped by code: total count and the distinct messages. */
  byCode(): Map<string, { count: number; messages: string[] }> {
    const out = new Map<string, { count: number; messages: string[] }>();
    for (const w of this.map.values()) {
      const g = out.get(w.code) ?? { count: 0, messages: [] };
      g.count += w.count;
      g.messages.push(w.message);
      out.set(w.code, g);
    }
    return out;
  }

  get size(): number {
    return this.map.size;
  }
}
