import { FormatError } from '@gltf-legacy/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  encodeLuaText,
  formatDefineMaterial,
  glossinessToRoughness,
  type LuaField,
  type LuaValue,
  readMaterialsLua,
  roughnessToGlossiness,
  writeMaterialsLua,
} from '../src/index.js';

/** Lua values a material table can hold (no NaN/-0: JSON extras and Lua source differ on those). */
const value: fc.Arbitrary<LuaValue> = fc.letrec<{ v: LuaValue; t: LuaValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.integer({ min: -1e6, max: 1e6 }),
    fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).filter((x) => !Object.is(x, -0)),
    fc.boolean(),
    fc.constant(null),
    tie('t'),
  ),
  t: fc
    .array(
      fc.record({
        key: fc.oneof(fc.constant(null), fc.string({ minLength: 1, maxLength: 8 })),
        value: tie('v'),
      }),
      {
        maxLength: 4,
      },
    )
    .map((table) => ({ table: table as LuaField[] })),
})).v;

const fields = fc.array(
  fc.record({
    key: fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 10 }),
      fc.integer({ min: 1, max: 99 }),
    ),
    value,
  }),
  { maxLength: 8 },
);

describe('Lua material text: property round trips', () => {
  it('formatDefineMaterial → readMaterialsLua gives the same fields', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 20 }), fields, (name, rest) => {
        const all: LuaField[] = [{ key: 'name', value: name }, ...rest];
        const text = formatDefineMaterial(all);
        const def = readMaterialsLua(text, 'p.lua').definitions;
        expect(def).toHaveLength(1);
        expect(def[0].fields).toEqual(all);
        expect(def[0].text).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('any bytes holding definitions write back identical', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 10 }), { maxLength: 4 }),
        fc.boolean(),
        (names, bom) => {
          const text = names
            .map((n, i) => `-- ${i}\ndefineMaterial{ name = ${JSON.stringify(n).replace(/\\u/g, '\\\\u')} }`)
            .join('\n');
          const bytes = encodeLuaText(text, 'utf8', bom);
          let file: ReturnType<typeof readMaterialsLua>;
          try {
            file = readMaterialsLua(bytes, 'b.lua');
          } catch {
            return; // text JSON.stringify makes is not always Lua: only the byte-exact write is the property
          }
          expect(writeMaterialsLua(file)).toEqual(bytes);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('any text is read or refused with a FormatError, never another error', () => {
    const piece = fc.constantFrom(
      'defineMaterial',
      '{',
      '}',
      '(',
      ')',
      '"',
      "'",
      '[[',
      ']]',
      '=',
      ',',
      'name',
      ' ',
      '\n',
      '--',
      '\\',
      '..',
      '1e999',
      '0x',
      '#',
      'end',
      'do',
      'local',
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(piece, fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 40 }),
        (parts) => {
          const text = `defineMaterial${parts.join('')}`;
          try {
            readMaterialsLua(text, 'fuzz.lua');
          } catch (e) {
            expect(e).toBeInstanceOf(FormatError);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('integer glossiness survives glossiness → roughness → glossiness', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), (g) => {
        expect(roughnessToGlossiness(glossinessToRoughness(g))).toBe(g);
      }),
    );
  });
});
