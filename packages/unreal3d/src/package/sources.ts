/**
 * A package mesh as the files it was compiled from: `NAME_d.3d` (triangles with UVs, type byte
 * from the material's PolyFlags, skin slot), `NAME_a.3d` (the frames: the package holds the same
 * packed words, or Deus Ex's 4 × i16) and `NAME.uc` (MESH IMPORT/ORIGIN/SEQUENCE/NOTIFY, MESHMAP
 * SCALE/SETTEXTURE, TEXTURE IMPORT). These go through the `_d.3d`/`_a.3d`/`.uc` importer unchanged,
 * so a package mesh and its sources give the same glTF, and `--to unreal3d` writes sources UCC
 * rebuilds.
 */
import { FormatError } from '@gltf-legacy/core';
import { type AnivLayout, readAniv, type UnrealAniv } from '../aniv.js';
import {
  createDataHeader,
  type DataPolys,
  PolyStyle,
  PolyTypeFlag,
  type UnrealData,
  writeData,
} from '../data.js';
import { rememberParsed } from '../parsed-files.js';
import { ucNumber, type UcMesh, writeUc } from '../uc.js';
import { framedAniv, type PackageMesh, PolyFlags } from './lodmesh.js';

/** The `_d.3d` type byte the mesh importer turns into these PolyFlags (its inverse). */
export function polyFlagsToType(flags: number): number {
  let style: number = PolyStyle.NORMAL;
  if (flags & PolyFlags.INVISIBLE) style = PolyStyle.WEAPON;
  else if (flags & PolyFlags.MODULATED) style = PolyStyle.MODULATED;
  else if (flags & PolyFlags.MASKED) style = PolyStyle.MASKED;
  else if (flags & PolyFlags.TRANSLUCENT) style = PolyStyle.TRANSLUCENT;
  else if (flags & PolyFlags.TWO_SIDED) style = PolyStyle.TWO_SIDED;
  if (flags & PolyFlags.UNLIT) style |= PolyTypeFlag.UNLIT;
  if (flags & PolyFlags.FLAT) style |= PolyTypeFlag.FLAT;
  if (flags & PolyFlags.ENVIRONMENT) style |= PolyTypeFlag.ENVIRONMENT;
  if (flags & PolyFlags.NO_SMOOTH) style |= PolyTypeFlag.NO_SMOOTH;
  return style;
}

/** The shortest decimal that reads back to the same float32 (package floats are float32). */
export function f32Text(v: number): string {
  const f = Math.fround(v);
  for (let p = 1; p <= 9; p++) {
    const s = Number(f.toPrecision(p));
    if (Math.fround(s) === f) return ucNumber(s);
  }
  return ucNumber(f);
}

/**
 * A skin slot of the mesh: slot number, texture name and the file the `.uc` imports it from; a
 * texture of another package has no file and its whole path as name (`Botpack.Skins.JSkull`:
 * the `.uc` names it, the importer finds that package in the game folder).
 */
export interface SourceSkin {
  num: number;
  name: string;
  /** Package-folder-relative file (`Textures/SKIN_Skull.pcx`); absent for another package's texture. */
  file?: string;
  masked: boolean;
}

/** Skins the classes using the mesh set in their defaults (`Skin=`, `MultiSkins(n)=`). */
export interface ClassSkins {
  skin?: SourceSkin;
  multiSkins: SourceSkin[];
}

/** The source files of a package mesh. */
export interface MeshSources {
  data: UnrealData;
  aniv: UnrealAniv;
  uc: string;
  /** The `_a.3d` bytes (the package's frame words behind the 4-byte header). */
  anivBytes: Uint8Array;
  /** Base name of the files (the mesh's object name). */
  base: string;
  /** Reading the written `_d.3d` gives `data` again, without a warning (every index below the vertex count). */
  dataExact: boolean;
}

/**
 * Builds the `_d.3d`/`_a.3d`/`.uc` file models of a package mesh. `skins` are the slots the `.uc`
 * sets (their files are written by the caller).
 *
 * ```ts
 * const { data, aniv, uc } = meshSources(pkg.readMesh(i), skins);
 * ```
 */
