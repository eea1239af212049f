/**
 * An export as one FAR3 archive (`--far`, `--far refpack`): every file the exporter wrote, named
 * as the game names entries (`NAME.ext`), with the file and type id of its content name
 * (`NAME.<file id><type id>.ext`); a file without ids (a plain `.mesh`/`.skel`/`.anim` export)
 * gets the type id of its extension and a file id hashed from its name (FNV-1a, 32-bit).
 */
import type { FileSet } from '@gltf-legacy/core';
import { parseContentName, TSO_TYPE_IDS } from '../outfit.js';
import { createFar3, writeFar3 } from './far3-write.js';

/** Options of {@link packFar}. */
export interface PackFarOptions {
  /** `refpack` compresses every entry (as the game's archives); `none` stores them. */
  compression?: 'none' | 'refpack';
}

export const PACK_FAR_DEFAULTS: Readonly<Required<PackFarOptions>> = Object.freeze({ compression: 'none' });

const EXT_TYPES: Record<string, number> = {
  mesh: TSO_TYPE_IDS.mesh,
  anim: TSO_TYPE_IDS.animation,
  bnd: TSO_TYPE_IDS.binding,
  apr: TSO_TYPE_IDS.appearance,
  png: TSO_TYPE_IDS.texture,
  bmp: TSO_TYPE_IDS.texture,
  tga: TSO_TYPE_IDS.texture,
  jpg: TSO_TYPE_IDS.texture,
};

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ (text.charCodeAt(i) & 255), 0x01000193);
  return h >>> 0;
}

/**
 * The files of an export packed into one FAR3 archive, `ARCHIVE` (`NAME.dat`).
 *
 * ```ts
 * const { files } = await legacyFormat.export!(doc, { name: 'woodaxe' });
 * packFar(files, 'woodaxe.dat', { compression: 'refpack' }); // Map('woodaxe.dat' → FAR3 bytes)
 * ```
 */
export function packFar(files: FileSet, archive: string, options: PackFarOptions = {}): FileSet {
  const entries = [...files].map(([path, data]) => {
    const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
    const ext = base.includes('.') ? base.slice(base.lastIndexOf('.') + 1).toLowerCase() : '';
    const id = parseContentName(base);
    return id
      ? { name: `${id.name}${ext ? `.${ext}` : ''}`, typeId: id.typeId, fileId: id.fileId, data }
      : { name: base, typeId: EXT_TYPES[ext] ?? 0, fileId: fnv1a(base.toLowerCase()), data };
  });
  const compression = options.compression ?? PACK_FAR_DEFAULTS.compression;
  return new Map([[archive, writeFar3(createFar3(entries, { compression }))]]);
}
