import { defineConfig } from 'vitest/config';
import everything, { MOCKING } from './vitest.config.js';

/**
 * Unit and property files that `npm test` runs but this loop leaves out, as each costs seconds to
 * tens of seconds of CPU on its own; run one by naming it (`npx vitest run <file>`).
 */
const LEFT_TO_NPM_TEST = [
  // Real servers or core worker threads: they belong beside test/api and test/e2e.
  ...MOCKING, // a worker core in most of its tests
  'test/unit/exchange/core-host-limits.test.ts', // a worker core under 100,000 commands
  'test/unit/exchange/recovery.test.ts', // startServer on damaged data directories
  'test/property/admin-exact-decimals.property.test.ts', // a real server over HTTP
  // Properties whose full runs alone take about as long as the whole loop may.
  'test/property/payment-orders.property.test.ts',
  'test/property/payments-conservation.property.test.ts',
  'test/property/webhook-outbox.property.test.ts',
];

/** `npm run test:unit`, the developer loop: the unit and property tests with `npm test`'s pool settings, in one project. */
export default defineConfig({
  test: {
    ...everything.test,
    // No unit test serves the browser pages; the store's tests need a PostgreSQL.
    globalSetup: ['test/support/pg-global-setup.ts'],
    projects: undefined,
    include: ['test/unit/**/*.test.ts', 'test/property/**/*.test.ts'],
    exclude: LEFT_TO_NPM_TEST,
  },
});
