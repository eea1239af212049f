/**
 * The package as one plain object, for tools that walk a whole file model (the fuzzer's file-model
 * tier): the tables and every mesh and texture read. Writing packages is not supported (not asked:
 * UCC builds them); {@link writePackageModel} returns the bytes the model was read from, so a
 * read → write → read trip checks the reader only.
 */
import type { PackageHeader } from './header.js';
import type { PackageMesh } from './lodmesh.js';
import type { PackageExport, PackageImport } from './objects.js';
import { readPackage } from './package.js';
import type { PackageTexture } from './texture.js';
import { packageMeshes } from './unpack.js';

/** Everything {@link readPackageModel} reads. */
export interface PackageModel {
  header: PackageHeader;
  names: string[];
  imports: PackageImport[];
  exports: PackageExport[];
  meshes: PackageMesh[];
  textures: PackageTexture[];
  /** The package's bytes (what {@link writePackageModel} returns). */
  bytes: Uint8Array;
}

/**
 * Reads a package and every vertex mesh and texture in it.
 *
 * ```ts
 * const model = readPackageModel(bytes, 'HeadHunter.u');
 * model.meshes[0].name; // 'Skull'
 * ```
 */
export function readPackageModel(bytes: Uint8Array, name?: string): PackageModel {
  const pkg = readPackage(bytes, name);
  return {
    header: pkg.header,
    names: pkg.names,
    imports: pkg.imports,
    exports: pkg.exports,
    meshes: packageMeshes(pkg).map((i) => pkg.readMesh(i)),
    textures: pkg.exportsOf('Texture').map((i) => pkg.readTexture(i)),
    bytes,
  };
}

/** The bytes a {@link PackageModel} was read from (packages are not written). */
export function writePackageModel(model: PackageModel): Uint8Array {
  return model.bytes;
}
