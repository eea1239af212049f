import { defineLegacyTestConfig } from '@gltf-legacy/test-utils/vitest';

// The fuzzer runs the BUILT packages in worker threads (turbo builds before test), so the
// source aliases only matter for imports made by the test file itself.
export default defineLegacyTestConfig(import.meta.dirname, { testTimeout: 400_000, hookTimeout: 120_000 });
