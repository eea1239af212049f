/**
 * Materials → texture slots and poly types: the `.uc` skin names and files a material gets, and
 * the `_d.3d` poly `type` byte (extras win; else from doubleSided / alpha mode / unlit).
 */
import type { Material } from '@gltf-transform/core';
import { PolyStyle, PolyTypeFlag } from '../data.js';
import type { UcTexture } from '../uc.js';
import { unrealName } from './common.js';
import { safeSkinFile } from '../skin-names.js';

export function defaultTextures(materials: (Material | null)[], slots: number[]): UcTexture[] {
  const out: UcTexture[] = [];
  const slotMaterials = new Map<number, Material | null>();
  materials.forEach((m, i) => {
    const num = slots[i];
    if (out.some((t) => t.num === num)) return;
    out.push(uniqueSkinName(textureFor(m, num), m, out, slotMaterials));
    slotMaterials.set(num, m);
  });
  return out;
}

export function textureFor(m: Material | null, num: number): UcTexture {
  const ex = (m?.getExtras() as { unreal3d?: { texture?: string; file?: string } } | undefined)?.unreal3d;
  const tex = m?.getBaseColorTexture();
  // A foreign texture is named after its image, so materials sharing it share one skin file.
  const rawName = tex ? tex.getName() || tex.getURI().split(/[\\/]/).pop() || '' : '';
  const texName = rawName.replace(/\.(png|jpe?g|webp|ktx2|pcx|bmp|tga|dds)$/i, '');
  const name = unrealName(ex?.texture ?? (texName || m?.getName()) ?? '', `Skin${num}`);
  const t: UcTexture = { num, name };
  let file = ex?.file ?? tex?.getURI().split(/[\\/]/).pop();
  // UCC imports PCX and BMP only: a glTF image is written as NAME.pcx.
  if (tex && !(file && /\.(pcx|bmp)$/i.test(file))) file = `${name}.pcx`;
  if (file) t.file = safeSkinFile(file, name);
  return t;
}

/** Renames a slot's texture when another slot already uses its name for a different image. */
export function uniqueSkinName(
  t: UcTexture,
  m: Material | null,
  textures: UcTexture[],
  slotMaterials: Map<number, Material | null>,
): UcTexture {
  const tex = m?.getBaseColorTexture() ?? null;
  const clash = (n: string) =>
    tex !== null &&
    textures.some(
      (o) =>
        o.name.toLowerCase() === n.toLowerCase() &&
        (slotMaterials.get(o.num)?.getBaseColorTexture() ?? null) !== tex,
    );
  if (!clash(t.name)) return t;
  let k = t.num;
  let name = `${t.name}_${k}`;
  while (clash(name)) name = `${t.name}_${++k}`;
  const out: UcTexture = { num: t.num, name };
  if (t.file) out.file = tex ? `${name}.pcx` : t.file;
  return out;
}

/** Poly `type` byte for a material (extras win; else from doubleSided / alpha mode / unlit). */
export function polyTypeFor(m: Material | null): number {
  const ex = (m?.getExtras() as { unreal3d?: { type?: number; modulated?: boolean } } | undefined)?.unreal3d;
  if (ex && typeof ex.type === 'number') return ex.type & 0xff;
  if (!m) return PolyStyle.NORMAL;
  let type: number = m.getDoubleSided() ? PolyStyle.TWO_SIDED : PolyStyle.NORMAL;
  if (m.getAlphaMode() === 'BLEND') type = ex?.modulated ? PolyStyle.MODULATED : PolyStyle.TRANSLUCENT;
  else if (m.getAlphaMode() === 'MASK') type = PolyStyle.MASKED;
  if (m.getExtension('KHR_materials_unlit')) type |= PolyTypeFlag.UNLIT;
  return type;
}
