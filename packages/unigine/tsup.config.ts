// The shared library build config (repository root).
export { default } from '../../tsup.base.mjs';
