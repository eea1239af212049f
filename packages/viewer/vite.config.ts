import { defineConfig } from 'vite';
// @ts-ignore: plain .mjs helper shared by every package's test config
import { workspaceAliases } from '@gltf-legacy/test-utils/vitest';

// The page is built to dist/web with relative URLs, so it can be opened from any folder or server.
// Workspace packages resolve to their TypeScript sources (no stale builds in the page).
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  resolve: { alias: workspaceAliases() },
  build: { outDir: 'dist/web', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2000 },
});
