/**
 * Mapping: glTF materials → `NAME_materials.lua` (one `defineMaterial{...}` per material the
 * exported meshes use) and their textures as `.dds` at the paths the Lua names.
 *
 * A material imported from Grimrock keeps its definition (`extras.grimrock.defineMaterial`): each
 * field stays as written while the glTF value is still what that field maps to, and an unchanged
 * definition is written back as its original source text. Unchanged textures are written from the
 * original bytes kept in the glTF; changed and foreign ones are encoded as DDS (BC1 without alpha,
 * BC3 with alpha, full mip chain).
 */
import {
  type FileSet,
  ResourceError,
  resolveReference,
  unchangedTextureSource,
  type Warning,
  WarningCollector,
} from '@gltf-legacy/core';
import { encodeTexture, fromGltfImage, TEXTURE_REBUILDER } from '@gltf-legacy/textures';
import type { Document, Material, Texture, TextureInfo } from '@gltf-transform/core';
import type { Specular } from '@gltf-transform/extensions';
import {
  encodeLuaText,
  formatDefineMaterial,
  isDefinitionText,
  isLuaExpression,
  materialsLuaText,
} from './lua-materials.js';
import { isLuaField, type LuaField, type LuaValue, sameLuaValue } from './lua-values.js';
import type { DefineMaterialExtras } from './material-import.js';
import {
  addressModeOf,
  alphaModeOf,
  glossinessToRoughness,
  roughnessToGlossiness,
  TEXTURE_SLOTS,
  type TextureSlot,
  withExtension,
  wrapOf,
} from './material-mapping.js';

/** Options of {@link exportGrimrockMaterials}. */
export interface GrimrockMaterialExportOptions {
  /** Base name: the Lua file is `NAME_materials.lua`, new textures go to `mod_assets/textures/NAME/`. */
  name?: string;
  /**
   * The materials to define, in order (`null`: primitives without a material, defined as
   * `default`). Give the ones the written `.model` names, in the order it first names them
   * (`(await exportGrimrock(...)).materials`, as {@link exportGrimrockWithMaterials} does): import creates
   * materials from the model's segments only, in that order, so any other list would not come
   * back the same. Default: the materials of the triangle primitives of every mesh, in document
   * order.
   */
  materials?: (Material | null)[];
}

export const GRIMROCK_MATERIAL_EXPORT_DEFAULTS = { name: 'model' } as const;

/**
 * Writes the materials of the meshes of a document as Grimrock Lua plus DDS textures. File keys
 * are relative to the output folder (the mod root: the folder that holds `mod_assets`).
 *
 * ```ts
 * const { files, warnings } = await exportGrimrockMaterials(document, { name: 'slug' });
 * // slug_materials.lua, mod_assets/textures/monsters/slug_dif.dds, …
 * const model = await exportGrimrock(document, { name: 'slug' });
 * await exportGrimrockMaterials(document, { name: 'slug', materials: model.materials }); // what slug.model names
 * ```
 */
