/**
 * Issue 22: untrusted files stay inside their folder, small files stay small, no output is lost.
 * Every hostile input is made here, in the test.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { validateGlb, validatorErrors } from '@gltf-legacy/test-utils';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type BatchReport, main } from '../src/index.js';
import { probeBytes, probeFormat } from './probe-format.js';
import { triangleModel, ulz4Pak } from './bomb.js';

let dir: string;
const roots: string[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-sec-'));
  roots.push(dir);
});
afterAll(() => {
  for (const d of roots) rmSync(d, { recursive: true, force: true });
});

async function run(args: string[], formats?: Parameters<typeof main>[2]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    ['node', 'gltf-legacy', ...args],
    { out: (s) => out.push(s), err: (s) => err.push(s), isTTY: false },
    formats,
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function tree(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(root, join(d, e.name)));
    }
  };
  if (existsSync(root)) walk(root);
  return out.sort();
}

/** The issue's glTF: one buffer of 36 bytes at `uri`, three VEC3 positions. */
function gltfWithBuffer(uri: string, image?: string): string {
  return JSON.stringify({
    asset: { version: '2.0' },
    buffers: [{ uri, byteLength: 36 }],
    bufferViews: [{ buffer: 0, byteLength: 36 }],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 1] },
    ],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    nodes: [{ mesh: 0 }],
    scenes: [{ nodes: [0] }],
    ...(image ? { images: [{ uri: image }], textures: [{ source: 0 }] } : {}),
  });
}

const BIN = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
const binBytes = () => new Uint8Array(BIN.buffer.slice(0));

describe('case 1: a glTF never makes the CLI read a file outside its folder', () => {
  const escapes: [string, string][] = [
    ['/etc/passwd', 'PATH_ESCAPE'],
    ['../../../../etc/passwd', 'PATH_ESCAPE'],
    ['..\\..\\..\\..\\etc\\passwd', 'PATH_ESCAPE'],
    ['%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd', 'PATH_ESCAPE'],
    ['%2Fetc%2Fpasswd', 'PATH_ESCAPE'],
    ['sub/../../secret.bin', 'PATH_ESCAPE'],
    ['C:\\Windows\\win.ini', 'PATH_ESCAPE'],
  ];
  for (const [uri, code] of escapes) {
    it(`buffer uri ${JSON.stringify(uri)} → ${code}, nothing read, nothing written`, async () => {
      const model = join(dir, 'model');
      mkdirSync(model);
      // a secret beside the model folder: what "sub/../../secret.bin" would reach
      writeFileSync(join(dir, 'secret.bin'), binBytes());
      writeFileSync(join(model, 'x.gltf'), gltfWithBuffer(uri));
      const r = await run(['convert', join(model, 'x.gltf'), '-o', join(dir, 'o.mdl')]);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`error ${code}:`);
      expect(r.err).toContain('x.gltf');
      expect(r.err).toContain(uri.length > 200 ? uri.slice(0, 200) : uri);
      expect(r.err).not.toContain('INTERNAL_ERROR');
      expect(tree(dir)).toEqual(['model/x.gltf', 'secret.bin']);
    });
  }

  it('an image uri that escapes is refused the same way (inspect and convert)', async () => {
    writeFileSync(join(dir, 'x.bin'), binBytes());
    writeFileSync(join(dir, 'x.gltf'), gltfWithBuffer('x.bin', '../../../../etc/hostname'));
    const r = await run(['convert', join(dir, 'x.gltf'), '--to', 'glb', '--out-dir', join(dir, 'out')]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/error PATH_ESCAPE: .*x\.gltf: reference "\.\.\/\.\.\/\.\.\/\.\.\/etc\/hostname"/);
    const i = await run(['inspect', join(dir, 'x.gltf')]);
    expect(i.code).toBe(1);
    expect(i.err).toContain('error PATH_ESCAPE');
  });

  it('a buffer that is a symbolic link out of the folder → PATH_ESCAPE; a link inside it is read', async () => {
    mkdirSync(join(dir, 'model'));
    writeFileSync(join(dir, 'outside.bin'), binBytes());
    symlinkSync(join(dir, 'outside.bin'), join(dir, 'model', 'x.bin'));
    writeFileSync(join(dir, 'model', 'x.gltf'), gltfWithBuffer('x.bin'));
    const r = await run(['convert', join(dir, 'model', 'x.gltf'), '--to', 'glb', '-o', join(dir, 'o.glb')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('error PATH_ESCAPE');
    expect(r.err).toContain('symbolic link');
    expect(existsSync(join(dir, 'o.glb'))).toBe(false);
    // the same link, with the folder above as --resource-dir: inside, so read
    const ok = await run([
      'convert',
      join(dir, 'model', 'x.gltf'),
      '--to',
      'glb',
      '-o',
      join(dir, 'o.glb'),
      '--resource-dir',
      dir,
    ]);
    expect(ok.code).toBe(0);
    expect(validatorErrors(await validateGlb(readFileSync(join(dir, 'o.glb'))))).toBe('');
  });

  it('relative, percent-encoded and data: URIs inside the folder still work (0 validator errors)', async () => {
    mkdirSync(join(dir, 'my bin'));
    writeFileSync(join(dir, 'my bin', 'X.BIN'), binBytes());
    const data = `data:application/octet-stream;base64,${Buffer.from(binBytes()).toString('base64')}`;
    for (const [name, uri] of [
      ['a', 'my%20bin/x.bin'],
      ['b', './my bin/../my bin/X.BIN'],
      ['c', data],
    ]) {
      writeFileSync(join(dir, `${name}.gltf`), gltfWithBuffer(uri));
      const r = await run([
        'convert',
        join(dir, `${name}.gltf`),
        '--to',
        'glb',
        '-o',
        join(dir, `${name}.glb`),
      ]);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const glb = readFileSync(join(dir, `${name}.glb`));
      expect(validatorErrors(await validateGlb(glb))).toBe('');
    }
  });
});

/** A .glb of the JSON; with `bin`, a BIN chunk holding it (else the buffer is the external `uri`). */
function glbOf(json: string, bin?: Uint8Array): Uint8Array {
  const text = new TextEncoder().encode(json);
  const len = (text.length + 3) & ~3;
  const out = new Uint8Array(20 + len + (bin ? 8 + bin.length : 0)).fill(0x20, 20, 20 + len);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x46546c67, true);
  v.setUint32(4, 2, true);
  v.setUint32(8, out.length, true);
  v.setUint32(12, len, true);
  v.setUint32(16, 0x4e4f534a, true);
  out.set(text, 20);
  if (bin) {
    v.setUint32(20 + len, bin.length, true);
    v.setUint32(24 + len, 0x004e4942, true);
    out.set(bin, 28 + len);
  }
  return out;
}

