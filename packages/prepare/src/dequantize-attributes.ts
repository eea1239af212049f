/**
 * Step 1 of the export stage: widen quantized vertex attributes (KHR_mesh_quantization's
 * normalized or integer POSITION, NORMAL, TEXCOORD_n, …) to float for formats that store floats.
 * Lossless; built on `@gltf-transform/functions`' `dequantizePrimitive`.
 */
import type { Document, Primitive, Transform } from '@gltf-transform/core';
import type { WarningCollector } from '@gltf-legacy/core';
import { dequantizePrimitive } from '@gltf-transform/functions';

export interface DequantizeAttributesOptions {
  /** Semantics that must be float (matching ones that are not are widened). */
  pattern: RegExp;
  /** Receives `ATTRIBUTE_DEQUANTIZED` (once per semantic). */
  warnings?: WarningCollector;
}

export const DEQUANTIZE_ATTRIBUTES_DEFAULTS: DequantizeAttributesOptions = {
  pattern: /^(POSITION|NORMAL|TANGENT|TEXCOORD_\d+)$/,
};

/** Semantics of `prim` (and its morph targets) matching `pattern` that are not float. */
export function quantizedSemantics(prim: Primitive, pattern: RegExp): string[] {
  const out = new Set<string>();
  for (const holder of [prim, ...prim.listTargets()]) {
    for (const semantic of holder.listSemantics()) {
      const a = holder.getAttribute(semantic);
      if (a && pattern.test(semantic) && !(a.getArray() instanceof Float32Array)) out.add(semantic);
    }
  }
  return [...out];
}

/** True when some primitive of `document` has a quantized attribute matching `pattern`. */
export function dequantizeNeeded(document: Document, pattern: RegExp | null): boolean {
  if (!pattern) return false;
  for (const mesh of document.getRoot().listMeshes())
    for (const prim of mesh.listPrimitives()) if (quantizedSemantics(prim, pattern).length) return true;
  return false;
}

/**
 * Widens quantized attributes matching `pattern` to float32 (values kept; node transforms that
 * KHR_mesh_quantization put on the nodes stay where they are).
 *
 * ```ts
 * await document.transform(dequantizeAttributes({ pattern: /^POSITION$/ }));
 * ```
 */
export function dequantizeAttributes(options: Partial<DequantizeAttributesOptions> = {}): Transform {
  const { pattern, warnings } = { ...DEQUANTIZE_ATTRIBUTES_DEFAULTS, ...options };
  return (document: Document): void => {
    const widened = new Map<string, number>();
    for (const mesh of document.getRoot().listMeshes()) {
      for (const prim of mesh.listPrimitives()) {
        const semantics = quantizedSemantics(prim, pattern);
        if (!semantics.length) continue;
        for (const s of semantics) widened.set(s, (widened.get(s) ?? 0) + 1);
        dequantizePrimitive(prim, { pattern });
      }
    }
    for (const [semantic, count] of widened) {
      warnings?.warn('ATTRIBUTE_DEQUANTIZED', `${semantic}: quantized values widened to float`, count);
    }
  };
}
