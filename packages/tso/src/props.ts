import type { ByteReader, ByteWriter } from '@gltf-legacy/core';

/**
 * Property data shared by `.skel` bones and `.anim` motions: key/value pairs of Pascal strings
 * grouped in items, items grouped in lists. All counts are big-endian u32.
 */

/** One property item: its key/value pairs in file order. */
export type PropertyItem = [key: string, value: string][];
/** A property list: `u32 itemCount`, each item `u32 pairCount` + pairs of Pascal strings. */
export type PropertyList = PropertyItem[];

/**
 * Reads `u32 itemCount` items of `u32 pairCount` (key, value) Pascal string pairs.
 *
 * ```ts
 * readPropertyList(reader, 'props'); // [[['xevt', 'sound']]]
 * ```
 */
export function readPropertyList(r: ByteReader, field: string): PropertyList {
  return r.scope(field, () => {
    const itemCount = r.count(r.u32be('itemCount'), 4, 'items');
    const items: PropertyList = new Array(itemCount);
    for (let i = 0; i < itemCount; i++) {
      items[i] = r.scope(`items[${i}]`, () => {
        const pairCount = r.count(r.u32be('pairCount'), 2, 'pairs');
        const pairs: PropertyItem = new Array(pairCount);
        for (let p = 0; p < pairCount; p++) {
          pairs[p] = [r.pstring8(`pairs[${p}].key`), r.pstring8(`pairs[${p}].value`)];
        }
        return pairs;
      });
    }
    return items;
  });
}

/**
 * Writes a {@link PropertyList} as read by {@link readPropertyList}.
 *
 * ```ts
 * writePropertyList(writer, [[['key', 'value']]]);
 * ```
 */
export function writePropertyList(w: ByteWriter, list: PropertyList): void {
  w.u32be(list.length);
  for (const item of list) {
    w.u32be(item.length);
    for (const [k, v] of item) {
      w.pstring8(k);
      w.pstring8(v);
    }
  }
}
