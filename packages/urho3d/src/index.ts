export * from './ani.js';
export * from './lz4.js';
export * from './mdl.js';
export * from './pak.js';
