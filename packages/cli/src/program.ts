import { Command } from 'commander';
import type { LegacyFormat } from '@gltf-legacy/core';
import { availableParallelism } from 'node:os';
import { addFormatOptionsHelp, formatOptionRows, formatOptionsText } from './format-options.js';
import { FORMAT_TABLE, loadAllFormats } from './format-table.js';
import { expandInputs } from './inputs.js';
import { addInspectCommand, addValidateCommand, addWarningsCommand } from './commands.js';
import { defaultOutput, EXIT, type Output, positiveNumber, type Runtime } from './command.js';
import { runConvert } from './run-convert.js';
import { addExtractCommand } from './extract.js';
import { renderTable } from './table.js';

/**
 * Help text of `--compact` (issue 30): what it writes, which clients read it, the sizes of both
 * modes (packages/unreal3d/README.md has the tables).
 */
export const COMPACT_HELP =
  'write vertex animation compactly: Unreal morph targets as BYTE/SHORT with KHR_mesh_quantization (listed in extensionsRequired), Unigine rotation tracks as normalized SHORT. Read by Blender, three.js, Babylon.js and Unity glTFast; refused by Godot 4 (until godotengine/godot#120205), f3d/VTK and libGDX gdx-gltf. Corpus Sporifier (72 frames): 225 KB instead of 463 KB (sizes: cli and unreal3d READMEs). Default: portable float32 (sparse where smaller), no required extension, every client opens it. --optimize --quantize/--meshopt/--draco also add required extensions, only when asked';

/** Help text of `--resource-dir` (convert, inspect, view, preview). */
const RESOURCE_DIR_HELP =
  "the folder textures, material files and glTF buffers/images are read from; nothing outside it is read (default: the format's data root, e.g. the folder above Models/, else the input's folder)";

function formatsTable(formats: readonly LegacyFormat[]): string {
  const yes = (b: boolean | undefined) => (b ? 'yes' : '-');
  return renderTable(
    ['id', 'format', 'extensions', 'import', 'export', 'skins', 'morphs', 'animations'],
    [
      ...formats.map((f) => [
        f.id,
        f.label,
        f.extensions.join(' '),
        yes(f.capabilities.import),
        yes(f.capabilities.export),
        yes(f.capabilities.skins),
        yes(f.capabilities.morphTargets),
        yes(f.capabilities.animations),
      ]),
      ['glb', 'glTF 2.0 binary', '.glb', 'yes', 'yes', 'yes', 'yes', 'yes'],
      ['gltf', 'glTF 2.0 JSON', '.gltf', 'yes', 'yes', 'yes', 'yes', 'yes'],
    ],
  );
}

/**
 * Builds the commander program (exported for tests). Without `formats`, every registered format is
 * available and each command loads only the format packages it needs.
 */
