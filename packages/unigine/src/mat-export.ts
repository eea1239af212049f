/**
 * Export side of `.mat` libraries: one material per surface in `NAME.mat` beside the `.mesh`, and
 * the textures it names as `.dds` files (the original bytes when the image is unchanged).
 */
import {
  ExportError,
  type FileSet,
  ResourceError,
  WarningCollector,
  resolveReference,
  textureSourcePath,
  unchangedTextureSource,
} from '@gltf-legacy/core';
import { encodeTexture, fromGltfImage, TEXTURE_REBUILDER } from '@gltf-legacy/textures';
import type { Material, Texture } from '@gltf-transform/core';
import type { Specular } from '@gltf-transform/extensions';
import {
  type MatElement,
  type MaterialLibrary,
  addMaterial,
  attribute,
  createMaterialElement,
  createMaterialLibrary,
  libraryMaterials,
  readMaterialLibrary,
  setAttribute,
  setEntry,
  writeMaterialLibrary,
} from './mat.js';
import { describeMaterial } from './mat-describe.js';
import { type UnigineMaterialExtras, isCoreLibrary } from './mat-import.js';

/** Options of {@link exportUnigineMaterials}. */
export interface UnigineMaterialExportOptions {
  /** `auto`: write `NAME.mat` when a surface has more than a placeholder material; `always`; `never`. */
  materialLibrary: 'auto' | 'always' | 'never';
  /** Folder (relative to the `.mesh`) of re-encoded textures. */
  textureFolder: string;
  /**
   * Prefix of the texture paths written in the `.mat`: the engine reads them relative to its data
   * folder, so give the data-relative folder the exported files will sit in (e.g. `meshes/gun/`).
   * Default `''` (paths relative to the `.mat`, which our importer also reads).
   */
  texturePrefix: string;
  /** Parent of materials that did not come from a `.mat`. */
  baseMaterial: string;
}

export const UNIGINE_MATERIAL_EXPORT_DEFAULTS: UnigineMaterialExportOptions = {
  materialLibrary: 'auto',
  textureFolder: 'textures',
  texturePrefix: '',
  baseMaterial: 'mesh_base',
};

interface Description {
  baseColor: number[];
  emissive: number[];
  emissiveStrength: number;
  roughness: number;
  alphaMode: string;
  alphaCutoff: number | null;
  doubleSided: boolean;
  specularColor: number[] | null;
  textures: Record<'base' | 'normal' | 'emissive' | 'specular', string | null>;
}

const DEFAULT_DESCRIPTION: Description = {
  baseColor: [1, 1, 1, 1],
  emissive: [0, 0, 0],
  emissiveStrength: 1,
  roughness: 0.8, // what import gives a material without gloss
  alphaMode: 'OPAQUE',
  alphaCutoff: null,
  doubleSided: false,
  specularColor: null,
  textures: { base: null, normal: null, emissive: null, specular: null },
};

function unigineExtras(m: Material): UnigineMaterialExtras | undefined {
  const ex = (m.getExtras() as { unigine?: Partial<UnigineMaterialExtras> }).unigine;
  if (
    !ex ||
    typeof ex.material !== 'string' ||
    typeof ex.mapped !== 'string' ||
    !Array.isArray(ex.definitions) ||
    typeof ex.library !== 'string'
  )
    return undefined;
  // hand-edited or hostile extras: keep only well-formed definitions
  const definitions = ex.definitions.filter(
    (d) =>
      !!d &&
      typeof d === 'object' &&
      typeof d.name === 'string' &&
      typeof d.xml === 'string' &&
      typeof d.library === 'string',
  );
  return { ...(ex as UnigineMaterialExtras), definitions };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const num = (v: number) => String(Number(v.toPrecision(6)));
const safeName = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^\.+/, '') || 'material';

