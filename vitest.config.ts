import os from 'node:os';
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
    // Vitest runs one worker less than the cores by default: a single one on a 2-core CI machine, while
    // the main process sits idle and the HTTP files wait on their databases. VITEST_MAX_WORKERS overrides.
    maxWorkers: Math.max(2, os.availableParallelism()),
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
          // The files share their worker's module cache: each starts its own server on its own database,
          // and importing the server's module graph again per file took two thirds of the suite's time
          // (SQLite: 6 min instead of 17 on a loaded machine, every test passing both ways).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