describe('a .glb naming external files goes through the same resolver', () => {
  it('/etc/passwd, ../ and http: in a .glb → PATH_ESCAPE / EXTERNAL_URI (not INTERNAL_ERROR)', async () => {
    for (const [uri, code] of [
      ['/etc/passwd', 'PATH_ESCAPE'],
      ['../../../../etc/passwd', 'PATH_ESCAPE'],
      ['http://127.0.0.1:9/x.bin', 'EXTERNAL_URI'],
    ]) {
      writeFileSync(join(dir, 'x.glb'), glbOf(gltfWithBuffer(uri)));
      const r = await run(['convert', join(dir, 'x.glb'), '-o', join(dir, 'o.mdl')]);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`error ${code}: ${join(dir, 'x.glb')}: reference "${uri}"`);
      expect(tree(dir)).toEqual(['x.glb']);
    }
  });

  it('a relative external buffer of a .glb inside its folder is read (0 validator errors)', async () => {
    writeFileSync(join(dir, 'x.bin'), binBytes());
    writeFileSync(join(dir, 'x.glb'), glbOf(gltfWithBuffer('x.bin')));
    const r = await run(['convert', join(dir, 'x.glb'), '--to', 'glb', '-o', join(dir, 'o.glb')]);
    expect(r.err).toBe('');
    expect(validatorErrors(await validateGlb(readFileSync(join(dir, 'o.glb'))))).toBe('');
  });
});

