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
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
