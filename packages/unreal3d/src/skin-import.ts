/**
 * Import mapping of skins: the texture files a mesh's `.uc` files name → `baseColorTexture` of the
 * material of each texture slot, the original file kept for a byte-exact export.
 */
import {
  dirOf,
  FormatError,
  keepTextureSource,
  ResourceError,
  type ResourceReader,
  resolveReference,
  type WarningCollector,
} from '@gltf-legacy/core';
import { TEXTURE_REBUILDER } from '@gltf-legacy/textures';
import { type Document, type Material, type Texture, TextureInfo } from '@gltf-transform/core';
import { PolyStyle, PolyTypeFlag } from './data.js';
import { ucBaseDir } from './discovery.js';
import type { FoundPackageTexture, GameTextureLookup } from './package/game-lookup.js';
import { skinImage } from './skin-image.js';
import {
  type SkinCandidate,
  skinCandidates,
  type UcTextureImport,
  ucDefaultSkins,
  ucTextureImports,
} from './skins.js';
import type { UcFile } from './uc.js';

/** A `.uc` that describes the mesh, with its root-relative path. */
export interface SkinUcSource {
  path: string;
  parsed: UcFile;
  meshName: string;
}

/** What {@link attachSkins} reads. */
export interface SkinImportContext {
  resources: ResourceReader;
  /** Root-relative folder `.uc` paths are relative to when the `.uc` is not in `Classes/`. */
  packageDir: string;
  /** Every `.uc` that describes the mesh, the primary first. */
  sources: SkinUcSource[];
  /**
   * Where a reference to another package's texture (`Texture'Botpack.Skins.X'` with no
   * `TEXTURE IMPORT` of that name) is looked up: that package in the game folder.
   */
  game?: GameTextureLookup;
}

/** What `material.extras.unreal3d.skin` records. */
export interface SkinExtras {
  texture: string;
  /** `FILE=` as written. */
  file?: string;
  /** The `.uc` (root-relative) and its line that assign the texture, and the import line. */
  uc: string;
  line: string;
  importLine?: string;
  source: SkinCandidate['source'];
  /** Root-relative path read (absent when missing). */
  path?: string;
  /** `Pkg.Group.Name` of a texture read from another package (`path` is that package). */
  object?: string;
  /**
   * The skin is assigned or imported by a `.uc` other than the primary one (a class file's
   * `Skin=`/`MultiSkins`/`TEXTURE IMPORT`), or read from another package: the primary `.uc` alone
   * would not show it, so export writes a `.uc` that imports it under its own name and file.
   */
  elsewhere?: true;
  missing?: true;
}

interface Chosen {
  cand: SkinCandidate;
  imp?: UcTextureImport;
  impSource?: SkinUcSource;
  found?: string;
  /** The texture, when it came from another package. */
  packaged?: FoundPackageTexture;
}

/**
 * Resolves and embeds the skins of every material the importer made (`extras.unreal3d.textureNum`):
 * the slot's candidates in the engine's order, the first whose `FILE=` exists wins. A missing file
 * warns `TEXTURE_MISSING` (naming the paths tried), an unreadable one `TEXTURE_INVALID`; a
 * reference leaving the folder tree throws `ResourceError` naming the `.uc`.
 *
 * ```ts
 * await attachSkins(document, { resources, packageDir: 'MushMatch', sources }, warnings);
 * ```
 */