/** True when a glTF material holds more than the placeholder import gives a surface without a `.mat`. */
async function meaningful(m: Material | null): Promise<boolean> {
  if (!m) return false;
  if (unigineExtras(m)) return true;
  const d = JSON.parse(await describeMaterial(m)) as Description;
  return (
    !same(d.baseColor, DEFAULT_DESCRIPTION.baseColor) ||
    !same(d.emissive, DEFAULT_DESCRIPTION.emissive) ||
    d.alphaMode !== 'OPAQUE' ||
    d.doubleSided ||
    Object.values(d.textures).some((t) => t !== null)
  );
}

/** The fingerprint import stored; anything unreadable counts as the defaults (every field then differs). */
function parseDescription(text: string): Description {
  try {
    const d = JSON.parse(text) as Partial<Description>;
    if (
      d &&
      typeof d === 'object' &&
      d.textures &&
      typeof d.textures === 'object' &&
      Array.isArray(d.baseColor)
    )
      return d as Description;
  } catch {
    // fall through
  }
  return DEFAULT_DESCRIPTION;
}

function parseDefinition(xml: string, file: string): MatElement | undefined {
  try {
    const lib = readMaterialLibrary(`<materials>\n\t${xml}\n</materials>`, file);
    return libraryMaterials(lib)[0];
  } catch {
    return undefined;
  }
}

class TextureWriter {
  readonly files: FileSet = new Map();
  private readonly bySource = new Map<Texture, string | null>();
  constructor(
    private readonly options: UnigineMaterialExportOptions,
    private readonly warnings: WarningCollector,
  ) {}

  private claim(key: string, bytes: Uint8Array): string {
    let k = key;
    for (let i = 2; this.files.has(k); i++) {
      const prev = this.files.get(k) as Uint8Array;
      if (prev.length === bytes.length && prev.every((b, j) => b === bytes[j])) return k;
      k = key.replace(/(\.[^./]*)?$/, `_${i}$1`);
    }
    this.files.set(k, bytes);
    return k;
  }

  /** Writes a texture's file; returns the path the `.mat` names it by, or undefined when dropped. */
  async write(t: Texture, material: string, slot: string): Promise<string | undefined> {
    const cached = this.bySource.get(t);
    if (cached !== undefined) return cached === null ? undefined : this.options.texturePrefix + cached;
    let key: string | null = null;
    const src = await unchangedTextureSource(t, TEXTURE_REBUILDER);
    if (src) {
      let path: string;
      try {
        path = resolveReference(src.path, '');
      } catch (e) {
        if (!(e instanceof ResourceError)) throw e;
        path = `${this.options.textureFolder}/${safeName(src.path.slice(src.path.lastIndexOf('/') + 1))}`;
      }
      key = this.claim(path, src.bytes);
    } else {
      const image = t.getImage();
      try {
        if (!image) throw new Error('the texture has no image');
        const dds = encodeTexture(fromGltfImage(image, t.getMimeType()), 'dds');
        // the original file's name, else the glTF texture's name or URI, else material + slot
        const named = textureSourcePath(t) ?? (t.getName() || t.getURI());
        const base = named
          ? named.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '')
          : `${safeName(material)}_${slot}`;
        key = this.claim(`${this.options.textureFolder}/${safeName(base)}.dds`, dds);
      } catch (e) {
        this.warnings.warn(
          'TEXTURE_DROPPED',
          `material "${material}": its ${slot} texture could not be written as DDS (${e instanceof Error ? e.message : String(e)})`,
        );
      }
    }
    this.bySource.set(t, key);
    return key === null ? undefined : this.options.texturePrefix + key;
  }
}

