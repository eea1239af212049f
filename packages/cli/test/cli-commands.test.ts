// Issue 21/18 command-line behaviours: a model-named file no reader accepts is a failed record,
// validate over many files and folders, inspect with companions and --with, --strict/--scale/
// --option reaching the format, the warnings table, MSFT_lod vertex counts.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Document, NodeIO } from '@gltf-transform/core';
import { FormatError, type LegacyFormat, SHARED_WARNING_CODES, WarningCollector } from '@gltf-legacy/core';
import { Lod, MSFTLod } from '@gltf-legacy/urho3d';
import { beforeEach, describe, expect, it } from 'vitest';
import { type BatchReport, CLI_WARNING_CODES, lodStats, main, type WarningCodeRow } from '../src/index.js';
import { checkSizes, noteSteps, recordSourceSizes } from '../src/size-check.js';
import { triangleModel, ulz4Pak } from './bomb.js';
import { fakeBytes, fakeFormat } from './fake-format.js';

const corpus = resolve(import.meta.dirname, '../../..', process.env.GLTF_LEGACY_CORPUS ?? '../shared/corpus');

let dir: string;

/** Runs the CLI with the fake format, or with every registered format (`'all'`). */
async function run(args: string[], only: readonly LegacyFormat[] | 'all' = [fakeFormat]) {
  const formats = only === 'all' ? undefined : only;
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    ['node', 'gltf-legacy', ...args],
    { out: (s) => out.push(s), err: (s) => err.push(s) },
    formats,
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gltf-legacy-cmds-'));
});

/** A format that writes the options it was given into the document / the exported file. */
const optsFormat: LegacyFormat = {
  ...fakeFormat,
  id: 'opts',
  async import(files, options = {}) {
    const result = await fakeFormat.import(files, options);
    const { resources: _r, ...plain } = options;
    result.document.getRoot().setExtras({ options: plain });
    return result;
  },
  async export(_doc, options = {}) {
    return {
      files: new Map([[`${options.name}.fake`, new TextEncoder().encode(JSON.stringify(options))]]),
      warnings: [],
    };
  },
};

describe('batch', () => {
  it('a file with a model extension that no reader accepts is a failed record with its code, not a skip', async () => {
    mkdirSync(join(dir, 'game'));
    writeFileSync(join(dir, 'game', 'good.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    writeFileSync(
      join(dir, 'game', 'broken.fake'),
      Uint8Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 255),
    );
    writeFileSync(join(dir, 'game', 'notes.txt'), 'not a model');
    const r = await run([
      'convert',
      join(dir, 'game'),
      '--out-dir',
      join(dir, 'out'),
      '--jobs',
      '0',
      '--report',
      join(dir, 'r.json'),
    ]);
    expect(r.code).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as BatchReport;
    expect(report.summary).toMatchObject({ total: 2, ok: 1, failed: 1, errorsByCode: { UNKNOWN_FORMAT: 1 } });
    const broken = report.records.find((x) => x.input.endsWith('broken.fake'))!;
    expect(broken).toMatchObject({ status: 'error', outputs: [], error: { code: 'UNKNOWN_FORMAT' } });
    expect(r.err).toMatch(/error UNKNOWN_FORMAT: .*broken\.fake/);
  });
});

