/**
 * Export, file names: the `.animation` file name of each clip (core's naming rule,
 * `NAME_<clip>.animation`), chosen so that importing the written set and exporting it again
 * gives the same names — the import names a clip after its file's stem, and the re-export maps
 * that stem through the same rule.
 */
import { fileSafeName, objectName, withoutModelPrefix } from '@gltf-legacy/core';

/** The most code units a clip part of a file name keeps (core's `fileSafeName` cut). */
const MAX_CLIP = 100;
/** Passes of a naming rule before its result is taken as is (a few always suffice). */
const MAX_PASSES = 16;

/**
 * The clip part of a file name, as a fixed point of the rule applied to it: core's
 * `fileSafeName`, whose 100-code-unit cut can leave a trailing dot, space or half a surrogate pair
 * that the next pass (the re-export of the re-imported clip) removes (fuzz f0cbada7f99fcf8a: a
 * long name cut after `B.` was written `fuzz_…B..animation`, re-imported as the clip `…B.` and
 * re-exported as `fuzz_…B.animation`), and every `NAME_` prefix (case-insensitive) taken off, so
 * that the file name carries the prefix once, in `name`'s case (`FUZZ_a` → `fuzz_a.animation`,
 * whose re-import `fuzz_a` is written back as `fuzz_a.animation`).
 *
 * ```ts
 * stableClip('hero_hero_walk.', 'hero', 0); // 'walk'
 * ```
 */
export function stableClip(clip: string, name: string, index: number): string {
  const fallback = `Animation${index}`;
  let out = clip;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    let own = out;
    for (let cut = withoutModelPrefix(own, name); cut !== own; cut = withoutModelPrefix(own, name)) own = cut;
    const next = fileSafeName(objectName(own, 'Animation', index), fallback);
    if (next === out) break;
    out = next;
  }
  return out;
}

/** `clip` cut (by code points) so that `suffix` fits in {@link MAX_CLIP} code units after it. */
function withSuffix(clip: string, suffix: string): string {
  let base = '';
  for (const ch of clip) {
    if (base.length + ch.length + suffix.length > MAX_CLIP) break;
    base += ch;
  }
  return `${base}${suffix}`;
}

/** Options of {@link animationFileNamer}. */
export interface AnimationFileNameOptions {
  /** True when the caller gave the base name (`options.name` of the export). */
  named: boolean;
  /** The imported model's stem (scene extras), taken off the clip names once. */
  modelName?: string;
  /** The document is a lone `.animation` imported alone (scene extras). */
  animationOnly?: boolean;
  /** How many animations the document has. */
  count: number;
}

/**
 * Names the clips of one export, one call per written clip, in order: `NAME_<clip>.animation`
 * with the clip without the imported model's prefix, made stable by {@link stableClip}; a name
 * already taken gets `_2`, `_3`, … (cut to fit, so that a 100-character clip still gets a
 * distinct, stable name). The one clip of a lone `.animation` imported alone keeps its own stem,
 * or takes `name` when `named`.
 *
 * ```ts
 * const fileName = animationFileNamer('hero', { named: true, count: 2 });
 * fileName('walk', 0);      // 'hero_walk.animation'
 * fileName('hero_walk', 1); // 'hero_walk_2.animation'
 * ```
 */
export function animationFileNamer(
  name: string,
  options: AnimationFileNameOptions,
): (animName: string, index: number) => string {
  const taken = new Set<string>();
  return (animName, index) => {
    let file: string;
    if (options.animationOnly && options.count === 1) {
      file = `${options.named ? name : stableStem(animName, name)}.animation`;
    } else {
      const own = options.modelName ? withoutModelPrefix(animName, options.modelName) : animName;
      const clip = stableClip(own, name, index);
      file = `${name}_${clip}.animation`;
      for (let k = 2; taken.has(file); k++)
        file = `${name}_${stableClip(withSuffix(clip, `_${k}`), name, index)}.animation`;
    }
    taken.add(file);
    return file;
  };
}

/** `fileSafeName` until it no longer changes (the stem of a lone animation). */
function stableStem(stem: string, fallback: string): string {
  let out = stem;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = fileSafeName(out, fallback);
    if (next === out) break;
    out = next;
  }
  return out;
}