/** Sets on `el` every mapped field of `m` that differs from `before` (a fresh material: the defaults). */
async function applyMapped(
  el: MatElement,
  m: Material,
  now: Description,
  before: Description,
  textures: TextureWriter,
  warnings: WarningCollector,
): Promise<void> {
  const name = attribute(el, 'name') ?? m.getName();
  if (!same(now.baseColor, before.baseColor))
    setEntry(el, 'parameter', 'diffuse_color', now.baseColor.map(num).join(' '));
  if (!same(now.emissive, before.emissive) || now.emissiveStrength !== before.emissiveStrength) {
    const on = now.emissive.some((v) => v > 0);
    setEntry(el, 'state', 'emission', on ? '1' : '0');
    setEntry(el, 'parameter', 'emission_color', `${now.emissive.map(num).join(' ')} 1`);
    setEntry(el, 'parameter', 'emission_scale', num(now.emissiveStrength));
  }
  if (now.roughness !== before.roughness) setEntry(el, 'parameter', 'gloss', num(1 - now.roughness));
  if (!same(now.specularColor, before.specularColor) && now.specularColor)
    setEntry(el, 'parameter', 'specular_color', `${now.specularColor.map(num).join(' ')} 1`);
  if (now.alphaMode !== before.alphaMode || now.doubleSided !== before.doubleSided) {
    let options = el.children.find((c) => c.tag === 'options');
    if (!options) {
      options = { tag: 'options', attributes: [], children: [] };
      el.children = [...el.children, options];
    }
    setAttribute(
      options,
      'alpha_test',
      now.alphaMode === 'MASK' ? '1' : before.alphaMode === 'MASK' ? '0' : undefined,
    );
    setAttribute(options, 'two_sided', now.doubleSided ? '1' : before.doubleSided ? '0' : undefined);
    if (!options.attributes.length) el.children = el.children.filter((c) => c !== options);
    if (now.alphaMode === 'MASK' && now.alphaCutoff !== null && Math.abs(now.alphaCutoff - 0.5) > 1e-6)
      warnings.warn(
        'ALPHA_CUTOFF_APPROXIMATED',
        `material "${name}": alpha cutoff ${now.alphaCutoff} written as the engine's fixed alpha test`,
      );
    const blend = el.children.find((c) => c.tag === 'blend');
    if (now.alphaMode === 'BLEND') {
      if (!blend)
        el.children = [
          ...el.children,
          {
            tag: 'blend',
            attributes: [
              { name: 'src', value: 'src_alpha' },
              { name: 'dest', value: 'one_minus_src_alpha' },
            ],
            children: [],
          },
        ];
    } else if (blend) el.children = el.children.filter((c) => c !== blend);
  }
  const spec = m.getExtension<Specular>('KHR_materials_specular');
  const slots: [keyof Description['textures'], string, Texture | null][] = [
    ['base', 'diffuse', m.getBaseColorTexture()],
    ['normal', 'normal', m.getNormalTexture()],
    ['emissive', 'emission', m.getEmissiveTexture()],
    ['specular', 'specular', spec?.getSpecularColorTexture() ?? null],
  ];
  for (const [key, slot, t] of slots) {
    if (now.textures[key] === before.textures[key] || !t) continue;
    const path = await textures.write(t, name, slot);
    if (path !== undefined) setEntry(el, 'texture', slot, path);
  }
}

/**
 * Builds `NAME.mat` for the surfaces of an export and the texture files it names. A material
 * imported from a `.mat` is written back from its definition (byte for byte while unchanged, with
 * the edited fields set otherwise), with the ancestors that are not engine `core/` materials; any
 * other material inherits `baseMaterial` (`mesh_base`).
 *
 * ```ts
 * const { files } = await exportUnigineMaterials('gun', [['gun', material]], {});
 * files.get('gun.mat'); // UTF-8 XML
 * ```
 */
