import type { Document } from '@gltf-transform/core';
import type { ExportOptions, ExportResult } from '@gltf-legacy/core';
export async function exportUrho(_doc: Document, _options: ExportOptions = {}): Promise<ExportResult> {
  throw new Error('todo');
}
