/**
 * A model that is both a loose file and an entry of an archive in the same batch (a mod folder
 * holding its `mod_assets/` and its exported `.dat`, or a `.pak` beside its extracted files)
 * converts once: from the loose file, whose record names it; the archive's record skips the entry
 * with `CONTAINER_ENTRY_LOOSE` naming the loose file (issue 27). TSO archive entries are matched
 * by their ids (`.<file id><type id>.` in the name), wherever the loose file is below the archive.
 */
import { dirname, resolve, sep } from 'node:path';

/** Extensions of container inputs whose entries may also be loose inputs of a batch. */
const CONTAINER_EXTENSIONS = ['.dat', '.far', '.pak'];

/**
 * The batch's inputs below a container input's folder (resolved paths), which the container's
 * conversion leaves to their own records; undefined for an input that is not a container or when
 * there are none.
 *
 * ```ts
 * looseInputsFor('mod/Mod.dat', ['mod/Mod.dat', 'mod/mod_assets/models/x.model']); // ['/…/mod/mod_assets/models/x.model']
 * ```
 */
export function looseInputsFor(input: string, inputs: readonly string[]): string[] | undefined {
  if (!CONTAINER_EXTENSIONS.some((e) => input.toLowerCase().endsWith(e))) return undefined;
  const folder = dirname(resolve(input)) + sep;
  const self = resolve(input);
  const out = inputs.map((i) => resolve(i)).filter((p) => p !== self && p.startsWith(folder));
  return out.length ? out : undefined;
}

/**
 * The loose input of the batch an archive entry (`mod_assets/models/x.model`) is a copy of: the
 * entry's path below the archive's folder, compared case-insensitively; undefined when none.
 */
export function looseCounterpart(
  archive: string,
  entry: string,
  looseInputs: readonly string[] | undefined,
): string | undefined {
  if (!looseInputs?.length) return undefined;
  const want = resolve(dirname(resolve(archive)), entry.replace(/\\/g, '/')).toLowerCase();
  const same = looseInputs.find((p) => p.toLowerCase() === want);
  if (same) return same;
  // TSO content is found by id, not path: a FAR entry `NAME.<file id><type id>.ext` is the loose
  // file with those ids anywhere below the archive's folder (`Appearances/NAME.<ids>.apr`)
  const tag = /\.[0-9a-f]{16}\.[^./\\]+$/i.exec(entry)?.[0].toLowerCase();
  return tag ? looseInputs.find((p) => p.toLowerCase().endsWith(tag)) : undefined;
}
