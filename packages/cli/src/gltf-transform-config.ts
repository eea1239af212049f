/**
 * A configuration module for the `gltf-transform` CLI (`gltf-transform --config <this file>`)
 * that adds two commands, so users of that CLI get the legacy formats inside their workflow:
 *
 * ```sh
 * gltf-transform legacy-import Jack.mdl jack.glb --config node_modules/@gltf-legacy/cli/dist/gltf-transform.config.js
 * gltf-transform meshopt jack.glb jack-small.glb
 * gltf-transform legacy-export jack-small.glb out/Jack.mdl --config …
 * ```
 *
 * It keeps the CLI's default extensions and codecs (Draco, meshopt) and adds the glTF extensions
 * our formats define.
 */
import type { Document, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import type { Warning } from '@gltf-legacy/core';
import { LegacyIO } from './legacy-io.js';
import { FORMATS } from './formats.js';

/** The parts of the gltf-transform CLI program this module uses (it ships no types for them). */
interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}
interface ActionParams {
  args: Record<string, unknown>;
  options: Record<string, unknown>;
  logger: Logger;
}
interface Command {
  help(text: string): Command;
  argument(name: string, desc: string): Command;
  option(name: string, desc: string, options?: { default?: unknown; validator?: unknown }): Command;
  action(fn: (params: ActionParams) => Promise<void>): Command;
}
interface Program {
  command(name: string, desc: string): Command;
}

function logWarnings(logger: Logger, warnings: Warning[]): void {
  for (const w of warnings) logger.warn(`${w.code} ×${w.count}: ${w.message}`);
}

const ids = FORMATS.map((f) => f.id);

/** The config object (`export default` of a gltf-transform config module). */
const config = {
  extensions: [...ALL_EXTENSIONS, ...FORMATS.flatMap((f) => f.gltfExtensions ?? [])],
  async onProgramReady({ program, io }: { program: Program; io: NodeIO }): Promise<void> {
    program
      .command('legacy-import', 'Convert a legacy game model to glTF (gltf-legacy)')
      .help(
        `Reads a legacy model (${ids.join(', ')}) with gltf-legacy: the format is detected from the bytes and companion files (animations, _a.3d + .uc, …) beside it are loaded. Writes .glb or .gltf with this CLI's NodeIO.`,
      )
      .argument('<input>', 'legacy main file (NAME_d.3d, NAME.mdl, NAME.model, NAME.mesh, …)')
      .argument('<output>', 'glTF output (.glb or .gltf)')
      .option('--companions <bool>', 'load companion files found beside the input', { default: true })
      .option(
        '--resource-dir <dir>',
        "the folder textures and material files are read from; nothing outside it is read (default: the format's data root, else the input's folder)",
      )
      .action(async ({ args, options, logger }) => {
        const legacy = new LegacyIO({
          companions: options.companions !== false && options.companions !== 'false',
          resourceDir: options.resourceDir ? String(options.resourceDir) : undefined,
        });
        const r = await legacy.readDetailed(String(args.input));
        logger.info(`${r.format}: ${r.files.join(', ')}`);
        logWarnings(logger, r.warnings);
        await io.write(String(args.output), r.document);
      });

    program
      .command('legacy-export', 'Convert glTF to a legacy game format (gltf-legacy)')
      .help(
        `Reads .glb/.gltf with this CLI's NodeIO and writes every file the target format needs beside <output>. The target comes from --format (${ids.join(', ')}) or from the output's extension.`,
      )
      .argument('<input>', 'glTF input (.glb or .gltf)')
      .argument('<output>', 'legacy output (NAME_d.3d, NAME.mdl, …)')
      .option('--format <id>', `target format: ${ids.join(', ')}`)
      .action(async ({ args, options, logger }) => {
        const document: Document = await io.read(String(args.input));
        const legacy = new LegacyIO();
        const written = await legacy.write(String(args.output), document, {
          format: options.format ? String(options.format) : undefined,
        });
        logWarnings(logger, legacy.lastWarnings);
        logger.info(`wrote ${written.join(', ')}`);
      });
  },
};

export default config;
