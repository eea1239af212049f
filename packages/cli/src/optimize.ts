import { type Document, Logger, type Transform } from '@gltf-transform/core';
import { WarningLogger } from './library-log.js';
import { LegacyError } from '@gltf-legacy/core';

/**
 * The optimize chain: @gltf-transform/functions steps run between import and write (and before
 * export when the target is a legacy format). Plain data, so it can be sent to worker threads.
 */
export interface OptimizeOptions {
  /** Merge duplicate accessors, meshes, materials, textures. */
  dedup?: boolean;
  /** Merge identical vertices (indexed geometry). */
  weld?: boolean;
  /** Remove unused nodes, accessors, materials, … */
  prune?: boolean;
  /** Drop redundant animation keyframes (lossless within a tolerance). */
  resample?: boolean;
  /** Simplify meshes with meshoptimizer to this ratio of vertices (0 < ratio < 1); welds first. */
  simplify?: number;
  /** Quantize vertex attributes (KHR_mesh_quantization). */
  quantize?: boolean;
  /** EXT_meshopt_compression with meshoptimizer's encoder (glTF output only). */
  meshopt?: boolean;
  /** KHR_draco_mesh_compression with draco3dgltf's encoder (glTF output only). */
  draco?: boolean;
  /** Move the scene so its bounding box is centered at the origin. */
  center?: boolean;
  /** The preset: dedup + weld + resample + prune (lossless-ish; add --meshopt/--draco to compress). */
  optimize?: boolean;
}

/** What `--optimize` turns on. */
export const OPTIMIZE_PRESET: Readonly<OptimizeOptions> = {
  dedup: true,
  weld: true,
  resample: true,
  prune: true,
};

/** No step is on by default. */
export const OPTIMIZE_DEFAULTS: Readonly<OptimizeOptions> = {};

/** True when any optimize step is requested. */
export function hasOptimize(o: OptimizeOptions | undefined): boolean {
  return !!o && Object.entries(o).some(([k, v]) => (k === 'simplify' ? typeof v === 'number' : !!v));
}

/** True when the output needs an encoder registered on the NodeIO at write time. */
export function needsCompression(o: OptimizeOptions | undefined): boolean {
  return !!(o?.meshopt || o?.draco);
}

/** Checks option combinations; throws a LegacyError with code `BAD_OPTIMIZE_OPTIONS`. */
export function checkOptimize(o: OptimizeOptions): void {
  if (o.meshopt && o.draco)
    throw new LegacyError(
      'BAD_OPTIMIZE_OPTIONS',
      '--meshopt and --draco are two kinds of mesh compression: pick one',
    );
  if (o.simplify !== undefined && !(o.simplify > 0 && o.simplify < 1)) {
    throw new LegacyError(
      'BAD_OPTIMIZE_OPTIONS',
      `--simplify expects a ratio between 0 and 1 (exclusive), got ${o.simplify}`,
    );
  }
}

/**
 * The glTF-Transform steps for `options`, in a fixed order: center, dedup, weld, simplify,
 * resample, prune, then quantize or compression (meshopt includes quantization).
 *
 * ```ts
 * await document.transform(...(await optimizeSteps({ optimize: true, meshopt: true })));
 * ```
 */
export async function optimizeSteps(options: OptimizeOptions): Promise<Transform[]> {
  checkOptimize(options);
  const o = options.optimize ? { ...OPTIMIZE_PRESET, ...options } : options;
  const steps: Transform[] = [];
  // loaded on demand: @gltf-transform/functions alone costs ~200 ms of CLI start-up
  const { center, dedup, dequantize, draco, meshopt, prune, quantize, resample, simplify, weld } =
    await import('@gltf-transform/functions');
  if (o.center) steps.push(center({ pivot: 'center' }));
  if (o.dedup) steps.push(dedup());
  if (o.weld || o.simplify !== undefined) steps.push(weld());
  if (o.simplify !== undefined) {
    const { MeshoptSimplifier } = await import('meshoptimizer');
    await MeshoptSimplifier.ready;
    steps.push(simplify({ simplifier: MeshoptSimplifier, ratio: o.simplify, error: 0.01 }));
  }
  if (o.resample) steps.push(resample());
  if (o.prune) steps.push(prune());
  // quantize() leaves integer attributes as they are but still moves the mesh into its
  // quantization volume (node scale): morph targets our importers already wrote as integers
  // (Unreal vertex animation) would be scaled wrongly. Decode everything to float first.
  if (o.meshopt || o.quantize) steps.push(dequantize());
  if (o.meshopt) {
    const { MeshoptEncoder } = await import('meshoptimizer');
    await MeshoptEncoder.ready;
    steps.push(meshopt({ encoder: MeshoptEncoder, level: 'medium' }));
  } else if (o.quantize) steps.push(quantize());
  if (o.draco) steps.push(draco({ method: 'edgebreaker' }));
  return steps;
}

/** The optimize chain as a `ConvertOptions.transform` step; undefined when nothing is asked. */
export function optimizeTransform(
  options: OptimizeOptions | undefined,
): ((doc: Document) => Promise<void>) | undefined {
  if (!options || !hasOptimize(options)) return undefined;
  checkOptimize(options);
  return async (doc) => {
    // glTF-Transform logs each step at INFO on stdout; keep the CLI's output ours (convert has
    // already routed warnings into the record: WarningLogger)
    if (!(doc.getLogger() instanceof WarningLogger)) doc.setLogger(new Logger(Logger.Verbosity.WARN));
    // a new compression replaces the input's (decoded on read; re-encoding twice is lossy)
    if (options.meshopt)
      doc
        .getRoot()
        .listExtensionsUsed()
        .find((e) => e.extensionName === 'KHR_draco_mesh_compression')
        ?.dispose();
    if (options.draco)
      doc
        .getRoot()
        .listExtensionsUsed()
        .find((e) => e.extensionName === 'EXT_meshopt_compression')
        ?.dispose();
    for (const step of await optimizeSteps(options)) {
      try {
        await doc.transform(step);
      } catch (e) {
        // a glTF-Transform step (or an encoder's own assertion) refused this document
        throw new LegacyError(
          'OPTIMIZE_FAILED',
          `optimize step "${step.name}" failed: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
    }
  };
}

/**
 * The optimize flags that are set, as typed on the command line (for messages).
 *
 * ```ts
 * optimizeFlags({ optimize: true, meshopt: true }); // ['--optimize', '--meshopt']
 * ```
 */
export function optimizeFlags(options: OptimizeOptions | undefined): string[] {
  if (!options) return [];
  return Object.entries(options)
    .filter(([, v]) => v !== undefined && v !== false)
    .map(([k, v]) => (typeof v === 'number' ? `--${k} ${v}` : `--${k}`));
}
