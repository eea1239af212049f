import { defineLegacyTestConfig } from '@gltf-legacy/test-utils/vitest';

// These files bundle the worker once per file (test/worker-bundle.ts) or mock node:fs, so each
// keeps a module graph of its own; the others share one per worker thread (see test-utils).
const ISOLATED = [
  'test/batch.test.ts',
  'test/corpus.test.ts',
  'test/folder-index.test.ts',
  'test/worker-pool.test.ts',
];

export default defineLegacyTestConfig(import.meta.dirname, {
  projects: [
    { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
    { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
  ],
});
