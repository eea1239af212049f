import type { Document } from '@gltf-transform/core';
import type { ExportResult } from '@gltf-legacy/core';
export interface UnrealExportOptions { name?: string }
export async function exportUnreal(_doc: Document, _o: UnrealExportOptions): Promise<ExportResult> { throw new Error('todo'); }
