/**
 * Materials of the importer: one glTF material per (texture slot, poly type), named after the
 * `.uc` skin, with the poly style as double-sided / alpha mode / unlit and the raw slot and type
 * in extras (export reads them back).
 */
import type { Document, Material } from '@gltf-transform/core';
import { KHRMaterialsUnlit } from '@gltf-transform/extensions';
import { PolyStyle, PolyTypeFlag } from '../data.js';
import type { UcMesh } from '../uc.js';

/** Makes materials on demand; `finish()` drops the unlit extension when no material used it. */
export interface MaterialMaker {
  materialFor(tex: number, type: number): Material;
  finish(): void;
}

/**
 * A material maker for the groups `groupKeys` (`texture << 16 | type << 8 | flags`): a slot drawn
 * with several poly types gets one material per type (`Skin0_type2`).
 *
 * ```ts
 * const materials = materialMaker(doc, groupKeys, uc);
 * prim.setMaterial(materials.materialFor(0, PolyStyle.NORMAL));
 * materials.finish();
 * ```
 */
export function materialMaker(doc: Document, groupKeys: number[], uc: UcMesh | undefined): MaterialMaker {
  const unlitExt = doc.createExtension(KHRMaterialsUnlit);
  let unlitUsed = false;
  const materials = new Map<number, Material>();
  const slotTypes = new Map<number, Set<number>>();
  for (const key of groupKeys) {
    const tex = key >> 16;
    const set = slotTypes.get(tex) ?? new Set<number>();
    set.add((key >> 8) & 0xff);
    slotTypes.set(tex, set);
  }
  const materialFor = (tex: number, type: number): Material => {
    const mkey = (tex << 8) | type;
    const existing = materials.get(mkey);
    if (existing) return existing;
    const slot = uc?.zeroTex ? 0 : tex;
    const ucTex = uc?.textures.find((t) => t.num === slot);
    const style = type & 0x0f;
    let name = ucTex?.name ?? `Skin${slot}`;
    if ((slotTypes.get(tex)?.size ?? 0) > 1) name += `_type${type}`;
    const m = doc.createMaterial(name).setMetallicFactor(0).setRoughnessFactor(1);
    if (style !== PolyStyle.NORMAL) m.setDoubleSided(true);
    if (style === PolyStyle.TRANSLUCENT || style === PolyStyle.MODULATED || style === PolyStyle.ALPHA_BLEND)
      m.setAlphaMode('BLEND');
    if (style === PolyStyle.MASKED) m.setAlphaMode('MASK').setAlphaCutoff(0.5);
    if (type & PolyTypeFlag.UNLIT) {
      m.setExtension('KHR_materials_unlit', unlitExt.createUnlit());
      unlitUsed = true;
    }
    const extra: Record<string, unknown> = { textureNum: tex, type };
    if (ucTex) extra.texture = ucTex.name;
    if (ucTex?.file) extra.file = ucTex.file;
    if (style === PolyStyle.MODULATED) extra.modulated = true;
    if (type & PolyTypeFlag.ENVIRONMENT) extra.environment = true;
    if (type & PolyTypeFlag.NO_SMOOTH) extra.noSmooth = true;
    if (type & PolyTypeFlag.FLAT) extra.flat = true;
    m.setExtras({ unreal3d: extra });
    materials.set(mkey, m);
    return m;
  };
  return {
    materialFor,
    finish: () => {
      if (!unlitUsed) unlitExt.dispose();
    },
  };
}