export function buildProgram(
  io: Output = defaultOutput,
  formats?: readonly LegacyFormat[],
  setExit: (c: number) => void = () => {},
  runtime: Runtime = {},
): Command {
  const ids = (formats ?? FORMAT_TABLE).map((f) => f.id);
  const program = new Command('gltf-legacy')
    .description(
      'Convert legacy game models (Unreal 1 vertex meshes, Urho3D, Legend of Grimrock, The Sims Online, Unigine) to glTF 2.0 and back.',
    )
    .version('0.1.0')
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');

  const convert = program
    .command('convert')
    .description(
      'Convert files. Legacy → glTF: the input format is detected from its bytes and companion files (animations, .uc, _a.3d) beside it are loaded automatically. glTF → legacy: the target comes from --to or the output extension; every file the format needs is written beside the output.',
    )
    .argument('<input...>', 'input files (legacy files, .glb or .gltf)')
    .option(
      '-o, --output <file>',
      'output file (one input only); .glb/.gltf, or a legacy name such as NAME_d.3d or NAME.mdl',
    )
    .option('--out-dir <dir>', 'output folder; names come from each input (NAME for NAME_d.3d)')
    .option('--to <format>', `target format: glb (default for legacy input), gltf, ${ids.join(', ')}`)
    .option(
      '--with <file>',
      'add a companion file (repeatable)',
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option('--no-companions', 'do not look for companion files beside the input')
    .option(
      '--mesh <name>',
      "convert only this model of a container (an Unreal package's mesh, a .pak entry)",
    )
    .option('--resource-dir <dir>', RESOURCE_DIR_HELP)
    .option(
      '--max-unpacked <size>',
      'largest unpacked size of a package (.pak) entry and of a whole package, e.g. 2G (default 256M per entry, 512M per package; code UNPACKED_TOO_LARGE above)',
    )
    .option('--skeleton <file.skel>', 'The Sims Online: the skeleton the mesh binds to (same as --with)')
    .option(
      '--materials <file>',
      'Grimrock: a Lua file with defineMaterial{} (e.g. mod_assets/scripts/materials.lua); Unigine: a .mat library — a path below the resource root, repeatable (default: found in the mod/project tree)',
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option(
      '--material <name>',
      'Urho3D: the material XML of a lone .mdl, as a resource name (e.g. Materials/Jack.xml; default: Materials/NAME.xml beside the model or in the resource dir)',
    )
    .option(
      '--pak [compression]',
      'Urho3D export: pack the written tree (models, materials, textures, prefab) into one NAME.pak; --pak lz4 compresses it',
    )
    .option(
      '--far [compression]',
      'TSO export: write every file (.apr, .bnd, .mesh, textures; or .mesh, .skel, .anim) into one FAR3 archive NAME.dat, entries found by their type and file ids; --far refpack compresses them as the game does',
    )
    .option(
      '--texture-format <png|dds>',
      'Urho3D export: write re-encoded textures as PNG (default) or DDS (BC1/BC3 with mips)',
    )
    .option('--static', 'Unreal: import frame 0 only (no morph-target animation)')
    .option('--compact', COMPACT_HELP)
    .option(
      '--float',
      'the portable encoding by its old name (float32 vertex animation, nothing in extensionsRequired): the default since issue 30, accepted for scripts that pass it',
    )
    .option(
      '--no-frame-normals',
      'no NORMAL delta per morph target: Unreal (one target per animation frame) and Urho3D morphs (also no TANGENT deltas); smaller files, the client keeps the base normals. Formats without morph normals ignore it',
    )
    .option(
      '--strict',
      'refuse the quirks the original tools tolerated (short _a.3d, an index one past the end, trailing bytes…) with the error each would be, instead of converting with a warning',
    )
    .option(
      '--scale <n>',
      'glTF metres per game unit, for formats with their own unit (unreal3d; see its README for the default); applied on import, inverted on export',
    )
    .option('--fps <n>', 'frames per second for animation import/resampling (formats that use it)')
    .option('--variant <name>', 'export variant: deusex (unreal3d), log2 (grimrock)')
    .option(
      '--option <key=value>',
      "a format-specific option (repeatable); every format's options, values and defaults are listed below",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option('-f, --force', 'overwrite existing outputs')
    .option(
      '-j, --jobs <n>',
      `parallel worker threads (default: the number of cores, ${availableParallelism()} here); 0 = no workers`,
    )
    .option(
      '--report <file.json>',
      'write a JSON report: one record per input plus a summary (schema in the README)',
    )
    .option(
      '--timeout <seconds>',
      'stop an input that takes longer (its worker is terminated; code TIMEOUT); default 600',
    )
    .option('--shard <i/n>', 'convert only the i-th of n deterministic slices of the inputs (1 ≤ i ≤ n)')
    .option('--no-progress', 'no progress bar even on a terminal')
    .option('--dedup', 'optimize: merge duplicate accessors, meshes, materials, textures')
    .option('--weld', 'optimize: merge identical vertices')
    .option('--prune', 'optimize: remove unused properties')
    .option('--resample', 'optimize: drop redundant animation keyframes')
    .option(
      '--simplify <ratio>',
      'optimize: simplify meshes to this ratio of vertices (meshoptimizer), e.g. 0.5',
    )
    .option('--quantize', 'optimize: quantize vertex attributes (KHR_mesh_quantization)')
    .option('--meshopt', 'compress with EXT_meshopt_compression (meshoptimizer; glTF output only)')
    .option('--draco', 'compress with KHR_draco_mesh_compression (draco3dgltf; glTF output only)')
    .option('--center', 'optimize: center the scene at the origin')
    .option('--optimize', 'preset: --dedup --weld --resample --prune')
    .option('-q, --quiet', 'print only errors')
    .option('-v, --verbose', 'print every warning message and stack traces of internal errors')
    .addHelpText(
      'after',
      `
Examples:
  gltf-legacy convert Skull_d.3d                       # → Skull.glb beside it (uses Skull_a.3d, Skull.uc)
  gltf-legacy convert Jack.mdl -o jack.glb             # with Jack_*.ani animations found beside it
  gltf-legacy convert models/*.mdl --out-dir out/      # several inputs; one failure does not stop the rest
  gltf-legacy convert Fox.glb --to unreal3d -o out/Fox_d.3d   # writes Fox_d.3d, Fox_a.3d, Fox.uc
  gltf-legacy convert hero.glb -o hero.mdl             # target from the extension
  gltf-legacy convert game/models --out-dir out --jobs 2 --report report.json
                                                       # a whole folder, tree mirrored under out/
  gltf-legacy convert 'game/**/*.mdl' --out-dir out --shard 1/4 --optimize --meshopt

Exit code: 0 when every input converted, 1 when any failed, 2 on a usage error.`,
    )
    .action((inputs: string[], opts: Record<string, any>) =>
      runConvert(inputs, opts, { io, formats, setExit, runtime }),
    );
  addFormatOptionsHelp(program, convert, formats);

  const ctx = { io, formats, setExit, resourceDirHelp: RESOURCE_DIR_HELP };
  addInspectCommand(program, ctx);
  addValidateCommand(program, ctx);
  addWarningsCommand(program, ctx);
  addExtractCommand(program, ctx);

  program
    .command('view')
    .description('Serve the browser viewer on localhost and open the given files in it (Ctrl-C stops).')
    .argument('<files...>', 'legacy models (companions beside them are loaded) or .glb/.gltf')
    .option('--port <n>', 'port on 127.0.0.1 (0: any free port)', '0')
    .option('--no-open', 'only print the URL')
    .option('--resource-dir <dir>', RESOURCE_DIR_HELP)
    .action(async (files: string[], opts: { port: string; open: boolean; resourceDir?: string }) => {
      const { serveViewer } = await import('@gltf-legacy/viewer');
      const v = await serveViewer(files, {
        port: positiveNumber('--port', opts.port, true, 0),
        open: opts.open,
        resourceDir: opts.resourceDir,
      });
      io.out(`viewer: ${v.url} (${v.files.join(', ')}); Ctrl-C to stop`);
      await new Promise<void>((done) => process.once('SIGINT', () => void v.close().then(done)));
    });

  program
    .command('preview')
    .description(
      'Render a PNG thumbnail per model with headless Chromium (fixed camera framing the bounds, neutral light, first animation frame). Needs Debian chromium: apt-get install -y chromium.',
    )
    .argument('<inputs...>', 'files, folders or globs')
    .requiredOption('--out-dir <dir>', 'folder for the PNGs')
    .option('--size <px>', 'width and height in pixels', '512')
    .option(
      '--timeout <seconds>',
      'per input: Chromium that does not render it in time is restarted and tried once more, then PREVIEW_TIMEOUT (default 60; Chromium start: 30)',
    )
    .option('--resource-dir <dir>', RESOURCE_DIR_HELP)
    .action(
      async (
        inputs: string[],
        opts: { outDir: string; size: string; timeout?: string; resourceDir?: string },
      ) => {
        const { previewFiles } = await import('@gltf-legacy/viewer');
        const files = (await expandInputs(inputs, formats)).items.map((i) => i.input);
        const results = await previewFiles(files, {
          outDir: opts.outDir,
          size: positiveNumber('--size', opts.size, true, 16),
          timeoutMs:
            opts.timeout === undefined
              ? undefined
              : positiveNumber('--timeout', opts.timeout, false, 0.001) * 1000,
          resourceDir: opts.resourceDir,
          onResult: (r) =>
            r.error
              ? io.err(`${r.input}: error ${r.error.code}: ${r.error.message}`)
              : io.out(`${r.input} → ${r.outputs.join(', ')}`),
        });
        setExit(results.some((r) => r.error) ? EXIT.FAILED : EXIT.OK);
      },
    );

  program
    .command('formats')
    .description('List the registered formats, their extensions and capabilities.')
    .option('--json', 'print JSON')
    .option('--options', "every format's own options (--option key=value): values, default, meaning")
    .action(async (opts: { json?: boolean; options?: boolean }) => {
      const all = formats ?? (await loadAllFormats());
      if (opts.options)
        io.out(opts.json ? JSON.stringify(formatOptionRows(all), null, 2) : formatOptionsText(all));
      else if (opts.json)
        io.out(
          JSON.stringify(
            all.map((f) => ({
              id: f.id,
              label: f.label,
              extensions: f.extensions,
              mainExtension: f.mainExtension,
              capabilities: f.capabilities,
              options: f.options ?? [],
            })),
            null,
            2,
          ),
        );
      else io.out(formatsTable(all));
    });

  return program;
}
