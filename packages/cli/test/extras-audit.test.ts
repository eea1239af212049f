// Issue 29: the rule every .glb we write from a game file keeps (checked on the whole corpus by
// corpus.test.ts, which converts it once): no number arrays, number tables or base64 in extras.
// Here: the auditor itself flags what the old writers produced and passes what stays JSON.
import { describe, expect, it } from 'vitest';
import { extrasFindings, MAX_BASE64, MAX_NUMBERS, MAX_TABLE } from './extras-audit.js';

describe('extrasFindings (issue 29 audit)', () => {
  it('flags what files written before kept bytes held: byte arrays, raw record tables, base64', () => {
    const old = {
      nodes: [{ extras: { urho3d: { model: { geometries: [{ boneMapping: new Array(52).fill(1) }] } } } }],
      meshes: [
        { extras: { tso: { trailing: new Array(MAX_NUMBERS + 1).fill(0) } } },
        {
          extras: {
            grimrock: { nonFinite: { tangent: Array.from({ length: 456 }, (_, i) => [i, 4290772992]) } },
          },
        },
      ],
      images: [
        { extras: { gltfLegacySource: { path: 'a.dds', data: 'RERTIHwAAAAHEAgA'.repeat(5) } } },
        { extras: { uri: 'data:image/png;base64,iVBORw0KGgo=' } },
      ],
    };
    expect(extrasFindings(old)).toEqual([
      '.nodes[0].extras.urho3d.model.geometries[0].boneMapping: 52 numbers',
      '.meshes[0].extras.tso.trailing: 17 numbers',
      `.meshes[1].extras.grimrock.nonFinite.tangent: a table of ${456 * 2} numbers`,
      '.images[0].extras.gltfLegacySource.data: base64-like string of 80 characters',
      '.images[1].extras.uri: base64-like string of 34 characters',
    ]);
  });

  it('passes small readable fields and everything outside extras', () => {
    const fine = {
      accessors: [{ min: new Array(100).fill(0) }], // not extras
      meshes: [
        {
          extras: {
            tso: {
              boneNames: ['ROOT', 'ARM'],
              bindings: Array.from({ length: 20 }, () => [0, 0, 24, 4294967295, 0]), // 100 numbers: per-bone records
              trailing: new Array(MAX_NUMBERS).fill(0),
            },
          },
        },
      ],
      images: [
        {
          extras: {
            gltfLegacySource: {
              path: 'mod_assets/textures/monsters/slug_dif.dds',
              imageSha256: 'a'.repeat(MAX_BASE64), // hex SHA-256: 64 characters
            },
          },
        },
      ],
    };
    expect(extrasFindings(fine)).toEqual([]);
    expect(MAX_TABLE).toBeGreaterThan(100);
  });
});
