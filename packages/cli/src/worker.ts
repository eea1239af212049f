/**
 * Batch worker thread: converts the inputs of each message (one or a chunk of small ones) in
 * memory, in order, and sends the record and the output bytes of each back as it is done; the main thread writes them (so a worker stopped by `--timeout` never
 * leaves a partial file). `workerData.formatsModule` may name a module exporting `formats` (or
 * `legacyFormat`) to use instead of the registered formats (tests inject a fake format this way).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { LegacyFormat } from '@gltf-legacy/core';
import { type ConvertOptions, type ConvertRecord, prepareConversion } from './convert.js';
import { FolderIndex } from './folder-index.js';
import { type OutputData, outputBytes, StreamedFile } from './streamed-file.js';

/** A job sent to a worker (a message holds one or several, converted in order). */
export interface WorkerJob {
  id: number;
  input: string;
  options: Omit<ConvertOptions, 'formats' | 'transform' | 'folders'>;
}

/** A worker's answer for one job. */
export interface WorkerResult {
  id: number;
  record: ConvertRecord;
  outputs: Map<string, Uint8Array>;
}

/**
 * The buffers an answer hands over without a copy: those assembled here from a StreamedFile (a
 * .glb, a .gltf's buffer), which nothing else holds. Other outputs are copied: an exporter may
 * return bytes it also keeps (a texture passed through from a cache), which a transfer would
 * empty under it.
 */
function transferable(outputs: Map<string, OutputData>, bytes: Map<string, Uint8Array>): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const [path, data] of outputs) {
    const b = bytes.get(path)!;
    if (data instanceof StreamedFile && b.buffer instanceof ArrayBuffer && b.byteOffset === 0)
      out.push(b.buffer);
  }
  return out;
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
  // per worker (reading a listing costs about what receiving it in a message would: cli README)
  const folders = new FolderIndex();
  // jobs are converted one after the other, in the order they came (a chunk in order)
  let queue = Promise.resolve();
  const convert = async (job: WorkerJob) => {
    const { record, outputs } = await prepareConversion(job.input, { ...job.options, formats, folders });
    // a StreamedFile cannot cross threads: its bytes do (the main thread writes every output),
    // handed over without a copy when they own their buffer
    const bytes = new Map([...outputs].map(([path, data]) => [path, outputBytes(data)]));
    const result: WorkerResult = { id: job.id, record, outputs: bytes };
    try {
      port.postMessage(result, transferable(outputs, bytes));
    } catch {
      port.postMessage(result); // a buffer that cannot be transferred (a pooled one): copied
    }
  };
  port.on('message', (jobs: WorkerJob | WorkerJob[]) => {
    for (const job of Array.isArray(jobs) ? jobs : [jobs])
      queue = queue
        .then(() => convert(job))
        .catch((e) => {
          // never expected (prepareConversion does not throw): the worker dies, its input is
          // WORKER_CRASHED and the rest of its chunk goes to a fresh worker
          setImmediate(() => {
            throw e;
          });
        });
  });
  port.postMessage({ ready: true });
}
