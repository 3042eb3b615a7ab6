import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./', import.meta.url)),
      // `server-only` throws outside React's server condition; in tests every module is server-side.
      'server-only': fileURLToPath(new URL('./lib/testing/empty-module.ts', import.meta.url)),
    },
  },
  test: {
    include: ['{app,components,lib}/**/*.test.{ts,tsx}'],
    environment: 'node',
    globalSetup: ['lib/testing/pglite-template.global-setup.ts'],
    setupFiles: ['lib/testing/pglite-template.setup.ts'],
    // One worker per core: the suite is CPU-bound (PGlite, spawned CLIs), and a second worker
    // keeps the wall time down even when other work shares the cores.
    maxWorkers: 2,
    // Budgets for a contributor's busy laptop, not a quiet CI box: a test that needs longer
    // (spawned processes, databases reopened on disk) says so itself.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
