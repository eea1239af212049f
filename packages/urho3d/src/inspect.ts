/**
 * `gltf-legacy inspect` tables of the file model.
 */
import { FormatError, type InspectSection } from '@gltf-legacy/core';
import { readAni } from './ani.js';
import { indexView } from './import/geometries.js';
import { type MdlModel, SEMANTIC_NAMES, readMdl } from './mdl.js';
import { TYPE_NAMES } from './attributes.js';
import { readPak } from './pak.js';

const PRIMITIVE_NAMES = [
  'TRIANGLE_LIST',
  'LINE_LIST',
  'POINT_LIST',
  'TRIANGLE_STRIP',
  'LINE_STRIP',
  'TRIANGLE_FAN',
];

/**
 * Facts and tables about a `.mdl`, `.ani` or `.pak` file.
 *
 * ```ts
 * for (const s of inspectUrho(bytes, 'Jack.mdl')) console.log(s.title, s.facts);
 * ```
 */
export function inspectUrho(bytes: Uint8Array, name?: string): InspectSection[] {
  const magic = bytes.length >= 4 ? String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]) : '';
  if (magic === 'UANI') {
    const a = readAni(bytes, name);
    return [
      {
        title: 'Animation',
        facts: {
          magic,
          name: a.name,
          length: a.length,
          tracks: a.tracks.length,
          keys: a.tracks.reduce((s, t) => s + t.keyCount, 0),
          // the quirk ANI_LAST_KEY_SHORT: bytes the last key lacks (padded on reading)
          ...(a.missingBytes ? { lastKeyShortBy: a.missingBytes } : {}),
        },
      },
      {
        title: 'Tracks',
        columns: ['name', 'channels', 'keys', 'first', 'last'],
        rows: a.tracks.map((t) => [
          t.name,
          ['position', 'rotation', 'scale'].filter((_, i) => t.channelMask & (1 << i)).join('+'),
          t.keyCount,
          t.keyCount ? t.times[0] : '',
          t.keyCount ? t.times[t.keyCount - 1] : '',
        ]),
      },
    ];
  }
  if (magic === 'UPAK' || magic === 'ULZ4' || name?.toLowerCase().endsWith('.pak')) {
    const p = readPak(bytes, name);
    return [
      {
        title: 'Package',
        facts: { magic: p.magic, entries: p.entries.length, checksum: p.checksum, size: p.trailer },
      },
      {
        title: 'Entries',
        columns: ['name', 'size', 'stored', 'checksum'],
        rows: p.entries.map((e) => [e.name, e.size, e.stored.length, e.checksum]),
      },
    ];
  }
  if (magic !== 'UMDL' && magic !== 'UMD2') {
    throw new FormatError(`not an Urho3D file (magic "${magic}")`, {
      code: 'BAD_MAGIC',
      file: name,
      offset: 0,
    });
  }
  const m = readMdl(bytes, name);
  const b = Array.from(m.bounds, (v) => +v.toFixed(4));
  return [
    {
      title: 'Model',
      facts: {
        magic: m.magic,
        vertexBuffers: m.vertexBuffers.length,
        vertices: m.vertexBuffers.reduce((s, v) => s + v.vertexCount, 0),
        ...lodVertexCounts(m),
        indexBuffers: m.indexBuffers.length,
        geometries: m.geometries.length,
        lodLevels: m.geometries.reduce((s, g) => s + g.lods.length, 0),
        morphs: m.morphs.length,
        bones: m.bones.length,
        boundsMin: b.slice(0, 3).join(', '),
        boundsMax: b.slice(3).join(', '),
        geometryCenters: m.geometryCenters.length / 3,
      },
    },
    {
      title: 'Vertex buffers',
      columns: ['#', 'vertices', 'stride', 'elements', 'morph range'],
      rows: m.vertexBuffers.map((v, i) => [
        i,
        v.vertexCount,
        v.stride,
        v.elements
          .map((e) => `${SEMANTIC_NAMES[e.semantic] ?? e.semantic}${e.index}:${TYPE_NAMES[e.type]}`)
          .join(' '),
        `${v.morphRangeStart}+${v.morphRangeCount}`,
      ]),
    },
    {
      title: 'Geometries',
      columns: ['#', 'lod', 'distance', 'primitive', 'vb', 'ib', 'start', 'count', 'bone mapping'],
      rows: m.geometries.flatMap((g, gi) =>
        g.lods.map((l, li) => [
          gi,
          li,
          l.distance,
          PRIMITIVE_NAMES[l.primitiveType],
          l.vertexBuffer,
          l.indexBuffer,
          l.indexStart,
          l.indexCount,
          g.boneMapping.length,
        ]),
      ),
    },
    {
      title: 'Bones',
      columns: ['#', 'name', 'parent', 'collision'],
      rows: m.bones.map((bn, i) => [
        i,
        bn.name,
        bn.parent === i ? '(root)' : m.bones[bn.parent].name,
        bn.collisionMask,
      ]),
    },
  ];
}

/**
 * Vertices drawn: each geometry's LOD 0 (what a viewer shows up close, and what a glTF client
 * without MSFT_lod shows) and every LOD level together (what a client that drew all levels would
 * show), counting the distinct vertices of each geometry's level.
 *
 * ```ts
 * lodVertexCounts(readMdl(bytes)); // Jack: { lod0Vertices: 4640, allLodVertices: 12196 }
 * ```
 */
export function lodVertexCounts(m: MdlModel): { lod0Vertices: number; allLodVertices: number } {
  const stamps = m.vertexBuffers.map((vb) => new Int32Array(vb.vertexCount));
  let stamp = 0;
  let lod0Vertices = 0;
  let allLodVertices = 0;
  for (const g of m.geometries) {
    g.lods.forEach((lod, level) => {
      const seen = stamps[lod.vertexBuffer];
      const view = indexView(m.indexBuffers[lod.indexBuffer]);
      const end = Math.min(view.length, lod.indexStart + lod.indexCount);
      stamp++;
      let n = 0;
      for (let i = lod.indexStart; i < end; i++) {
        const v = view[i];
        if (v < seen.length && seen[v] !== stamp) {
          seen[v] = stamp;
          n++;
        }
      }
      if (level === 0) lod0Vertices += n;
      allLodVertices += n;
    });
  }
  return { lod0Vertices, allLodVertices };
}
