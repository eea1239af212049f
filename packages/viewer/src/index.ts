/**
 * @gltf-legacy/viewer for Node: thumbnails (`previewFiles`, behind `gltf-legacy preview`) and the
 * local viewer server (`serveViewer`, behind `gltf-legacy view`). The page itself is built by Vite
 * to `dist/web` (its sources: index.html, src/main.ts, src/scene.ts, src/convert.ts).
 */
export * from './node/index.js';
