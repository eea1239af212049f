/**
 * Tagged properties (UE1/UE2 `FPropertyTag`): a list ended by the name `None`. Each tag: the name,
 * an info byte (low 4 bits the type, bits 4–6 the size code, bit 7 "array index follows", or the
 * value of a bool), a struct name for structs, the size (1, 2, 4, 12, 16 bytes, or a u8/u16/i32
 * that follows), the array index (1, 2 or 4 bytes) and the value.
 */
import type { ByteReader } from '@gltf-legacy/core';
import { readCompactIndex } from './compact-index.js';
import { type NameLookup, readName } from './names.js';

/** Property type ids of the info byte's low 4 bits. */
export const PropertyType = {
  BYTE: 1,
  INT: 2,
  BOOL: 3,
  FLOAT: 4,
  OBJECT: 5,
  NAME: 6,
  STRING: 7,
  CLASS: 8,
  ARRAY: 9,
  STRUCT: 10,
  VECTOR: 11,
  ROTATOR: 12,
  STR: 13,
  MAP: 14,
  FIXED_ARRAY: 15,
} as const;

const TYPE_NAMES = [
  '',
  'Byte',
  'Int',
  'Bool',
  'Float',
  'Object',
  'Name',
  'String',
  'Class',
  'Array',
  'Struct',
  'Vector',
  'Rotator',
  'Str',
  'Map',
  'FixedArray',
];

/** One property value as read. */
export interface PackageProperty {
  name: string;
  /** {@link PropertyType} id. */
  type: number;
  arrayIndex: number;
  /** Struct name (`Vector`, `Rotator`, …) of a struct property. */
  structName?: string;
  /**
   * Int/Float/Byte: the number; Bool: 0/1; Object/Class: the object reference; Name: the name;
   * Str: the text; Vector/Rotator structs: 3 numbers; other structs, arrays: undefined (see `data`).
   */
  value?: number | string | number[];
  /** Offset and size of the value in the file. */
  offset: number;
  size: number;
}

/** A property list: in order, with lookups by name and index. */
export class PropertyList {
  constructor(readonly items: PackageProperty[]) {}
  /** The property `name` (any case) at `index` (default 0). */
  get(name: string, index = 0): PackageProperty | undefined {
    const lower = name.toLowerCase();
    return this.items.find((p) => p.arrayIndex === index && p.name.toLowerCase() === lower);
  }
  /** A number value, or `fallback`. */
  number(name: string, fallback: number, index = 0): number {
    const v = this.get(name, index)?.value;
    return typeof v === 'number' ? v : fallback;
  }
}

/** Most properties one list may hold (the engine's classes have a few hundred). */
export const MAX_PROPERTIES = 1 << 16;

/**
 * Reads tagged properties up to `None` (the cursor then follows it). The value must fit in `end`;
 * type 0 (no engine defines it) is `UNKNOWN_PROPERTY_TYPE` naming the property.
 *
 * ```ts
 * const props = readProperties(r, names, exp.serialOffset + exp.serialSize);
 * props.number('USize', 0);
 * ```
 */
export function readProperties(
  r: ByteReader,
  names: NameLookup,
  end: number,
  field = 'properties',
): PropertyList {
  const items: PackageProperty[] = [];
  for (let i = 0; ; i++) {
    const f = `${field}[${i}]`;
    if (i >= MAX_PROPERTIES) throw r.error('too many properties', f, 'BAD_COUNT');
    if (r.offset >= end) throw r.error('property list runs past its object without a None', f, 'TRUNCATED');
    const name = readName(r, names, `${f}.name`);
    if (name.toLowerCase() === 'none') break;
    const infoAt = r.offset;
    const info = r.u8(`${f}.info`);
    const type = info & 0x0f;
    if (type === 0)
      throw r.error(
        `property ${name} has type 0, which no Unreal engine defines`,
        `${f}.info`,
        'UNKNOWN_PROPERTY_TYPE',
        infoAt,
      );
    const structName = type === PropertyType.STRUCT ? readName(r, names, `${f}.structName`) : undefined;
    let size: number;
    switch ((info >> 4) & 7) {
      case 0:
        size = 1;
        break;
      case 1:
        size = 2;
        break;
      case 2:
        size = 4;
        break;
      case 3:
        size = 12;
        break;
      case 4:
        size = 16;
        break;
      case 5:
        size = r.u8(`${f}.size`);
        break;
      case 6:
        size = r.u16(`${f}.size`);
        break;
      default:
        size = r.i32(`${f}.size`);
        break;
    }
    let arrayIndex = 0;
    if (type !== PropertyType.BOOL && info & 0x80) {
      const b = r.u8(`${f}.arrayIndex`);
      if (b < 0x80) arrayIndex = b;
      else if (b & 0x40)
        arrayIndex = (((b & 0x3f) << 24) | (r.u8() << 16) | (r.u8() << 8) | r.u8(`${f}.arrayIndex`)) >>> 0;
      else arrayIndex = ((b & 0x7f) << 8) | r.u8(`${f}.arrayIndex`);
    }
    if (type === PropertyType.BOOL) {
      items.push({ name, type, arrayIndex: 0, value: info & 0x80 ? 1 : 0, offset: r.offset, size: 0 });
      continue;
    }
    const offset = r.offset;
    if (size < 0 || offset + size > end)
      throw r.error(
        `property ${name} (${TYPE_NAMES[type]}) of ${size} bytes runs past its object`,
        `${f}.size`,
        'TRUNCATED',
        offset,
      );
    const value = r.scope(f, () => readValue(r, names, type, size, structName));
    r.seek(offset + size);
    items.push({ name, type, arrayIndex, structName, value, offset, size });
  }
  return new PropertyList(items);
}

function readValue(r: ByteReader, names: NameLookup, type: number, size: number, structName?: string) {
  switch (type) {
    case PropertyType.BYTE:
      return size >= 1 ? r.u8('value') : undefined;
    case PropertyType.INT:
      return size >= 4 ? r.i32('value') : undefined;
    case PropertyType.FLOAT:
      return size >= 4 ? r.f32('value') : undefined;
    case PropertyType.OBJECT:
    case PropertyType.CLASS:
      return size >= 1 ? readCompactIndex(r, 'value') : undefined;
    case PropertyType.NAME:
      return size >= 1 ? readName(r, names, 'value') : undefined;
    case PropertyType.STR: {
      const len = readCompactIndex(r, 'value.length');
      if (len <= 0 || len > size) return '';
      const bytes = r.bytesView(len, 'value');
      return new TextDecoder('latin1').decode(
        bytes.subarray(0, bytes.indexOf(0) >= 0 ? bytes.indexOf(0) : len),
      );
    }
    case PropertyType.STRUCT:
      if ((structName === 'Vector' || structName === 'Rotator') && size === 12)
        return structName === 'Vector'
          ? [r.f32('x'), r.f32('y'), r.f32('z')]
          : [r.i32('pitch'), r.i32('yaw'), r.i32('roll')];
      return undefined;
    default:
      return undefined;
  }
}

/** The type name of a {@link PropertyType} id. */
export function propertyTypeName(type: number): string {
  return TYPE_NAMES[type] ?? `type ${type}`;
}
