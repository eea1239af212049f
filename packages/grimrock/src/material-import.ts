/**
 * Mapping: Grimrock `defineMaterial` definitions → glTF materials and embedded textures.
 *
 * The model importer names one glTF material per segment material; this step finds each name's
 * `defineMaterial{...}` in the mod's Lua files and fills the glTF material from it (see the README
 * table). Textures: the Lua names `.tga`, the game loads the `.dds` of the same path, so the
 * `.dds` is tried first, then the named file; each is embedded as PNG with its original bytes kept
 * (`keepTextureSource`) for a byte-exact export.
 */
import {
  type ImportOptions,
  keepTextureSource,
  type ResourceReader,
  resolveReference,
  stem,
  type Warning,
  WarningCollector,
} from '@gltf-legacy/core';
import { toGltfImage, TEXTURE_REBUILDER } from '@gltf-legacy/textures';
import type { Document, Material, Texture, TextureInfo } from '@gltf-transform/core';
import { KHRMaterialsSpecular, KHRMaterialsUnlit } from '@gltf-transform/extensions';
import {
  findMaterialDefinitions,
  type FoundDefinition,
  grimrockModRoot,
  type MaterialDiscoveryOptions,
} from './material-discovery.js';
import {
  alphaModeOf,
  BLEND_MODES,
  GRIMROCK_ALPHA_CUTOFF,
  glossinessToRoughness,
  TEXTURE_SLOTS,
  type TextureSlot,
  withExtension,
  wrapOf,
} from './material-mapping.js';

/** Options of {@link importGrimrockMaterials}. */
export interface GrimrockMaterialImportOptions extends ImportOptions, MaterialDiscoveryOptions {
  /** Reader of the resource root (the folder holding `mod_assets`); without it nothing is read. */
  resources?: ResourceReader;
  /** Root-relative path of the model (default: `main`, at the root). */
  resourcePath?: string;
}

/** What a glTF material keeps of its definition, under `extras.grimrock.defineMaterial`. */
export interface DefineMaterialExtras {
  /** Root-relative path of the Lua file, relative to the mod root (`mod_assets/scripts/materials.lua`). */
  file: string;
  /** 1-based line of the call in that file. */
  line: number;
  /** The exact source text of the call. */
  text: string;
  /** Every field, in source order. */
  fields: import('./lua-values.js').LuaField[];
  /** Encoding of the Lua file (`utf8` or `latin1`). */
  encoding: 'utf8' | 'latin1';
  /** Per texture slot named in the Lua: the file embedded (mod-root-relative), or null when missing. */
  textures: Partial<Record<TextureSlot, string | null>>;
}

/**
 * Fills the materials of an imported Grimrock document from the mod's `defineMaterial` Lua.
 * Returns the warnings (`MATERIAL_MISSING`, `TEXTURE_MISSING`, …). Throws `ResourceError` for a
 * texture path that leaves the resource root (`../../etc/passwd`, absolute paths).
 *
 * ```ts
 * const { document } = importGrimrock(files, { main: 'slug.model' });
 * const warnings = await importGrimrockMaterials(document, {
 *   resources: folderResources('eob1-waterdeep'),
 *   resourcePath: 'mod_assets/models/monsters/slug.model',
 * });
 * ```
 */
export async function importGrimrockMaterials(
  doc: Document,
  options: GrimrockMaterialImportOptions = {},
): Promise<Warning[]> {
  const warnings = new WarningCollector();
  const materials = doc.getRoot().listMaterials();
  const { resources } = options;
  if (!resources || !materials.length) return [];
  const resourcePath = resolveReference(options.resourcePath ?? options.main ?? 'model.model', '');
  const modRoot = grimrockModRoot(resourcePath);
  const { definitions, files } = await findMaterialDefinitions(resources, resourcePath, options, warnings);
  const textures = new Map<string, Texture | null>();
  const ctx: Ctx = { doc, resources, modRoot, warnings, textures };
  for (const material of materials) {
    const found = definitions.get(material.getName());
    if (!found) {
      warnings.warn(
        'MATERIAL_MISSING',
        `material "${material.getName()}": no defineMaterial{ name = "${material.getName()}" } in ${
          files.length ? files.join(', ') : `any Lua file below ${modRoot ? `${modRoot}/` : ''}mod_assets`
        }`,
      );
      continue;
    }
    await applyDefinition(ctx, material, found);
  }
  return warnings.list();
}

interface Ctx {
  doc: Document;
  resources: ResourceReader;
  modRoot: string;
  warnings: WarningCollector;
  /** Embedded textures by the root-relative path of the file read (null: unreadable). */
  textures: Map<string, Texture | null>;
}

function modRelative(ctx: Ctx, path: string): string {
  const prefix = ctx.modRoot ? `${ctx.modRoot}/` : '';
  return prefix && path.toLowerCase().startsWith(prefix.toLowerCase()) ? path.slice(prefix.length) : path;
}

