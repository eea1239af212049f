/**
 * glTF materials and textures → Urho3D material files (`Materials/NAME.xml`) and texture files
 * (`Textures/*`).
 *
 * A material imported from a file is rewritten from that file: fields whose glTF value did not
 * change keep their text, elements glTF has no place for (techniques, environment maps, shader
 * parameters, …) stay, and an unchanged material gives the original bytes. Textures whose image
 * is unchanged are written back as the original file (`unchangedTextureSource`); others as PNG
 * (JPEG stays JPEG), or DDS when asked (`textureFormat: 'dds'`).
 */
import type { Material, Texture, TextureInfo } from '@gltf-transform/core';
import {
  type FileSet,
  resolveReference,
  textureSourcePath,
  unchangedTextureSource,
  type WarningCollector,
  sameBytes,
} from '@gltf-legacy/core';
import { encodeTexture, fromGltfImage, TEXTURE_REBUILDER } from '@gltf-legacy/textures';
import type { UrhoMaterialExtras } from './material-import.js';
import {
  closeEnough,
  closeVec,
  formatNumber,
  type GltfMaterialValues,
  gltfValuesOf,
  powerFromRoughness,
  techniqueAlpha,
  techniqueKey,
  type UvTransform,
  uvRowsOf,
} from './material-values.js';
import {
  materialParameter,
  newMaterialXml,
  parseVector,
  readMaterialXml,
  textureUnitName,
  type UrhoMaterialFields,
  type UrhoMaterialXml,
  writeMaterialXml,
} from './material-xml.js';

/** Options of {@link UrhoMaterialWriter}. */
export interface ExportMaterialsOptions {
  /** Format of textures that must be re-encoded (edited or foreign images). Default `png`. */
  textureFormat?: 'png' | 'dds';
}
export const EXPORT_MATERIALS_DEFAULTS: Required<ExportMaterialsOptions> = { textureFormat: 'png' };

/** A path written into files: `/`-separated, relative, no `..` (else a fallback under `dir`). */
export function safeResourcePath(path: string | undefined, dir: string, fallback: string): string {
  if (path) {
    try {
      const p = resolveReference(path, '');
      if (!p.split('/').some((s) => s === '..')) return p;
    } catch {
      // not a path we write
    }
  }
  return `${dir}/${sanitizeName(fallback)}`;
}

/** A file name from a glTF name: letters, digits, `_ . -` (others become `_`). */
export function sanitizeName(name: string): string {
  const s = name.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '_');
  return s || 'unnamed';
}

/**
 * Writes the material and texture files of a document's materials into a file set, each once.
 *
 * ```ts
 * const writer = new UrhoMaterialWriter(files, warnings);
 * const name = await writer.material(mesh.listPrimitives()[0].getMaterial()!); // 'Materials/Stone.xml'
 * ```
 */
export class UrhoMaterialWriter {
  private readonly materials = new Map<Material, string>();
  private readonly textures = new Map<Texture, string | null>();
  private readonly options: Required<ExportMaterialsOptions>;

  constructor(
    readonly files: FileSet,
    readonly warnings: WarningCollector,
    options: ExportMaterialsOptions = {},
  ) {
    this.options = { ...EXPORT_MATERIALS_DEFAULTS, ...options };
  }

  private unique(path: string, bytes: Uint8Array): string {
    let p = path;
    for (let i = 1; this.files.has(p) && !sameBytes(this.files.get(p)!, bytes); i++) {
      const dot = path.lastIndexOf('.');
      p = dot > path.lastIndexOf('/') ? `${path.slice(0, dot)}_${i}${path.slice(dot)}` : `${path}_${i}`;
    }
    this.files.set(p, bytes);
    return p;
  }

  /** Writes a material (and its textures); returns its resource name. */
  async material(material: Material): Promise<string> {
    const done = this.materials.get(material);
    if (done) return done;
    const ext = materialExtras(material);
    let file: UrhoMaterialXml;
    try {
      file = ext ? readMaterialXml(new TextEncoder().encode(ext.source), ext.path) : newMaterialXml();
    } catch {
      file = newMaterialXml();
    }
    const orig = gltfValuesOf(file.fields);
    const fields = file.fields;
    // a stock technique (the one chooseTechnique gives for the file's textures) follows texture edits
    const stock =
      fields.techniques.length === 1 && fields.techniques[0].name === chooseTechnique(fields, orig.alphaMode);
    const unitsBefore = unitSet(fields);
    const cur = valuesOfMaterial(material);
    updateFields(fields, orig, cur, !ext);
    await this.updateTextures(material, fields);
    const rechoose =
      !ext ||
      (stock && unitSet(fields) !== unitsBefore) ||
      (cur.alphaMode !== orig.alphaMode && techniqueAlpha(techniqueKey(fields)) !== cur.alphaMode);
    if (rechoose) {
      const name = chooseTechnique(fields, cur.alphaMode);
      if (fields.techniques[0]?.name !== name) fields.techniques = [{ name, attributes: [] }];
    }
    const bytes = writeMaterialXml(file);
    const path = this.unique(
      safeResourcePath(ext?.path, 'Materials', `${material.getName() || 'material'}.xml`),
      bytes,
    );
    this.materials.set(material, path);
    return path;
  }

