/**
 * The warning codes every format shares, with their meaning: one code per kind of lossy or
 * surprising step, so that the same step reads the same in every format. Format packages list
 * their own codes in a `WARNING_CODES` table of the same shape; the CLI prints the union
 * (`gltf-legacy warnings`).
 */

/** Code → one sentence saying what happened to the data. */
export type WarningCodeTable = Readonly<Record<string, string>>;

/**
 * Codes of the shared export preparation (`@gltf-legacy/prepare`) and of steps every format has.
 *
 * ```ts
 * import { SHARED_WARNING_CODES } from '@gltf-legacy/core';
 * SHARED_WARNING_CODES.PRIMITIVE_TRIANGULATED; // 'A triangle strip or fan was …'
 * ```
 */
export const SHARED_WARNING_CODES: WarningCodeTable = {
  PRIMITIVE_TRIANGULATED:
    'A triangle strip or fan was rewritten as a triangle list (same triangles, more indices).',
  PRIMITIVE_DROPPED: 'A primitive the format cannot store (points, lines, no POSITION) was left out.',
  PRIMITIVE_SPLIT: 'A primitive over the format’s vertex or bones-per-draw limit was split into several.',
  WEIGHTS_TRUNCATED:
    'Vertices with more joint influences than the format holds kept the largest ones, renormalized to sum 1.',
  ANIMATION_RESAMPLED:
    'Animation keys were sampled again (another rate, or an interpolation the format lacks): values between the old keys may differ.',
  TRANSFORMS_BAKED:
    'Node transforms were applied to vertices (the format has no node tree); instanced meshes were copied.',
  ATTRIBUTE_DEQUANTIZED: 'Quantized vertex attributes were widened to float (no loss; the file may grow).',
  ATTRIBUTE_DROPPED: 'A vertex attribute the format cannot store was left out.',
  VALUE_QUANTIZED: 'Values were rounded to the format’s storage precision.',
  TEXTURE_MISSING: 'A texture the model names was not found; the material has no image for it.',
  MATERIAL_MISSING: 'A material the model names was not found; a default material stands in.',
  COMPANION_IGNORED: 'A file given beside the model was not used.',
};