export async function exportGrimrockMaterials(
  doc: Document,
  options: GrimrockMaterialExportOptions = {},
): Promise<{ files: FileSet; warnings: Warning[] }> {
  const name = (options.name ?? GRIMROCK_MATERIAL_EXPORT_DEFAULTS.name).replace(
    /[\\/:*?"<>|\u0000-\u001f]/g,
    '_',
  );
  const warnings = new WarningCollector();
  const files: FileSet = new Map();
  const used = options.materials ? [...new Set(options.materials)] : usedMaterials(doc);
  if (!used.length) return { files, warnings: [] };
  const ctx: Ctx = { name, files, warnings, written: new Map() };
  const texts: string[] = [];
  const names = new Set<string>();
  let latin1 = false;
  for (const material of used) {
    const matName = material ? material.getName() || 'default' : 'default';
    if (names.has(matName)) {
      warnings.warn(
        'MATERIAL_DUPLICATE_NAME',
        `two glTF materials are named "${matName}"; Grimrock finds materials by name, only the first is written`,
      );
      continue;
    }
    names.add(matName);
    const kept = keptDefinition(ctx, material);
    const fields = await materialFields(ctx, material, matName, kept);
    const unchanged =
      kept?.text !== undefined &&
      fields.length === kept.fields.length &&
      fields.every((f, i) => sameField(f, kept.fields[i]));
    texts.push(unchanged ? kept.text! : formatDefineMaterial(fields));
    if (unchanged && kept.encoding === 'latin1') latin1 = true;
  }
  const text = materialsLuaText(texts, name);
  // Latin-1 only when a kept definition came from a Latin-1 file and every character fits.
  const encoding = latin1 && !/[^\u0000-\u00ff]/.test(text) ? 'latin1' : 'utf8';
  files.set(`${name}_materials.lua`, encodeLuaText(text, encoding));
  return { files, warnings: warnings.list() };
}

interface Ctx {
  name: string;
  files: FileSet;
  warnings: WarningCollector;
  /** Textures already written: the Lua path that names each. */
  written: Map<Texture, string>;
}

/** Materials of triangle primitives, in document order (`null` for primitives without one). */
function usedMaterials(doc: Document): (Material | null)[] {
  const used = new Set<Material | null>();
  for (const mesh of doc.getRoot().listMeshes())
    for (const p of mesh.listPrimitives()) if (p.getMode() >= 4) used.add(p.getMaterial());
  const order = doc.getRoot().listMaterials();
  const out: (Material | null)[] = order.filter((m) => used.has(m));
  if (used.has(null)) out.push(null);
  return out;
}

/** The kept definition of a material, checked: it comes from a `.glb` that may be from anywhere. */
function keptDefinition(ctx: Ctx, material: Material | null): KeptDefinition | undefined {
  const g = material?.getExtras()?.grimrock as { defineMaterial?: unknown } | undefined;
  const d = g?.defineMaterial as Partial<DefineMaterialExtras> | undefined;
  if (!d || typeof d !== 'object' || !Array.isArray(d.fields)) return undefined;
  if (!d.fields.every((f) => isLuaField(f))) return undefined;
  // A Lua expression kept as source must be one expression, never text that closes the table.
  const fields = d.fields.filter((f) => {
    if (!hasBadExpression(f.value)) return true;
    ctx.warnings.warn(
      'MATERIAL_FIELD_DROPPED',
      `material "${material?.getName()}": field ${String(f.key)} holds text that is not one Lua expression; not written`,
    );
    return false;
  });
  const text = typeof d.text === 'string' && isDefinitionText(d.text, fields) ? d.text : undefined;
  return {
    text,
    fields,
    encoding: d.encoding === 'latin1' ? 'latin1' : 'utf8',
    textures: d.textures && typeof d.textures === 'object' ? d.textures : {},
  };
}

interface KeptDefinition {
  /** The original source text, when it is exactly one definition of these fields. */
  text?: string;
  fields: LuaField[];
  encoding: 'utf8' | 'latin1';
  textures: Partial<Record<TextureSlot, string | null>>;
}

function hasBadExpression(v: LuaValue): boolean {
  if (v === null || typeof v !== 'object') return false;
  if ('lua' in v) return !isLuaExpression(v.lua);
  return v.table.some((f) => hasBadExpression(f.value));
}

function sameField(a: LuaField, b: LuaField): boolean {
  return a.key === b.key && sameLuaValue(a.value, b.value);
}

function getField(fields: LuaField[], key: string): LuaValue | undefined {
  let v: LuaValue | undefined;
  for (const f of fields) if (f.key === key) v = f.value;
  return v;
}

function setField(fields: LuaField[], key: string, value: LuaValue): void {
  for (let i = fields.length - 1; i >= 0; i--) {
    if (fields[i].key === key) {
      if (!sameLuaValue(fields[i].value, value)) fields[i] = { key, value };
      return;
    }
  }
  fields.push({ key, value });
}

function removeField(fields: LuaField[], key: string): void {
  for (let i = fields.length - 1; i >= 0; i--) if (fields[i].key === key) fields.splice(i, 1);
}

function textureOf(
  material: Material | null,
  slot: TextureSlot,
): { texture: Texture; info: TextureInfo } | undefined {
  if (!material) return undefined;
  let texture: Texture | null = null;
  let info: TextureInfo | null = null;
  if (slot === 'diffuseMap')
    [texture, info] = [material.getBaseColorTexture(), material.getBaseColorTextureInfo()];
  else if (slot === 'normalMap')
    [texture, info] = [material.getNormalTexture(), material.getNormalTextureInfo()];
  else if (slot === 'emissiveMap')
    [texture, info] = [material.getEmissiveTexture(), material.getEmissiveTextureInfo()];
  else {
    const spec = material.getExtension<Specular>('KHR_materials_specular');
    if (spec) [texture, info] = [spec.getSpecularColorTexture(), spec.getSpecularColorTextureInfo()];
  }
  return texture && info ? { texture, info } : undefined;
}

/**
 * The fields of one definition: the kept fields where the glTF still says the same, new values
 * where it changed; for a foreign material, the fields the Dungeon Editor writes.
 */
async function materialFields(
  ctx: Ctx,
  material: Material | null,
  matName: string,
  kept: KeptDefinition | undefined,
): Promise<LuaField[]> {
  const fields: LuaField[] = kept ? kept.fields.map((f) => ({ ...f })) : [];
  setField(fields, 'name', matName);
  let wrapS: number | undefined;
  for (const slot of TEXTURE_SLOTS) {
    const t = textureOf(material, slot);
    if (!t) {
      // A texture that was found at import and is gone now was removed; a missing one is kept.
      if (kept && typeof kept.textures[slot] === 'string') removeField(fields, slot);
      continue;
    }
    wrapS ??= t.info.getWrapS();
    const keptRef = getField(fields, slot);
    const luaPath = await writeTexture(
      ctx,
      t.texture,
      slot,
      matName,
      typeof keptRef === 'string' ? keptRef : undefined,
    );
    if (luaPath !== undefined && !(typeof keptRef === 'string' && sameTexturePath(keptRef, luaPath)))
      setField(fields, slot, luaPath);
  }
  const s = {
    blendMode: str(getField(fields, 'blendMode')),
    alphaTest: getField(fields, 'alphaTest') === true,
    glossiness: num(getField(fields, 'glossiness')),
    doubleSided: getField(fields, 'doubleSided') === true,
  };
  const mode = material?.getAlphaMode() ?? 'OPAQUE';
  const doubleSided = material?.getDoubleSided() ?? false;
  const lit = !material?.getExtension('KHR_materials_unlit');
  const roughness = material?.getRoughnessFactor() ?? 1;
  if (!kept || s.doubleSided !== doubleSided) setField(fields, 'doubleSided', doubleSided);
  if (!kept || (getField(fields, 'lighting') !== false) !== lit) setField(fields, 'lighting', lit);
  if (!kept || alphaModeOf(s) !== mode) {
    setField(fields, 'alphaTest', mode === 'MASK');
    setField(fields, 'blendMode', mode === 'BLEND' ? 'Translucent' : 'Opaque');
  }
  const address = addressModeOf(wrapS ?? 10497);
  const keptAddress = str(getField(fields, 'textureAddressMode'));
  if (!kept || (wrapS !== undefined && wrapOf(keptAddress) !== wrapS))
    setField(fields, 'textureAddressMode', address);
  if (!kept || Math.abs(glossinessToRoughness(s.glossiness) - roughness) > 1e-6)
    setField(fields, 'glossiness', roughnessToGlossiness(roughness));
  if (!kept) setField(fields, 'depthBias', 0);
  return fields;
}

function str(v: LuaValue | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
function num(v: LuaValue | undefined): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

/** True when two Lua texture paths name the same game texture (the game swaps the extension for .dds). */
function sameTexturePath(a: string, b: string): boolean {
  const norm = (p: string) => withExtension(p.replace(/\\/g, '/'), '.dds').toLowerCase();
  return norm(a) === norm(b);
}

function safeKey(path: string): string | undefined {
  try {
    return resolveReference(path, '');
  } catch (e) {
    if (e instanceof ResourceError) return undefined;
    throw e;
  }
}

/**
 * Writes one texture (once per texture) and returns the path the Lua names it by (`.tga`, as the
 * game's own files do) — or the kept Lua path when it still names the file written.
 */
async function writeTexture(
  ctx: Ctx,
  texture: Texture,
  slot: TextureSlot,
  matName: string,
  keptRef: string | undefined,
): Promise<string | undefined> {
  const done = ctx.written.get(texture);
  if (done !== undefined) return done;
  const original = await unchangedTextureSource(texture, TEXTURE_REBUILDER);
  let key = original ? safeKey(original.path) : undefined;
  if (original && !key)
    ctx.warnings.warn(
      'TEXTURE_PATH_REFUSED',
      `texture "${texture.getName()}": kept path ${original.path} leaves the output folder; written under mod_assets/textures/${ctx.name}/`,
    );
  let bytes = key ? original!.bytes : undefined;
  if (!key) {
    const fromKept = keptRef !== undefined ? safeKey(withExtension(keptRef, '.dds')) : undefined;
    const base = (texture.getName() || `${matName}_${slot}`).replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_');
    key = fromKept ?? `mod_assets/textures/${ctx.name}/${base}.dds`;
    for (let k = 2; ctx.files.has(key) && !fromKept; k++)
      key = `mod_assets/textures/${ctx.name}/${base}_${k}.dds`;
    try {
      const image = texture.getImage();
      if (!image) throw new Error('the texture has no image');
      bytes = encodeTexture(fromGltfImage(image, texture.getMimeType()), 'dds');
    } catch (e) {
      ctx.warnings.warn(
        'TEXTURE_DROPPED',
        `texture "${texture.getName()}" of material "${matName}" not written: ${(e as Error).message}`,
      );
      return undefined;
    }
  }
  ctx.files.set(key, bytes!);
  const luaPath = key.toLowerCase().endsWith('.dds') ? withExtension(key, '.tga') : key;
  const named = keptRef !== undefined && sameTexturePath(keptRef, key) ? keptRef : luaPath;
  ctx.written.set(texture, named);
  return named;
}
