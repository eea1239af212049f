export * from './round.js';
export * from './unit16.js';
export * from './unreal.js';
