// The limits type lives in core (the plugin interface names it); re-exported here for convenience.
export {
  type AnimationLimits,
  type Interpolation,
  LEGACY_LIMITS_DEFAULTS,
  type LegacyLimits,
} from '@gltf-legacy/core';
export * from './prepare.js';
export * from './dequantize-attributes.js';
export * from './triangulate.js';
export * from './bake-transforms.js';
export * from './limit-influences.js';
export * from './split-primitives.js';
export * from './resample-animations.js';
export * from './stage-codes.js';