describe('validate', () => {
  it('takes several files and folders, prints one line per file and a total, exit 1 when any has errors', async () => {
    mkdirSync(join(dir, 'a'));
    for (const n of ['x', 'y']) {
      writeFileSync(join(dir, 'a', `${n}.fake`), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
      expect(
        (await run(['convert', join(dir, 'a', `${n}.fake`), '-o', join(dir, 'a', `${n}.glb`)])).code,
      ).toBe(0);
    }
    writeFileSync(join(dir, 'one.glb'), readFileSync(join(dir, 'a', 'x.glb')));
    const ok = await run(['validate', join(dir, 'one.glb'), join(dir, 'a')]);
    expect(ok.code).toBe(0);
    expect(ok.out.match(/: 0 error\(s\)/g)).toHaveLength(3);
    expect(ok.out).toContain('3 file(s) validated, 0 with errors');
    const json = await run(['validate', join(dir, 'one.glb'), join(dir, 'a', 'y.glb'), '--json']);
    expect((JSON.parse(json.out) as { file: string }[]).map((s) => s.file)).toEqual([
      join(dir, 'one.glb'),
      join(dir, 'a', 'y.glb'),
    ]);
    writeFileSync(join(dir, 'bad.glb'), 'glTF not really');
    const bad = await run(['validate', join(dir, 'one.glb'), join(dir, 'bad.glb'), join(dir, 'missing.glb')]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('3 file(s) validated, 2 with errors');
    expect(bad.err).toMatch(/missing\.glb: error FILE_NOT_FOUND/);
  });
});

describe('inspect', () => {
  it('reads the companions beside the file as convert does, adds --with files, and --no-companions turns that off', async () => {
    writeFileSync(join(dir, 'tri.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    writeFileSync(join(dir, 'tri.note'), 'x');
    mkdirSync(join(dir, 'elsewhere'));
    writeFileSync(join(dir, 'elsewhere', 'extra.note'), 'x');
    const seen = async (...args: string[]) => {
      const r = await run(['inspect', join(dir, 'tri.fake'), '--json', ...args]);
      expect(r.code).toBe(0);
      const report = JSON.parse(r.out) as { sections: { title: string; rows?: unknown[][] }[] };
      return (report.sections.find((s) => s.title === 'Import warnings')?.rows ?? [])
        .map((row) => row[2])
        .sort();
    };
    expect(await seen()).toEqual(['companion tri.note read']);
    expect(await seen('--with', join(dir, 'elsewhere', 'extra.note'))).toEqual([
      'companion extra.note read',
      'companion tri.note read',
    ]);
    expect(await seen('--no-companions')).toEqual([]);
  });
});

describe('inspect --strict', () => {
  it('imports with strict: true, so a tolerated quirk shows as its error', async () => {
    const quirky: LegacyFormat = {
      ...fakeFormat,
      async import(files, options = {}) {
        if (options.strict)
          throw new FormatError('3 bytes after the last vertex', {
            code: 'TRAILING_BYTES',
            file: 'tri.fake',
            offset: 44,
          });
        return fakeFormat.import(files, options);
      },
    };
    writeFileSync(join(dir, 'tri.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    const facts = async (...args: string[]) => {
      const r = await run(['inspect', join(dir, 'tri.fake'), '--json', ...args], [quirky]);
      expect(r.code).toBe(0);
      return (
        JSON.parse(r.out) as { sections: { title: string; facts?: Record<string, unknown> }[] }
      ).sections.find((s) => s.title === 'As glTF')?.facts;
    };
    expect(await facts()).toMatchObject({ vertices: 3 });
    expect(await facts('--strict')).toEqual({ error: expect.stringMatching(/^TRAILING_BYTES: tri\.fake/) });
  });
});

describe('format flags', () => {
  it('--strict, --scale and --option axes=assetimporter reach import and export options', async () => {
    writeFileSync(join(dir, 'tri.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    const flags = ['--strict', '--scale', '0.0254', '--option', 'axes=assetimporter'];
    const r = await run(
      ['convert', join(dir, 'tri.fake'), '-o', join(dir, 'tri.glb'), ...flags],
      [optsFormat],
    );
    expect(r.code, r.err).toBe(0);
    const doc = await new NodeIO().read(join(dir, 'tri.glb'));
    expect(doc.getRoot().getExtras().options).toMatchObject({
      strict: true,
      scale: 0.0254,
      axes: 'assetimporter',
    });
    const back = await run(
      ['convert', join(dir, 'tri.glb'), '--to', 'opts', '-o', join(dir, 'back', 'tri.fake'), ...flags],
      [optsFormat],
    );
    expect(back.code, back.err).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'back', 'tri.fake'), 'utf8'))).toMatchObject({
      strict: true,
      scale: 0.0254,
      axes: 'assetimporter',
    });
    expect(
      (await run(['convert', join(dir, 'tri.fake'), '-o', join(dir, 'z.glb'), '--scale', '-1'])).code,
    ).toBe(2);
    const help = await run(['convert', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/--strict\s+refuse the quirks the original tools tolerated/);
    expect(help.out).toMatch(/--scale <n>\s+glTF metres per game unit/);
  });
});

describe('--compact, --float and --no-frame-normals (issues 19, 30)', () => {
  const importOptions = async (glb: string) =>
    (await new NodeIO().read(glb)).getRoot().getExtras().options as Record<string, unknown>;

  it('reach the import options as float: true and frameNormals: false, on every path', async () => {
    writeFileSync(join(dir, 'tri.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    const input = join(dir, 'tri.fake');
    // the commander-free fast path, commander (--no-progress) and a batch (--out-dir, -j 0)
    const cases = [
      ['convert', input, '-o', join(dir, 'fast.glb'), '--float', '--no-frame-normals'],
      ['convert', input, '-o', join(dir, 'slow.glb'), '--float', '--no-frame-normals', '--no-progress'],
      ['convert', input, '--out-dir', join(dir, 'batch'), '-j', '0', '--float', '--no-frame-normals'],
    ];
    for (const args of cases) {
      const r = await run(args, [optsFormat]);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(0);
    }
    for (const glb of ['fast.glb', 'slow.glb', 'batch/tri.glb'])
      expect(await importOptions(join(dir, glb)), glb).toMatchObject({ float: true, frameNormals: false });
    // one flag alone sets only its option
    expect((await run(['convert', input, '-o', join(dir, 'f.glb'), '--float'], [optsFormat])).code).toBe(0);
    const onlyFloat = await importOptions(join(dir, 'f.glb'));
    expect(onlyFloat.float).toBe(true);
    expect('frameNormals' in onlyFloat || 'compact' in onlyFloat).toBe(false);
    // --compact, with and without --no-frame-normals, on the fast path and through commander
    for (const extra of [[], ['--no-frame-normals'], ['--no-progress'], ['-j', '0']]) {
      const out = join(dir, `c${extra.join('')}.glb`);
      const r = await run(['convert', input, '-o', out, '--compact', ...extra], [optsFormat]);
      expect(r.code, `${extra}: ${r.err}`).toBe(0);
      const o = await importOptions(out);
      expect(o.compact, extra.join(' ')).toBe(true);
      expect('float' in o).toBe(false);
      expect(o.frameNormals, extra.join(' ')).toBe(extra.includes('--no-frame-normals') ? false : undefined);
    }
  });

  it('--compact with --float is a usage error (exit 2), on the fast path and through commander', async () => {
    writeFileSync(join(dir, 'tri.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    for (const extra of [[], ['--no-progress']]) {
      const out = join(dir, `both${extra.length}.glb`);
      const r = await run(
        ['convert', join(dir, 'tri.fake'), '-o', out, '--compact', '--float', ...extra],
        [optsFormat],
      );
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/--compact and --float/);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('without them the format keeps its defaults (neither option is passed)', async () => {
    writeFileSync(join(dir, 'tri.fake'), fakeBytes([0, 0, 0, 1, 0, 0, 0, 1, 0]));
    for (const extra of [[], ['--no-progress']]) {
      const out = join(dir, `plain${extra.length}.glb`);
      expect((await run(['convert', join(dir, 'tri.fake'), '-o', out, ...extra], [optsFormat])).code).toBe(0);
      const options = await importOptions(out);
      expect(
        'float' in options || 'compact' in options || 'frameNormals' in options,
        JSON.stringify(options),
      ).toBe(false);
    }
  });

  it('are explained in --help with the formats that use them', async () => {
    const help = (await run(['convert', '--help'])).out.replace(/\s+/g, ' ');
    expect(help).toMatch(
      /--compact write vertex animation compactly: Unreal morph targets .*KHR_mesh_quantization/,
    );
    // which clients read it and which refuse it (issue 30), and what the default is
    expect(help).toMatch(/Read by Blender, three\.js, Babylon\.js and Unity glTFast/);
    expect(help).toMatch(
      /refused by Godot 4 \(until godotengine\/godot#120205\), f3d\/VTK and libGDX gdx-gltf/,
    );
    expect(help).toMatch(/Default: portable float32/);
    expect(help).toMatch(/--float +the portable encoding by its old name/);
    expect(help).toMatch(/--no-frame-normals +no NORMAL delta per morph target: Unreal/);
  });
});

describe('warnings', () => {
  it("lists every code of core's shared table, of each format package and of the CLI, with its meaning", async () => {
    const r = await run(['warnings', '--json'], 'all');
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.out) as WarningCodeRow[];
    for (const [code, meaning] of Object.entries(SHARED_WARNING_CODES))
      expect(rows).toContainEqual({ code, source: 'core', meaning });
    for (const [code, meaning] of Object.entries(CLI_WARNING_CODES))
      expect(rows).toContainEqual({ code, source: 'cli', meaning });
    for (const id of ['unreal3d', 'urho3d', 'grimrock', 'tso', 'unigine'])
      expect(
        rows.some((row) => row.source === id),
        id,
      ).toBe(true);
    for (const id of ['unreal3d', 'grimrock', 'tso', 'unigine']) {
      const mod = (await import(`@gltf-legacy/${id}`)) as { WARNING_CODES?: Record<string, string> };
      for (const [code, meaning] of Object.entries(mod.WARNING_CODES ?? {}))
        expect(rows).toContainEqual({ code, source: id, meaning });
    }
  });

  it('the cli README lists exactly the codes of that table', async () => {
    const r = await run(['warnings', '--markdown'], 'all');
    const readmePath = join(import.meta.dirname, '../README.md');
    let readme = readFileSync(readmePath, 'utf8');
    if (process.env.UPDATE_WARNING_CODES) {
      // UPDATE_WARNING_CODES=1 npx vitest run test/cli-commands.test.ts -t README: rewrites the table
      readme = readme.replace(
        /(<!-- warning-codes:start -->\n)[\s\S]*?(\n<!-- warning-codes:end -->)/,
        (_, a, b) => `${a}${r.out}${b}`,
      );
      writeFileSync(readmePath, readme);
    }
    const section = /<!-- warning-codes:start -->\n([\s\S]*?)\n<!-- warning-codes:end -->/.exec(readme)?.[1];
    expect(
      section,
      'regenerate: UPDATE_WARNING_CODES=1 npx vitest run test/cli-commands.test.ts -t README',
    ).toBe(r.out);
  });
});

describe('MSFT_lod', () => {
  it('inspect counts the vertices of LOD 0 and of all levels separately', async () => {
    const doc = new Document();
    doc.createExtension(MSFTLod);
    const buf = doc.createBuffer();
    const mesh = (n: number) =>
      doc.createMesh().addPrimitive(
        doc.createPrimitive().setAttribute(
          'POSITION',
          doc
            .createAccessor()
            .setType('VEC3')
            .setArray(new Float32Array(n * 3))
            .setBuffer(buf),
        ),
      );
    const lod1 = doc.createNode('LOD1').setMesh(mesh(5));
    const lod2 = doc.createNode('LOD2').setMesh(mesh(2));
    const lod = new Lod(doc.getGraph()).addLod(lod1).addLod(lod2);
    const main = doc.createNode('LOD0').setMesh(mesh(10)).setExtension('MSFT_lod', lod);
    doc.createScene().addChild(doc.createNode('root').addChild(main));
    expect(lodStats(doc)).toEqual({ levels: 3, lod0Vertices: 10, allLodVertices: 17 });
    const path = join(dir, 'lod.glb');
    await new NodeIO().registerExtensions([MSFTLod]).write(path, doc);
    const r = await run(['inspect', path, '--json'], 'all');
    const facts = (JSON.parse(r.out) as { sections: { facts?: Record<string, unknown> }[] }).sections[0]
      .facts;
    expect(facts).toMatchObject({ vertices: 17, levels: 3, lod0Vertices: 10, allLodVertices: 17 });
    if (existsSync(join(corpus, 'urho/Jack.mdl'))) {
      // a legacy file: imported (Jack_Walk.ani beside it) and counted the same way
      const jack = await run(['inspect', join(corpus, 'urho/Jack.mdl'), '--json'], 'all');
      const asGltf = (
        JSON.parse(jack.out) as { sections: { title: string; facts?: Record<string, number> }[] }
      ).sections.find((s) => s.title === 'As glTF')!.facts!;
      expect(asGltf).toMatchObject({ animations: 1, levels: 7 });
      expect(asGltf.lod0Vertices).toBeLessThan(asGltf.allLodVertices);
      expect(asGltf.allLodVertices).toBe(asGltf.vertices);
    }
    const plain = new Document();
    plain.createScene().addChild(plain.createNode().setMesh(mesh(1) && plain.createMesh()));
    expect(lodStats(plain)).toBeUndefined();
  });
});

describe('size check and library logs', () => {
  it('a re-export that changes a file by more than 10 % says so once, with the steps that explain it', () => {
    const doc = new Document();
    recordSourceSizes(
      doc,
      'urho3d',
      'Jack.mdl',
      new Map([
        ['Jack.mdl', new Uint8Array(1000)],
        ['Jack_Walk.ani', new Uint8Array(100)],
      ]),
    );
    noteSteps(doc, ['--meshopt']);
    const warnings = new WarningCollector();
    warnings.warn('ATTRIBUTE_DEQUANTIZED', 'POSITION widened');
    const written = new Map([
      ['Hero.mdl', new Uint8Array(1820)],
      ['Jack_Walk.ani', new Uint8Array(105)],
    ]);
    checkSizes(doc, 'urho3d', 'Hero.mdl', written, warnings, ['--weld']);
    const size = warnings.list().filter((w) => w.code === 'SIZE_CHANGED');
    expect(size).toEqual([
      {
        code: 'SIZE_CHANGED',
        count: 1,
        message:
          'Hero.mdl 1000 → 1820 bytes (+82 %) compared with the imported file; steps of this conversion that explain it: --meshopt, --weld, ATTRIBUTE_DEQUANTIZED',
      },
    ]);
    const other = new WarningCollector();
    checkSizes(doc, 'grimrock', 'Hero.model', written, other); // another format: nothing to compare
    checkSizes(doc, 'urho3d', 'Hero.mdl', new Map([['Hero.mdl', new Uint8Array(1090)]]), other); // within 10 %
    expect(other.list()).toEqual([]);
  });

  it.runIf(existsSync(join(corpus, 'urho/Jack.mdl')))(
    'Jack.mdl --optimize --meshopt: the quantizer lines become one LIBRARY_LOG warning; converting back names the growth',
    async () => {
      const glb = join(dir, 'jack.glb');
      const r = await run(
        [
          'convert',
          join(corpus, 'urho/Jack.mdl'),
          '-o',
          glb,
          '--optimize',
          '--meshopt',
          '--report',
          join(dir, 'a.json'),
        ],
        'all',
      );
      expect(r.code, r.err).toBe(0);
      const a = JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8')) as BatchReport;
      expect(a.records[0].warnings).toContainEqual({
        code: 'LIBRARY_LOG',
        message: 'quantize: Skipping _URHO_BLENDINDICES; out of [-1,1] range.',
        count: 14,
      });
      const back = await run(
        [
          'convert',
          glb,
          '--to',
          'urho3d',
          '-o',
          join(dir, 'back', 'Jack.mdl'),
          '--report',
          join(dir, 'b.json'),
        ],
        'all',
      );
      expect(back.code, back.err).toBe(0);
      const b = JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8')) as BatchReport;
      const size = b.records[0].warnings.filter((w) => w.code === 'SIZE_CHANGED');
      expect(size).toHaveLength(1);
      expect(size[0].message).toContain(
        `Jack.mdl 359420 → ${statSync(join(dir, 'back', 'Jack.mdl')).size} bytes`,
      );
      for (const why of ['--optimize', '--meshopt', 'ATTRIBUTE_DEQUANTIZED'])
        expect(size[0].message).toContain(why);
    },
  );
});

describe('package entry names', () => {
  it("an entry named with characters a file system refuses gets core's file-safe name", async () => {
    writeFileSync(join(dir, 'odd.pak'), ulz4Pak([['Models/a*b?c|.mdl', triangleModel()]]));
    const r = await run(['convert', join(dir, 'odd.pak'), '--out-dir', join(dir, 'out')], 'all');
    expect(r.code, r.err).toBe(0);
    expect(readdirSync(join(dir, 'out', 'odd', 'Models'))).toEqual(['a_b_c_.glb']);
  });
});
