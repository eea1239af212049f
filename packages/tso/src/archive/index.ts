// FAR archives: FAR1 (1a/1b) and FAR3 with RefPack (read and write).
export * from './far.js';
export * from './far1.js';
export * from './far3.js';
export * from './far3-entry.js';
export * from './far3-write.js';
export { FAR_MAGIC, farVersion, hasFarMagic, storedOffset } from './far-common.js';
export * from './refpack.js';
export * from './refpack-compress.js';
export * from './far-inspect.js';
export * from './far-models.js';
export * from './id-index.js';
export * from './far-write.js';
export * from './far-export.js';
