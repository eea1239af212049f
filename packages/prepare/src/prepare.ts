/**
 * The shared export stage: `prepare(document, limits)` brings any glTF within what a legacy
 * format can hold, one small transform per kind of step, each reporting its one shared warning
 * code. Exporters run it first and then only map the prepared document to their file model.
 */
import type { Document, Material, Transform } from '@gltf-transform/core';
import { LEGACY_LIMITS_DEFAULTS, type LegacyLimits, WarningCollector } from '@gltf-legacy/core';
import { cloneDocument } from '@gltf-transform/functions';
import { bakeTransforms, bakeTransformsNeeded } from './bake-transforms.js';
import { dequantizeAttributes, dequantizeNeeded } from './dequantize-attributes.js';

import { limitInfluences, limitInfluencesNeeded } from './limit-influences.js';
import { resampleAnimations, resampleNeeded } from './resample-animations.js';
import { splitPrimitives, splitPrimitivesNeeded } from './split-primitives.js';
import { triangulate, triangulateNeeded } from './triangulate.js';

export interface PrepareOptions {
  /** Receives the warnings of every step (default: a new collector, returned in the result). */
  warnings?: WarningCollector;
}

export const PREPARE_DEFAULTS: PrepareOptions = {};

export interface PrepareResult {
  /** The document to map: the caller's own when nothing had to change, else a prepared clone. */
  document: Document;
  /** True when `document` is a clone the steps changed. */
  changed: boolean;
  /** Names of the steps that ran, in order (`triangulate`, `limitInfluences`, …). */
  steps: string[];
  warnings: WarningCollector;
  /**
   * The caller's material for a material of `document` (the clone lists materials in the same
   * order as the caller's document; no step adds or removes one), so an exporter can hand back
   * the caller's own objects. Identity when nothing changed.
   */
  callerMaterial(material: Material | null): Material | null;
}

/** `callerMaterial` for a prepared clone of `caller`. */
function materialMap(caller: Document, clone: Document): (m: Material | null) => Material | null {
  const own = caller.getRoot().listMaterials();
  const index = new Map(
    clone
      .getRoot()
      .listMaterials()
      .map((m, i) => [m, i]),
  );
  return (m) => (m ? (own[index.get(m) ?? -1] ?? null) : null);
}

/** One step: its name, whether the document needs it, and the transform. */
interface Step {
  name: string;
  needed(document: Document): boolean;
  transform(warnings: WarningCollector): Transform;
}

function steps(limits: LegacyLimits): Step[] {
  return [
    {
      name: 'dequantizeAttributes',
      needed: (d) => dequantizeNeeded(d, limits.floatAttributes),
      transform: (warnings) =>
        dequantizeAttributes({ pattern: limits.floatAttributes ?? undefined, warnings }),
    },
    {
      name: 'triangulate',
      needed: (d) => triangulateNeeded(d, limits.modes),
      transform: (warnings) => triangulate({ modes: limits.modes, warnings }),
    },
    {
      name: 'bakeTransforms',
      needed: (d) => !limits.nodeTree && bakeTransformsNeeded(d),
      transform: (warnings) => bakeTransforms({ warnings }),
    },
    {
      name: 'limitInfluences',
      needed: (d) => limitInfluencesNeeded(d, limits.maxInfluences),
      transform: (warnings) => limitInfluences({ maxInfluences: limits.maxInfluences, warnings }),
    },
    {
      name: 'splitPrimitives',
      needed: (d) => splitPrimitivesNeeded(d, limits.maxVertices, limits.maxBonesPerDraw),
      transform: (warnings) =>
        splitPrimitives({
          maxVertices: limits.maxVertices,
          maxBonesPerDraw: limits.maxBonesPerDraw,
          warnings,
        }),
    },
    {
      name: 'resampleAnimations',
      needed: (d) => resampleNeeded(d, limits.animation),
      transform: (warnings) => resampleAnimations({ ...limits.animation!, warnings }),
    },
  ];
}

/**
 * Prepares `document` for a legacy format with `limits`. Never modifies `document`: when a step
 * is needed, the steps run on a clone (`cloneDocument`); when none is, the caller's document is
 * returned as it is, so a document that came from the format maps back byte for byte at no cost.
 *
 * ```ts
 * import { prepare, LEGACY_LIMITS_DEFAULTS } from '@gltf-legacy/prepare';
 * const { document: prepared, warnings } = await prepare(document, { ...LEGACY_LIMITS_DEFAULTS, maxInfluences: 2 });
 * warnings.list(); // e.g. [{ code: 'WEIGHTS_TRUNCATED', message: '…', count: 12 }]
 * ```
 */
export async function prepare(
  document: Document,
  limits: Partial<LegacyLimits> = {},
  options: PrepareOptions = PREPARE_DEFAULTS,
): Promise<PrepareResult> {
  const full: LegacyLimits = { ...LEGACY_LIMITS_DEFAULTS, ...limits };
  const warnings = options.warnings ?? new WarningCollector();
  const all = steps(full);
  // Each check once on the caller's document; only a step that was not needed there is checked
  // again on the clone, and only after an earlier step changed it (a triangulated strip may then
  // need a split). A needed step that an earlier one made moot finds nothing to do.
  const needed = all.map((s) => s.needed(document));
  if (!needed.includes(true))
    return { document, changed: false, steps: [], warnings, callerMaterial: (m) => m };
  const clone = cloneDocument(document);
  const ran: string[] = [];
  for (const [i, step] of all.entries()) {
    if (!needed[i] && !(ran.length && step.needed(clone))) continue;
    await clone.transform(step.transform(warnings));
    ran.push(step.name);
  }
  return {
    document: clone,
    changed: true,
    steps: ran,
    warnings,
    callerMaterial: materialMap(document, clone),
  };
}