async function applyDefinition(ctx: Ctx, material: Material, found: FoundDefinition): Promise<void> {
  const def = found.definition;
  const label = `material "${def.name}" (${found.path} line ${def.line})`;
  const kept: DefineMaterialExtras = {
    file: modRelative(ctx, found.path),
    line: def.line,
    text: def.text,
    fields: def.fields,
    encoding: found.file.encoding,
    textures: {},
  };
  material.setMetallicFactor(0).setRoughnessFactor(glossinessToRoughness(def.glossiness));
  const mode = alphaModeOf(def);
  material.setAlphaMode(mode);
  if (mode === 'MASK') material.setAlphaCutoff(GRIMROCK_ALPHA_CUTOFF);
  material.setDoubleSided(def.doubleSided === true);
  if (
    def.blendMode !== undefined &&
    !BLEND_MODES.some((b) => b.toLowerCase() === def.blendMode!.toLowerCase())
  )
    ctx.warnings.warn(
      'MATERIAL_VALUE_UNKNOWN',
      `${label}: blendMode "${def.blendMode}" is not one the game knows; read as Opaque`,
    );
  if (def.lighting === false) {
    material.setExtension('KHR_materials_unlit', ctx.doc.createExtension(KHRMaterialsUnlit).createUnlit());
  }
  let wrap = wrapOf(def.textureAddressMode);
  if (wrap === undefined) {
    ctx.warnings.warn(
      'MATERIAL_VALUE_UNKNOWN',
      `${label}: textureAddressMode "${def.textureAddressMode}" is not Wrap or Clamp; read as Wrap`,
    );
    wrap = wrapOf('Wrap')!;
  }
  for (const slot of TEXTURE_SLOTS) {
    const ref = def[slot];
    if (ref === undefined) continue;
    const loaded = await loadTexture(ctx, ref, found.path, label, slot);
    kept.textures[slot] = loaded ? modRelative(ctx, loaded.path) : null;
    if (!loaded) continue;
    const info = attach(ctx.doc, material, slot, loaded.texture);
    info?.setWrapS(wrap).setWrapT(wrap);
  }
  material.setExtras({ ...material.getExtras(), grimrock: { defineMaterial: kept } });
}

function attach(doc: Document, material: Material, slot: TextureSlot, texture: Texture): TextureInfo | null {
  switch (slot) {
    case 'diffuseMap':
      material.setBaseColorTexture(texture);
      return material.getBaseColorTextureInfo();
    case 'normalMap':
      material.setNormalTexture(texture);
      return material.getNormalTextureInfo();
    case 'emissiveMap':
      material.setEmissiveTexture(texture).setEmissiveFactor([1, 1, 1]);
      return material.getEmissiveTextureInfo();
    case 'specularMap': {
      const specular = doc.createExtension(KHRMaterialsSpecular).createSpecular();
      specular.setSpecularColorTexture(texture);
      material.setExtension('KHR_materials_specular', specular);
      return specular.getSpecularColorTextureInfo();
    }
  }
}

/**
 * The texture a Lua path names: `<path>.dds` first (what the game loads), then the path itself.
 * Missing → `TEXTURE_MISSING` naming the paths tried; undecodable → `TEXTURE_UNREADABLE`.
 */
async function loadTexture(
  ctx: Ctx,
  ref: string,
  luaPath: string,
  label: string,
  slot: TextureSlot,
): Promise<{ texture: Texture; path: string } | undefined> {
  const named = resolveReference(ref, ctx.modRoot, { file: luaPath });
  const dds = withExtension(named, '.dds');
  const tried = dds.toLowerCase() === named.toLowerCase() ? [named] : [dds, named];
  let path: string | undefined;
  for (const candidate of tried) {
    path = await ctx.resources.find(candidate);
    if (path) break;
  }
  if (!path) {
    ctx.warnings.warn('TEXTURE_MISSING', `${label} ${slot}: texture not found (tried ${tried.join(', ')})`);
    return undefined;
  }
  const cached = ctx.textures.get(path);
  if (cached !== undefined) return cached ? { texture: cached, path } : undefined;
  const bytes = await ctx.resources.read(path);
  let texture: Texture | null = null;
  if (bytes) {
    try {
      const image = toGltfImage(bytes, path);
      texture = ctx.doc
        .createTexture(stem(path.split('/').pop()!))
        .setImage(image.bytes)
        .setMimeType(image.mimeType);
      await keepTextureSource(texture, modRelative(ctx, path), bytes, TEXTURE_REBUILDER);
    } catch (e) {
      if (texture) texture.dispose();
      texture = null;
      ctx.warnings.warn('TEXTURE_UNREADABLE', `${label} ${slot}: ${path}: ${(e as Error).message}`);
    }
  }
  ctx.textures.set(path, texture);
  return texture ? { texture, path } : undefined;
}
