/** The Urho3D options `legacyFormat` reads, as `gltf-legacy convert --help` lists them. */
import type { FormatOptionInfo } from '@gltf-legacy/core';
import { EXPORT_URHO_DEFAULTS } from './export.js';
import { IMPORT_PREFAB_DEFAULTS } from './prefab-import.js';

/**
 * Every Urho3D-specific option (import and export), with its values and default.
 *
 * ```ts
 * URHO3D_FORMAT_OPTIONS.find((o) => o.name === 'materials')?.default; // 'auto'
 * ```
 */
export const URHO3D_FORMAT_OPTIONS: readonly FormatOptionInfo[] = [
  {
    name: 'materials',
    use: 'export',
    values: 'auto|true|false',
    default: String(EXPORT_URHO_DEFAULTS.materials),
    description:
      'write Materials/*.xml, Textures/* and a prefab Objects/NAME.xml beside Models/NAME.mdl; auto: when the glTF has materials with a look (textures, colours, alpha) or came from Urho3D material files; false: the .mdl/.ani only (textures dropped, TEXTURE_DROPPED)',
  },
  {
    name: 'textureFormat',
    use: 'export',
    values: 'png|dds',
    default: EXPORT_URHO_DEFAULTS.textureFormat,
    description:
      're-encoded textures as PNG or DDS (BC1/BC3 with mips); unchanged originals keep their bytes',
    flag: '--texture-format',
  },
  {
    name: 'pak',
    use: 'export',
    values: 'true|lz4|false',
    default: String(EXPORT_URHO_DEFAULTS.pak),
    description: 'pack every written file into one NAME.pak (lz4: compressed, ULZ4)',
    flag: '--pak [lz4]',
  },
  {
    name: 'maxBones',
    use: 'export',
    values: '4…256',
    default: String(EXPORT_URHO_DEFAULTS.maxBones),
    description: 'bones one geometry may reference (hardware skinning); larger skins are split',
  },
  {
    name: 'fps',
    use: 'export',
    values: '<number>',
    default: String(EXPORT_URHO_DEFAULTS.fps),
    description: 'key rate of resampled STEP/CUBICSPLINE channels',
    flag: '--fps',
  },
  {
    name: 'axes',
    use: 'both',
    values: 'gltf|assetimporter',
    default: 'gltf (export: as imported)',
    description:
      'assetimporter mirrors Z like Urho3D AssetImporter (files that went glTF → Urho3D through it)',
  },
  {
    name: 'material',
    use: 'import',
    values: '<resource name>',
    default: 'Materials/NAME.xml beside the model or in the resource dir',
    description: 'the material XML of a lone .mdl',
    flag: '--material',
  },
  {
    name: 'maxModels',
    use: 'import',
    values: '<number>',
    default: String(IMPORT_PREFAB_DEFAULTS.maxModels),
    description: 'most model components a prefab or scene may load',
  },
];
