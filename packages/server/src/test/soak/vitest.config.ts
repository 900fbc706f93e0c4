import path from 'node:path';
import { defineConfig } from 'vitest/config';

const root = path.resolve(import.meta.dirname, '../../../../..');

/**
 * The soak-only parts of the fault and load suite (`*.soak.ts`), run by
 * `npm run test:soak` and never by `npm test`: PostgreSQL restarted under a running server, a full disk
 * and the load run. One file at a time: they measure the machine and must not share it.
 */
export default defineConfig({
  root,
  resolve: { alias: { '@fleetkeep/core': path.join(root, 'packages/core/src/index.ts') } },
  test: {
    include: ['packages/server/src/test/soak/**/*.soak.ts'],
    fileParallelism: false,
    testTimeout: 3_600_000,
    hookTimeout: 300_000,
  },
});
