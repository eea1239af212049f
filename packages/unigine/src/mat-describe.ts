/**
 * A fingerprint of what the `.mat` mapping reads from and writes to a glTF material, so that
 * export can tell a material that is still as import made it (write its `.mat` definition back
 * unchanged) from one a user edited.
 */
import { textureSourcePath, unchangedTextureSource } from '@gltf-legacy/core';
import { TEXTURE_REBUILDER } from '@gltf-legacy/textures';
import type { Material, Texture } from '@gltf-transform/core';
import type { EmissiveStrength, Specular } from '@gltf-transform/extensions';

const r = (v: number) => Number(v.toPrecision(6));

async function textureKey(t: Texture | null): Promise<string | null> {
  if (!t) return null;
  const path = textureSourcePath(t);
  if (path && (await unchangedTextureSource(t, TEXTURE_REBUILDER))) return `source:${path}`;
  return `edited:${path ?? t.getName()}`;
}

/**
 * The mapped state of a material as a JSON string (factors rounded to 6 digits, textures by the
 * path of their unchanged original file).
 *
 * ```ts
 * (await describeMaterial(a)) === (await describeMaterial(b)); // same mapping
 * ```
 */
export async function describeMaterial(m: Material): Promise<string> {
  const spec = m.getExtension<Specular>('KHR_materials_specular');
  const strength = m.getExtension<EmissiveStrength>('KHR_materials_emissive_strength');
  return JSON.stringify({
    baseColor: m.getBaseColorFactor().map(r),
    emissive: m.getEmissiveFactor().map(r),
    emissiveStrength: strength ? r(strength.getEmissiveStrength()) : 1,
    roughness: r(m.getRoughnessFactor()),
    metallic: r(m.getMetallicFactor()),
    alphaMode: m.getAlphaMode(),
    alphaCutoff: m.getAlphaMode() === 'MASK' ? r(m.getAlphaCutoff()) : null,
    doubleSided: m.getDoubleSided(),
    specularColor: spec ? spec.getSpecularColorFactor().map(r) : null,
    textures: {
      base: await textureKey(m.getBaseColorTexture()),
      normal: await textureKey(m.getNormalTexture()),
      emissive: await textureKey(m.getEmissiveTexture()),
      specular: await textureKey(spec?.getSpecularColorTexture() ?? null),
    },
  });
}