describe('a glTF that glTF-Transform cannot read is BAD_GLTF naming the field, not INTERNAL_ERROR', () => {
  const cases: [string, object, string | undefined][] = [
    ['no asset', {}, '/'],
    ['asset null', { asset: null }, '/asset'],
    ['nodes not an array', { asset: { version: '2.0' }, nodes: 'x' }, '/nodes'],
    ['scene node past the end', { asset: { version: '2.0' }, scenes: [{ nodes: [5] }] }, '/scenes/0/nodes/0'],
    [
      'accessor type VEC9',
      { asset: { version: '2.0' }, accessors: [{ count: 3, type: 'VEC9', componentType: 5126 }] },
      '/accessors/0/type',
    ],
    // the validator throws on this .gltf (the reader's message, no field), not on the .glb
    ['mesh null', { asset: { version: '2.0' }, meshes: [null] }, 'gltf: none, glb: /meshes/0'],
  ];
  for (const [label, json, field] of cases)
    it(label, async () => {
      for (const ext of ['gltf', 'glb']) {
        const file = join(dir, `bad.${ext}`);
        writeFileSync(
          file,
          ext === 'gltf' ? JSON.stringify(json) : glbOf(JSON.stringify(json), new Uint8Array(0)),
        );
        const r = await run([
          'convert',
          file,
          '--to',
          'unreal3d',
          '-o',
          join(dir, 'o_d.3d'),
          '--report',
          join(dir, 'r.json'),
        ]);
        expect(r.code, ext).toBe(1);
        const record = (JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as BatchReport).records[0];
        expect(record.error, ext).toMatchObject({ code: 'BAD_GLTF', file });
        const expected = field?.startsWith('gltf:') ? (ext === 'glb' ? '/meshes/0' : undefined) : field;
        expect(record.error?.field, ext).toBe(expected);
        expect(
          tree(dir).filter((f) => !/^(bad\.|r\.json)/.test(f)),
          ext,
        ).toEqual([]);
      }
    });

  it('the validate command says VALIDATOR_FAILED where the Khronos validator itself throws', async () => {
    writeFileSync(join(dir, 'null-mesh.gltf'), JSON.stringify({ asset: { version: '2.0' }, meshes: [null] }));
    const r = await run(['validate', join(dir, 'null-mesh.gltf')]);
    expect(r.code).toBe(1);
    expect(r.err + r.out).toMatch(/VALIDATOR_FAILED/);
    expect(r.err + r.out).not.toMatch(/INTERNAL_ERROR/);
  });
});

describe('a root extras that is not an object', () => {
  it('is kept as { value } with ROOT_EXTRAS_WRAPPED (.gltf and .glb), never spread one key per character', async () => {
    const big = 'x'.repeat(20_000_000); // glTF-Transform's spread took seconds and GBs for this
    for (const extras of ['a note', 42, [1, 'two'], null, big]) {
      for (const ext of ['gltf', 'glb']) {
        const json = { ...JSON.parse(gltfWithBuffer('x.bin')), extras };
        if (ext === 'gltf') {
          writeFileSync(join(dir, 'x.bin'), binBytes());
          writeFileSync(join(dir, 'in.gltf'), JSON.stringify(json));
        } else {
          delete json.buffers[0].uri;
          writeFileSync(join(dir, 'in.glb'), glbOf(JSON.stringify(json), binBytes()));
        }
        const started = performance.now();
        const r = await run([
          'convert',
          join(dir, `in.${ext}`),
          '--to',
          'glb',
          '-o',
          join(dir, 'o.glb'),
          '-f',
        ]);
        const label = `${ext} ${typeof extras === 'string' ? `string of ${extras.length}` : JSON.stringify(extras)}`;
        expect(r.code, label).toBe(0);
        expect(r.err, label).toMatch(/ROOT_EXTRAS_WRAPPED/);
        const out = readFileSync(join(dir, 'o.glb'));
        const jsonLength = out.readUInt32LE(12);
        const written = JSON.parse(out.subarray(20, 20 + jsonLength).toString('utf8'));
        expect(written.extras?.value, label).toEqual(extras);
        expect(performance.now() - started, label).toBeLessThan(10_000);
      }
    }
  });
});

describe('case 2: URI schemes other than data: are typed errors, not INTERNAL_ERROR', () => {
  for (const uri of [
    'http://127.0.0.1:9/x.bin',
    'https://example.com/x.bin',
    'file:///etc/passwd',
    'FILE:/etc/passwd',
    'ftp://h/x',
  ]) {
    it(uri, async () => {
      writeFileSync(join(dir, 'x.gltf'), gltfWithBuffer(uri));
      const r = await run(['convert', join(dir, 'x.gltf'), '-o', join(dir, 'o.mdl')]);
      expect(r.code).toBe(1);
      expect(r.err).toContain('error EXTERNAL_URI:');
      expect(r.err).toContain(`x.gltf: reference "${uri}"`);
      expect(r.err).not.toContain('INTERNAL_ERROR');
      expect(tree(dir)).toEqual(['x.gltf']);
    });
  }
});