  private async updateTextures(material: Material, fields: UrhoMaterialFields): Promise<void> {
    const specular = material.getExtension<any>('KHR_materials_specular');
    const slots: [string, Texture | null][] = [
      ['diffuse', material.getBaseColorTexture()],
      ['normal', material.getNormalTexture()],
      ['specular', specular?.getSpecularColorTexture?.() ?? null],
      ['emissive', material.getEmissiveTexture()],
    ];
    for (const [unit, texture] of slots) {
      const at = fields.textures.findIndex((t) => textureUnitName(t.unit) === unit);
      const name = texture ? await this.texture(texture) : null;
      if (!name) {
        if (at >= 0) fields.textures.splice(at, 1);
        continue;
      }
      if (at < 0) fields.textures.push({ unit, name });
      else if (normalizedRef(fields.textures[at].name) !== name.toLowerCase())
        fields.textures[at].name = name;
    }
  }

  /** Writes a texture; returns its resource name, or null when it cannot be written. */
  async texture(texture: Texture): Promise<string | null> {
    if (this.textures.has(texture)) return this.textures.get(texture)!;
    let out: string | null = null;
    const original = await unchangedTextureSource(texture, TEXTURE_REBUILDER);
    const stem = (textureSourcePath(texture) ?? texture.getName() ?? '')
      .split('/')
      .pop()!
      .replace(/\.[^.]*$/, '');
    const base = sanitizeName(stem || texture.getName() || `texture${this.textures.size}`);
    if (original) out = this.unique(safeResourcePath(original.path, 'Textures', base), original.bytes);
    else {
      const image = texture.getImage();
      const mime = texture.getMimeType();
      const dir = dirOfPath(safeResourcePath(textureSourcePath(texture), 'Textures', base)) || 'Textures';
      try {
        if (!image) throw new Error('no image');
        let dds: Uint8Array | null = null;
        if (this.options.textureFormat === 'dds') {
          try {
            dds = encodeTexture(fromGltfImage(image, mime), 'dds');
          } catch (e) {
            this.warnings.warn(
              'TEXTURE_FORMAT_FALLBACK',
              `texture "${texture.getName()}" could not be encoded as DDS (${(e as Error).message}); written as PNG`,
            );
          }
        }
        if (dds) out = this.unique(`${dir}/${base}.dds`, dds);
        else if (mime === 'image/png') out = this.unique(`${dir}/${base}.png`, image);
        else if (mime === 'image/jpeg') out = this.unique(`${dir}/${base}.jpg`, image);
        else out = this.unique(`${dir}/${base}.png`, encodeTexture(fromGltfImage(image, mime), 'png'));
      } catch (e) {
        this.warnings.warn(
          'TEXTURE_DROPPED',
          `texture "${texture.getName()}" (${mime || 'no image'}) could not be written: ${(e as Error).message}`,
        );
      }
    }
    this.textures.set(texture, out);
    return out;
  }
}

/** The texture units a material fills, as one comparable string. */
function unitSet(fields: UrhoMaterialFields): string {
  return [...new Set(fields.textures.map((t) => textureUnitName(t.unit)))].sort().join(',');
}

function dirOfPath(p: string): string {
  const i = p.lastIndexOf('/');
  return i >= 0 ? p.slice(0, i) : '';
}

function normalizedRef(ref: string): string {
  try {
    return resolveReference(ref, '').toLowerCase();
  } catch {
    return ref.toLowerCase();
  }
}

/** The Urho3D material extras of a glTF material, when valid. */
export function materialExtras(material: Material): UrhoMaterialExtras | undefined {
  const e = (material.getExtras() as any)?.urho3d?.material;
  if (!e || typeof e.path !== 'string' || typeof e.source !== 'string') return undefined;
  return e as UrhoMaterialExtras;
}

function uvTransformOfMaterial(material: Material): UvTransform | null {
  const infos: (TextureInfo | null)[] = [
    material.getBaseColorTextureInfo(),
    material.getNormalTextureInfo(),
    material.getEmissiveTextureInfo(),
  ];
  for (const info of infos) {
    const t = info?.getExtension<any>('KHR_texture_transform');
    if (t) return { offset: t.getOffset(), rotation: t.getRotation(), scale: t.getScale() };
  }
  return null;
}

