import { defineLegacyTestConfig } from '@gltf-legacy/test-utils/vitest';

// The matrix runs the BUILT packages (turbo builds them before this test, as for tools/fuzz and
// tools/readme-test): `@gltf-legacy/*` resolves to each package's dist/, loaded by Node itself
// instead of transforming every package's sources (~40 % of this task's CPU). After editing a
// package's sources, build it (`pnpm build`) before running this test by hand.
const config = defineLegacyTestConfig(import.meta.dirname, {
  testTimeout: 240_000,
  server: { deps: { external: [/\/packages\/[^/]+\/dist\//] } },
});
export default { ...config, resolve: { alias: {} } };
