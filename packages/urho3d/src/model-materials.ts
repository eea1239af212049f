/**
 * Which materials an imported `.mdl` gets. The `.mdl` names none: prefabs and scenes list one per
 * geometry; a lone model takes `options.material`, else `Materials/NAME.xml` (beside the model,
 * under the resource directory — also mirroring the model's subfolder, `Models/A/B.mdl` →
 * `Materials/A/B.xml`), else the only material in the model folder's `Materials/`, else the
 * placeholders the importer made.
 */
import type { Document, Material, Mesh } from '@gltf-transform/core';
import { baseName, dirOf } from '@gltf-legacy/core';
import type { UrhoMaterialLoader } from './material-import.js';
import { subPathStem } from './resource-dirs.js';

/**
 * Gives the primitives of `meshes` (one imported model, every LOD level) the material of their
 * geometry (`extras.urho3d.geometry`); geometries without one keep their placeholder. Placeholders
 * no primitive uses any more are disposed.
 */
export function assignGeometryMaterials(doc: Document, meshes: Mesh[], materials: (Material | null)[]): void {
  const replaced = new Set<Material>();
  for (const mesh of meshes)
    for (const prim of mesh.listPrimitives()) {
      const g = (prim.getExtras() as any)?.urho3d?.geometry;
      const m = Number.isInteger(g) ? materials[g] : undefined;
      if (!m) continue;
      const old = prim.getMaterial();
      if (old && old !== m) replaced.add(old);
      prim.setMaterial(m);
    }
  for (const old of replaced)
    if (old.listParents().every((p) => p === doc.getRoot()) && (old.getExtras() as any)?.urho3d?.placeholder)
      old.dispose();
}

/**
 * Finds and loads the material of a lone model (see the module comment). `modelPath` is the
 * model's root-relative path. Returns null (placeholders stay) when no candidate exists; warns
 * `MATERIAL_MISSING` only for an explicit `material` that was not found.
 */
export async function loneModelMaterial(
  loader: UrhoMaterialLoader,
  modelPath: string,
  explicit: string | undefined,
): Promise<Material | null> {
  const dirs = loader.dirs;
  if (explicit) return loader.load(explicit, modelPath);
  const modelDir = dirOf(modelPath);
  const stem = baseName(modelPath).replace(/\.[^.]*$/, '');
  const resourceName = dirs.resourceName(modelPath);
  const candidates: [string, string][] = [
    [`Materials/${stem}.xml`, modelDir],
    [`${stem}.xml`, modelDir],
  ];
  for (const d of dirs.dirs) {
    candidates.push([`Materials/${stem}.xml`, d]);
    candidates.push([`Materials/${subPathStem(resourceName)}.xml`, d]);
  }
  for (const [ref, dir] of candidates) {
    const found = await dirs.tryRead(ref, dir, modelPath);
    if (found && isMaterialFile(found.bytes))
      return loader.fromBytes(found.bytes, dirs.resourceName(found.path), found.path);
  }
  const inFolder = (
    await dirs.resources.list(modelDir ? `${modelDir}/Materials` : 'Materials').catch(() => [])
  ).filter((p) => p.toLowerCase().endsWith('.xml'));
  const materials: { path: string; bytes: Uint8Array }[] = [];
  for (const p of inFolder) {
    const bytes = await dirs.resources.read(p);
    if (bytes && isMaterialFile(bytes)) materials.push({ path: p, bytes });
  }
  if (materials.length === 1)
    return loader.fromBytes(materials[0].bytes, dirs.resourceName(materials[0].path), materials[0].path);
  return null;
}

/** True for an XML file whose root element is `<material>`. */
export function isMaterialFile(bytes: Uint8Array): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 2048)).replace(/^\ufeff/, '');
  return /^\s*(?:<\?xml[^?]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*<material[\s>/]/i.test(head);
}
