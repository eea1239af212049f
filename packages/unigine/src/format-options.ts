/** The UNIGINE options `legacyFormat` reads, as `gltf-legacy convert --help` lists them. */
import type { FormatOptionInfo } from '@gltf-legacy/core';
import { UNIGINE_EXPORT_DEFAULTS } from './export.js';
import { UNIGINE_IMPORT_DEFAULTS } from './import.js';
import { UNIGINE_MATERIAL_EXPORT_DEFAULTS } from './mat-export.js';
import { UNIGINE_MATERIAL_DEFAULTS } from './mat-import.js';

/**
 * Every UNIGINE-specific option (import and export), with its values and default.
 *
 * ```ts
 * UNIGINE_FORMAT_OPTIONS.find((o) => o.name === 'materialLibrary')?.default; // 'auto'
 * ```
 */
export const UNIGINE_FORMAT_OPTIONS: readonly FormatOptionInfo[] = [
  {
    name: 'materials',
    use: 'import',
    values: '<.mat path>[,…]',
    default: 'found below the resource root',
    description: '.mat libraries to read first (their materials win over same-named ones)',
    flag: '--materials <file>',
  },
  {
    name: 'materialMap',
    use: 'import',
    values: 'surface=material[,…]',
    default: 'same name',
    description: 'which material each surface takes',
  },
  {
    name: 'scanMaterials',
    use: 'import',
    values: 'true|false',
    default: String(UNIGINE_MATERIAL_DEFAULTS.scanMaterials),
    description: 'look for .mat libraries everywhere below the resource root',
  },
  {
    name: 'maxLibraries',
    use: 'import',
    values: '<number>',
    default: String(UNIGINE_MATERIAL_DEFAULTS.maxLibraries),
    description: 'most .mat libraries read',
  },
  {
    name: 'maxLibraryBytes',
    use: 'import',
    values: '<bytes>',
    default: String(UNIGINE_MATERIAL_DEFAULTS.maxLibraryBytes),
    description: 'largest .mat library read',
  },
  {
    name: 'maxLibraryTotalBytes',
    use: 'import',
    values: '<bytes>',
    default: String(UNIGINE_MATERIAL_DEFAULTS.maxLibraryTotalBytes),
    description: 'most .mat bytes read in all',
  },
  {
    name: 'fps',
    use: 'both',
    values: '<number>',
    default: `${UNIGINE_IMPORT_DEFAULTS.fps} (export: ${UNIGINE_EXPORT_DEFAULTS.fps})`,
    description: 'frames per second of animations (the files store no rate)',
    flag: '--fps',
  },
  {
    name: 'materialLibrary',
    use: 'export',
    values: 'auto|always|never',
    default: UNIGINE_MATERIAL_EXPORT_DEFAULTS.materialLibrary,
    description:
      'write NAME.mat and its textures; auto: when a surface has more than a placeholder material; never: the .mesh/.anim only (TEXTURE_DROPPED)',
  },
  {
    name: 'textureFolder',
    use: 'export',
    values: '<folder>',
    default: UNIGINE_MATERIAL_EXPORT_DEFAULTS.textureFolder,
    description: 'folder (relative to the .mesh) of re-encoded textures',
  },
  {
    name: 'texturePrefix',
    use: 'export',
    values: '<data-relative folder>',
    default: "'' (paths relative to the .mat)",
    description: 'prefix of the texture paths written in the .mat (where the engine will find them)',
  },
  {
    name: 'baseMaterial',
    use: 'export',
    values: '<material name>',
    default: UNIGINE_MATERIAL_EXPORT_DEFAULTS.baseMaterial,
    description: 'parent of materials that did not come from a .mat',
  },
];
