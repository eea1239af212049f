export * from './archive.js';
export { hex8, readArchiveEntry, UnpackBudget } from './entry.js';
export * from './fnv.js';
export * from './kind.js';
export * from './names.js';
export * from './table.js';
export {
  adler32,
  DEFLATE_MAX_RATIO,
  inflateZlibExact,
  type ZlibSite,
} from './zlib.js';
export { useNativeZlib } from './zlib-native.js';
export * from './inspect.js';
export * from './file.js';
export * from './entries.js';
