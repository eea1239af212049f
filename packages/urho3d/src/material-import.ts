/**
 * Urho3D material files → glTF materials with their textures.
 *
 * Texture files are read through the resource directories ({@link UrhoResourceDirs}), turned into
 * glTF images with `@gltf-legacy/textures` (`toGltfImage`: DDS → PNG, PNG/JPEG pass through) and
 * keep their original bytes (`keepTextureSource`), so export writes them back unchanged. The
 * material file itself (text and fields) goes to `material.extras.urho3d.material`.
 */
import type { Document, Material, Texture, TextureInfo } from '@gltf-transform/core';
import {
  KHRMaterialsEmissiveStrength,
  KHRMaterialsSpecular,
  KHRMaterialsUnlit,
  KHRTextureTransform,
} from '@gltf-transform/extensions';
import {
  FormatError as LegacyFormatError,
  keepTextureSource,
  type WarningCollector,
} from '@gltf-legacy/core';
import { toGltfImage, TEXTURE_REBUILDER } from '@gltf-legacy/textures';
import {
  materialTexture,
  readMaterialXml,
  textureUnitName,
  type UrhoMaterialFields,
} from './material-xml.js';
import { gltfValuesOf } from './material-values.js';
import type { UrhoResourceDirs } from './resource-dirs.js';

/** What `material.extras.urho3d.material` holds. */
export interface UrhoMaterialExtras {
  /** Resource name of the file (`Materials/Stone.xml`). */
  path: string;
  /** The file's text, written back while the material is unchanged. */
  source: string;
  /** The fields read from it (for the parts glTF has no place for: techniques, environment map, …). */
  fields: UrhoMaterialFields;
}

/** Loads material files and textures into one document, each file once. */
export class UrhoMaterialLoader {
  private readonly materials = new Map<string, Material | null>();
  private readonly textures = new Map<string, Texture | null>();

  constructor(
    readonly doc: Document,
    readonly dirs: UrhoResourceDirs,
    readonly warnings: WarningCollector,
  ) {}

  /**
   * The glTF material for a material resource name (`Materials/Y.xml`), or null (with a
   * `MATERIAL_MISSING` / `MATERIAL_UNREADABLE` warning) when it cannot be found or read.
   * ResourceError (PATH_ESCAPE, EXTERNAL_URI) is thrown for names that leave the root.
   */
  async load(name: string, file?: string): Promise<Material | null> {
    const key = name.replace(/\\/g, '/').toLowerCase();
    if (this.materials.has(key)) return this.materials.get(key)!;
    const tried: string[] = [];
    const found = await this.dirs.find(name, file, tried);
    let material: Material | null = null;
    if (!found) {
      this.warnings.warn(
        'MATERIAL_MISSING',
        `material "${name}"${file ? ` (named in ${file})` : ''} not found; tried ${tried.join(', ')}`,
      );
    } else material = await this.fromBytes(found.bytes, this.dirs.resourceName(found.path), found.path);
    this.materials.set(key, material);
    return material;
  }

