import { defineLegacyTestConfig } from '@gltf-legacy/test-utils/vitest';

// The fuzzer runs the BUILT packages (turbo builds before test): in its worker threads and, here,
// in the test files too, so `@gltf-legacy/*` resolves to each package's dist/ (no source aliases)
// and Node loads those bundles itself (not transformed by Vitest, ~12 s of CPU per run).
// Each file keeps its own module graph: fast.test.ts points GLTF_LEGACY_FUZZ_REGRESSIONS at a
// scratch folder before campaign.mjs loads.
const config = defineLegacyTestConfig(import.meta.dirname, {
  testTimeout: 400_000,
  hookTimeout: 120_000,
  isolate: true,
  server: { deps: { external: [/\/packages\/[^/]+\/dist\//] } },
});
export default { ...config, resolve: { alias: {} } };
