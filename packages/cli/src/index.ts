export {
  type ConvertOptions,
  type ConvertRecord,
  CONVERT_DEFAULTS,
  convertFile,
  outputBase,
} from './convert.js';
export { type ErrorRecord, toErrorRecord } from './errors.js';
export { outputPath, WriteSession, writeFilesAtomic } from './files.js';
export {
  type EntryKind,
  type FolderEntry,
  FolderIndex,
  type FolderIndexOptions,
  FolderListing,
  type ReadFolder,
  readDiskFolder,
} from './folder-index.js';
export { type PoolOptions, POOL_DEFAULTS } from './worker-pool.js';
export { type OutputData, outputBytes, outputContent, StreamedFile } from './streamed-file.js';
export {
  FOLDER_RESOURCES_DEFAULTS,
  FolderResources,
  type FolderResourcesOptions,
  type InputResources,
  inputResources,
} from './folder-resources.js';
export { parseGltfJson, type ReadGltfOptions, readGlbFile, readGltfJson } from './gltf-input.js';
export { unpackInput } from './containers.js';
export { createNodeIO, toGlb } from './node-io.js';
export { describeDocument, type InspectOptions, type InspectReport, inspectFile } from './inspect.js';
export { EXIT, type Runtime, UsageError } from './command.js';
export { main, simpleConvertArgs } from './main.js';
export { printRecord, printWarnings } from './run-convert.js';
export { lodStats, type LodStats } from './lod-stats.js';
export {
  CLI_WARNING_CODES,
  type WarningCodeRow,
  warningCodeRows,
  warningCodesMarkdown,
} from './warning-table.js';
export { buildProgram } from './program.js';
export {
  FORMATS,
  formatById,
  formatForOutput,
  type GltfKind,
  isGlb,
  isGltfJson,
  sniffFormat,
} from './registry.js';
export { formatBytes, renderTable } from './table.js';
export { type ValidationSummary, validateFile, validateGltfBytes } from './validate.js';
export {
  type FormatInfo,
  LEGACY_IO_DEFAULTS,
  LegacyIO,
  type LegacyIOOptions,
  type LegacyReadResult,
  type LegacyWriteOptions,
} from './legacy-io.js';
export {
  checkOptimize,
  hasOptimize,
  needsCompression,
  OPTIMIZE_DEFAULTS,
  OPTIMIZE_PRESET,
  type OptimizeOptions,
  optimizeSteps,
  optimizeTransform,
} from './optimize.js';
export { type CodecNeeds, createCodecNodeIO, createWriterNodeIO, encodeGlb, loadDraco } from './gltf-io.js';
export { FORMAT_TABLE, type FormatEntry, formatsFor, loadAllFormats } from './format-table.js';
export { mainFormatOf, tryUnpack } from './registry.js';
export { gatherFiles, type PreparedConversion, prepareConversion, writeGltf } from './convert.js';
export { BATCH_DEFAULTS, type BatchOptions, defaultWorkerUrl, runBatch } from './batch.js';
export {
  applyShard,
  type BatchItem,
  type ExpandedInputs,
  expandInputs,
  outputCollisions,
  parseShard,
  type Shard,
  type SkippedFile,
} from './inputs.js';
export { globBase } from './glob-base.js';
export {
  type BatchReport,
  type BatchSummary,
  buildReport,
  reportFile,
  summarize,
  summaryTable,
} from './report.js';
export { createProgress, type Progress } from './progress.js';
export {
  addExtractCommand,
  EXTRACT_DEFAULTS,
  type ExtractedEntry,
  type ExtractOptions,
  type ExtractReport,
  extractArchive,
} from './extract.js';
