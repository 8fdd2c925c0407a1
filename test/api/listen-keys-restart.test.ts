import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ok, refused } from '../support/answers.js';
import { SpotClient } from '../support/clients.js';
import { Operator, type Member } from '../support/fixtures.js';
import { CORE_THREADS, startTestServer, type TestServer } from '../support/server.js';
import { refusedHandshake, WsProbe } from '../support/ws-client.js';

const STREAM = '/openapi/v1/userDataStream';
const NO_LISTEN_KEY = { code: -1125, msg: 'This listenKey does not exist.' };

/**
 * listenKeys are journaled state of the core (docs/spot-api.md "User data streams"): a restart
 * recovers them like balances and orders, from the latest snapshot and the journal after it.
 */
describe.each(CORE_THREADS)('listenKeys across a restart (%s core)', (coreThread) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-listen-keys-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const start = (): Promise<TestServer> => startTestServer({ BOURSE_DATA: dataDir, BOURSE_CORE_THREAD: coreThread });
  const wsUrl = (t: TestServer, listenKey: string): string => `${t.url.replace(/^http/, 'ws')}/openapi/ws/${listenKey}`;

  /** On the first server: a member with one listenKey kept and one closed. */
  async function beforeRestart(): Promise<{ member: Member; kept: string; closed: string }> {
    const first = await start();
    try {
      const member = await new Operator(first).member();
      const kept = ok<{ listenKey: string }>(await member.client.signed('POST', STREAM)).listenKey;
      const closed = ok<{ listenKey: string }>(await member.client.signed('POST', STREAM)).listenKey;
      expect(ok(await member.client.signed('DELETE', STREAM, { listenKey: closed }))).toEqual({});
      return { member, kept, closed };
    } finally {
      await first.server.close();
    }
  }

  it('when the server restarts, then a listenKey made before is still valid and a closed one is still gone', async () => {
    const { member, kept, closed } = await beforeRestart();
    const second = await start();
    try {
      const again = new SpotClient(second.url, member.client.apiKey, member.client.secret);
      expect(ok(await again.signed('PUT', STREAM, { listenKey: kept }))).toEqual({});
      refused(await again.signed('PUT', STREAM, { listenKey: closed }), NO_LISTEN_KEY.code, NO_LISTEN_KEY.msg);
      expect(await refusedHandshake(wsUrl(second, closed))).toMatchObject({ status: 400, body: NO_LISTEN_KEY });
      const stream = await WsProbe.open(wsUrl(second, kept));
      await new Operator(second).deposit(member.accountId, 'USDT', '5');
      expect(await stream.next()).toEqual([
        { e: 'outboundAccountInfo', E: expect.stringMatching(/^[0-9]+$/) as unknown, T: true, W: true, D: true, B: [{ a: 'USDT', f: '5', l: '0' }] },
      ]);
      expect(ok(await again.signed('DELETE', STREAM, { listenKey: kept }))).toEqual({});
      expect(await stream.closed).toEqual({ code: 1000, reason: 'listenKey closed' });
    } finally {
      await second.server.close();
    }
  });
});
