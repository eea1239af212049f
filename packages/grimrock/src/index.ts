/**
 * @gltf-legacy/grimrock — Legend of Grimrock 1/2 `.model` (MDL1) and `.animation` (ANIM v1/v2)
 * to glTF 2.0 and back.
 */
import {
  baseName,
  type FileSet,
  type ImportOptions,
  type InspectSection,
  type LegacyFormat,
  mainFile,
  stem,
} from '@gltf-legacy/core';
import { isAnimation, readAnimation } from './animation.js';
import { exportGrimrock, type GrimrockExportOptions } from './export.js';
import { importGrimrock } from './import.js';
import { isModel, readModel, VERTEX_ARRAY_NAMES } from './model.js';

export * from './animation.js';
export { AXES, defaultLayout, type Layout, rawAttributeName } from './arrays.js';
export * from './export.js';
export * from './import.js';
export { gltfToMat4x3, mat4x3ToGltf, mat4x3ToTRS, trsToMat4x3 } from './mat.js';
export * from './model.js';

/**
 * `.animation` files beside a model that belong to it: `NAME_*.animation` for `NAME.model`
 * (case-insensitive), sorted.
 *
 * ```ts
 * grimrockCompanions('skeleton_warrior_axe.model', ['skeleton_warrior_axe_walk.animation', 'snail.model']);
 * // ['skeleton_warrior_axe_walk.animation']
 * ```
 */
export function grimrockCompanions(name: string, siblings: string[]): string[] {
  const b = baseName(name);
  if (!b.toLowerCase().endsWith('.model')) return [];
  const prefix = `${stem(b).toLowerCase()}_`;
  return siblings
    .filter((s) => {
      const sb = baseName(s).toLowerCase();
      return sb.endsWith('.animation') && sb.startsWith(prefix);
    })
    .sort();
}

function fmt(v: ArrayLike<number>): string {
  return Array.from(v, (x) => +x.toFixed(4)).join(', ');
}

/**
 * Facts about the file model (not the glTF mapping) for `gltf-legacy inspect`.
 *
 * ```ts
 * inspectGrimrock(new Map([['slug.model', bytes]]));
 * ```
 */
export function inspectGrimrock(files: FileSet, options?: ImportOptions): InspectSection[] {
  const [name, bytes] = mainFile(files, options);
  if (isAnimation(bytes)) {
    const a = readAnimation(bytes, name);
    return [
      {
        title: `Animation ${name}`,
        facts: {
          version: a.version,
          game: a.version === 1 ? 'Legend of Grimrock' : 'Legend of Grimrock 2',
          name: a.name,
          framesPerSecond: a.framesPerSecond,
          numFrames: a.numFrames,
          durationSeconds: +(a.numFrames / a.framesPerSecond).toFixed(4),
          items: a.items.length,
        },
        columns: ['item', 'positions', 'rotations', 'scales'],
        rows: a.items.map((it) => [
          it.nodeName,
          it.positions.length / 3,
          it.rotations.length / 4,
          it.scales.length / 3,
        ]),
      },
    ];
  }
  const m = readModel(bytes, name);
  const sections: InspectSection[] = [
    {
      title: `Model ${name}`,
      facts: {
        magic: m.magic,
        version: m.version,
        nodes: m.nodes.length,
        meshEntities: m.nodes.filter((n) => n.meshEntity).length,
      },
      columns: ['#', 'name', 'parent', 'type', 'translation'],
      rows: m.nodes.map((n, i) => [
        i,
        n.name,
        n.parent,
        n.type === 0 ? 'mesh' : 'empty',
        fmt(n.localToParent.subarray(9, 12)),
      ]),
    },
  ];
  m.nodes.forEach((n, i) => {
    const e = n.meshEntity;
    if (!e) return;
    sections.push({
      title: `Mesh of node ${i} "${n.name}"`,
      facts: {
        meshVersion: e.mesh.version,
        vertices: e.mesh.numVertices,
        indices: e.mesh.indices.length,
        triangles: Math.floor(e.mesh.indices.length / 3),
        segments: e.mesh.segments.length,
        bones: e.bones.length,
        castShadow: e.castShadow,
        emissiveColor: fmt(e.emissiveColor),
        boundMin: fmt(e.mesh.boundMin),
        boundMax: fmt(e.mesh.boundMax),
        boundCenter: fmt(e.mesh.boundCenter),
        boundRadius: +e.mesh.boundRadius.toFixed(4),
        materials: e.mesh.segments.map((s) => s.material).join(', '),
      },
      columns: ['array', 'dataType', 'dim', 'stride'],
      rows: e.mesh.arrays
        .map((a, k) => [VERTEX_ARRAY_NAMES[k], a.dataType, a.dim, a.stride])
        .filter((r) => r[3] !== 0),
    });
  });
  return sections;
}

/** The Grimrock format as the CLI registers it. */
export const legacyFormat: LegacyFormat = {
  id: 'grimrock',
  label: 'Legend of Grimrock 1/2 model + animation',
  extensions: ['.model', '.animation'],
  mainExtension: '.model',
  capabilities: { import: true, export: true, skins: true, morphTargets: false, animations: true },
  sniff(bytes: Uint8Array): boolean {
    return isModel(bytes) || isAnimation(bytes);
  },
  companions: grimrockCompanions,
  async import(files, options) {
    return importGrimrock(files, options);
  },
  async export(document, options) {
    return exportGrimrock(document, options as GrimrockExportOptions);
  },
  inspect: inspectGrimrock,
};
