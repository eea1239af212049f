/**
 * `gltf-legacy inspect` tables of Urho3D XML resources: prefabs / scenes (nodes and the models
 * and materials their components name) and material files (techniques, textures, parameters).
 */
import type { InspectSection } from '@gltf-legacy/core';
import { readMaterialXml } from './material-xml.js';
import { isMaterialFile } from './model-materials.js';
import { prefabNodes, readPrefabXml } from './prefab-xml.js';

/**
 * Facts and tables about a prefab, scene or material XML file.
 *
 * ```ts
 * inspectUrhoXml(bytes, 'Objects/Ninja.xml')[0].facts; // { root: 'node', nodes: 2, 'model components': 1 }
 * ```
 */
export function inspectUrhoXml(bytes: Uint8Array, name?: string): InspectSection[] {
  if (isMaterialFile(bytes)) {
    const { fields } = readMaterialXml(bytes, name);
    return [
      {
        title: 'Urho3D material',
        facts: {
          techniques: fields.techniques.map((t) => t.name).join(', '),
          cull: fields.cull ?? 'ccw (default)',
          ...(fields.shadowCull ? { shadowcull: fields.shadowCull } : {}),
          ...(fields.fill ? { fill: fields.fill } : {}),
        },
        columns: ['kind', 'name', 'value'],
        rows: [
          ...fields.textures.map((t): (string | number)[] => ['texture', t.unit, t.name]),
          ...fields.parameters.map((p): (string | number)[] => ['parameter', p.name, p.value]),
        ],
      },
    ];
  }
  const prefab = readPrefabXml(bytes, name);
  const nodes = prefabNodes(prefab.root);
  const rows: (string | number)[][] = [];
  for (const n of nodes)
    for (const m of n.models) rows.push([n.name, m.type, m.model ?? '', m.materials.join('; ')]);
  return [
    {
      title: prefab.kind === 'scene' ? 'Urho3D scene' : 'Urho3D prefab',
      facts: { root: prefab.kind, nodes: nodes.length, 'model components': rows.length },
      columns: ['node', 'component', 'model', 'materials'],
      rows,
    },
  ];
}
