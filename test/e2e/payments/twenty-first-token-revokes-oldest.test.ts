/**
 * Story: the 21st token of a key revokes the oldest. B0 issues tokens that all stay valid, at most
 * 20 live per key: the 21st ends the oldest (-1002 with it); revoking the key ends its tokens; a
 * token survives a restart of the server on the same data.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer } from '../../../src/main.js';
import { AdminClient } from '../../support/clients.js';
import { MerchantClient } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';

describe('story: the 21st token revokes the oldest', () => {
  let s: PaymentsStory;

  beforeAll(async () => {
    s = await paymentsStory();
  });
  afterAll(async () => s.t.stop());

  it('1. the 21st token of a key revokes the oldest; the other 20 keep working', async () => {
    const user = await s.op.ok<{ userId: string }>('POST', '/users', { type: 'merchant', email: 'tokens@example.mx' });
    const key = await s.op.newKey(user.userId);
    const clients: MerchantClient[] = [];
    // B0 allows 10 per minute and key: the clock moves a minute after every ten.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      for (let i = 0; i < 21; i++) {
        if (i > 0 && i % 10 === 0) vi.setSystemTime(Date.now() + 60_000);
        clients.push(await MerchantClient.connect(s.t.url, key.apiKey, key.secretKey));
      }
    } finally {
      vi.useRealTimers();
    }
    const answer = await clients[0].call('GET', '/v2/merchants');
    expect([answer.status, answer.code]).toEqual([401, -1002]);
    for (const client of clients.slice(1)) expect((await client.call('GET', '/v2/merchants')).code).toBe(200);
    await s.op.ok('DELETE', `/api-keys/${key.apiKey}`);
    expect((await clients[20].call('GET', '/v2/merchants')).code).toBe(-1002);
  });

  it('2. a token survives a restart of the server on the same data', async () => {
    await s.t.server.close();
    const restarted = await startServer(s.t.env);
    s.t.server = restarted;
    const sameToken = new MerchantClient(restarted.url, s.client.token, s.client.apiKey);
    expect((await sameToken.ok<{ userId: number }>('GET', '/v2/user/account')).userId).toBe(Number(s.userId));
    const verify = await new AdminClient(restarted.url, s.t.adminToken).send('GET', '/verify?replay=1');
    expect(verify.body).toMatchObject({ ok: true, replay: { ok: true } });
  });
});
