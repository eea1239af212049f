// The CLI package's two builds. The library (`index.js`, the gltf-transform plugin) is built like
// every package: dependencies stay imports. The command (`bin.js`) and the batch worker
// (`worker.js`) are bundled with their dependencies (issue 19): one tree-shaken copy in a few
// chunks loads faster than ~120 module files, and a conversion loads only the chunks of its
// command and of its input's format (dynamic `import()`s become chunks). See the README's
// start-up section for the measurements.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';

/**
 * Left out of the bundle, loaded from node_modules when used: native or WebAssembly modules that
 * read files beside themselves, and the viewer (three.js, browser bundles).
 */
const EXTERNAL = ['sharp', 'draco3dgltf', 'gltf-validator', 'meshoptimizer', '@gltf-legacy/viewer'];

/**
 * `@gltf-transform/functions` imports `ndarray-pixels` (and so `sharp`, a native image library:
 * ~130 ms to load) at its top level for the texture functions, which a conversion never calls.
 * Its two functions are async, so the bundle gets a stand-in that loads the real module on the
 * first call — resolved from `@gltf-transform/functions`'s own folder, as without the bundle.
 */
const lazyNdarrayPixels: Plugin = {
  name: 'lazy-ndarray-pixels',
  setup(build) {
    build.onResolve({ filter: /^ndarray-pixels$/ }, () => ({ path: 'ndarray-pixels', namespace: 'lazy' }));
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: `import { createRequire } from 'node:module';
let real;
function load() {
  const functions = createRequire(import.meta.url).resolve('@gltf-transform/functions');
  return (real ??= createRequire(functions)('ndarray-pixels'));
}
export async function getPixels(...args) { return load().getPixels(...args); }
export async function savePixels(...args) { return load().savePixels(...args); }`,
      loader: 'js',
    }));
  },
};

/** `require` for the bundled CommonJS modules (node builtins), made on first use. */
const REQUIRE_BANNER =
  "import{createRequire as __cr}from'node:module';let __rq;const __lr=()=>(__rq??=__cr(import.meta.url));const require=Object.assign((id)=>__lr()(id),{resolve:(id,o)=>__lr().resolve(id,o)});";

// both builds write into dist/: it is emptied once here instead of by each build
if (!process.argv.includes('--watch')) rmSync('dist', { recursive: true, force: true });

export default defineConfig([
  {
    entry: { index: 'src/index.ts', 'gltf-transform.config': 'src/gltf-transform-config.ts' },
    format: ['esm'],
    dts: false, // declarations: tools/types
    sourcemap: true,
    clean: false,
    target: 'node20',
  },
  {
    entry: { bin: 'src/bin.ts', worker: 'src/worker.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    clean: false,
    splitting: true,
    // everything but EXTERNAL is bundled
    noExternal: [new RegExp(`^(?!(${EXTERNAL.join('|').replace(/\//g, '\\/')})(/|$))`)],
    external: EXTERNAL,
    esbuildPlugins: [lazyNdarrayPixels],
    banner: { js: REQUIRE_BANNER },
    esbuildOptions(options) {
      // smaller chunks parse faster (measured: ~10 ms CPU of ~150); names stay readable
      options.minifyWhitespace = true;
      options.minifySyntax = true;
      options.mainFields = ['module', 'main'];
    },
  },
]);
