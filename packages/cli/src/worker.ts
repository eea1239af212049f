/**
 * Batch worker thread: converts one input per message in memory and sends the record and the
 * output bytes back; the main thread writes them (so a worker stopped by `--timeout` never
 * leaves a partial file). `workerData.formatsModule` may name a module exporting `formats` (or
 * `legacyFormat`) to use instead of the registered formats (tests inject a fake format this way).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { LegacyFormat } from '@gltf-legacy/core';
import { type ConvertOptions, prepareConversion } from './convert.js';
import { FolderIndex } from './folder-index.js';
import { outputBytes } from './streamed-file.js';

/** A job sent to a worker. */
export interface WorkerJob {
  id: number;
  input: string;
  options: Omit<ConvertOptions, 'formats' | 'transform' | 'folders'>;
}

/** The injected formats, or undefined: every registered one, loaded as each input needs. */
async function loadFormats(): Promise<readonly LegacyFormat[] | undefined> {
  const spec = (workerData as { formatsModule?: string } | undefined)?.formatsModule;
  if (!spec) return undefined;
  const mod = (await import(spec)) as { formats?: LegacyFormat[]; legacyFormat?: LegacyFormat };
  return mod.formats ?? (mod.legacyFormat ? [mod.legacyFormat] : []);
}

if (parentPort) {
  const port = parentPort;
  const formats = await loadFormats();
  // this worker's folder listings, kept for its whole life (one batch): each folder is read once
  // per worker (a listing of 8 320 names costs ~3 ms to read, about what sending it would)
  const folders = new FolderIndex();
  port.on('message', async (job: WorkerJob) => {
    const { record, outputs } = await prepareConversion(job.input, { ...job.options, formats, folders });
    // a StreamedFile cannot cross threads: its bytes do (the main thread writes every output)
    const bytes = new Map([...outputs].map(([path, data]) => [path, outputBytes(data)]));
    port.postMessage({ id: job.id, record, outputs: bytes });
  });
  port.postMessage({ ready: true });
}
