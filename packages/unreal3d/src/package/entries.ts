/**
 * A package's textures as container entries (`gltf-legacy extract Foo.utx --out-dir DIR`): one
 * PNG per `Texture` export, named by object (`Group/Name.png`, groups as folders), mip 0 decoded
 * (P8 through its `Palette`, index 0 transparent when masked; RGBA8; DXT1).
 */
import { type ContainerEntry, FormatError } from '@gltf-legacy/core';
import { encodePng } from '@gltf-legacy/textures';
import { looksLikePackage } from './header.js';
import { readPackage, type UnrealPackage } from './package.js';
import { decodeTextureMip, textureFormatName } from './texture.js';

/** The palette of a texture export (its `Palette` property), when it names a Palette export. */
function paletteOf(pkg: UnrealPackage, ref: number): Uint8Array | undefined {
  const i = ref - 1;
  return ref > 0 && i < pkg.exportCount && pkg.exportClass(i) === 'Palette' ? pkg.readPalette(i) : undefined;
}

/**
 * The textures of a package as entries, or undefined when `bytes` are not a package. Each
 * entry's `size` is its decoded RGBA size (width × height × 4: what the PNG encodes), `packedSize`
 * the stored mip 0, `compression` the texture format; `read()` decodes and encodes the PNG, or
 * throws a `FormatError` for a format this reader does not decode.
 *
 * ```ts
 * packageTextureEntries(bytes, 'HeadHunter.u')?.map((e) => e.path); // ['Skins/SKIN_Skull.png', …]
 * ```
 */
export function packageTextureEntries(bytes: Uint8Array, name: string): ContainerEntry[] | undefined {
  if (!looksLikePackage(bytes)) return undefined;
  const pkg = readPackage(bytes, name);
  const out: ContainerEntry[] = [];
  for (const i of pkg.exportsOf('Texture')) {
    const tex = pkg.readTexture(i);
    const mip = tex.mips[0];
    const path = `${pkg.refPath(i + 1).replace(/\./g, '/')}.png`;
    const format = textureFormatName(tex.format);
    out.push({
      path,
      size: mip ? Math.max(0, mip.width) * Math.max(0, mip.height) * 4 : 0,
      packedSize: mip?.data.length ?? 0,
      offset: mip ? mip.data.byteOffset - bytes.byteOffset : pkg.exportEntry(i).serialOffset,
      compression: format.toLowerCase(),
      kind: 'png',
      read: () => {
        const rgba = decodeTextureMip(tex, paletteOf(pkg, tex.palette), tex.masked);
        if (!rgba)
          throw new FormatError(
            `texture ${pkg.refPath(i + 1)} (${format}${mip ? `, ${mip.width}×${mip.height}` : ', no mip'}) is not decoded: P8 with a palette, RGBA8 and DXT1 are`,
            { code: 'UNSUPPORTED_TEXTURE', file: name, field: `exports[${i}](${tex.name})` },
          );
        return encodePng(rgba);
      },
    });
  }
  return out;
}