export function meshSources(
  mesh: PackageMesh,
  skins: SourceSkin[] = [],
  file?: string,
  defaults: ClassSkins = { multiSkins: [] },
): MeshSources {
  const nv = mesh.frameVerts;
  const stride = mesh.layout === 'deusex' ? 8 : 4;
  const n = mesh.triPolyFlags.length;
  if (nv > 0xffff || nv * stride > 0xffff || n > 0xffff || mesh.animFrames > 0xffff)
    throw new FormatError(
      `mesh ${mesh.name} has ${nv} vertices × ${mesh.animFrames} frames and ${n} triangles: more than _d.3d/_a.3d can hold`,
      { code: 'TOO_MANY_VERTICES', file, field: `${mesh.name}.frameVerts` },
    );
  if (nv === 0 || mesh.animFrames === 0 || n === 0)
    throw new FormatError(`mesh ${mesh.name} has no vertices, frames or triangles`, {
      code: 'NO_TRIANGLES',
      file,
      field: mesh.name,
    });
  // the mesh's vertex and UV arrays are the model's (not copied); the byte columns share a buffer
  const bytes = new Uint8Array(4 * n);
  const polys: DataPolys = {
    vertices: mesh.triVertices,
    types: bytes.subarray(0, n),
    colors: bytes.subarray(n, 2 * n),
    uvs: mesh.triUvs,
    textures: bytes.subarray(2 * n, 3 * n),
    flags: bytes.subarray(3 * n),
  };
  for (let i = 0; i < n; i++) {
    polys.types[i] = polyFlagsToType(mesh.triPolyFlags[i]);
    polys.textures[i] = Math.max(0, Math.min(255, mesh.triTextures[i]));
  }
  const data: UnrealData = { header: createDataHeader(n, nv), polys, trailing: new Uint8Array(0) };
  let dataExact = true;
  const vertices = polys.vertices;
  for (let k = 0, m = vertices.length; k < m; k++) if (vertices[k] >= nv) dataExact = false;
  // the frames are the package's bytes behind a 4-byte _a.3d header
  let anivBytes = framedAniv(mesh.verts, mesh.animFrames, nv * stride);
  if (!anivBytes) {
    anivBytes = new Uint8Array(4 + mesh.verts.length);
    anivBytes[0] = mesh.animFrames & 0xff;
    anivBytes[1] = mesh.animFrames >> 8;
    anivBytes[2] = (nv * stride) & 0xff;
    anivBytes[3] = (nv * stride) >> 8;
    anivBytes.set(mesh.verts, 4);
  }
  const layout: AnivLayout = mesh.layout;
  const aniv = readAniv(anivBytes, `${mesh.name}_a.3d`, { numVertices: nv, layout, strict: true });
  // read strictly: the importer's (lenient, layout-detecting) read of these bytes gives the same
  rememberParsed(anivBytes, aniv);
  const ucMesh: UcMesh = {
    name: mesh.name,
    unmirror: false,
    zeroTex: false,
    origin: {
      x: Number(f32Text(mesh.origin[0])),
      y: Number(f32Text(mesh.origin[1])),
      z: Number(f32Text(mesh.origin[2])),
      pitch: mesh.rotOrigin[0] / 256,
      yaw: mesh.rotOrigin[1] / 256,
      roll: mesh.rotOrigin[2] / 256,
    },
    sequences: mesh.sequences.map((s) => ({
      name: s.name,
      startFrame: s.startFrame,
      numFrames: s.numFrames,
      rate: Number(f32Text(s.rate)),
      group: s.group.toLowerCase() === 'none' ? undefined : s.group,
      notifies: s.notifies.map((x) => ({ time: Number(f32Text(x.time)), function: x.function })),
    })),
    scale: [Number(f32Text(mesh.scale[0])), Number(f32Text(mesh.scale[1])), Number(f32Text(mesh.scale[2]))],
    textures: [],
    directives: [],
  };
  const extra: string[] = [];
  const imported = new Set<string>();
  for (const s of [...skins, ...(defaults.skin ? [defaults.skin] : []), ...defaults.multiSkins]) {
    if (!s.file || imported.has(s.name.toLowerCase())) continue;
    imported.add(s.name.toLowerCase());
    extra.push(
      `#exec TEXTURE IMPORT NAME=${s.name} FILE=${s.file.replace(/\//g, '\\')} GROUP=Skins${s.masked ? ' FLAGS=2' : ''}`,
    );
  }
  for (const s of skins)
    extra.push(`#exec MESHMAP SETTEXTURE MESHMAP=${mesh.name} NUM=${s.num} TEXTURE=${s.name}`);
  let uc = writeUc(ucMesh, { fileBase: mesh.name, extraDirectives: extra });
  // the classes' Skin / MultiSkins defaults go into the class's defaultproperties, as in a .uc
  const lines = [
    ...(defaults.skin ? [`    Skin=Texture'${defaults.skin.name}'`] : []),
    ...defaults.multiSkins.map((s) => `    MultiSkins(${s.num})=Texture'${s.name}'`),
  ];
  if (lines.length)
    uc = uc.replace(`    Mesh=${mesh.name}\r\n}`, `    Mesh=${mesh.name}\r\n${lines.join('\r\n')}\r\n}`);
  return { data, aniv, uc, anivBytes, base: mesh.name, dataExact };
}

/** The three files of {@link meshSources} as bytes, by name. */
export function meshSourceFiles(sources: MeshSources): [string, Uint8Array][] {
  const { base } = sources;
  const dataBytes = writeData(sources.data);
  if (sources.dataExact) rememberParsed(dataBytes, sources.data);
  return [
    [`${base}_d.3d`, dataBytes],
    [`${base}_a.3d`, sources.anivBytes],
    [`${base}.uc`, new TextEncoder().encode(sources.uc)],
  ];
}
