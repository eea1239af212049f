import { extName, isGlb, isGltfJson, type LegacyFormat, sniffFormat } from '@gltf-legacy/core';
import { formatForOutput } from './lookup.js';

/**
 * What the CLI knows about a format WITHOUT loading its package: enough to pick which packages a
 * conversion needs (by extension) and to print ids. `test/format-table.test.ts` checks that it
 * matches the packages' own `legacyFormat` objects.
 */
export interface FormatEntry {
  id: string;
  extensions: readonly string[];
  mainExtension: string;
  /** The format writes files (the package's `legacyFormat.export` exists). */
  export: boolean;
  /**
   * Extensions of the format's containers (`.pak`, Unreal's `.u`/`.utx`): a folder batch takes them
   * as inputs and they write into a folder of their own (`out/NAME/…`).
   */
  containerExtensions?: readonly string[];
  /** Imports the package and returns its `legacyFormat`. */
  load: () => Promise<LegacyFormat>;
}

/**
 * Every format, in sniffing order (formats with magic bytes first, then the structural check of
 * Unreal). Loading one format package costs 20–90 ms of start-up (module loading and compiling),
 * so a conversion loads only those its input and target need.
 */
export const FORMAT_TABLE: readonly FormatEntry[] = [
  {
    id: 'urho3d',
    extensions: ['.mdl', '.ani', '.pak', '.xml'],
    mainExtension: '.mdl',
    export: true,
    containerExtensions: ['.pak'],
    load: () => import('@gltf-legacy/urho3d').then((m) => m.legacyFormat),
  },
  {
    id: 'grimrock',
    extensions: ['.model', '.animation', '.dat'],
    mainExtension: '.model',
    export: true,
    load: () => import('@gltf-legacy/grimrock').then((m) => m.legacyFormat),
  },
  {
    id: 'unigine',
    extensions: ['.mesh', '.anim'],
    mainExtension: '.mesh',
    export: true,
    load: () => import('@gltf-legacy/unigine').then((m) => m.legacyFormat),
  },
  {
    id: 'tso',
    extensions: ['.mesh', '.skel', '.anim', '.apr', '.bnd', '.dat', '.far'],
    mainExtension: '.mesh',
    export: true,
    load: () => import('@gltf-legacy/tso').then((m) => m.legacyFormat),
  },
  {
    id: 'unreal3d',
    extensions: ['.3d', '.uc', '.u', '.utx', '.unr'],
    mainExtension: '_d.3d',
    export: true,
    containerExtensions: ['.u', '.utx', '.unr'],
    load: () => import('@gltf-legacy/unreal3d').then((m) => m.legacyFormat),
  },
];

/** Extensions of every format's containers (`.pak`, `.u`, `.utx`, `.unr`). */
export const CONTAINER_EXTENSIONS: ReadonlySet<string> = new Set(
  FORMAT_TABLE.flatMap((e) => e.containerExtensions ?? []),
);

const loaded = new Map<string, Promise<LegacyFormat>>();

/** Loads the packages of these table entries (once each); result in table order. */
export function loadFormats(entries: readonly FormatEntry[]): Promise<LegacyFormat[]> {
  return Promise.all(
    FORMAT_TABLE.filter((e) => entries.includes(e)).map((e) => {
      let p = loaded.get(e.id);
      if (!p) loaded.set(e.id, (p = e.load()));
      return p;
    }),
  );
}

let all: Promise<LegacyFormat[]> | undefined;

/** Every format (the same objects as `FORMATS`), loaded on first use. */
export function loadAllFormats(): Promise<LegacyFormat[]> {
  all ??= loadFormats(FORMAT_TABLE);
  return all;
}

/** What a conversion asks for besides its input: `--to` and `-o`. */
export interface TargetHint {
  to?: string;
  output?: string;
}

/**
 * The formats one conversion needs, loading only those packages: the formats claiming the input's
 * extension (in sniffing order) plus the target's. Falls back to every format when glTF is read
 * (its custom extensions come from all formats), when the target is unknown (its error lists all
 * ids), for containers (their entries may be of any format), or when no candidate's sniffer
 * claims the bytes (a file with another format's extension, or none).
 *
 * One difference with sniffing against every format: when the bytes could pass two sniffers, the
 * one claiming the file's extension wins (with every format loaded, the earlier in the table
 * would). The formats' magic numbers make that practically impossible.
 */
export async function formatsFor(
  bytes: Uint8Array,
  name: string,
  hint: TargetHint = {},
): Promise<LegacyFormat[]> {
  if (isGlb(bytes) || isGltfJson(bytes, name)) return loadAllFormats();
  const wanted = new Set<FormatEntry>();
  const to = hint.to?.toLowerCase();
  if (to && to !== 'glb' && to !== 'gltf') {
    const target = FORMAT_TABLE.find((e) => e.id === to);
    if (!target) return loadAllFormats();
    wanted.add(target);
  } else if (!to && hint.output) {
    const ext = extName(hint.output);
    if (ext !== '.glb' && ext !== '.gltf') {
      const target = formatForOutput(hint.output, FORMAT_TABLE);
      if (!target) return loadAllFormats();
      wanted.add(target);
    }
  }
  const lower = name.toLowerCase();
  const ext = extName(name);
  const candidates = FORMAT_TABLE.filter(
    (e) => e.extensions.includes(ext) || lower.endsWith(e.mainExtension.toLowerCase()),
  );
  if (!candidates.length) return loadAllFormats();
  const formats = await loadFormats([...candidates, ...wanted]);
  const kind = sniffFormat(
    bytes,
    name,
    formats.filter((f) => candidates.some((c) => c.id === f.id)),
  );
  // a container (`.pak`) may hold models of any format
  const container =
    !!kind &&
    typeof kind === 'object' &&
    !!kind.capabilities.container &&
    !lower.endsWith(kind.mainExtension.toLowerCase());
  if (!kind || typeof kind === 'string' || container) return loadAllFormats();
  return formats;
}
