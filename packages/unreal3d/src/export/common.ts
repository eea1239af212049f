/**
 * What both export paths share: the options and their defaults, the file model an export
 * produces, identifier-safe names, the variant → layout choice, and the refusals (whole
 * accessors, too many vertices or frames).
 */
import type { Document, Material, Primitive } from '@gltf-transform/core';
import { decodeBase64, ExportError } from '@gltf-legacy/core';
import { type AnivLayout, type UnrealAniv, vertexStride } from '../aniv.js';
import type { UnrealData } from '../data.js';
import type { UcMesh } from '../uc.js';
import { UNREAL_UNIT_METRES } from '../transform.js';

/** Options of {@link exportUnreal}. */
export interface UnrealExportOptions {
  /** Base name of the files: `NAME_d.3d`, `NAME_a.3d`, `NAME.uc` (default: the imported name, else `model`). */
  name?: string;
  /** Sampling rate for baked animations (frames per second, also the sequences' RATE). */
  fps?: number;
  /** `standard` (11/11/10 packed) or `deusex` (16-bit); default: as imported, else standard. */
  variant?: 'standard' | 'deusex';
  /** Always bake (ignore the native path). */
  bake?: boolean;
  /** Baked path: merge vertices with the same quantized position in every frame (default true). */
  weld?: boolean;
  /** Baked path: most vertex frames to write (all sequences together; default 4096). */
  maxFrames?: number;
  /**
   * Baked path: glTF metres per Unreal unit (default `UNREAL_UNIT_METRES`, 1 UU = 1.905 cm; 1
   * writes glTF units as Unreal units). The native path writes the file's own numbers.
   */
  scale?: number;
  /**
   * Baked path: `gltf` (default) reads glTF +Z as the game's forward (+X) and +Y as up; `swap`
   * the plain Y/Z swap (glTF +X forward). The native path keeps the imported placement.
   */
  axes?: 'gltf' | 'swap';
}

export const UNREAL_EXPORT_DEFAULTS = {
  name: 'model',
  fps: 30,
  variant: undefined as 'standard' | 'deusex' | undefined,
  bake: false,
  maxFrames: 4096,
  scale: UNREAL_UNIT_METRES,
};

/**
 * Baked path: most `frames × glTF vertices` to pose (each costs 48 bytes of working memory while
 * baking); beyond it export fails fast with `TOO_MUCH_ANIMATION` instead of allocating.
 */
export const UNREAL_MAX_VERTEX_FRAMES = 1 << 22;

/** The file model written by an export. */
export interface UnrealExportModel {
  data: UnrealData;
  aniv: UnrealAniv;
  uc: UcMesh;
  ucText: string;
  /** Encoding of `ucText` when written (`latin1` when the original class file was). */
  ucEncoding?: 'utf8' | 'latin1';
  /** The original class file's name, when `ucText` is its text unchanged (`Sporifier.uc`). */
  ucFile?: string;
  /** True when `ucText` is the imported `.uc` text unchanged (skins go back to their original paths). */
  ucVerbatim?: boolean;
  /** The material of each texture slot (for writing the skins). */
  slotMaterials?: Map<number, Material | null>;
}

export const fromB64 = (s: string | undefined) => (s ? decodeBase64(s) : new Uint8Array(0));

/** Identifier-safe name for UnrealScript (`Walk cycle` → `Walk_cycle`). */
export function unrealName(s: string, fallback: string): string {
  let out = s.replace(/[^A-Za-z0-9_]/g, '_');
  if (!out) out = fallback;
  if (/^[0-9]/.test(out)) out = `_${out}`;
  return out;
}

export function vertexLimit(layout: AnivLayout): number {
  return Math.floor(0xffff / vertexStride(layout));
}

export function layoutOf(variant: string | undefined, fallback: AnivLayout): AnivLayout {
  if (variant === undefined) return fallback;
  if (variant === 'deusex') return 'deusex';
  if (variant === 'standard' || variant === 'packed') return 'packed';
  throw new ExportError('BAD_OPTION', `unknown variant "${variant}" (use "standard" or "deusex")`);
}

/**
 * Every vertex attribute, index and morph target accessor must hold a whole number of elements.
 * NodeIO accepts a fractional `count` (invalid glTF; fuzz d309734b: POSITION count 623.33), whose
 * array then ends mid-element: the vertex count became fractional and the .3d frame size 21 bytes,
 * a file our own import rejects. ExportError BAD_ACCESSOR instead.
 */
export function assertWholeAccessors(doc: Document): void {
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const prim of mesh.listPrimitives()) {
      const named: [string, ReturnType<Primitive['getIndices']>][] = [['indices', prim.getIndices()]];
      for (const s of prim.listSemantics()) named.push([s, prim.getAttribute(s)]);
      prim.listTargets().forEach((t, i) => {
        for (const s of t.listSemantics()) named.push([`target ${i} ${s}`, t.getAttribute(s)]);
      });
      for (const [what, acc] of named) {
        const len = acc?.getArray()?.length ?? 0;
        if (acc && len % acc.getElementSize() !== 0)
          throw new ExportError(
            'BAD_ACCESSOR',
            `mesh "${mesh.getName()}": the ${what} accessor holds ${len} values, not a whole number of ${acc.getType()} elements (invalid glTF)`,
          );
      }
    }
  }
}

export function tooManyVertices(nv: number, layout: AnivLayout): ExportError {
  return new ExportError(
    'TOO_MANY_VERTICES',
    `the merged mesh has ${nv} vertices (after welding); an Unreal ${layout === 'deusex' ? 'Deus Ex ' : ''}aniv frame holds at most ${vertexLimit(layout)} (its u16 frameSize is ${vertexStride(layout)} bytes per vertex)`,
  );
}

export function tooManyFrames(frames: number, nv: number, maxFrames: number, budget: number, fps: number) {
  if (budget >= maxFrames)
    return new ExportError(
      'TOO_MANY_FRAMES',
      `the animations need ${frames} vertex frames at ${fps} fps, more than the ${maxFrames} allowed (option maxFrames; an aniv file holds at most 65535); lower --fps or shorten the clips`,
    );
  return new ExportError(
    'TOO_MUCH_ANIMATION',
    `the animations need ${frames} vertex frames of ${nv} vertices at ${fps} fps; at most ${budget} frames of that many vertices can be baked (${UNREAL_MAX_VERTEX_FRAMES} vertex-frames); lower --fps, shorten the clips or simplify the mesh`,
  );
}
