export * from './limits.js';
export * from './prepare.js';
export * from './dequantize-attributes.js';
export * from './triangulate.js';
export * from './bake-transforms.js';
export * from './limit-influences.js';
export * from './split-primitives.js';
export * from './resample-animations.js';
