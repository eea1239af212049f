// Issue 29: every format-specific option is listed by `convert --help` and `formats --options`,
// with its values and default, from the formats' own declarations (`LegacyFormat.options`).
import { TSO_OUTFIT_EXPORT_DEFAULTS } from '@gltf-legacy/tso';
import { EXPORT_URHO_DEFAULTS } from '@gltf-legacy/urho3d';
import { describe, expect, it } from 'vitest';
import { loadAllFormats, main } from '../src/index.js';
import { fakeFormat } from './fake-format.js';

async function run(args: string[], formats?: Parameters<typeof main>[2]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    ['node', 'gltf-legacy', ...args],
    { out: (s) => out.push(s), err: (s) => err.push(s) },
    formats,
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('format options in the help', () => {
  it('convert --help lists every option of every format with its values and default', async () => {
    const r = await run(['convert', '--help']);
    expect(r.code).toBe(0);
    const formats = await loadAllFormats();
    expect(formats.every((f) => (f.options?.length ?? 0) > 0)).toBe(true);
    for (const f of formats) {
      const section = r.out.slice(r.out.indexOf(`\n  ${f.id}\n`));
      expect(section.length, f.id).toBeLessThan(r.out.length);
      for (const o of f.options!) expect(section, `${f.id} ${o.name}`).toContain(`${o.name}=${o.values}  (`);
    }
    // the two that keep a foreign glTF's look, with their values and defaults
    expect(r.out).toMatch(/urho3d\n {4}materials=auto\|true\|false {2}\(export; default: auto\)/);
    expect(r.out).toMatch(/outfit=auto\|always\|never {2}\(export; default: auto\)/);
    expect(EXPORT_URHO_DEFAULTS.materials).toBe('auto');
    expect(TSO_OUTFIT_EXPORT_DEFAULTS.outfit).toBe('auto');
  });

  it('help convert (which loads no format) points to formats --options', async () => {
    const r = await run(['help', 'convert']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('gltf-legacy formats --options');
  });

  it('formats --options prints the same list; with --json one record per option', async () => {
    const text = await run(['formats', '--options']);
    expect(text.code).toBe(0);
    expect(text.out).toContain('outfit=auto|always|never  (export; default: auto)');
    expect(text.out).toContain('textureFormat=png|dds  (export; default: png; also --texture-format)');
    const rows = JSON.parse((await run(['formats', '--options', '--json'])).out);
    const formats = await loadAllFormats();
    expect(rows.length).toBe(formats.reduce((n, f) => n + (f.options?.length ?? 0), 0));
    expect(rows).toContainEqual(
      expect.objectContaining({
        format: 'urho3d',
        name: 'materials',
        values: 'auto|true|false',
        default: 'auto',
      }),
    );
    const all = JSON.parse((await run(['formats', '--json'])).out);
    expect(
      all.find((f: { id: string }) => f.id === 'tso').options.map((o: { name: string }) => o.name),
    ).toContain('outfit');
  });

  it('a format declaring options shows them in convert --help when formats are given', async () => {
    const fake = {
      ...fakeFormat,
      options: [
        { name: 'wobble', use: 'export' as const, values: 'on|off', default: 'off', description: 'wobbles' },
      ],
    };
    const r = await run(['convert', '--help'], [fake]);
    expect(r.out).toContain('  fake\n    wobble=on|off  (export; default: off)\n        wobbles');
  });
});
