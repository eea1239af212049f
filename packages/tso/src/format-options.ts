/** The TSO options `legacyFormat` reads, as `gltf-legacy convert --help` lists them. */
import type { FormatOptionInfo } from '@gltf-legacy/core';
import { TSO_EXPORT_DEFAULTS } from './export/options.js';
import { TSO_IMPORT_DEFAULTS } from './import/options.js';
import { TSO_OUTFIT_EXPORT_DEFAULTS } from './outfit-export.js';

/**
 * Every TSO-specific option (import and export), with its values and default.
 *
 * ```ts
 * TSO_FORMAT_OPTIONS.find((o) => o.name === 'outfit')?.default; // 'auto'
 * ```
 */
export const TSO_FORMAT_OPTIONS: readonly FormatOptionInfo[] = [
  {
    name: 'skeleton',
    use: 'import',
    values: '<.skel path>',
    default: 'a .skel in the set or the outfit folders',
    description: 'the skeleton the mesh or outfit binds to',
    flag: '--skeleton <file.skel>',
  },
  {
    name: 'durationUnit',
    use: 'import',
    values: 'auto|ms|s',
    default: TSO_IMPORT_DEFAULTS.durationUnit,
    description: '.anim duration unit; auto: seconds when smaller than the frame count (FreeSO-made files)',
  },
  {
    name: 'fallbackFps',
    use: 'import',
    values: '<number>',
    default: String(TSO_IMPORT_DEFAULTS.fallbackFps),
    description: "frame rate used when an animation's duration is unusable",
  },
  {
    name: 'meshName',
    use: 'import',
    values: '<name>',
    default: "the mesh file's stem",
    description: 'name of the mesh node',
  },
  {
    name: 'outfit',
    use: 'export',
    values: 'auto|always|never',
    default: String(TSO_OUTFIT_EXPORT_DEFAULTS.outfit),
    description:
      'write an outfit (Meshes/, Textures/, Bindings/*.bnd, Appearances/*.apr, Skeletons/, Animations/); auto: when the glTF came from an outfit or a mesh has a base colour texture; never: the plain NAME.mesh/.skel/.anim (textures dropped, TEXTURE_DROPPED)',
  },
  {
    name: 'freshIds',
    use: 'export',
    values: 'true|false',
    default: String(TSO_OUTFIT_EXPORT_DEFAULTS.freshIds),
    description:
      'give every outfit file a fresh id, even those kept from the import (a copy beside the original)',
  },
  {
    name: 'skeleton',
    use: 'export',
    values: 'auto|always|never',
    default: TSO_EXPORT_DEFAULTS.skeleton,
    description: 'write a .skel; auto: unless the glTF came from a .mesh imported without a skeleton',
  },
  {
    name: 'fps',
    use: 'export',
    values: '<number>',
    default: String(TSO_EXPORT_DEFAULTS.fps),
    description: 'frame rate of resampled animations',
    flag: '--fps',
  },
  {
    name: 'normalScale',
    use: 'export',
    values: '<number>',
    default: String(TSO_EXPORT_DEFAULTS.normalScale),
    description: 'length of the normals written for foreign glTF (FreeSO-made files use 3)',
  },
  {
    name: 'animations',
    use: 'export',
    values: 'true|false',
    default: 'true',
    description: 'write the animations',
  },
];
