import { defineLegacyTestConfig } from '@gltf-legacy/test-utils/vitest';

// folder-index.test.ts mocks node:fs, so it keeps a module graph of its own; the others share one
// per worker thread (see test-utils), the batch files one worker bundle per thread too
// (test/worker-bundle.ts, removed by test/global-setup.ts when the run ends).
const ISOLATED = ['test/folder-index.test.ts'];

export default defineLegacyTestConfig(import.meta.dirname, {
  globalSetup: ['test/global-setup.ts'],
  projects: [
    { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
    { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
  ],
});
