/** The Unreal options `legacyFormat` reads, as `gltf-legacy convert --help` lists them. */
import type { FormatOptionInfo } from '@gltf-legacy/core';
import { UNREAL_EXPORT_DEFAULTS } from './export/common.js';
import { UNREAL_IMPORT_DEFAULTS } from './import.js';

/**
 * Every Unreal-specific option (import and export), with its values and default.
 *
 * ```ts
 * UNREAL3D_FORMAT_OPTIONS.find((o) => o.name === 'fps')?.default; // '30'
 * ```
 */
export const UNREAL3D_FORMAT_OPTIONS: readonly FormatOptionInfo[] = [
  {
    name: 'scale',
    use: 'both',
    values: '<metres per Unreal unit>',
    default: String(UNREAL_IMPORT_DEFAULTS.scale),
    description: 'glTF metres per Unreal unit (1 UU = 1.905 cm); 1 keeps Unreal units',
    flag: '--scale',
  },
  {
    name: 'axes',
    use: 'both',
    values: 'gltf|swap',
    default: UNREAL_IMPORT_DEFAULTS.axes,
    description: "gltf: the game's forward +X is glTF +Z; swap: the plain Y/Z swap",
  },
  {
    name: 'frames',
    use: 'import',
    values: 'all|first',
    default: UNREAL_IMPORT_DEFAULTS.frames,
    description: 'every frame as a morph target, or frame 0 only (no animation)',
    flag: '--static',
  },
  {
    name: 'normals',
    use: 'import',
    values: 'true|false',
    default: String(UNREAL_IMPORT_DEFAULTS.normals),
    description: 'smooth vertex normals as the engine shades; false: no NORMAL (flat shading in viewers)',
  },
  {
    name: 'textures',
    use: 'import',
    values: 'true|false',
    default: String(UNREAL_IMPORT_DEFAULTS.textures),
    description: 'read the skins the .uc names and embed them as base colour textures',
  },
  {
    name: 'mesh',
    use: 'import',
    values: '<mesh name>',
    default: 'the first mesh of the package',
    description:
      'which mesh of a package (.u/.utx/.unr) a library import reads (the CLI converts each, or only --mesh)',
    flag: '--mesh <name>',
  },
  {
    name: 'fps',
    use: 'export',
    values: '<number>',
    default: String(UNREAL_EXPORT_DEFAULTS.fps),
    description: 'sampling rate of baked animations (also the sequences\u2019 RATE)',
    flag: '--fps',
  },
  {
    name: 'variant',
    use: 'export',
    values: 'standard|deusex',
    default: 'as imported, else standard',
    description: 'standard: 11/11/10-bit packed vertices; deusex: 16-bit',
    flag: '--variant',
  },
  {
    name: 'bake',
    use: 'export',
    values: 'true|false',
    default: String(UNREAL_EXPORT_DEFAULTS.bake),
    description: 'always bake, even a document imported from Unreal (no byte-exact native path)',
  },
  {
    name: 'weld',
    use: 'export',
    values: 'true|false',
    default: 'true',
    description: 'merge vertices with the same quantized position in every frame',
  },
  {
    name: 'maxFrames',
    use: 'export',
    values: '<whole number ≥ 1>',
    default: String(UNREAL_EXPORT_DEFAULTS.maxFrames),
    description: 'most vertex frames written, all sequences together',
  },
];
