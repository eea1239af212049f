import { join } from 'node:path';
import { FormatError } from '@gltf-legacy/core';
import { corpusFiles, corpusRoot, readBytes } from '@gltf-legacy/test-utils';
import { describe, expect, it } from 'vitest';
import {
  chooseTechnique,
  gltfValuesOf,
  isMaterialFile,
  isPrefabXml,
  legacyFormat,
  materialTexture,
  readMaterialXml,
  readXml,
  roughnessFromPower,
  urhoResourceRoot,
  uvRowsOf,
  uvTransformOf,
  writeMaterialXml,
  writeXml,
} from '../src/index.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);
const materials = corpusFiles('textured/urho', ['.xml']).filter((f) => isMaterialFile(readBytes(f)));

describe('material XML file model', () => {
  it('finds the 5 material files of textured/urho and writes each back byte for byte', () => {
    expect(materials.length).toBe(5);
    for (const f of materials) {
      const bytes = readBytes(f);
      const m = readMaterialXml(bytes, f);
      expect(Buffer.from(writeMaterialXml(m)).equals(Buffer.from(bytes)), f).toBe(true);
    }
  });

  it('reads techniques, texture units and parameters as written (Kachujin)', () => {
    const f = join(corpusRoot(), 'textured/urho/Urho3D/bin/Data/Models/Kachujin/Materials/Kachujin.xml');
    const { fields } = readMaterialXml(readBytes(f), f);
    expect(fields.techniques.map((t) => t.name)).toEqual(['Techniques/DiffNormalSpec.xml']);
    expect(fields.textures.map((t) => t.unit)).toEqual(['diffuse', 'normal', 'specular']);
    expect(materialTexture(fields, 'normal')).toBe('Models/Kachujin/Textures/Kachujin_normal.png');
    expect(fields.parameters).toEqual([
      { name: 'MatDiffColor', value: '1.0 1.0 1.0 1' },
      { name: 'MatSpecColor', value: '1.0 1.0 1.0 50' },
      { name: 'MatEmissiveColor', value: '0 0 0 1' },
    ]);
  });

  it('an edit rewrites only the edited element, in the file’s style, and keeps unknown elements', () => {
    const src = [
      '<material>',
      '    <technique name="Techniques/Diff.xml" quality="1" />',
      '    <texture unit="0" name="Textures/Stone.dds" />',
      '    <!-- a comment -->',
      '    <shader psdefines="PACKEDNORMAL" />',
      '    <parameter name="MatSpecColor" value="0.1 0.1 0.1 16" />',
      '    <parameteranimation name="UOffset" wrapmode="Loop"><keyframe time="0" value="1 0 0 0" /></parameteranimation>',
      '</material>',
    ].join('\n');
    const m = readMaterialXml(enc(src), 'Stone.xml');
    expect(materialTexture(m.fields, 'diffuse')).toBe('Textures/Stone.dds'); // numeric unit 0
    expect(dec(writeMaterialXml(m))).toBe(src);
    m.fields.cull = 'none';
    m.fields.parameters[0].value = '0.5 0.5 0.5 16';
    const out = dec(writeMaterialXml(m));
    expect(out).toContain('    <parameter name="MatSpecColor" value="0.5 0.5 0.5 16" />');
    expect(out).toContain('    <cull value="none" />');
    expect(out).toContain('<shader psdefines="PACKEDNORMAL" />');
    expect(out).toContain('<!-- a comment -->');
    expect(out).toContain('<keyframe time="0" value="1 0 0 0" />');
    expect(out).toContain('<technique name="Techniques/Diff.xml" quality="1" />');
    // and reads back with the edits
    const again = readMaterialXml(enc(out));
    expect(again.fields.cull).toBe('none');
    expect(again.fields.parameters[0].value).toBe('0.5 0.5 0.5 16');
  });

  it('keeps a UTF-8 BOM, CRLF line ends and a declaration', () => {
    const src = '\ufeff<?xml version="1.0"?>\r\n<material>\r\n\t<technique name="T.xml"/>\r\n</material>\r\n';
    const bytes = enc(src);
    expect(Buffer.from(writeXml(readXml(bytes))).equals(Buffer.from(bytes))).toBe(true);
    const m = readMaterialXml(bytes);
    m.fields.fill = 'wireframe';
    expect(dec(writeMaterialXml(m))).toBe(
      '\ufeff<?xml version="1.0"?>\r\n<material>\r\n\t<technique name="T.xml"/>\r\n\t<fill value="wireframe"/>\r\n</material>\r\n',
    );
  });

  it('rejects malformed XML, DOCTYPE entities, deep nesting and other roots with FormatError', () => {
    const codes = (s: string) => {
      try {
        readMaterialXml(enc(s), 'x.xml');
        return 'ok';
      } catch (e) {
        expect(e).toBeInstanceOf(FormatError);
        return (e as FormatError).code;
      }
    };
    expect(codes('<material><texture></material>')).toBe('BAD_XML');
    expect(codes('<!DOCTYPE m [<!ENTITY a "aaaa">]><material>&a;</material>')).toBe('BAD_XML');
    expect(codes(`${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}`)).toBe('TOO_DEEP');
    expect(codes('<node/>')).toBe('NOT_A_MATERIAL');
    expect(codes('')).toBe('BAD_XML');
    expect(() => readMaterialXml(new Uint8Array([0x3c, 0x6d, 0xff, 0x2f, 0x3e]))).toThrow(/UTF-8/);
  });
});