  /** A glTF material from a material file's bytes (`path`: its resource name). Null when unreadable. */
  async fromBytes(bytes: Uint8Array, path: string, filePath = path): Promise<Material | null> {
    let parsed: ReturnType<typeof readMaterialXml>;
    try {
      parsed = readMaterialXml(bytes, filePath);
    } catch (e) {
      if (!(e instanceof LegacyFormatError)) throw e;
      this.warnings.warn('MATERIAL_UNREADABLE', `material ${filePath}: ${e.message}; a placeholder is used`);
      return null;
    }
    return this.build(
      parsed.fields,
      path,
      new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes),
      filePath,
    );
  }

  private async build(
    fields: UrhoMaterialFields,
    path: string,
    source: string,
    filePath: string,
  ): Promise<Material> {
    const doc = this.doc;
    const stem = path
      .split('/')
      .pop()!
      .replace(/\.xml$/i, '');
    const v = gltfValuesOf(fields);
    const m = doc
      .createMaterial(stem)
      .setBaseColorFactor(v.baseColorFactor)
      .setEmissiveFactor(v.emissiveFactor)
      .setMetallicFactor(0)
      .setRoughnessFactor(v.roughnessFactor)
      .setDoubleSided(v.doubleSided)
      .setAlphaMode(v.alphaMode);
    if (v.alphaMode === 'MASK') m.setAlphaCutoff(v.alphaCutoff);
    if (v.emissiveStrength > 1)
      m.setExtension(
        'KHR_materials_emissive_strength',
        doc
          .createExtension(KHRMaterialsEmissiveStrength)
          .createEmissiveStrength()
          .setEmissiveStrength(v.emissiveStrength),
      );
    if (v.unlit) m.setExtension('KHR_materials_unlit', doc.createExtension(KHRMaterialsUnlit).createUnlit());
    const specular = doc
      .createExtension(KHRMaterialsSpecular)
      .createSpecular()
      .setSpecularFactor(1)
      .setSpecularColorFactor(v.specularColorFactor);
    m.setExtension('KHR_materials_specular', specular);
    if (!v.uvExact)
      this.warnings.warn(
        'UV_TRANSFORM_APPROXIMATED',
        `material ${filePath}: UOffset/VOffset hold a shear KHR_texture_transform cannot express; approximated`,
      );
    const transformed = (info: TextureInfo | null) => {
      if (!info || !v.uvTransform) return;
      const t = doc.createExtension(KHRTextureTransform).createTransform();
      t.setOffset(v.uvTransform.offset).setRotation(v.uvTransform.rotation).setScale(v.uvTransform.scale);
      info.setExtension('KHR_texture_transform', t);
    };
    for (const t of fields.textures) {
      const unit = textureUnitName(t.unit);
      if (materialTexture(fields, unit) !== t.name) continue; // a later entry for the same unit
      const setters: Record<string, () => TextureInfo | null> = {
        diffuse: () => m.getBaseColorTextureInfo(),
        normal: () => m.getNormalTextureInfo(),
        specular: () => specular.getSpecularColorTextureInfo(),
        emissive: () => m.getEmissiveTextureInfo(),
      };
      if (!setters[unit] || !t.name) continue; // environment, custom units: kept in the extras only
      const texture = await this.texture(t.name, filePath);
      if (!texture) continue;
      if (unit === 'diffuse') m.setBaseColorTexture(texture);
      else if (unit === 'normal') m.setNormalTexture(texture);
      else if (unit === 'specular') specular.setSpecularColorTexture(texture);
      else m.setEmissiveTexture(texture);
      transformed(setters[unit]());
    }
    const extras: UrhoMaterialExtras = { path, source, fields };
    m.setExtras({ urho3d: { material: extras } });
    return m;
  }

  /** The glTF texture for a texture resource name, or null with a warning (missing / unreadable). */
  async texture(name: string, file?: string): Promise<Texture | null> {
    const key = name.replace(/\\/g, '/').toLowerCase();
    if (this.textures.has(key)) return this.textures.get(key)!;
    const tried: string[] = [];
    const found = await this.dirs.find(name, file, tried);
    let texture: Texture | null = null;
    if (!found) {
      this.warnings.warn(
        'TEXTURE_MISSING',
        `texture "${name}"${file ? ` (named in ${file})` : ''} not found; tried ${tried.join(', ')}`,
      );
    } else {
      try {
        const image = toGltfImage(found.bytes, found.path);
        if (!hasImageMagic(image.bytes, image.mimeType))
          throw new LegacyFormatError(`not a ${image.mimeType} file (passed through by its extension)`, {
            code: 'BAD_TEXTURE',
            file: found.path,
          });
        const resourceName = this.dirs.resourceName(found.path);
        const stem = resourceName
          .split('/')
          .pop()!
          .replace(/\.[^.]*$/, '');
        texture = this.doc.createTexture(stem).setImage(image.bytes).setMimeType(image.mimeType);
        await keepTextureSource(texture, resourceName, found.bytes, TEXTURE_REBUILDER);
      } catch (e) {
        if (!(e instanceof LegacyFormatError)) throw e;
        this.warnings.warn('TEXTURE_UNREADABLE', `texture ${found.path}: ${e.message}; left out`);
      }
    }
    this.textures.set(key, texture);
    return texture;
  }
}

/** The bytes start like the image type glTF will declare (PNG / JPEG / WebP signatures). */
function hasImageMagic(b: Uint8Array, mime: string): boolean {
  if (mime === 'image/png')
    return b.length > 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47;
  if (mime === 'image/jpeg') return b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
  if (mime === 'image/webp')
    return (
      b.length > 12 &&
      String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' &&
      String.fromCharCode(...b.subarray(8, 12)) === 'WEBP'
    );
  return false;
}
