/**
 * Export mapping of skins: the base colour texture of each texture slot's material → the texture
 * file the `.uc` imports (8-bit paletted PCX, or BMP when the `.uc` names a `.bmp`), written at
 * the path the `.uc` names. An image unchanged since import is written as its original bytes.
 */
import {
  FormatError,
  resolveReference,
  textureSourcePath,
  unchangedTextureSource,
  type WarningCollector,
} from '@gltf-legacy/core';
import type { Material, Texture } from '@gltf-transform/core';
import { alphaUse, encodeTexture, fromGltfImage, TEXTURE_REBUILDER } from '@gltf-legacy/textures';
import type { UnrealExportModel } from './export.js';
import { toPow2 } from './pow2.js';
import { safeSkinFile, ucSkinFile } from './skin-names.js';

/** Options of {@link writeSkins}. */
export interface WriteSkinsOptions {
  /** Folder (relative to the output folder) new skins are written to. Default `Textures`. */
  folder?: string;
}

export const WRITE_SKINS_DEFAULTS: Required<WriteSkinsOptions> = { folder: 'Textures' };

/**
 * A file key relative to the output folder: `/`-separated, no `..`, no absolute path (else the
 * base name under `folder`).
 *
 * ```ts
 * outputKey('Textures\\JSporifier.pcx', 'Textures'); // 'Textures/JSporifier.pcx'
 * outputKey('..\\..\\x.pcx', 'Textures');            // 'Textures/x.pcx'
 * ```
 */
export function outputKey(path: string, folder: string): string {
  try {
    return resolveReference(path, '');
  } catch {
    const base = safeSkinFile(path, 'skin');
    return folder ? `${folder}/${base}` : base;
  }
}

/**
 * Writes the skins of an exported model into `files` (`Textures/NAME.pcx` or the original path).
 * Images that cannot be decoded or encoded are left out with `TEXTURE_DROPPED`.
 *
 * ```ts
 * const model = exportUnrealModel(doc, { name: 'Fox' });
 * await writeSkins(model, files, warnings); // files: Textures/Fox_mat.pcx, …
 * ```
 */
export async function writeSkins(
  model: UnrealExportModel,
  files: Map<string, Uint8Array>,
  warnings: WarningCollector,
  options: WriteSkinsOptions = {},
): Promise<void> {
  const folder = options.folder ?? WRITE_SKINS_DEFAULTS.folder;
  const textures: Texture[] = [];
  for (const m of model.slotMaterials?.values() ?? []) {
    const t = m?.getBaseColorTexture();
    if (t && !textures.includes(t)) textures.push(t);
  }
  const encoded = new Map<string, Uint8Array>();
  for (const [num, m] of model.slotMaterials ?? []) {
    const tex = m?.getBaseColorTexture();
    if (!tex) {
      if (!model.ucVerbatim) flatSkin(model, num, m, files, folder, warnings);
      continue;
    }
    if (!m) continue;
    const skin = (m.getExtras() as { unreal3d?: { skin?: { file?: string } } }).unreal3d?.skin;
    // Where the .uc will look: the original path when the .uc is written back as it was, else
    // the file the written .uc imports for this slot (none: the skin would be read by nobody).
    const original = model.ucVerbatim ? (textureSourcePath(tex) ?? skin?.file) : undefined;
    const imported = ucSkinFile(model.uc.textures, num, folder);
    const target = original ?? imported;
    if (target === undefined) continue;
    const key = outputKey(target, folder);
    if (files.has(key)) continue;
    const kept = await unchangedTextureSource(tex, TEXTURE_REBUILDER);
    if (kept && kept.path.split('.').pop()?.toLowerCase() === key.split('.').pop()?.toLowerCase()) {
      files.set(key, kept.bytes);
      continue;
    }
    const image = tex.getImage();
    if (!image) continue;
    const bmp = /\.bmp$/i.test(key);
    const masked = m.getAlphaMode() !== 'OPAQUE';
    // Materials sharing one image (and one cut-out rule) share its encoding.
    const cacheKey = `${textures.indexOf(tex)}|${bmp}|${masked}`;
    const cached = encoded.get(cacheKey);
    if (cached) {
      files.set(key, cached);
      continue;
    }
    try {
      const decoded = fromGltfImage(image, tex.getMimeType());
      const rgba = toPow2(decoded);
      if (rgba !== decoded)
        warnings.warn(
          'TEXTURE_RESIZED',
          `${key}: ${decoded.width}×${decoded.height} resampled to ${rgba.width}×${rgba.height} (UE1 textures have power-of-two sides)`,
        );
      const cut = masked && alphaUse(rgba) !== 'opaque';
      const bytes = encodeTexture(
        rgba,
        bmp ? 'bmp' : 'pcx',
        bmp ? { bitsPerPixel: 8, maskIndex0: cut } : { maskIndex0: cut },
      );
      encoded.set(cacheKey, bytes);
      files.set(key, bytes);
    } catch (e) {
      if (!(e instanceof FormatError) && !(e instanceof RangeError) && !(e instanceof TypeError)) throw e;
      warnings.warn(
        'TEXTURE_DROPPED',
        `${key} (material ${m.getName()}) was not written: ${(e as Error).message}`,
      );
    }
  }
}

/** Side of the one-colour skin written for a material without a texture. */
const FLAT_SKIN_SIZE = 8;

const toSrgb = (v: number) => {
  const c = Math.min(1, Math.max(0, v));
  const s = c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055;
  return Math.round(s * 255);
};

/**
 * A glTF material without a base colour texture, exported with a fresh `.uc` (which imports a skin
 * for every slot, and UCC stops at a missing file): an 8×8 PCX of its base colour.
 */
function flatSkin(
  model: UnrealExportModel,
  num: number,
  m: Material | null,
  files: Map<string, Uint8Array>,
  folder: string,
  warnings: WarningCollector,
): void {
  if (m && (m.getExtras() as { unreal3d?: unknown }).unreal3d) return; // imported: its skin lives elsewhere
  const imported = ucSkinFile(model.uc.textures, num, folder);
  if (imported === undefined) return;
  const key = outputKey(imported, folder);
  if (files.has(key) || !/\.pcx$/i.test(key)) return;
  const [r, g, b] = (m?.getBaseColorFactor() ?? [1, 1, 1, 1]).map(toSrgb);
  const data = new Uint8Array(FLAT_SKIN_SIZE * FLAT_SKIN_SIZE * 4);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = r;
    data[i + 1] = g;
    data[i + 2] = b;
    data[i + 3] = 255;
  }
  try {
    files.set(key, encodeTexture({ width: FLAT_SKIN_SIZE, height: FLAT_SKIN_SIZE, data }, 'pcx'));
  } catch (e) {
    if (!(e instanceof FormatError)) throw e;
    warnings.warn(
      'TEXTURE_DROPPED',
      `${key} (material ${m?.getName() ?? 'none'}) was not written: ${e.message}`,
    );
  }
}
