/**
 * Bulk loops of import and export, each a small function over typed arrays.
 *
 * Import and export run once per call, so one big function holding all their loops never gets
 * optimized as a whole (V8 tiers a function by its size and call count) and every loop is
 * re-compiled on stack replacement on every call. Small functions with one job each are
 * optimized after their first hot loop and stay monomorphic (typed-array arguments, no
 * closures, no per-vertex objects).
 */

/**
 * Items per call of the loops that run once per import/export: called many times per
 * import/export, a loop function is optimized with complete type feedback during the first one,
 * instead of being compiled on stack replacement and then de-optimized over the next few calls.
 */
export const CHUNK = 4096;
