import { sep } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';

export { glob, isDynamicPattern };

/** The folder part of a glob before its first wildcard (`models/**\/*.mdl` → `models`). */
export function globBase(pattern: string): string {
  const parts = pattern.split(/[\\/]/);
  const fixed: string[] = [];
  for (const p of parts) {
    if (isDynamicPattern(p)) break;
    fixed.push(p);
  }
  if (fixed.length === parts.length) fixed.pop();
  return fixed.join(sep) || '.';
}
