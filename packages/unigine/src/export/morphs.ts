/**
 * Export of morph targets: absolute positions per coordinate vertex in file axes (target 0 is
 * the base), with their names from the imported extras or the glTF.
 */
import { type WarningCollector, accessorFloats, convertVec3 } from '@gltf-legacy/core';
import type { Primitive } from '@gltf-transform/core';
import { GLTF_TO_UNIGINE } from '../axes.js';
import type { UnigineSurfaceExtras } from '../extras.js';

/**
 * Step 7 of `buildSurface`: morph targets as absolute positions per coordinate vertex (target 0 is the base), with
 * their names (imported ones from extras, else the glTF names).
 */
export function morphTargets(
  prim: Primitive,
  label: string,
  ex: Partial<UnigineSurfaceExtras>,
  coordPos: Float32Array,
  firstOfCoord: Int32Array,
  numCoord: number,
  n: number,
  warnings: WarningCollector,
): { targets: Float32Array[]; targetNames: string[] } {
  const targets: Float32Array[] = [coordPos];
  const names = Array.isArray(ex.targetNames) ? (ex.targetNames as string[]) : [''];
  const meshNames = (
    (prim
      .listParents()
      .find((p) => p.propertyType === 'Mesh')
      ?.getExtras()?.targetNames as string[]) ?? []
  ).slice();
  const gTargets = prim.listTargets();
  const realCount = Array.isArray(ex.targetNames)
    ? Math.min(gTargets.length, names.length - 1)
    : gTargets.length;
  const targetNames = [names[0] ?? ''];
  for (let t = 0; t < realCount; t++) {
    const acc = gTargets[t].getAttribute('POSITION');
    if (!acc || acc.getCount() !== n || acc.getType() !== 'VEC3') {
      warnings.warn(
        'MORPH_TARGET_DROPPED',
        `${label}: morph target ${t} has no POSITION for every vertex; dropped`,
      );
      continue;
    }
    if (gTargets[t].listSemantics().some((s) => s !== 'POSITION'))
      warnings.warn(
        'ATTRIBUTE_DROPPED',
        `${label}: morph target normals/tangents have no place in a UNIGINE mesh; dropped`,
      );
    const d = new Float32Array(accessorFloats(acc));
    convertVec3(GLTF_TO_UNIGINE, d);
    const tp = new Float32Array(numCoord * 3);
    for (let c = 0; c < numCoord; c++) {
      const v = firstOfCoord[c];
      if (v >= 0)
        for (let k = 0; k < 3; k++) {
          const b = coordPos[c * 3 + k];
          const x = d[v * 3 + k];
          // A zero delta on a zero base carries the target's zero sign (see import).
          tp[c * 3 + k] = x === 0 && b === 0 ? x : b + x;
        }
    }
    targets.push(tp);
    targetNames.push(names[t + 1] ?? gTargets[t].getName() ?? meshNames[t] ?? `target_${t}`);
  }
  return { targets, targetNames };
}
