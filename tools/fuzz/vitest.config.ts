import { defineLegacyTestConfig } from '@gltf-legacy/test-utils/vitest';

// The fuzzer runs the BUILT packages in worker threads (turbo builds before test), so the
// source aliases only matter for imports made by the test file itself. Each file keeps its own
// module graph: fast.test.ts points GLTF_LEGACY_FUZZ_REGRESSIONS at a scratch folder before
// campaign.mjs loads.
export default defineLegacyTestConfig(import.meta.dirname, {
  testTimeout: 400_000,
  hookTimeout: 120_000,
  isolate: true,
});
