/**
 * Step 2 of the export stage: primitive modes. Triangle strips and fans the format cannot store
 * become triangle lists (`convertPrimitiveToTriangles` of `@gltf-transform/functions`), points and
 * lines it cannot store are dropped, and so is a primitive without POSITION.
 */
import { type Document, type Mesh, Node, Primitive, type Transform } from '@gltf-transform/core';
import type { WarningCollector } from '@gltf-legacy/core';
import { convertPrimitiveToTriangles } from '@gltf-transform/functions';
import { createAccessor, ensureIndices } from './utils.js';

const { TRIANGLES, TRIANGLE_STRIP, TRIANGLE_FAN } = Primitive.Mode;
const MODE_NAMES = [
  'points',
  'lines',
  'line loop',
  'line strip',
  'triangles',
  'triangle strip',
  'triangle fan',
];

export interface TriangulateOptions {
  /** Modes kept as they are. */
  modes: number[];
  /** Receives `PRIMITIVE_TRIANGULATED` and `PRIMITIVE_DROPPED`. */
  warnings?: WarningCollector;
}

export const TRIANGULATE_DEFAULTS: TriangulateOptions = { modes: [TRIANGLES] };

/** What the step does to one primitive: keep it, make it a list, or drop it (and why). */
export function modeAction(prim: Primitive, modes: readonly number[]): 'keep' | 'triangulate' | 'drop' {
  if (!prim.getAttribute('POSITION')) return 'drop';
  const mode = prim.getMode();
  if (modes.includes(mode)) return 'keep';
  if ((mode === TRIANGLE_STRIP || mode === TRIANGLE_FAN) && modes.includes(TRIANGLES)) return 'triangulate';
  return 'drop';
}

/** True when some primitive of `document` would be converted or dropped. */
export function triangulateNeeded(document: Document, modes: readonly number[]): boolean {
  for (const mesh of document.getRoot().listMeshes())
    for (const prim of mesh.listPrimitives()) if (modeAction(prim, modes) !== 'keep') return true;
  return false;
}

/**
 * Rewrites strips and fans as triangle lists; drops what the format cannot hold. A mesh left
 * without primitives is removed from its nodes.
 *
 * ```ts
 * await document.transform(triangulate({ modes: [Primitive.Mode.TRIANGLES], warnings }));
 * ```
 */
export function triangulate(options: Partial<TriangulateOptions> = {}): Transform {
  const { modes, warnings } = { ...TRIANGULATE_DEFAULTS, ...options };
  return (document: Document): void => {
    const emptied: Mesh[] = [];
    for (const mesh of document.getRoot().listMeshes()) {
      for (const prim of mesh.listPrimitives()) {
        const action = modeAction(prim, modes);
        const label = `mesh "${mesh.getName()}"`;
        if (action === 'triangulate') {
          // Sequential indices instead of the function's weld: keeps every vertex as it is.
          ensureIndices(document, prim);
          const from = MODE_NAMES[prim.getMode()];
          if (prim.getIndices()!.getCount() < 3) {
            // No triangle (convertPrimitiveToTriangles throws a RangeError below 2 indices).
            prim.setIndices(createAccessor(document).setType('SCALAR').setArray(new Uint16Array(0)));
            prim.setMode(Primitive.Mode.TRIANGLES);
          } else convertPrimitiveToTriangles(prim);
          warnings?.warn('PRIMITIVE_TRIANGULATED', `${label}: a ${from} was rewritten as a triangle list`);
        } else if (action === 'drop') {
          const why = prim.getAttribute('POSITION')
            ? `${MODE_NAMES[prim.getMode()] ?? `mode ${prim.getMode()}`} cannot be stored in this format`
            : 'it has no POSITION';
          warnings?.warn('PRIMITIVE_DROPPED', `${label}: a primitive was left out (${why})`);
          mesh.removePrimitive(prim);
          prim.dispose();
        }
      }
      if (!mesh.listPrimitives().length) emptied.push(mesh);
    }
    for (const mesh of emptied) {
      for (const parent of mesh.listParents()) if (parent instanceof Node) parent.setMesh(null);
      mesh.dispose();
    }
  };
}
