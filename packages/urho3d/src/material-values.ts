/**
 * The glTF values an Urho3D material stands for — one pure function both ways of the mapping
 * share: import sets them on a glTF material, export compares the glTF material's values with the
 * ones the original file gives and rewrites only the fields whose values changed.
 *
 * | Urho3D | glTF |
 * |---|---|
 * | `MatDiffColor` | `baseColorFactor` |
 * | `MatEmissiveColor` (rgb) | `emissiveFactor` (+ `KHR_materials_emissive_strength` above 1) |
 * | `MatSpecColor` rgb | `KHR_materials_specular` `specularColorFactor` (`specularFactor` 1) |
 * | `MatSpecColor` a (power) | `roughnessFactor` = √(2 / (power + 2)) (Blinn-Phong ↔ GGX, approximate) |
 * | `UOffset` / `VOffset` | `KHR_texture_transform` on every texture (scale, rotation, offset) |
 * | `<cull value="none">` | `doubleSided` |
 * | technique `*AlphaMask*` / `*Alpha*` / `*Add*` / `*Multiply*` | `alphaMode` MASK (0.5) / BLEND |
 * | technique `*Unlit*` | `KHR_materials_unlit` |
 */
import { materialParameter, parseVector, type UrhoMaterialFields } from './material-xml.js';

/** A UV transform as `KHR_texture_transform` holds it. */
export interface UvTransform {
  offset: [number, number];
  rotation: number;
  scale: [number, number];
}

/** The glTF values of a material. */
export interface GltfMaterialValues {
  baseColorFactor: [number, number, number, number];
  emissiveFactor: [number, number, number];
  emissiveStrength: number;
  specularColorFactor: [number, number, number];
  roughnessFactor: number;
  doubleSided: boolean;
  alphaMode: 'OPAQUE' | 'MASK' | 'BLEND';
  alphaCutoff: number;
  unlit: boolean;
  /** null for the identity (`UOffset 1 0 0 0`, `VOffset 0 1 0 0`). */
  uvTransform: UvTransform | null;
}

/** Engine defaults (Material::ResetToDefaults). */
export const URHO_MATERIAL_DEFAULTS = {
  MatDiffColor: [1, 1, 1, 1],
  MatEmissiveColor: [0, 0, 0],
  MatSpecColor: [0, 0, 0, 1],
  UOffset: [1, 0, 0, 0],
  VOffset: [0, 1, 0, 0],
} as const;

function vec(fields: UrhoMaterialFields, name: keyof typeof URHO_MATERIAL_DEFAULTS, n: number): number[] {
  const d = URHO_MATERIAL_DEFAULTS[name];
  const v = parseVector(materialParameter(fields, name));
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = v[i];
    out.push(x !== undefined && Number.isFinite(x) ? x : (d[i] ?? 0));
  }
  return out;
}

/** The stem of the first technique's name, lower-cased (`Techniques/DiffAlpha.xml` → `diffalpha`). */
export function techniqueKey(fields: UrhoMaterialFields): string {
  const t = fields.techniques[0]?.name ?? '';
  const base = t.replace(/\\/g, '/').split('/').pop() ?? '';
  return base.replace(/\.xml$/i, '').toLowerCase();
}

/** Alpha mode a technique implies. */
export function techniqueAlpha(key: string): 'OPAQUE' | 'MASK' | 'BLEND' {
  if (key.includes('alphamask')) return 'MASK';
  if (key.includes('alpha') || key.includes('add') || key.includes('multiply')) return 'BLEND';
  return 'OPAQUE';
}

/** Roughness from a Blinn-Phong power. */
export function roughnessFromPower(power: number): number {
  if (!(power > 0)) return 1;
  return Math.min(1, Math.max(0, Math.sqrt(2 / (power + 2))));
}

/** Blinn-Phong power from a roughness (inverse of {@link roughnessFromPower}). */
export function powerFromRoughness(r: number): number {
  const c = Math.min(1, Math.max(1e-3, r));
  return 2 / (c * c) - 2;
}

