import { defineConfig } from 'vitest/config';

/** Files that replace a module with vi.mock: they need a module cache of their own. */
export const MOCKING = ['test/unit/exchange/core-thread.test.ts'];

/**
 * The area A and area B stories, run a second time with every test server on PostgreSQL
 * (BOURSE_TEST_STORE, test/support/server.ts): the same answers on both stores, end to end.
 */
const ON_POSTGRES = ['test/e2e/stories/**/*.test.ts', 'test/e2e/payments/**/*.test.ts'];
/** Browser pages do not depend on the store: once is enough. */
const NOT_ON_POSTGRES = ['test/e2e/payments/sandbox-pages-browser.test.ts'];

export default defineConfig({
  test: {
    // The pages and the server built (child processes run dist/, as `npm start` does); PostgreSQL for
    // the tests that need one: BOURSE_TEST_POSTGRES_URL's server, else an embedded one.
    globalSetup: ['test/support/build-web.ts', 'test/support/build-server.ts', 'test/support/pg-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time on a 2-core machine: most test time is waiting on servers and child
    // processes, not CPU (vitest's default is one fewer than the cores, i.e. serial here).
    poolOptions: { forks: { minForks: 1, maxForks: 2, isolate: false } },
    projects: [
      // A fork keeps its module cache from file to file: importing the server once per fork rather
      // than once per file takes about 100 s off a full run. Files still get fresh servers and
      // data directories of their own.
      { extends: true, test: { name: 'shared-modules', include: ['test/**/*.test.ts'], exclude: MOCKING } },
      { extends: true, test: { name: 'isolated', include: MOCKING, poolOptions: { forks: { isolate: true } } } },
      { extends: true, test: { name: 'stories-on-postgres', include: ON_POSTGRES, exclude: NOT_ON_POSTGRES, env: { BOURSE_TEST_STORE: 'postgres' } } },
    ],
  },
});
