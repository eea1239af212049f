/**
 * Packages as an input of the `unreal3d` format: `unpack` (the CLI converts each mesh's sources),
 * `import` of a package (one mesh: `options.mesh`, else the first) and `inspect` (exports by
 * class, meshes, textures, imports).
 */
import {
  type FileSet,
  FormatError,
  type ImportOptions,
  type ImportResult,
  type InspectSection,
  MemoryResources,
  type Warning,
} from '@gltf-legacy/core';
import { looksLikePackage } from './header.js';
import { readPackage, type UnrealPackage, VERTEX_MESH_CLASSES } from './package.js';
import { textureFormatName } from './texture.js';
import { packageMeshes, unpackPackage } from './unpack.js';

/** Classes of meshes this reader names but does not convert. */
export const SKIPPED_MESH_CLASSES = ['SkeletalMesh'] as const;

/** File extensions of UE1 packages (code, textures, maps, sounds, music). */
export const PACKAGE_EXTENSIONS = ['.u', '.utx', '.unr', '.uax', '.umx'] as const;

/** True for a package file name (by extension). */
export function isPackageName(name: string): boolean {
  const l = name.toLowerCase();
  return PACKAGE_EXTENSIONS.some((e) => l.endsWith(e));
}

/** True when `bytes` are a package (`C1 83 2A 9E`). */
export { looksLikePackage };

/** The one-line answer for a package without a vertex mesh (code, a map, textures only). */
export function noMeshMessage(pkg: UnrealPackage, name: string): string {
  const counts = new Map<string, number>();
  for (let i = 0; i < pkg.exportCount; i++)
    counts.set(pkg.exportClass(i), (counts.get(pkg.exportClass(i)) ?? 0) + 1);
  const skipped = SKIPPED_MESH_CLASSES.flatMap((c) =>
    pkg.exportsOf(c).map((i) => `${c} ${pkg.exportName(i)}`),
  );
  const what = ['Class', 'Texture', 'Level', 'Sound', 'Music']
    .filter((c) => counts.has(c))
    .map((c) => `${counts.get(c)} ${c}`)
    .join(', ');
  if (skipped.length)
    return `${name} holds no vertex mesh: ${skipped.join(', ')} (skeletal meshes are not converted yet)${what ? `; also ${what}` : ''}`;
  return `${name} holds no mesh to convert (${what || `${pkg.exportCount} exports`})`;
}

/**
 * Imports one mesh of a package through its sources (`options.mesh`, any case; default the first).
 *
 * ```ts
 * const { document } = await importPackage(bytes, 'HeadHunter.u', { mesh: 'Skull' }, importFiles);
 * ```
 */
export async function importPackage(
  bytes: Uint8Array,
  name: string,
  options: ImportOptions,
  importFiles: (files: FileSet, options: ImportOptions) => Promise<ImportResult>,
): Promise<ImportResult> {
  const pkg = readPackage(bytes, name);
  const indices = packageMeshes(pkg);
  const meshes = indices.map((i) => pkg.exportName(i));
  if (!meshes.length) throw new FormatError(noMeshMessage(pkg, name), { code: 'NO_MESH', file: name });
  const wanted = typeof options.mesh === 'string' ? options.mesh : meshes[0];
  const k = meshes.findIndex((m) => m.toLowerCase() === wanted.toLowerCase());
  const mesh = meshes[k];
  if (k < 0)
    throw new FormatError(`${name} has no mesh ${wanted} (meshes: ${meshes.join(', ')})`, {
      code: 'NO_MESH',
      file: name,
      field: 'mesh',
    });
  const entries = unpackPackage(pkg, {
    meshes: [indices[k]],
    skins: options.textures !== false,
  });
  const files: FileSet = new Map();
  for (const n of [`${mesh}_d.3d`, `${mesh}_a.3d`, `${mesh}.uc`]) {
    const b = entries.get(n);
    if (b) files.set(n, b);
  }
  // the caller's options with these on top (an object inheriting them: copying every option
  // was a measurable part of a package mesh's fixed cost, issue 28)
  const inner: ImportOptions = Object.create(options);
  // the package's own folder tree: where textures of the packages it imports are looked up
  inner.containerResources = options.containerResources ?? options.resources;
  inner.containerPath = options.containerResources ? options.containerPath : (options.resourcePath ?? name);
  inner.main = `${mesh}_d.3d`;
  inner.resources = new MemoryResources(entries, name);
  inner.resourcePath = inner.main;
  return importFiles(files, inner);
}

