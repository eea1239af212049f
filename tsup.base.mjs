// The one tsup build config of the library packages (ESM, types, source maps, Node 20);
// each package's tsup.config.ts re-exports it.
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: false, // declarations: tools/types (one program for every package)
  sourcemap: true,
  clean: true,
  target: 'node20',
});
