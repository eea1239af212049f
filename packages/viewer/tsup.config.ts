import { defineConfig } from 'tsup';

// Only the Node entry; the page is built by `vite build` into dist/web (kept: clean is off).
export default defineConfig({
  entry: { index: 'src/index.ts' },
  outDir: 'dist/node',
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
});