export async function exportUnigineMaterials(
  name: string,
  surfaces: [string, Material | null][],
  options: Partial<UnigineMaterialExportOptions> = {},
  warnings = new WarningCollector(),
): Promise<{ files: FileSet; warnings: WarningCollector; library?: MaterialLibrary }> {
  const opts = { ...UNIGINE_MATERIAL_EXPORT_DEFAULTS };
  for (const k of Object.keys(opts) as (keyof UnigineMaterialExportOptions)[])
    if (typeof options[k] === 'string') (opts as Record<string, string>)[k] = options[k] as string;
  if (opts.textureFolder) {
    try {
      opts.textureFolder = resolveReference(opts.textureFolder, '', { file: 'textureFolder option' });
    } catch {
      opts.textureFolder = 'textures';
    }
  }
  if (!['auto', 'always', 'never'].includes(opts.materialLibrary))
    throw new ExportError(
      'BAD_OPTION',
      `materialLibrary must be auto, always or never, got ${JSON.stringify(opts.materialLibrary)}`,
    );
  const files: FileSet = new Map();
  if (opts.materialLibrary === 'never') return { files, warnings };
  if (opts.materialLibrary === 'auto') {
    let any = false;
    for (const [, m] of surfaces) if (await meaningful(m)) any = true;
    if (!any) return { files, warnings };
  }
  const lib = createMaterialLibrary(`${name}.mat`);
  const written = new Set<string>();
  const textures = new TextureWriter(opts, warnings);
  const add = (el: MatElement) => {
    const n = attribute(el, 'name') as string;
    if (written.has(n)) return false;
    written.add(n);
    addMaterial(lib, el);
    return true;
  };
  for (const [surface, m] of surfaces) {
    if (written.has(surface)) continue;
    if (!m) {
      add(createMaterialElement(surface, surface === opts.baseMaterial ? undefined : opts.baseMaterial));
      continue;
    }
    const now = JSON.parse(await describeMaterial(m)) as Description;
    const ex = unigineExtras(m);
    if (!ex) {
      // a surface named like the base material gets no parent (it would inherit from itself)
      const el = createMaterialElement(
        surface,
        surface === opts.baseMaterial ? undefined : opts.baseMaterial,
      );
      await applyMapped(el, m, now, DEFAULT_DESCRIPTION, textures, warnings);
      add(el);
      continue;
    }
    const before = parseDescription(ex.mapped);
    const unchanged = same(now, before);
    // Ancestors from project libraries (root first), then the material itself.
    for (const d of ex.definitions.slice(1).reverse()) {
      const el = parseDefinition(d.xml, d.library);
      if (el) add(el);
    }
    const own =
      ex.definitions[0]?.name === ex.material
        ? parseDefinition(ex.definitions[0].xml, ex.library)
        : undefined;
    let target = ex.material;
    if (own) {
      if (!unchanged) await applyMapped(own, m, now, before, textures, warnings);
      add(own);
    } else if (!unchanged || isCoreLibrary(ex.library)) {
      // From an engine library: a child material carries the edits.
      if (!unchanged) {
        target = surface === ex.material ? `${surface}_${safeName(name)}` : surface;
        const el = createMaterialElement(target, ex.material);
        await applyMapped(el, m, now, before, textures, warnings);
        add(el);
      }
    }
    if (surface === target) continue;
    if (surface === ex.material) {
      // The surface is named like an engine material: an alias would redefine that material (and
      // inherit from itself). The edits stay in `target`.
      warnings.warn(
        'MATERIAL_RENAMED',
        `surface "${surface}" is named like the engine material it uses; its edits are written as material "${target}" (assign it in the editor, or import with materialMap "${surface}=${target}")`,
      );
    } else add(createMaterialElement(surface, target));
  }
  // Textures the written definitions name themselves (not inherited): their files, when the glTF
  // still holds them unchanged.
  const bySource = new Map<string, Texture>();
  for (const [, m] of surfaces) {
    if (!m) continue;
    const spec = m.getExtension<Specular>('KHR_materials_specular');
    for (const t of [
      m.getBaseColorTexture(),
      m.getNormalTexture(),
      m.getEmissiveTexture(),
      spec?.getSpecularColorTexture(),
    ]) {
      const p = t ? textureSourcePath(t) : undefined;
      if (t && p) bySource.set(p.toLowerCase(), t);
    }
  }
  for (const el of libraryMaterials(lib))
    for (const c of el.children) {
      if (c.tag !== 'texture' || !c.text?.trim() || c.source === undefined) continue;
      let p: string;
      try {
        p = resolveReference(c.text.trim(), '');
      } catch {
        continue;
      }
      const t = bySource.get(p.toLowerCase());
      if (t) await textures.write(t, attribute(el, 'name') ?? '', attribute(c, 'name') ?? 'texture');
    }
  files.set(`${name}.mat`, new TextEncoder().encode(writeMaterialLibrary(lib)));
  for (const [k, v] of textures.files) if (!files.has(k)) files.set(k, v);
  return { files, warnings, library: lib };
}
