import { readInput } from './files.js';
import { basename } from 'node:path';
import type { Document } from '@gltf-transform/core';
import {
  documentStats,
  type InspectSection,
  isLegacyError,
  type LegacyFormat,
  LegacyError,
  WarningCollector,
} from '@gltf-legacy/core';
import { formatsFor } from './format-table.js';
import { describeMaterials } from './inspect-materials.js';
import { gatherFiles } from './convert.js';
import { codecsFor, createCodecNodeIO } from './gltf-io.js';
import { sniffFormat } from '@gltf-legacy/core';
import { formatBytes } from './table.js';
import { lodStats } from './lod-stats.js';
import { unpackInput } from './containers.js';
import { inputResources } from './folder-resources.js';
import { readGlbFile, readGltfJson } from './gltf-input.js';

/** Options of {@link inspectFile}. */
export interface InspectOptions {
  /** The folder textures and material files are read from (`--resource-dir`); see convert. */
  resourceDir?: string;
  /** Extra companion files (`--with`), as convert takes them. */
  with?: string[];
  /** Discover companion files beside the input (default true), as convert does. */
  companions?: boolean;
  /** `strict: true` for the import: the quirks the games' tools tolerated are errors. */
  strict?: boolean;
}

/** What `gltf-legacy inspect` shows: sections of facts and tables. */
export interface InspectReport {
  file: string;
  format: string;
  bytes: number;
  sections: InspectSection[];
}

/** Sections describing a glTF-Transform document (used for glTF input and after import). */
export function describeDocument(doc: Document, title = 'glTF'): InspectSection[] {
  const stats = documentStats(doc);
  const root = doc.getRoot();
  const sections: InspectSection[] = [{ title, facts: { ...stats } }];
  const lod = lodStats(doc);
  if (lod) Object.assign(sections[0].facts!, lod);
  const meshes = root.listMeshes();
  if (meshes.length) {
    sections.push({
      title: 'Meshes',
      columns: ['mesh', 'primitive', 'mode', 'vertices', 'indices', 'attributes', 'targets', 'material'],
      rows: meshes.flatMap((m) =>
        m
          .listPrimitives()
          .map((p, i) => [
            m.getName() || '(unnamed)',
            i,
            p.getMode(),
            p.getAttribute('POSITION')?.getCount() ?? 0,
            p.getIndices()?.getCount() ?? 0,
            p.listSemantics().join(' '),
            p.listTargets().length,
            p.getMaterial()?.getName() ?? '',
          ]),
      ),
    });
    const bounds = meshes
      .flatMap((m) => m.listPrimitives())
      .map((p) => [
        p.getAttribute('POSITION')?.getMinNormalized([]),
        p.getAttribute('POSITION')?.getMaxNormalized([]),
      ]);
    if (bounds.length) {
      const min = [0, 1, 2].map((k) => Math.min(...bounds.map((b) => b[0]?.[k] ?? Number.POSITIVE_INFINITY)));
      const max = [0, 1, 2].map((k) => Math.max(...bounds.map((b) => b[1]?.[k] ?? Number.NEGATIVE_INFINITY)));
      sections[0].facts!.boundsMin = min.map((v) => +v.toFixed(4)).join(', ');
      sections[0].facts!.boundsMax = max.map((v) => +v.toFixed(4)).join(', ');
    }
  }
  const skins = root.listSkins();
  if (skins.length) {
    sections.push({
      title: 'Skins',
      columns: ['skin', 'joints', 'first joints'],
      rows: skins.map((s) => [
        s.getName() || '(unnamed)',
        s.listJoints().length,
        s
          .listJoints()
          .slice(0, 4)
          .map((j) => j.getName())
          .join(', '),
      ]),
    });
  }
  const anims = root.listAnimations();
  if (anims.length) {
    sections.push({
      title: 'Animations',
      columns: ['animation', 'channels', 'duration (s)', 'keys (max)'],
      rows: anims.map((a) => {
        let duration = 0;
        let keys = 0;
        for (const s of a.listSamplers()) {
          const input = s.getInput();
          if (!input) continue;
          duration = Math.max(duration, input.getMax([])[0] ?? 0);
          keys = Math.max(keys, input.getCount());
        }
        return [a.getName() || '(unnamed)', a.listChannels().length, +duration.toFixed(4), keys];
      }),
    });
  }
  return sections;
}

/**
 * Summarizes a file of any supported format: the format's own view of its file model (version,
 * counts, names) followed by what the import produces.
 */
export async function inspectFile(
  path: string,
  formats?: readonly LegacyFormat[],
  options: InspectOptions = {},
): Promise<InspectReport> {
  const bytes = readInput(path);
  formats ??= await formatsFor(bytes, path);
  const kind = sniffFormat(bytes, path, formats);
  if (!kind) throw new LegacyError('UNKNOWN_FORMAT', `${path}: not a format gltf-legacy reads`);
  const report: InspectReport = {
    file: path,
    format: typeof kind === 'string' ? kind : kind.id,
    bytes: bytes.length,
    sections: [],
  };
  if (typeof kind === 'string') {
    const io = await createCodecNodeIO(formats, codecsFor(bytes));
    const doc =
      kind === 'glb'
        ? await readGlbFile(io, path, bytes, { resourceDir: options.resourceDir })
        : await readGltfJson(io, path, bytes, { resourceDir: options.resourceDir });
    report.sections.push(...describeDocument(doc), ...describeMaterials(doc));
    return report;
  }
  const name = basename(path);
  // the companions beside the file (and --with), as convert finds them: an Unreal _d.3d needs its _a.3d
  // a package (.pak) is shown by the format's inspect alone; a model of a container format
  // (Urho3D's .mdl) is imported like any other
  const container = !!unpackInput(kind, bytes, name);
  const files = container
    ? new Map([[name, bytes]])
    : await gatherFiles(path, kind, bytes, {
        companions: options.companions ?? true,
        with: options.with,
      });
  report.sections.push({ title: 'File', facts: { format: kind.label, size: formatBytes(bytes.length) } });
  const { resources, resourcePath } = inputResources(path, kind, options.resourceDir);
  if (kind.inspect) report.sections.push(...kind.inspect(files, { main: name, resources, resourcePath }));
  if (!container) {
    const warnings = new WarningCollector();
    try {
      const result = await kind.import(files, {
        main: name,
        resources,
        resourcePath,
        ...(options.strict ? { strict: true } : {}),
      });
      warnings.merge(result.warnings);
      report.sections.push(
        ...describeDocument(result.document, 'As glTF'),
        ...describeMaterials(result.document, result.warnings),
      );
    } catch (e) {
      report.sections.push({
        title: 'As glTF',
        facts: {
          error: isLegacyError(e) ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e),
        },
      });
    }
    if (warnings.size)
      report.sections.push({
        title: 'Import warnings',
        columns: ['code', 'count', 'message'],
        rows: warnings.list().map((w) => [w.code, w.count, w.message]),
      });
  }
  return report;
}
