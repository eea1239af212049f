#!/usr/bin/env node
import module from 'node:module';

// Node ≥ 22.1 keeps the V8 code of the modules it compiles on disk (os.tmpdir()/node-compile-cache,
// off with NODE_DISABLE_COMPILE_CACHE=1) and reuses it at the next start; it must be enabled before
// the modules load, hence the dynamic import below. On Node 20, which lacks it, a V8 code cache of
// the same bundle measured 117 → 100 ms for a small conversion (issue 19). A no-op where absent.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { main } = await import('./main.js');

// `gltf-legacy … | head`: a closed pipe ends the output quietly, not with a stack trace
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  },
);
