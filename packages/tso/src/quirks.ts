/**
 * Quirks of real files that FreeSO and Niotso read without complaint, read the same way here with a
 * stable warning code, or refused under `strict: true` (see the README's quirks table).
 */
import { FormatError, type WarningCollector } from '@gltf-legacy/core';

/**
 * Bytes after the last record of a `.mesh`, `.skel`, `.anim`, `.bnd` or `.apr`: FreeSO's and
 * Niotso's readers stop after the last record and never look at them. The reader keeps them
 * (`trailing`, in extras, written back on export); this reports them as `TRAILING_BYTES` naming
 * the file, the offset and the count, or, with `strict`, refuses the file with that code.
 *
 * ```ts
 * const mesh = readMesh(bytes, 'cape.mesh');
 * noteTrailingBytes(mesh.trailing, bytes.length, 'cape.mesh', { strict: false }, warnings);
 * ```
 */
export function noteTrailingBytes(
  trailing: Uint8Array | undefined,
  fileLength: number,
  file: string,
  options: { strict?: boolean },
  warnings: WarningCollector,
): void {
  const count = trailing?.length ?? 0;
  if (count === 0) return;
  const offset = fileLength - count;
  const detail = `${count} byte${count === 1 ? '' : 's'} after the last record`;
  if (options.strict === true)
    throw new FormatError(`${detail} (strict)`, { code: 'TRAILING_BYTES', file, offset, field: 'trailing' });
  warnings.warn(
    'TRAILING_BYTES',
    `"${file}": ${detail} at offset ${offset}; kept in extras and written back on export`,
  );
}
