/**
 * An export's serialized bytes: the object header (a state frame when the object has a script
 * stack) and its tagged properties, then the class's own data.
 */
import type { ByteReader } from '@gltf-legacy/core';
import { readCompactIndex } from './compact-index.js';
import type { NameLookup } from './names.js';
import type { PackageExport } from './objects.js';
import { type PropertyList, readProperties } from './properties.js';

/** `RF_HasStack`: the object serializes a script state frame first. */
export const RF_HAS_STACK = 0x02000000;

/** An export opened for reading: its properties read, the cursor after them. */
export interface PackageObject {
  /** 0-based export index. */
  index: number;
  name: string;
  className: string;
  version: number;
  /** First byte after the object. */
  end: number;
  props: PropertyList;
  /** Offset of the class's own data (after the properties). */
  dataOffset: number;
}

/**
 * Reads an export's header and properties (the cursor is left on the class data).
 *
 * ```ts
 * const obj = openObject(r, exp, 3, 'LodMesh', names, 69);
 * ```
 */
export function openObject(
  r: ByteReader,
  exp: PackageExport,
  index: number,
  className: string,
  names: NameLookup,
  version: number,
): PackageObject {
  return r.scope(`exports[${index}](${exp.name})`, () => {
    r.seek(exp.serialOffset, 'serialOffset');
    const end = exp.serialOffset + exp.serialSize;
    if (exp.flags & RF_HAS_STACK) {
      const node = readCompactIndex(r, 'stateFrame.node');
      readCompactIndex(r, 'stateFrame.stateNode');
      r.skip(8, 'stateFrame.probeMask');
      r.skip(4, 'stateFrame.latentAction');
      if (node !== 0) readCompactIndex(r, 'stateFrame.offset');
    }
    const props = readProperties(r, names, end);
    return { index, name: exp.name, className, version, end, props, dataOffset: r.offset };
  });
}
