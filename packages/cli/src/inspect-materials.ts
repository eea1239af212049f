/**
 * The `Materials` section of `gltf-legacy inspect`: each material of an imported (or glTF)
 * document with the texture files it resolved, and the texture references that could not be
 * found (the importers' `TEXTURE_MISSING` / `MATERIAL_MISSING` warnings, which name the path tried).
 */
import type { Document, Texture } from '@gltf-transform/core';
import { type InspectSection, textureSourcePath, type Warning } from '@gltf-legacy/core';

/** Codes of the warnings that name a texture or material file that was not found. */
export const MISSING_RESOURCE_CODES = ['TEXTURE_MISSING', 'MATERIAL_MISSING'] as const;

function textureLabel(texture: Texture | null): string {
  if (!texture) return '';
  // the game's file the texture was made from, else the glTF image's own name or URI
  return (
    textureSourcePath(texture) ?? (texture.getURI() || texture.getName() || `(${texture.getMimeType()})`)
  );
}

/**
 * Describes the materials of `doc` and the references that were not found.
 *
 * ```ts
 * const sections = describeMaterials(result.document, result.warnings);
 * // [{ title: 'Materials', columns: ['material', 'alpha', 'base colour', …], rows: […] }, …]
 * ```
 */
export function describeMaterials(doc: Document, warnings: readonly Warning[] = []): InspectSection[] {
  const sections: InspectSection[] = [];
  const materials = doc.getRoot().listMaterials();
  if (materials.length) {
    sections.push({
      title: 'Materials',
      columns: ['material', 'alpha', 'base colour', 'normal', 'emissive', 'other textures'],
      rows: materials.map((m) => {
        const named = new Set([m.getBaseColorTexture(), m.getNormalTexture(), m.getEmissiveTexture()]);
        const others = doc
          .getGraph()
          .listChildren(m)
          .filter((c): c is Texture => c.propertyType === 'Texture' && !named.has(c as Texture));
        // textures of material extensions (specular, …) hang below the extension property
        for (const ext of m.listExtensions())
          for (const c of doc.getGraph().listChildren(ext))
            if (c.propertyType === 'Texture' && !named.has(c as Texture)) others.push(c as Texture);
        return [
          m.getName() || '(unnamed)',
          m.getAlphaMode() === 'MASK' ? `MASK ${m.getAlphaCutoff()}` : m.getAlphaMode(),
          textureLabel(m.getBaseColorTexture()),
          textureLabel(m.getNormalTexture()),
          textureLabel(m.getEmissiveTexture()),
          [...new Set(others.map(textureLabel))].join(', '),
        ];
      }),
    });
  }
  const missing = warnings.filter((w) => (MISSING_RESOURCE_CODES as readonly string[]).includes(w.code));
  if (missing.length) {
    sections.push({
      title: 'Not found',
      columns: ['code', 'count', 'what was tried'],
      rows: missing.map((w) => [w.code, w.count, w.message]),
    });
  }
  return sections;
}
