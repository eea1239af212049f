export { type ConvertOptions, type ConvertRecord, CONVERT_DEFAULTS, convertFile, outputBase } from './convert.js';
export { type ErrorRecord, toErrorRecord } from './errors.js';
export { writeFilesAtomic } from './files.js';
export { createNodeIO, toGlb } from './gltf-io.js';
export { describeDocument, type InspectReport, inspectFile } from './inspect.js';
export { buildProgram, EXIT, main } from './main.js';
export { FORMATS, formatById, formatForOutput, type GltfKind, isGlb, isGltfJson, sniffFormat } from './registry.js';
export { formatBytes, renderTable } from './table.js';
export { type ValidationSummary, validateFile, validateGltfBytes } from './validate.js';