/**
 * What converting a package leaves out: `MESH_SKIPPED` for each skeletal mesh, and the one-line
 * answer for a package without a vertex mesh.
 *
 * ```ts
 * packageNotes(bytes, 'C4.u').warnings[0].code; // 'MESH_SKIPPED'
 * ```
 */
export function packageNotes(bytes: Uint8Array, name: string): { warnings: Warning[]; empty?: string } {
  const pkg = readPackage(bytes, name);
  const warnings: Warning[] = [];
  for (const c of SKIPPED_MESH_CLASSES)
    for (const i of pkg.exportsOf(c))
      warnings.push({
        code: 'MESH_SKIPPED',
        message: `${name}: ${c} ${pkg.exportName(i)} was skipped (skeletal meshes are not converted yet)`,
        count: 1,
      });
  return { warnings, empty: packageMeshes(pkg).length ? undefined : noMeshMessage(pkg, name) };
}

/** `inspect` of a package. */
export function inspectPackage(bytes: Uint8Array, name: string): InspectSection[] {
  const pkg = readPackage(bytes, name);
  const { header } = pkg;
  const counts = new Map<string, number>();
  for (let i = 0; i < pkg.exportCount; i++)
    counts.set(pkg.exportClass(i), (counts.get(pkg.exportClass(i)) ?? 0) + 1);
  const sections: InspectSection[] = [
    {
      title: `${name} (Unreal package)`,
      facts: {
        version: header.version,
        licensee: header.licensee,
        flags: `0x${header.flags.toString(16)}`,
        names: header.nameCount,
        exports: header.exportCount,
        imports: header.importCount,
        generations: header.generations.length,
      },
      columns: ['class', 'exports'],
      rows: [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([c, n]) => [c, n]),
    },
  ];
  const meshRows: (string | number)[][] = [];
  for (let i = 0; i < pkg.exportCount; i++) {
    const cls = pkg.exportClass(i);
    if ((VERTEX_MESH_CLASSES as readonly string[]).includes(cls)) {
      const m = pkg.readMesh(i);
      meshRows.push([
        m.name,
        cls,
        m.frameVerts,
        m.animFrames,
        m.triPolyFlags.length - m.specialFaces,
        m.specialFaces,
        m.sequences.map((s) => `${s.name} ${s.startFrame}+${s.numFrames}@${s.rate}`).join(', ') || '(none)',
        m.textures
          .map((t, k) => (t ? `${k}:${pkg.refName(t)}` : ''))
          .filter(Boolean)
          .join(' '),
      ]);
    } else if ((SKIPPED_MESH_CLASSES as readonly string[]).includes(cls)) {
      meshRows.push([
        pkg.exportName(i),
        cls,
        '',
        '',
        '',
        '',
        'skipped: skeletal meshes are not converted',
        '',
      ]);
    }
  }
  sections.push(
    meshRows.length
      ? {
          title: 'meshes',
          columns: ['mesh', 'class', 'vertices', 'frames', 'triangles', 'special', 'sequences', 'textures'],
          rows: meshRows,
        }
      : { title: 'meshes', facts: { answer: noMeshMessage(pkg, name) } },
  );
  const texRows: (string | number)[][] = [];
  for (const i of pkg.exportsOf('Texture')) {
    const t = pkg.readTexture(i);
    const m = t.mips[0];
    texRows.push([
      pkg.refPath(i + 1),
      textureFormatName(t.format),
      m ? `${m.width}×${m.height}` : '',
      t.mips.length,
      t.palette ? pkg.refName(t.palette) : '',
      t.masked ? 'yes' : '',
    ]);
  }
  if (texRows.length)
    sections.push({
      title: 'textures',
      columns: ['texture', 'format', 'size', 'mips', 'palette', 'masked'],
      rows: texRows,
    });
  if (pkg.imports.length)
    sections.push({
      title: 'imports',
      columns: ['object', 'class', 'package'],
      rows: pkg.imports.map((imp, k) => [pkg.refPath(-k - 1), imp.className, imp.classPackage]),
    });
  return sections;
}

export { unpackPackage };
