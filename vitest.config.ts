import path from 'node:path';
import { defineConfig } from 'vitest/config';

const core = path.resolve(import.meta.dirname, 'packages/core/src/index.ts');

/**
 * Two projects: `unit` (pure rules, no server) and `http` (the real server on a real database; run once
 * with TEST_DB=sqlite and once with TEST_DB=postgres by `npm test`).
 */
export default defineConfig({
  resolve: { alias: { '@fleetkeep/core': core } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts'],
          exclude: ['**/*.http.test.ts', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'http',
          include: ['packages/server/src/**/*.http.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
