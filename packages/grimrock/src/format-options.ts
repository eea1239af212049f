/** The Grimrock options `legacyFormat` reads, as `gltf-legacy convert --help` lists them. */
import type { FormatOptionInfo } from '@gltf-legacy/core';
import { GRIMROCK_EXPORT_DEFAULTS } from './export.js';
import { GRIMROCK_IMPORT_DEFAULTS } from './import.js';
import { MATERIAL_DISCOVERY_DEFAULTS } from './material-discovery.js';

/**
 * Every Grimrock-specific option (import and export), with its values and default.
 *
 * ```ts
 * GRIMROCK_FORMAT_OPTIONS.find((o) => o.name === 'variant')?.values; // 'log1|log2'
 * ```
 */
export const GRIMROCK_FORMAT_OPTIONS: readonly FormatOptionInfo[] = [
  {
    name: 'materials',
    use: 'import',
    values: '<lua path>[,…]',
    default: "the mod's scripts",
    description:
      'Lua files with defineMaterial{} to read besides the mod\u2019s scripts (later definitions win)',
    flag: '--materials <file>',
  },
  {
    name: 'maxLuaFiles',
    use: 'import',
    values: '<number>',
    default: String(MATERIAL_DISCOVERY_DEFAULTS.maxLuaFiles),
    description: 'most Lua files read when looking for materials',
  },
  {
    name: 'maxLuaBytes',
    use: 'import',
    values: '<bytes>',
    default: String(MATERIAL_DISCOVERY_DEFAULTS.maxLuaBytes),
    description: 'largest Lua file read (larger ones are skipped with a warning)',
  },
  {
    name: 'maxTotalLuaBytes',
    use: 'import',
    values: '<bytes>',
    default: String(MATERIAL_DISCOVERY_DEFAULTS.maxTotalLuaBytes),
    description: 'most Lua bytes read in all',
  },
  {
    name: 'luaAnimations',
    use: 'import',
    values: 'true|false',
    default: 'true',
    description:
      'attach the animations the mod\u2019s Lua links to the model (defineObject animations = {…}), from the mod folder or .dat',
  },
  {
    name: 'fps',
    use: 'both',
    values: '<number>',
    default: `import ${GRIMROCK_IMPORT_DEFAULTS.fps} (for a stored rate ≤ 0); export: the imported rate, else ${GRIMROCK_EXPORT_DEFAULTS.fps}`,
    description: 'frames per second of animations',
    flag: '--fps',
  },
  {
    name: 'variant',
    use: 'export',
    values: 'log1|log2',
    default: `as imported, else ${GRIMROCK_EXPORT_DEFAULTS.variant}`,
    description: 'animation file version: log1 (Grimrock 1) or log2 (Grimrock 2)',
    flag: '--variant',
  },
];
