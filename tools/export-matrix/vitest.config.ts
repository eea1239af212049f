import { defineLegacyTestConfig } from '@gltf-legacy/test-utils/vitest';

export default defineLegacyTestConfig(import.meta.dirname, { testTimeout: 240_000 });