/** The values of a glTF material in the shape {@link gltfValuesOf} gives. */
export function valuesOfMaterial(material: Material): GltfMaterialValues {
  const specular = material.getExtension<any>('KHR_materials_specular');
  const strength = material.getExtension<any>('KHR_materials_emissive_strength');
  return {
    baseColorFactor: material.getBaseColorFactor() as GltfMaterialValues['baseColorFactor'],
    emissiveFactor: material.getEmissiveFactor() as GltfMaterialValues['emissiveFactor'],
    emissiveStrength: strength ? strength.getEmissiveStrength() : 1,
    specularColorFactor: specular
      ? (specular.getSpecularColorFactor().map((x: number) => x * specular.getSpecularFactor()) as [
          number,
          number,
          number,
        ])
      : [0.04, 0.04, 0.04],
    roughnessFactor: material.getRoughnessFactor(),
    doubleSided: material.getDoubleSided(),
    alphaMode: material.getAlphaMode(),
    alphaCutoff: material.getAlphaCutoff(),
    unlit: !!material.getExtension('KHR_materials_unlit'),
    uvTransform: uvTransformOfMaterial(material),
  };
}

function setParameter(fields: UrhoMaterialFields, name: string, values: number[]): void {
  const value = values.map(formatNumber).join(' ');
  const p = fields.parameters.find((x) => x.name.toLowerCase() === name.toLowerCase());
  if (p) p.value = value;
  else fields.parameters.push({ name, value });
}

function sameTransform(a: UvTransform | null, b: UvTransform | null): boolean {
  if (!a || !b) {
    const id = (t: UvTransform | null) =>
      !t || (closeVec(t.offset, [0, 0]) && closeEnough(t.rotation, 0) && closeVec(t.scale, [1, 1]));
    return id(a) && id(b);
  }
  return closeVec(a.offset, b.offset) && closeEnough(a.rotation, b.rotation) && closeVec(a.scale, b.scale);
}

/** Rewrites the fields whose glTF value changed (all of them for a new material). */
function updateFields(
  fields: UrhoMaterialFields,
  orig: GltfMaterialValues,
  cur: GltfMaterialValues,
  fresh: boolean,
): void {
  if (fresh || !closeVec(cur.baseColorFactor, orig.baseColorFactor))
    setParameter(fields, 'MatDiffColor', cur.baseColorFactor);
  const emis = cur.emissiveFactor.map((x) => x * cur.emissiveStrength);
  const origEmis = orig.emissiveFactor.map((x) => x * orig.emissiveStrength);
  if (!closeVec(emis, origEmis) || (fresh && emis.some((x) => x !== 0))) {
    const old = parseVector(materialParameter(fields, 'MatEmissiveColor'));
    setParameter(fields, 'MatEmissiveColor', old.length >= 4 ? [...emis, old[3]] : emis);
  }
  if (
    fresh ||
    !closeVec(cur.specularColorFactor, orig.specularColorFactor) ||
    !closeEnough(cur.roughnessFactor, orig.roughnessFactor)
  ) {
    const old = parseVector(materialParameter(fields, 'MatSpecColor'));
    const power =
      closeEnough(cur.roughnessFactor, orig.roughnessFactor) && old.length >= 4
        ? old[3]
        : powerFromRoughness(cur.roughnessFactor);
    setParameter(fields, 'MatSpecColor', [...cur.specularColorFactor, power]);
  }
  if (cur.doubleSided !== orig.doubleSided) {
    if (cur.doubleSided) fields.cull = 'none';
    else fields.cull = fresh ? undefined : 'ccw';
  }
  if (!sameTransform(cur.uvTransform, orig.uvTransform)) {
    const { u, v } = uvRowsOf(cur.uvTransform);
    setParameter(fields, 'UOffset', u);
    setParameter(fields, 'VOffset', v);
  }
}

/** A stock technique for a texture set and alpha mode (`Techniques/DiffNormalAlpha.xml`, …). */
export function chooseTechnique(
  fields: UrhoMaterialFields,
  alphaMode: GltfMaterialValues['alphaMode'],
): string {
  const has = (u: string) => fields.textures.some((t) => textureUnitName(t.unit) === u);
  let name = 'NoTexture';
  if (has('diffuse')) {
    name = 'Diff';
    if (has('normal')) name += has('specular') ? 'NormalSpec' : 'Normal';
    else if (has('specular')) name += 'Spec';
    if (has('emissive') && !has('specular')) name += 'Emissive';
  }
  if (alphaMode === 'BLEND') name += 'Alpha';
  else if (alphaMode === 'MASK') name += name === 'NoTexture' ? 'Alpha' : 'AlphaMask';
  return `Techniques/${name}.xml`;
}