/** UOffset/VOffset rows → a UV transform; `exact` false when the rows hold a shear glTF cannot. */
export function uvTransformOf(u: number[], v: number[]): { transform: UvTransform | null; exact: boolean } {
  const [ux, uy, , uw] = u;
  const [vx, vy, , vw] = v;
  if (ux === 1 && uy === 0 && uw === 0 && vx === 0 && vy === 1 && vw === 0)
    return { transform: null, exact: true };
  // KHR_texture_transform: uv' = T · R · S · uv with R = [[cos, sin], [−sin, cos]].
  const sx = Math.hypot(ux, vx);
  const rotation = sx > 0 ? Math.atan2(-vx, ux) + 0 : 0; // + 0: no -0
  const c = Math.cos(rotation);
  const s = Math.sin(rotation);
  const sy = c * vy + s * uy;
  const exact = Math.abs(s * sy - uy) < 1e-6 && Math.abs(c * sy - vy) < 1e-6;
  return { transform: { offset: [uw, vw], rotation, scale: [sx, sy] }, exact };
}

/** A UV transform → UOffset/VOffset rows (xy and w; z is 0). */
export function uvRowsOf(t: UvTransform | null): { u: number[]; v: number[] } {
  if (!t) return { u: [1, 0, 0, 0], v: [0, 1, 0, 0] };
  const c = Math.cos(t.rotation);
  const s = Math.sin(t.rotation);
  return {
    u: [c * t.scale[0], s * t.scale[1], 0, t.offset[0]],
    v: [-s * t.scale[0], c * t.scale[1], 0, t.offset[1]],
  };
}

/**
 * The glTF values of a material file's fields.
 *
 * ```ts
 * gltfValuesOf(readMaterialXml(bytes).fields).baseColorFactor; // [1, 0, 0, 1] for MatDiffColor "1 0 0 1"
 * ```
 */
export function gltfValuesOf(fields: UrhoMaterialFields): GltfMaterialValues & { uvExact: boolean } {
  const diff = vec(fields, 'MatDiffColor', 4);
  const emis = vec(fields, 'MatEmissiveColor', 3);
  const spec = vec(fields, 'MatSpecColor', 4);
  const strength = Math.max(1, ...emis);
  const key = techniqueKey(fields);
  const alphaMode = techniqueAlpha(key);
  const uv = uvTransformOf(vec(fields, 'UOffset', 4), vec(fields, 'VOffset', 4));
  const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
  return {
    baseColorFactor: diff.map(clamp01) as GltfMaterialValues['baseColorFactor'],
    emissiveFactor: emis.map((x) => clamp01(x / strength)) as GltfMaterialValues['emissiveFactor'],
    emissiveStrength: strength,
    specularColorFactor: spec
      .slice(0, 3)
      .map((x) => Math.max(0, x)) as GltfMaterialValues['specularColorFactor'],
    roughnessFactor: roughnessFromPower(spec[3]),
    doubleSided: (fields.cull ?? 'ccw').trim().toLowerCase() === 'none',
    alphaMode,
    alphaCutoff: 0.5,
    unlit: key.includes('unlit'),
    uvTransform: uv.transform,
    uvExact: uv.exact,
  };
}

/** Numbers equal within float32 precision (values that went through a .glb compare equal). */
export function closeEnough(a: number, b: number): boolean {
  if (a === b) return true;
  return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Element-wise {@link closeEnough}. */
export function closeVec(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => closeEnough(x, b[i]));
}

/** A number as a material file writes it (shortest form that reads back as the same float32). */
export function formatNumber(x: number): string {
  if (!Number.isFinite(x)) return '0';
  const f = Math.fround(x);
  for (let p = 1; p <= 9; p++) {
    const s = Number(f.toPrecision(p));
    if (Math.fround(s) === f) return String(s);
  }
  return String(f);
}