describe('material values', () => {
  it('maps colours, specular power, cull, alpha techniques and UV offsets', () => {
    const m = readMaterialXml(
      enc(`<material>
  <technique name="Techniques/DiffAlphaMask.xml" />
  <parameter name="MatDiffColor" value="1 0.5 0.25 0.75" />
  <parameter name="MatSpecColor" value="0.2 0.3 0.4 16" />
  <parameter name="MatEmissiveColor" value="2 1 0" />
  <parameter name="UOffset" value="2 0 0 0.5" />
  <parameter name="VOffset" value="0 3 0 0.25" />
  <cull value="none" />
</material>`),
    );
    const v = gltfValuesOf(m.fields);
    expect(v.baseColorFactor).toEqual([1, 0.5, 0.25, 0.75]);
    expect(v.specularColorFactor).toEqual([0.2, 0.3, 0.4]);
    expect(v.roughnessFactor).toBeCloseTo(Math.sqrt(2 / 18), 6);
    expect(v.emissiveFactor).toEqual([1, 0.5, 0]);
    expect(v.emissiveStrength).toBe(2);
    expect(v.doubleSided).toBe(true);
    expect(v.alphaMode).toBe('MASK');
    expect(v.uvTransform).toEqual({ offset: [0.5, 0.25], rotation: 0, scale: [2, 3] });
    const blend = readMaterialXml(enc('<material><technique name="Techniques/DiffAlpha.xml"/></material>'));
    expect(gltfValuesOf(blend.fields).alphaMode).toBe('BLEND');
    expect(gltfValuesOf(blend.fields).doubleSided).toBe(false);
    // engine defaults: white, no specular (power 1)
    expect(gltfValuesOf(blend.fields).baseColorFactor).toEqual([1, 1, 1, 1]);
    expect(gltfValuesOf(blend.fields).roughnessFactor).toBeCloseTo(roughnessFromPower(1), 9);
  });

  it('UV rows ⇄ KHR_texture_transform (rotation included) are inverse', () => {
    const t = { offset: [0.1, -0.2] as [number, number], rotation: 0.7, scale: [2, 0.5] as [number, number] };
    const { u, v } = uvRowsOf(t);
    const back = uvTransformOf(u, v);
    expect(back.exact).toBe(true);
    expect(back.transform!.rotation).toBeCloseTo(0.7, 9);
    expect(back.transform!.scale[0]).toBeCloseTo(2, 9);
    expect(back.transform!.scale[1]).toBeCloseTo(0.5, 9);
    expect(uvTransformOf([1, 0.5, 0, 0], [0, 1, 0, 0]).exact).toBe(false); // shear
  });

  it('chooses stock techniques for new materials', () => {
    const f = (units: string[]) => ({
      techniques: [],
      parameters: [],
      textures: units.map((unit) => ({ unit, name: `${unit}.png` })),
    });
    expect(chooseTechnique(f([]), 'OPAQUE')).toBe('Techniques/NoTexture.xml');
    expect(chooseTechnique(f(['diffuse', 'normal', 'specular']), 'OPAQUE')).toBe(
      'Techniques/DiffNormalSpec.xml',
    );
    expect(chooseTechnique(f(['diffuse']), 'MASK')).toBe('Techniques/DiffAlphaMask.xml');
    expect(chooseTechnique(f(['diffuse', 'normal']), 'BLEND')).toBe('Techniques/DiffNormalAlpha.xml');
  });
});

describe('format registration', () => {
  it('sniffs prefabs and scenes as main files, not materials', () => {
    expect(legacyFormat.sniff(enc('<?xml version="1.0"?>\n<node id="2">\n</node>'), 'a.xml')).toBe(true);
    expect(legacyFormat.sniff(enc('<scene id="1"/>'), 'a.xml')).toBe(true);
    expect(legacyFormat.sniff(enc('<material/>'), 'a.xml')).toBe(false);
    expect(legacyFormat.sniff(enc('<nodes/>'), 'a.xml')).toBe(false);
    expect(isPrefabXml(enc('<!-- x --><node/>'))).toBe(true);
    expect(legacyFormat.extensions).toContain('.xml');
  });

  it('resourceRoot is the folder holding Data / CoreData (or the resource folders)', () => {
    const root = legacyFormat.resourceRoot!;
    expect(root('/g/Urho3D/bin/Data/Objects/Ninja.xml')).toBe('/g/Urho3D/bin');
    expect(root('bin/Data/Models/Kachujin/Kachujin.mdl')).toBe('bin');
    expect(root('C:\\games\\bin\\CoreData\\Models\\Box.mdl')).toBe('C:/games/bin');
    expect(root('out/Models/Jack.mdl')).toBe('out');
    expect(root('out/Objects/Jack.xml')).toBe('out');
    expect(root('Jack.mdl')).toBe('.');
    expect(root('/tmp/x/Jack.mdl')).toBe('/tmp/x');
    expect(urhoResourceRoot('Data/Jack.mdl')).toBe('.');
  });
});
