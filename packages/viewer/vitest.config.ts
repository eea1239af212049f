import { defineLegacyTestConfig } from '@gltf-legacy/test-utils/vitest';

// One browser at a time on a 2-core machine: files run one after another.
export default defineLegacyTestConfig(import.meta.dirname, { globalSetup: ['test/global-setup.ts'], fileParallelism: false, testTimeout: 90_000 });
