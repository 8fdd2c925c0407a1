import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../src/main.js';
import type { DemoCredentials } from '../../src/demo/demo-data.js';
import { WEBHOOK_KEY_FILE } from '../../src/webhooks/webhook-key.js';
import { postgresServerUrl } from './postgres.js';
import { createDatabase, dropDatabase, withDatabase } from './postgres-admin.js';

/** Both placements of the core (BOURSE_CORE_THREAD), for suites that must hold for each. */
export const CORE_THREADS = ['inline', 'worker'] as const;

export interface TestServer {
  server: RunningServer;
  url: string;
  dataDir: string;
  adminToken: string;
  demo: DemoCredentials;
  /** What the server was started with: `startServer(env)` starts it again on the same data (and store). */
  env: Record<string, string>;
  /** Closes the server and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * The store a test server runs on unless its `env` names one: `BOURSE_TEST_STORE=postgres` (the
 * vitest project that runs the stories again on PostgreSQL) gives each server a fresh database of
 * its own on the tests' PostgreSQL, dropped when the server stops.
 */
async function defaultStore(env: Record<string, string>): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (process.env.BOURSE_TEST_STORE !== 'postgres' || env.BOURSE_DB !== undefined) return { env: {}, drop: () => Promise.resolve() };
  const serverUrl = postgresServerUrl();
  const name = `bourse_s_${randomBytes(6).toString('hex')}`;
  await createDatabase(serverUrl, name);
  // One node alone: it leads, and no other node ever needs its address.
  return { env: { BOURSE_DB: withDatabase(serverUrl, name), BOURSE_NODE_URL: 'http://127.0.0.1:1' }, drop: () => dropDatabase(serverUrl, name) };
}

/** The webhook signing key the first fresh test server of this process generated (PEM): the later ones get it. */
let webhookKeyPem: string | undefined;

/**
 * A real Bourse on port 0 with a fresh data directory and the demo data. Its webhook key is this
 * process's: generating an RSA-2048 key takes 0.1–0.5 s of CPU, paid otherwise by every start, so
 * only the first fresh server generates one (as every child-process server and
 * test/unit/webhooks/webhook-key.test.ts do) and the later ones find it in their data directory, as
 * an operator's own key would be.
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = env.BOURSE_DATA ?? mkdtempSync(path.join(tmpdir(), 'bourse-test-'));
  const keyFile = env.BOURSE_DATA === undefined && env.BOURSE_WEBHOOK_KEY === undefined ? path.join(dataDir, WEBHOOK_KEY_FILE) : undefined;
  if (keyFile !== undefined && webhookKeyPem !== undefined) writeFileSync(keyFile, webhookKeyPem, { mode: 0o600 });
  const store = await defaultStore(env);
  const serverEnv = { PORT: '0', BOURSE_DATA: dataDir, LOG_LEVEL: 'silent', BOURSE_DEMO: '1', BOURSE_DEMO_MARKET_MAKER: '0', ...store.env, ...env };
  const server = await startServer(serverEnv);
  if (keyFile !== undefined) webhookKeyPem ??= readFileSync(keyFile, 'utf8');
  const adminToken = readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
  const demo = JSON.parse(readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials;
  const testServer: TestServer = {
    server,
    url: server.url,
    dataDir,
    adminToken,
    demo,
    env: serverEnv,
    async stop() {
      // The server a test restarted on the same data (and store), if it did: the one still running.
      await server.close();
      await testServer.server.close();
      await store.drop();
      if (env.BOURSE_DATA === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testServer;
}
