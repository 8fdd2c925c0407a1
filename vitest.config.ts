import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build-web.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time on a 2-core machine: most test time is waiting on servers and child
    // processes, not CPU (vitest's default is one fewer than the cores, i.e. serial here).
    poolOptions: { forks: { minForks: 1, maxForks: 2 } },
  },
});
