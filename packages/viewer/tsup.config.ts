import { defineConfig } from 'tsup';

// Only the Node entry; the page is built by `vite build` into dist/web (kept: clean is off).
export default defineConfig({
  entry: { index: 'src/index.ts' },
  outDir: 'dist/node',
  format: ['esm'],
  dts: false, // declarations: tools/types (one program for every package)
  sourcemap: true,
  clean: true,
  target: 'node20',
});
