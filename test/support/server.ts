import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../src/main.js';
import type { DemoCredentials } from '../../src/demo/demo-data.js';

/** Both placements of the core (BOURSE_CORE_THREAD), for suites that must hold for each. */
export const CORE_THREADS = ['inline', 'worker'] as const;

export interface TestServer {
  server: RunningServer;
  url: string;
  dataDir: string;
  adminToken: string;
  demo: DemoCredentials;
  /** Closes the server and removes its data directory. */
  stop(): Promise<void>;
}

/** A real Bourse on port 0 with a fresh data directory and the demo data. */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = env.BOURSE_DATA ?? mkdtempSync(path.join(tmpdir(), 'bourse-test-'));
  const server = await startServer({ PORT: '0', BOURSE_DATA: dataDir, LOG_LEVEL: 'silent', BOURSE_DEMO: '1', BOURSE_DEMO_MARKET_MAKER: '0', ...env });
  const adminToken = readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
  const demo = JSON.parse(readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials;
  return {
    server,
    url: server.url,
    dataDir,
    adminToken,
    demo,
    async stop() {
      await server.close();
      if (env.BOURSE_DATA === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
