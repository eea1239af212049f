/**
 * A package as a container of source files: every vertex mesh becomes `MESH_d.3d`, `MESH_a.3d`,
 * `MESH.uc` (see `sources.ts`) and its skins in the package `Textures/NAME.pcx` (P8, with its
 * palette) or `Textures/NAME.png` (other formats); the CLI converts them like any container entry.
 */
import type { FileSet } from '@gltf-legacy/core';
import { encodePcxIndexed, encodePng } from '@gltf-legacy/textures';
import type { UnrealPackage } from './package.js';
import { VERTEX_MESH_CLASSES } from './package.js';
import { type MeshClassSkins, meshClassSkins } from './class-defaults.js';
import { type ClassSkins, meshSourceFiles, meshSources, type SourceSkin } from './sources.js';
import { decodeTextureMip } from './texture.js';

/** A texture of the package written as a file: PCX for P8 (indices and palette as stored), else PNG. */
export interface PackageTextureFile {
  name: string;
  /** `Textures/NAME.pcx` or `Textures/NAME.png`. */
  file: string;
  bytes: Uint8Array;
  masked: boolean;
}

/**
 * Writes texture export `i` as an image file, or undefined when its format is not decoded
 * (P8, RGBA8 and DXT1 are).
 *
 * ```ts
 * packageTextureFile(pkg, pkg.findExport('SKIN_Skull', 'Texture'))?.file; // 'Textures/SKIN_Skull.pcx'
 * ```
 */
export function packageTextureFile(pkg: UnrealPackage, i: number): PackageTextureFile | undefined {
  const tex = pkg.readTexture(i);
  const mip = tex.mips[0];
  if (!mip) return undefined;
  const palIndex = tex.palette > 0 ? tex.palette - 1 : -1;
  const palette =
    palIndex >= 0 && palIndex < pkg.exportCount && pkg.exportClass(palIndex) === 'Palette'
      ? pkg.readPalette(palIndex)
      : undefined;
  const name = tex.name;
  if (tex.format === 0) {
    if (!palette || mip.data.length < mip.width * mip.height || mip.width <= 0 || mip.height <= 0)
      return undefined;
    const rgb = new Uint8Array(768);
    for (let c = 0; c < 256 && 4 * c + 2 < palette.length; c++) {
      rgb[3 * c] = palette[4 * c];
      rgb[3 * c + 1] = palette[4 * c + 1];
      rgb[3 * c + 2] = palette[4 * c + 2];
    }
    const bytes = encodePcxIndexed(mip.width, mip.height, mip.data.subarray(0, mip.width * mip.height), rgb);
    return { name, file: `Textures/${name}.pcx`, bytes, masked: tex.masked };
  }
  const rgba = decodeTextureMip(tex, palette, tex.masked);
  if (!rgba) return undefined;
  return { name, file: `Textures/${name}.png`, bytes: encodePng(rgba), masked: tex.masked };
}

/** Options of {@link unpackPackage}. */
export interface UnpackPackageOptions {
  /** Export indices of the meshes to unpack (default: every vertex mesh). */
  meshes?: number[];
  /**
   * Write the package's skins and read the classes' Skin/MultiSkins defaults (default true; false
   * when the caller converts without textures: the `.uc` still names the slots).
   */
  skins?: boolean;
}

export const UNPACK_PACKAGE_DEFAULTS: Required<Omit<UnpackPackageOptions, 'meshes'>> = { skins: true };

/** The vertex meshes of a package (export indices), in table order. */
export function packageMeshes(pkg: UnrealPackage): number[] {
  return pkg.exportsOfClasses(VERTEX_MESH_CLASSES);
}

/**
 * The files of every vertex mesh of a package: sources and the skins found in the package.
 *
 * ```ts
 * [...unpackPackage(readPackage(bytes, 'HeadHunter.u')).keys()]; // ['Skull_d.3d', 'Skull_a.3d', 'Skull.uc', 'Textures/SKIN_Skull.pcx']
 * ```
 */
export function unpackPackage(pkg: UnrealPackage, options: UnpackPackageOptions = {}): FileSet {
  const meshes = options.meshes;
  const withSkins = options.skins ?? UNPACK_PACKAGE_DEFAULTS.skins;
  const out: FileSet = new Map();
  const textures = new Map<number, PackageTextureFile | undefined>();
  for (const i of meshes ?? packageMeshes(pkg)) {
    const mesh = pkg.readMesh(i);
    const skin = (num: number, ref: number): SourceSkin => {
      const name = pkg.refName(ref);
      let file: PackageTextureFile | undefined;
      if (withSkins && ref > 0 && pkg.exportClass(ref - 1) === 'Texture') {
        if (!textures.has(ref)) textures.set(ref, packageTextureFile(pkg, ref - 1));
        file = textures.get(ref);
      }
      if (file) {
        out.set(file.file, file.bytes);
        return { num, name, file: file.file, masked: file.masked };
      }
      // another package's texture (an import: Botpack.Skins.X): named by its whole path, found
      // by the importer in the game folder as the engine finds it
      if (ref < 0) return { num, name: pkg.refPath(ref), masked: false };
      // an export of this package that is not a texture we write: named, no file (TEXTURE_MISSING)
      return { num, name, masked: false };
    };
    const skins: SourceSkin[] = [];
    for (const [num, ref] of mesh.textures.entries()) if (ref !== 0) skins.push(skin(num, ref));
    // Skin / MultiSkins defaults of the classes whose Mesh is this one
    const cs: MeshClassSkins = withSkins ? meshClassSkins(pkg, i) : { classes: [], multiSkins: new Map() };
    const defaults: ClassSkins = {
      skin: cs.skin === undefined ? undefined : skin(0, cs.skin),
      multiSkins: [...cs.multiSkins].sort((a, b) => a[0] - b[0]).map(([num, ref]) => skin(num, ref)),
    };
    for (const [name, bytes] of meshSourceFiles(meshSources(mesh, skins, pkg.file, defaults)))
      out.set(name, bytes);
  }
  return out;
}
