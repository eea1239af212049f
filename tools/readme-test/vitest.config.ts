import { defineConfig } from 'vitest/config';

// The blocks run built packages (dist/, tarballs): no source aliases here.
export default defineConfig({ test: { testTimeout: 140_000, hookTimeout: 900_000, fileParallelism: false } });
