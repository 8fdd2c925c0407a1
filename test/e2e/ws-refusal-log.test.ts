import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '../support/child-server.js';
import { refusedHandshake } from '../support/ws-client.js';
import { wsUrl } from '../support/ws-market-client.js';

/** The real process logs a refused WebSocket upgrade through its pino logger, listenKey cut short. */
describe('refused upgrades in the server log', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-ws-refusal-'));
  let child: ChildServer;

  beforeAll(async () => {
    child = await startChildServer({ dataDir });
  });

  afterAll(async () => {
    await child?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when a user stream handshake names an unknown listenKey, then one info line says why, without the key', async () => {
    const listenKey = 'Zq'.repeat(32);
    const refused = await refusedHandshake(wsUrl(child.url, `/openapi/ws/${listenKey}`));
    expect(refused).toMatchObject({ status: 400, body: { code: -1125 } });
    // The log comes through the child's stdout, a moment after the answer.
    const line = await child.loggedLine('websocket upgrade refused');
    expect(line).toMatchObject({
      level: 30,
      component: 'websocket',
      ip: '127.0.0.1',
      path: '/openapi/ws/ZqZq…',
      status: 400,
      code: -1125,
      reason: 'listenKey unknown or expired',
    });
    expect(JSON.stringify(line)).not.toContain(listenKey);
  });
});