export async function attachSkins(
  doc: Document,
  ctx: SkinImportContext,
  warnings: WarningCollector,
): Promise<void> {
  if (!ctx.sources.length) return;
  const imports = ctx.sources.map((s) => ucTextureImports(s.parsed));
  const sources = ctx.sources.map((s) => ({ ...s, defaults: ucDefaultSkins(s.parsed.text) }));
  const meshEx = doc.getRoot().listMeshes()[0]?.getExtras() as { unreal3d?: { uc?: { zeroTex?: boolean } } };
  const zeroTex = meshEx?.unreal3d?.uc?.zeroTex === true;
  const cache = new Map<string, Texture>();
  const failed = new Set<string>();
  for (const m of doc.getRoot().listMaterials()) {
    const ex = (m.getExtras() as { unreal3d?: Record<string, unknown> }).unreal3d;
    if (!ex || typeof ex.textureNum !== 'number') continue;
    const slot = zeroTex ? 0 : ex.textureNum;
    const type = typeof ex.type === 'number' ? ex.type : 0;
    const cands = skinCandidates(sources, slot);
    if (!cands.length) continue;
    const tried: string[] = [];
    const problems: string[] = [];
    let chosen: Chosen | undefined;
    let firstNamed: Chosen | undefined;
    for (const cand of cands) {
      const own = imports[cand.uc].get(cand.name.toLowerCase());
      const at = own ? cand.uc : imports.findIndex((i) => i.has(cand.name.toLowerCase()));
      const imp = own ?? (at >= 0 ? imports[at].get(cand.name.toLowerCase()) : undefined);
      const c: Chosen = { cand, imp, impSource: at >= 0 ? ctx.sources[at] : undefined };
      firstNamed ??= c;
      if (!imp && cand.ref && ctx.game) {
        // another package's texture: that package, found in the game folder
        const answer = await ctx.game.find(cand.ref);
        for (const t of answer.tried) if (!tried.includes(t)) tried.push(t);
        if (answer.problem) problems.push(answer.problem);
        if (answer.found) {
          c.found = answer.found.path;
          c.packaged = answer.found;
          chosen = c;
          break;
        }
        continue;
      }
      if (!imp || !c.impSource) continue;
      const base = ucBaseDir(c.impSource.path, ctx.packageDir);
      const path = resolveReference(imp.file, base, { file: c.impSource.path });
      tried.push(path);
      const found = await ctx.resources.find(path);
      if (found) {
        c.found = found;
        chosen = c;
        break;
      }
    }
    const pick = chosen ?? (firstNamed as Chosen);
    const skin: SkinExtras = {
      texture: pick.imp?.name ?? pick.cand.name,
      uc: ctx.sources[pick.cand.uc].path,
      line: pick.cand.line.trim(),
      source: pick.cand.source,
    };
    if (pick.imp) {
      skin.file = pick.imp.file;
      skin.importLine = pick.imp.raw.trim();
    }
    if (pick.found) skin.path = pick.found;
    else skin.missing = true;
    if (pick.packaged) skin.object = pick.packaged.object;
    if (pick.packaged || pick.cand.uc !== 0 || (pick.impSource && pick.impSource !== ctx.sources[0]))
      skin.elsewhere = true;
    m.setExtras({ ...m.getExtras(), unreal3d: { ...ex, skin } });
    if (!pick.found) {
      const what = pick.cand.ref ? `${pick.cand.ref} (package ${pick.cand.ref.split('.')[0]})` : skin.texture;
      const where = pick.cand.ref && ctx.game ? ctx.game.resources.label : ctx.resources.label;
      warnings.warn(
        'TEXTURE_MISSING',
        tried.length
          ? `material ${m.getName()}: texture ${what} not found (tried ${tried.join(', ')} in ${where})${problems.length ? `: ${problems.join('; ')}` : ''}`
          : `material ${m.getName()}: texture ${skin.texture} is imported by no .uc of this package (${skin.uc}: ${skin.line})`,
      );
      continue;
    }
    const style = type & 0x0f;
    const masked =
      style === PolyStyle.MASKED || pick.imp?.masked === true || pick.packaged?.file.masked === true;
    const key = `${pick.found.toLowerCase()}|${pick.packaged?.object.toLowerCase() ?? ''}|${masked}`;
    if (failed.has(key)) continue;
    let texture = cache.get(key);
    if (!texture) {
      try {
        texture = await makeTexture(doc, ctx, pick, masked);
      } catch (e) {
        // A file the image layer refuses, or one above the reader's size limit: the mesh still converts.
        if (!(e instanceof FormatError) && !(e instanceof ResourceError && e.code === 'RESOURCE_TOO_LARGE'))
          throw e;
        failed.add(key);
        warnings.warn(
          'TEXTURE_INVALID',
          `material ${m.getName()}: ${pick.found} cannot be read: ${e.message}`,
        );
        continue;
      }
      cache.set(key, texture);
    }
    applyTexture(m, texture, type, masked);
  }
}

async function makeTexture(
  doc: Document,
  ctx: SkinImportContext,
  pick: Chosen,
  masked: boolean,
): Promise<Texture> {
  const name = pick.imp?.name ?? pick.cand.name;
  if (pick.packaged) {
    // mip 0 of another package's texture, as the file UCC would import (PCX for P8, else PNG)
    const { file } = pick.packaged;
    const image = skinImage(file.bytes, file.file, masked);
    const texture = doc
      .createTexture(name)
      .setImage(image.bytes)
      .setMimeType(image.mimeType)
      .setURI(`${name}.png`);
    await keepTextureSource(texture, file.file, file.bytes, TEXTURE_REBUILDER);
    return texture;
  }
  const found = pick.found as string;
  const bytes = await ctx.resources.read(found);
  if (!bytes) throw new FormatError(`${found} could not be read`, { file: found });
  const image = skinImage(bytes, found, masked);
  const ext = image.mimeType === 'image/jpeg' ? 'jpg' : image.mimeType === 'image/webp' ? 'webp' : 'png';
  const texture = doc
    .createTexture(name)
    .setImage(image.bytes)
    .setMimeType(image.mimeType)
    .setURI(`${name}.${ext}`);
  await keepTextureSource(texture, sourcePath(found, ctx, pick), bytes, TEXTURE_REBUILDER);
  return texture;
}

/** The path export writes the original under: relative to the package folder, never with `..`. */
function sourcePath(found: string, ctx: SkinImportContext, pick: Chosen): string {
  const base = pick.impSource ? ucBaseDir(pick.impSource.path, ctx.packageDir) : ctx.packageDir;
  if (!base) return found;
  if (found.toLowerCase().startsWith(`${base.toLowerCase()}/`)) return found.slice(base.length + 1);
  return `Textures/${found.slice(dirOf(found).length).replace(/^\//, '')}`;
}

function applyTexture(m: Material, texture: Texture, type: number, masked: boolean): void {
  m.setBaseColorTexture(texture);
  if (masked && m.getAlphaMode() === 'OPAQUE') m.setAlphaMode('MASK').setAlphaCutoff(0.5);
  const info = m.getBaseColorTextureInfo();
  if (info && type & PolyTypeFlag.NO_SMOOTH)
    info.setMagFilter(TextureInfo.MagFilter.NEAREST).setMinFilter(TextureInfo.MinFilter.NEAREST);
}
