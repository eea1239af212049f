/** Writing a FAR archive of either version. */
import type { FarFile } from './far.js';
import { writeFar1 } from './far1.js';
import { writeFar3 } from './far3-write.js';

/**
 * Writes a FAR1 or FAR3 archive (`writeFar1`/`writeFar3` by its version), so that
 * `writeFar(readFar(x))` is a fixed point of `read ∘ write`.
 *
 * ```ts
 * const again = writeFar(readFar(bytes, 'avatar.dat'));
 * ```
 */
export function writeFar(far: FarFile): Uint8Array {
  return far.version === 3 ? writeFar3(far) : writeFar1(far);
}
