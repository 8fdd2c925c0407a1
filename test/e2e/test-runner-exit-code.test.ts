import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Ignored by git, inside the repository so vitest's root holds it. */
const DIR = path.join(REPO_ROOT, 'test-artifacts', `runner-exit-${process.pid}`);

/**
 * The PostgreSQL global set-up of `npm test` starts an embedded server when no URL is given; the
 * package it loads once registered a hook that turned a failing run into exit code 0, so CI passed
 * whatever failed. A run of one failing test through the same set-up must exit 1.
 */
describe('the test runner with the PostgreSQL set-up', () => {
  afterAll(() => rmSync(DIR, { recursive: true, force: true }));

  it('when a test fails, then `vitest run` exits 1, with the embedded PostgreSQL and with a given server', () => {
    mkdirSync(DIR, { recursive: true });
    writeFileSync(path.join(DIR, 'fails.test.ts'), "import { expect, it } from 'vitest';\nit('fails', () => expect(1).toBe(2));\n");
    writeFileSync(
      path.join(DIR, 'vitest.config.ts'),
      `export default { test: { root: ${JSON.stringify(REPO_ROOT)}, include: [${JSON.stringify(path.join(DIR, 'fails.test.ts'))}], globalSetup: ['test/support/pg-global-setup.ts'] } };\n`,
    );
    const run = (env: NodeJS.ProcessEnv): number | null =>
      spawnSync(process.execPath, [path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', path.join(DIR, 'vitest.config.ts')], {
        cwd: REPO_ROOT,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      }).status;
    const { BOURSE_TEST_POSTGRES_URL: given, ...withoutUrl } = process.env;
    expect(run(withoutUrl)).toBe(1);
    if (given !== undefined) expect(run(process.env)).toBe(1);
  });
});
