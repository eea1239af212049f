export * from './errors.js';
export * from './reader.js';
export * from './writer.js';
export * from './axes.js';
export * from './format.js';
export * from './gltf.js';
export * from './base64.js';
export * from './sniff.js';