describe('resources reach every legacy import, rooted where they should be', () => {
  function game(): string {
    const root = join(dir, 'Game');
    mkdirSync(join(root, 'Models'), { recursive: true });
    mkdirSync(join(root, 'Textures'), { recursive: true });
    writeFileSync(join(root, 'Textures', 'Skin.PCX'), 'skin pixels');
    writeFileSync(join(dir, 'secret.txt'), 'secret');
    return root;
  }
  const probeOf = async (glb: string) => {
    const { NodeIO } = await import('@gltf-transform/core');
    const doc = await new NodeIO().readBinary(readFileSync(glb));
    return (doc.getRoot().getExtras() as { probe: Record<string, string> }).probe;
  };

  it('format.resourceRoot (an ancestor) is the root; references are resolved case-insensitively below it', async () => {
    const root = game();
    writeFileSync(join(root, 'Models', 'M.probe'), probeBytes('../textures/skin.pcx'));
    const r = await run(
      ['convert', join(root, 'Models', 'M.probe'), '-o', join(dir, 'm.glb')],
      [probeFormat],
    );
    expect(r.err).toBe('');
    const probe = await probeOf(join(dir, 'm.glb'));
    expect(probe.resourcePath).toBe('Models/M.probe');
    expect(probe.resolved).toBe('textures/skin.pcx');
    expect(probe.read).toBe('skin pixels');
    expect(probe.label).toBe(root);
  });

  it('a reference out of the root is PATH_ESCAPE naming the file and the reference; --resource-dir moves the root', async () => {
    const root = game();
    writeFileSync(join(root, 'Models', 'M.probe'), probeBytes('../../secret.txt'));
    const r = await run(
      ['convert', join(root, 'Models', 'M.probe'), '-o', join(dir, 'm.glb')],
      [probeFormat],
    );
    expect(r.code).toBe(1);
    expect(r.err).toContain('error PATH_ESCAPE: M.probe: reference "../../secret.txt"');
    expect(existsSync(join(dir, 'm.glb'))).toBe(false);
    // --resource-dir: the root is that folder (the secret's folder now is inside)
    const r2 = await run(
      ['convert', join(root, 'Models', 'M.probe'), '-o', join(dir, 'm.glb'), '--resource-dir', dir],
      [probeFormat],
    );
    expect(r2.code).toBe(0);
    const probe = await probeOf(join(dir, 'm.glb'));
    expect(probe.resourcePath).toBe('Game/Models/M.probe');
    expect(probe.read).toBe('secret');
  });

  it('a resourceRoot that is not an ancestor of the input falls back to its folder', async () => {
    writeFileSync(join(dir, 'M.probe'), probeBytes('tex.txt'));
    writeFileSync(join(dir, 'tex.txt'), 'beside');
    const odd = { ...probeFormat, resourceRoot: () => '/' + 'etc' };
    const r = await run(['convert', join(dir, 'M.probe'), '-o', join(dir, 'm.glb')], [odd]);
    expect(r.code).toBe(0);
    const probe = await probeOf(join(dir, 'm.glb'));
    expect(probe.resourcePath).toBe('M.probe');
    expect(probe.read).toBe('beside');
  });

  it('inspect passes resources too', async () => {
    const root = game();
    writeFileSync(join(root, 'Models', 'M.probe'), probeBytes('/etc/passwd'));
    const { inspectFile } = await import('../src/inspect.js');
    const report = await inspectFile(join(root, 'Models', 'M.probe'), [probeFormat]);
    expect(JSON.stringify(report.sections)).toContain('PATH_ESCAPE: M.probe: reference \\"/etc/passwd\\"');
  });
});

