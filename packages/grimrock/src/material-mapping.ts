/**
 * The one place where Grimrock material values and glTF material values are converted, used by
 * import (Lua → glTF) and export (glTF → Lua, which keeps a Lua value while the glTF value is
 * still what that Lua value maps to).
 */
import { TextureInfo } from '@gltf-transform/core';
import type { MaterialSettings } from './lua-materials.js';

/** The Lua texture slots and the glTF slots they map to. */
export const TEXTURE_SLOTS = ['diffuseMap', 'specularMap', 'normalMap', 'emissiveMap'] as const;
export type TextureSlot = (typeof TEXTURE_SLOTS)[number];

/** The alpha cut-off glTF gets for `alphaTest = true` (the game's threshold is not documented). */
export const GRIMROCK_ALPHA_CUTOFF = 0.5;

/**
 * Grimrock `glossiness` (a Blinn-Phong specular power) → glTF roughness, by the usual
 * power ↔ roughness relation `roughness = sqrt(2 / (glossiness + 2))`: 0 → 1, 5 → 0.53,
 * 30 → 0.25, 90 → 0.147. Negative or missing values give 1.
 *
 * ```ts
 * glossinessToRoughness(30); // 0.25
 * ```
 */
export function glossinessToRoughness(glossiness: number | undefined): number {
  if (glossiness === undefined || !(glossiness > 0) || !Number.isFinite(glossiness)) return 1;
  return Math.sqrt(2 / (glossiness + 2));
}

/**
 * glTF roughness → Grimrock `glossiness`, the inverse of {@link glossinessToRoughness}, rounded to
 * an integer like the game's own files and kept within 0…1000.
 *
 * ```ts
 * roughnessToGlossiness(0.25); // 30
 * ```
 */
export function roughnessToGlossiness(roughness: number): number {
  const r = Math.min(1, Math.max(Math.sqrt(2 / 1002), Number.isFinite(roughness) ? roughness : 1));
  return Math.max(0, Math.min(1000, Math.round(2 / (r * r) - 2)));
}

/** The glTF alpha mode of Grimrock settings: any blending → BLEND, `alphaTest` → MASK, else OPAQUE. */
export function alphaModeOf(s: MaterialSettings): 'OPAQUE' | 'MASK' | 'BLEND' {
  const blend = (s.blendMode ?? 'Opaque').toLowerCase();
  if (blend === 'translucent' || blend === 'additive' || blend === 'modulative') return 'BLEND';
  return s.alphaTest ? 'MASK' : 'OPAQUE';
}

/** The blend modes Grimrock knows (case as the game writes them). */
export const BLEND_MODES = ['Opaque', 'Translucent', 'Additive', 'Modulative'] as const;

/** A glTF sampler wrap mode. */
export type WrapMode = (typeof TextureInfo.WrapMode)[keyof typeof TextureInfo.WrapMode];

const WRAP: Record<string, WrapMode> = {
  wrap: TextureInfo.WrapMode.REPEAT,
  clamp: TextureInfo.WrapMode.CLAMP_TO_EDGE,
};

/** glTF wrap mode of a `textureAddressMode` (`Wrap` → REPEAT, `Clamp` → CLAMP_TO_EDGE); undefined if unknown. */
export function wrapOf(mode: string | undefined): WrapMode | undefined {
  return mode === undefined ? TextureInfo.WrapMode.REPEAT : WRAP[mode.toLowerCase()];
}

/** `textureAddressMode` of a glTF wrap mode (CLAMP_TO_EDGE → `Clamp`, others → `Wrap`). */
export function addressModeOf(wrap: number): 'Wrap' | 'Clamp' {
  return wrap === TextureInfo.WrapMode.CLAMP_TO_EDGE ? 'Clamp' : 'Wrap';
}

/** Replaces the extension of a path (`a/b.tga` → `a/b.dds`); adds it when there is none. */
export function withExtension(path: string, ext: string): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash ? `${path.slice(0, dot)}${ext}` : `${path}${ext}`;
}
