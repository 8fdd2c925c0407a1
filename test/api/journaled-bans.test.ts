/**
 * A ban, once earned, is journaled (docs/spot-api.md "Rate limits"): the operator lists it, a restart
 * on the same data keeps it, and the operator's lift (O14) ends it for good. O29 sets one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startServer } from '../../src/main.js';
import { AdminClient, request, type HttpAnswer } from '../support/clients.js';
import { CORE_THREADS, startTestServer, type TestServer } from '../support/server.js';

/** Low limits a test reaches in a few requests, and a first ban of 30 minutes, which outlasts the test. */
const LOW_LIMITS = { requestWeightPerMinute: 1, banStrikes: 2, banBaseMs: 1_800_000 };
const DEFAULT_LIMITS = { requestWeightPerMinute: 3000, banStrikes: 20, banBaseMs: 120_000 };
const PAIRS = '/openapi/v1/pairs';

interface BanRow {
  ip: string;
  bannedUntil: number;
  banCount: number;
}

/** Public requests (weight 1) until a 418: at most two minutes' worth of the limit and the two strikes. */
async function earnBan(url: string): Promise<HttpAnswer> {
  for (let sent = 0; sent < 6; sent++) {
    const answer = await request(`${url}${PAIRS}`);
    if (answer.status === 418) return answer;
  }
  throw new Error('no 418 within 6 requests at a weight limit of 1 and 2 strikes');
}

/** The `bannedUntil` a 418's message names. */
function bannedUntil(answer: HttpAnswer): number {
  const { msg } = answer.body as { msg: string };
  return Number(/IP banned until ([0-9]+)\.$/.exec(msg)?.[1]);
}

describe.each(CORE_THREADS)('journaled IP bans (%s core)', (coreThread) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-journaled-bans-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('when a client earns a ban, then it is in the journal, a restart keeps it, and the operator’s lift ends it for good', async () => {
    const first = await startTestServer({ BOURSE_DATA: dataDir, BOURSE_CORE_THREAD: coreThread });
    let server = first.server;
    try {
      let admin = new AdminClient(server.url, first.adminToken);
      expect((await admin.send('PATCH', '/trading/config', LOW_LIMITS)).status).toBe(200);
      const refusal = await earnBan(server.url);
      const until = bannedUntil(refusal);
      const ban: BanRow = { ip: '127.0.0.1', bannedUntil: until, banCount: 1 };
      expect(until - Date.now()).toBeGreaterThan(1_790_000);
      expect((await admin.send('GET', '/bans')).body).toEqual([ban]);
      // The core holds it once the ban's command is committed (the 418 came first: the limiter refuses at
      // once); the journal, replayed from the start, reaches the same state.
      const core = server.exchange.core;
      await vi.waitUntil(() => core.bans.entry('127.0.0.1') !== undefined, { timeout: 5000 });
      expect(core.bans.entry('127.0.0.1')).toEqual(ban);
      expect((await admin.send('GET', '/verify?replay=1')).body).toMatchObject({ ok: true, replay: { ok: true } });
      // The limits go back to the defaults: the ban does not depend on them.
      expect((await admin.send('PATCH', '/trading/config', DEFAULT_LIMITS)).status).toBe(200);
      await server.close();

      server = await startServer(first.env);
      admin = new AdminClient(server.url, admin.token);
      const again = await request(`${server.url}${PAIRS}`);
      expect(again.status).toBe(418);
      expect(bannedUntil(again)).toBe(until);
      expect((await admin.send('GET', '/bans')).body).toEqual([ban]);
      expect((await admin.send('DELETE', '/bans/127.0.0.1')).body).toEqual({ ip: '127.0.0.1', lifted: true });
      expect((await request(`${server.url}${PAIRS}`)).status).toBe(200);
      expect((await admin.send('GET', '/bans')).body).toEqual([]);
      expect((await admin.send('DELETE', '/bans/127.0.0.1')).body).toEqual({ ip: '127.0.0.1', lifted: false });
      await server.close();

      server = await startServer(first.env);
      admin = new AdminClient(server.url, admin.token);
      expect((await request(`${server.url}${PAIRS}`)).status).toBe(200);
      expect((await admin.send('GET', '/bans')).body).toEqual([]);
      expect(server.exchange.core.bans.size).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('the operator sets a ban (O29)', () => {
  let t: TestServer;
  let admin: AdminClient;

  afterAll(async () => t?.stop());

  it('when the operator bans an address, then it is listed with its count, a second ban counts 2, and the address in another spelling is the same', async () => {
    t = await startTestServer();
    admin = new AdminClient(t.url, t.adminToken);
    const until = Date.now() + 3_600_000;
    expect((await admin.send('POST', '/bans', { ip: '203.0.113.9', bannedUntil: until })).body).toEqual({ ip: '203.0.113.9', bannedUntil: until, banCount: 1 });
    // A shorter one: the ban in force keeps its end, the count grows.
    const second = await admin.send('POST', '/bans', { ip: '::ffff:203.0.113.9', bannedUntil: until - 60_000 });
    expect(second.body).toEqual({ ip: '203.0.113.9', bannedUntil: until, banCount: 2 });
    expect((await admin.send('POST', '/bans', { ip: '2001:DB8::9', bannedUntil: String(until), banCount: 4 })).body).toEqual({ ip: '2001:db8::9', bannedUntil: until, banCount: 4 });
    expect((await admin.send('GET', '/bans')).body).toEqual([
      { ip: '2001:db8::9', bannedUntil: until, banCount: 4 },
      { ip: '203.0.113.9', bannedUntil: until, banCount: 2 },
    ]);
    expect((await admin.send('DELETE', '/bans/203.0.113.9')).body).toEqual({ ip: '203.0.113.9', lifted: true });
    expect((await admin.send('DELETE', '/bans/2001:db8:0:0:0:0:0:9')).body).toEqual({ ip: '2001:db8::9', lifted: true });
    expect((await admin.send('GET', '/bans')).body).toEqual([]);
  });

  it.each([
    [{ bannedUntil: 1 }, 400, -1102, "Mandatory parameter 'ip' was not sent, was empty/null, or malformed."],
    [{ ip: '203.0.113.9' }, 400, -1102, "Mandatory parameter 'bannedUntil' was not sent, was empty/null, or malformed."],
    [{ ip: '203.0.113.0/24', bannedUntil: 4_102_444_800_000 }, 400, -1100, "Illegal characters found in parameter 'ip'; legal range is 'an IPv4 or IPv6 address'."],
    [{ ip: 7, bannedUntil: 4_102_444_800_000 }, 400, -1100, "Illegal characters found in parameter 'ip'; legal range is 'a string'."],
    [{ ip: '203.0.113.9', bannedUntil: 1_000_000 }, 400, -1130, "Data sent for paramter 'bannedUntil' is not valid."],
    [{ ip: '203.0.113.9', bannedUntil: 4_102_444_800_000, banCount: 0 }, 400, -1130, "Data sent for paramter 'banCount' is not valid. (legal range is 1-9007199254740991)"],
  ])('when the body is %j, then %i %i', async (body, status, code, msg) => {
    const answer = await admin.send('POST', '/bans', body);
    expect([answer.status, answer.body]).toEqual([status, { code, msg }]);
    expect((await admin.send('GET', '/bans')).body).toEqual([]);
  });
});
