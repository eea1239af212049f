/**
 * Export, file names: the `.animation` file name of each clip (core's naming rule,
 * `NAME_<clip>.animation`), chosen so that importing the written set and exporting it again
 * gives the same names — the import names a clip after its file's stem, and the re-export maps
 * that stem through the same rule.
 */
import { clipFileName, fileSafeName, objectName, withoutModelPrefix } from '@gltf-legacy/core';

/** The most code units a clip part of a file name keeps (core's `fileSafeName` cut). */
const MAX_CLIP = 100;

/**
 * The clip part of `NAME_<clip>.animation`: core's {@link clipFileName} (one `NAME_` prefix, in
 * `name`'s case; `fileSafeName`, a fixed point of itself) without the prefix, so that importing
 * the file (the clip named after its stem) and exporting it again gives the same name
 * (fuzz f0cbada7f99fcf8a).
 *
 * ```ts
 * stableClip('hero_hero_walk.', 'hero', 0); // 'walk'
 * ```
 */
function stableClip(clip: string, name: string, index: number): string {
  return clipFileName(name, objectName(clip, 'Animation', index), '').slice(name.length + 1);
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
      file = `${options.named ? name : fileSafeName(animName, name)}.animation`;
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
