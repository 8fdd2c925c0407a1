/**
 * The demo data of a first start (docs/operating.md "Demo data", BOURSE_DEMO=1) is one journal transaction: a crash
 * while seeding leaves all of it or none. Seen from outside: one committed batch holding every
 * seeding command, and the three users with their keys and funds in place.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

describe('demo seeding', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t.stop());

  it('when a fresh server seeds the demo data, then every command of it was committed in one batch', async () => {
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    const value = (name: string): number => Number(metrics.split('\n').find((line) => line.startsWith(`${name} `))?.split(' ')[1]);
    const seeded = t.server.exchange.core.lastSeq;
    expect(seeded).toBeGreaterThan(30);
    expect(value('bourse_batch_size_count')).toBe(1);
    expect(value('bourse_batch_size_sum')).toBe(seeded);
  });

  it('when seeded, then the demo user, the merchant and the market maker each have their funds and one key', () => {
    const core = t.server.exchange.core;
    const users = [...core.ledger.users.values()].filter((u) => u.email.endsWith('@bourse.local'));
    expect(users.map((u) => [u.email, u.userType])).toEqual([
      ['demo@bourse.local', 'user'],
      ['merchant@bourse.local', 'merchant'],
      ['market-maker@bourse.local', 'user'],
    ]);
    for (const user of users) {
      expect([...core.catalogue.apiKeys.values()].filter((k) => k.userId === user.userId && !k.revoked)).toHaveLength(1);
      const usdt = core.ledger.account(user.accountIds[0]).balances.get('USDT');
      expect(usdt?.free).toBeGreaterThan(0n);
    }
    expect(t.demo.userId).toBe(String(users[0].userId));
  });
});