describe('case 4: package entries keep their folders; outputs never collide', () => {
  it('A/x.mdl and B/x.mdl in one .pak become <pak>/A/x.glb and <pak>/B/x.glb (both valid)', async () => {
    writeFileSync(
      join(dir, 'two.pak'),
      ulz4Pak([
        ['A/x.mdl', triangleModel()],
        ['B/x.mdl', triangleModel()],
      ]),
    );
    const r = await run(['convert', join(dir, 'two.pak'), '--out-dir', join(dir, 'out')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(tree(join(dir, 'out'))).toEqual(['two/A/x.glb', 'two/B/x.glb']);
    for (const f of tree(join(dir, 'out')))
      expect(validatorErrors(await validateGlb(readFileSync(join(dir, 'out', f))))).toBe('');
  });

  it('an entry whose folder climbs out (../../x.mdl) never writes outside --out-dir', async () => {
    writeFileSync(join(dir, 'evil.pak'), ulz4Pak([['../../x.mdl', triangleModel()]]));
    const r = await run(['convert', join(dir, 'evil.pak'), '--out-dir', join(dir, 'out')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('error PATH_ESCAPE: evil.pak: reference "../../x"');
    expect(tree(dir)).toEqual(['evil.pak']);
  });

  it('two inputs mapping to one output: the later one is OUTPUT_CONFLICT before anything is converted', async () => {
    for (const d of ['a', 'b']) {
      mkdirSync(join(dir, d));
      writeFileSync(join(dir, d, 'x.mdl'), triangleModel());
    }
    const r = await run([
      'convert',
      join(dir, 'a', 'x.mdl'),
      join(dir, 'b', 'x.mdl'),
      '--out-dir',
      join(dir, 'out'),
      '--force',
      '--jobs',
      '0',
      '--report',
      join(dir, 'r.json'),
    ]);
    expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as BatchReport;
    expect(report.records.map((x) => [x.status, x.error?.code])).toEqual([
      ['ok', undefined],
      ['error', 'OUTPUT_CONFLICT'],
    ]);
    expect(report.records[1].error!.message).toContain(join(dir, 'a', 'x.mdl'));
    expect(tree(join(dir, 'out'))).toEqual(['x.glb']);
  });
});

describe('export keys from untrusted glTF names', () => {
  const docWithKeys = async (keys: string[]) => {
    const { Document, NodeIO } = await import('@gltf-transform/core');
    const doc = new Document();
    doc.getRoot().setExtras({ PROBE_EXPORT_KEYS: keys });
    const buf = doc.createBuffer();
    const acc = doc.createAccessor().setType('VEC3').setArray(new Float32Array(9)).setBuffer(buf);
    doc
      .createScene()
      .addChild(
        doc
          .createNode('n')
          .setMesh(doc.createMesh().addPrimitive(doc.createPrimitive().setAttribute('POSITION', acc))),
      );
    writeFileSync(join(dir, 'in.glb'), await new NodeIO().writeBinary(doc));
  };

  for (const bad of ['../escape.txt', '/tmp/abs.txt', 'Textures/../../up.txt', 'C:\\x.txt', 'a/\u0000.txt']) {
    it(`${JSON.stringify(bad)} → PATH_ESCAPE, nothing written`, async () => {
      await docWithKeys(['ok.probe', bad]);
      const r = await run(
        ['convert', join(dir, 'in.glb'), '--to', 'probe', '--out-dir', join(dir, 'out', 'deep')],
        [probeFormat],
      );
      expect(r.code).toBe(1);
      expect(r.err).toContain('error PATH_ESCAPE');
      expect(tree(dir)).toEqual(['in.glb']);
    });
  }

  it('keys with subfolders create them (Textures/NAME.pcx, Materials/X.xml)', async () => {
    await docWithKeys(['M.probe', 'Textures/Skin.pcx', 'Materials/Sub/X.xml']);
    const r = await run(
      ['convert', join(dir, 'in.glb'), '--to', 'probe', '--out-dir', join(dir, 'out')],
      [probeFormat],
    );
    expect(r.err).toBe('');
    expect(tree(join(dir, 'out'))).toEqual(['M.probe', 'Materials/Sub/X.xml', 'Textures/Skin.pcx']);
    expect(readFileSync(join(dir, 'out', 'Textures', 'Skin.pcx'), 'utf8')).toBe('Textures/Skin.pcx');
  });
});

describe('validate reads external resources through the same resolver', () => {
  it('an escaping buffer uri is reported by the validator as the refusal, and never read', async () => {
    writeFileSync(join(dir, 'x.gltf'), gltfWithBuffer('../../../../etc/passwd'));
    const r = await run(['validate', join(dir, 'x.gltf')]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('IO_ERROR /buffers/0/uri');
    expect(r.out).toContain('reference "../../../../etc/passwd" climbs out of the folder');
  });
});
