/**
 * One naming rule for every format: how names found in glTF (animations, meshes, materials, nodes)
 * become names and file names in a legacy format, and how clip names come back from file names.
 * Every exporter and importer uses these, so the same glTF gives the same names in all five
 * formats and a re-export never doubles a prefix.
 */

/** What kind of thing a fallback name is for (an unnamed glTF animation → `Animation0`). */
export type NamedKind = 'Animation' | 'Mesh' | 'Material' | 'Node' | 'Skin' | 'Texture' | 'Model';

/**
 * The name to use for a glTF object: its own name, trimmed, or `<Kind><index>` when it has none.
 *
 * ```ts
 * objectName('  Walk ', 'Animation', 0); // 'Walk'
 * objectName('', 'Animation', 2);        // 'Animation2'
 * ```
 */
export function objectName(name: string | null | undefined, kind: NamedKind, index: number): string {
  const trimmed = (name ?? '').trim();
  return trimmed || `${kind}${index}`;
}

const RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/**
 * A name made safe as (part of) a file name on Windows, macOS and Linux: characters other than
 * letters, digits, `_`, `-`, `.` and space become `_`, runs of `_` collapse, leading dots and
 * trailing dots/spaces go, a reserved device name gets a `_` suffix, at most 100 characters.
 * `fallback` stands in for a name that leaves nothing.
 *
 * ```ts
 * fileSafeName('Run/Fast: 2', 'Animation0'); // 'Run_Fast_ 2'
 * fileSafeName('..', 'Animation0');          // 'Animation0'
 * ```
 */
export function fileSafeName(name: string, fallback: string): string {
  let out = name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}_\-. ]/gu, '_')
    .replace(/_+/g, '_')
    .replace(/^[.\s]+/, '');
  // cut to 100 UTF-16 units first (never inside a surrogate pair), then trim: a cut that ends in
  // a dot or space would otherwise come back different when the name is cleaned again
  let end = Math.min(out.length, 100);
  if (end < out.length && /[\uD800-\uDBFF]/.test(out[end - 1])) end--;
  out = out.slice(0, end).replace(/[.\s]+$/, '');
  if (!out || out === '_') out = fallback;
  if (RESERVED.test(out)) out += '_';
  return out;
}

/**
 * Names made unique case-insensitively (the games ran on Windows) by appending `_2`, `_3`, …,
 * in order; the first of equal names keeps its own.
 *
 * ```ts
 * uniqueNames(['Walk', 'walk', 'Run']); // ['Walk', 'walk_2', 'Run']
 * ```
 */
export function uniqueNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    for (let k = 2; taken.has(candidate.toLowerCase()); k++) candidate = `${name}_${k}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}

/** True when `name` starts with `prefix` followed by `_` (case-insensitive). */
function hasPrefix(name: string, prefix: string): boolean {
  return (
    prefix.length > 0 &&
    name.length > prefix.length + 1 &&
    name.slice(0, prefix.length + 1).toLowerCase() === `${prefix}_`.toLowerCase()
  );
}

/**
 * The file name of an animation clip written beside a model: `<model>_<clip><ext>`, without
 * doubling the model prefix when the clip's name already carries it (a clip imported from
 * `Jack_Walk.ani` and named `Jack_Walk` is written back as `Jack_Walk.ani`, not `Jack_Jack_Walk.ani`).
 *
 * ```ts
 * clipFileName('Jack', 'Walk', '.ani');      // 'Jack_Walk.ani'
 * clipFileName('Jack', 'Jack_Walk', '.ani'); // 'Jack_Walk.ani'
 * clipFileName('Jack', 'JACK_jack_Run', '.ani'); // 'Jack_Run.ani'
 * ```
 */
export function clipFileName(modelStem: string, clipName: string, ext: string): string {
  let clip = fileSafeName(clipName, 'Animation0');
  // the prefix once and in the model's case, so reading the file back (clipNameFromFile strips
  // one prefix, in any case) and writing it again gives the same name
  while (hasPrefix(clip, modelStem)) clip = fileSafeName(clip.slice(modelStem.length + 1), 'Animation0');
  return `${modelStem}_${clip}${ext}`;
}

/**
 * The clip name a file name stands for: its stem without the model's prefix, so
 * `Kachujin_Walk.ani` beside `Kachujin.mdl` is the clip `Walk` (and `clipFileName` gives the
 * file name back). A stem that is only the model's name, or does not start with it, is kept whole.
 *
 * ```ts
 * clipNameFromFile('Kachujin_Walk.ani', 'Kachujin'); // 'Walk'
 * clipNameFromFile('dance.ani', 'Kachujin');         // 'dance'
 * ```
 */
export function clipNameFromFile(fileName: string, modelStem: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return withoutModelPrefix(dot > 0 ? base.slice(0, dot) : base, modelStem);
}

/**
 * A clip name without the model's `<model>_` prefix (a name, not a file name: dots stay), so a
 * clip imported as `Jack_Walk` is exported as `Walk` again.
 *
 * ```ts
 * withoutModelPrefix('Jack_Walk.v2', 'Jack'); // 'Walk.v2'
 * ```
 */
export function withoutModelPrefix(name: string, modelStem: string): string {
  return hasPrefix(name, modelStem) ? name.slice(modelStem.length + 1) : name;
}
