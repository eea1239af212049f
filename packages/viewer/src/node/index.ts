/**
 * Node entry of @gltf-legacy/viewer: thumbnails (`gltf-legacy preview`) and the local viewer
 * server (`gltf-legacy view`). The page itself is built by Vite to `dist/web`.
 */
export type { ViewerApi, ViewerState } from '../api.js';
export {
  CHROMIUM_ARGS,
  CHROMIUM_MISSING_MESSAGE,
  CHROMIUM_PATHS,
  findChromium,
  launchChromium,
} from './chromium.js';
export { gatherInput } from './files.js';
export { PREVIEW_DEFAULTS, type PreviewOptions, type PreviewResult, previewFiles } from './preview.js';
export { openInBrowser, SERVE_DEFAULTS, type ServedViewer, type ServeOptions, serveViewer } from './serve.js';
export { startServer, type ViewerServer, webRoot } from './server.js';
