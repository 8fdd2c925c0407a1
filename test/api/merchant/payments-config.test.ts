/**
 * The journaled payments configuration (docs/operating.md "Merchant payments settings"): GET answers the document, PATCH merges a
 * partial one member by member after checking every member, new values apply to later objects, and
 * the document survives a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../src/main.js';
import type { PaymentsConfig } from '../../../src/payments/config.js';
import { AdminClient, hmacHex, request } from '../../support/clients.js';
import { MerchantClient } from '../../support/merchant-client.js';
import { Operator } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

describe('payments configuration (GET/PATCH /admin/v1/payments/config)', () => {
  let t: TestServer;
  let admin: AdminClient;
  let op: Operator;

  beforeAll(async () => {
    t = await startTestServer();
    admin = new AdminClient(t.url, t.adminToken);
    op = new Operator(t);
  });
  afterAll(async () => t.stop());

  it('when read, then it is the built-in catalogue and settings', async () => {
    const config = (await admin.send('GET', '/payments/config')).body as PaymentsConfig;
    expect(config).toMatchObject({ tokenTtlMs: 7_200_000, quoteTtlMs: 10_000, maxMerchantsPerUser: 100, defaultCountry: 'Mexico', spreadBps: 50 });
    expect(config.fiats.map((f) => [f.fiat, f.country, f.accuracy])).toEqual([
      ['MXN', 'Mexico', 2],
      ['USD', 'United States', 2],
      ['EUR', 'United States', 2],
    ]);
    expect(config.rails.map((r) => r.paymentId)).toEqual([58, 83, 85, 70]);
    expect(config.webhook.retryGapsMs).toEqual([15_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 54_000_000]);
  });

  it('when a member is unknown or malformed, then 400 -1130 names it and nothing changes', async () => {
    for (const [patch, name] of [
      [{ tokenTtl: 5 }, 'tokenTtl'],
      [{ tokenTtlMs: 0 }, 'tokenTtlMs'],
      [{ tokenTtlMs: '5000' }, 'tokenTtlMs'],
      [{ limits: { dayFiatLimit: '1e3' } }, 'limits.dayFiatLimit'],
      [{ limits: { weekLimit: '1.00' } }, 'limits.weekLimit'],
      [{ publicBaseUrl: 'ftp://x' }, 'publicBaseUrl'],
      [{ spreadBps: 10_000 }, 'spreadBps'],
      [{ pairs: [{ fiat: 'GBP', crypto: 'USDT', symbol: 'USDTGBP', accuracy: 4, buy: true, sell: true }] }, 'pairs[0]'],
      [{ maxMerchantsPerUser: 2, webhook: { retryGapsMs: [0] } }, 'webhook.retryGapsMs[0]'],
    ] as const) {
      const answer = await admin.send('PATCH', '/payments/config', patch);
      expect([answer.status, (answer.body as { code: number; msg: string }).code], JSON.stringify(patch)).toEqual([400, -1130]);
      expect((answer.body as { msg: string }).msg).toContain(`'${name}'`);
    }
    expect(((await admin.send('GET', '/payments/config')).body as PaymentsConfig).maxMerchantsPerUser).toBe(100);
  });

  it('when patched, then new objects follow the new values: one merchant per user, a 60 s token, a lower day limit', async () => {
    const answer = await admin.send('PATCH', '/payments/config', { maxMerchantsPerUser: 1, tokenTtlMs: 60_000, limits: { dayFiatLimit: '500.00' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ maxMerchantsPerUser: 1, tokenTtlMs: 60_000, limits: { dayFiatLimit: '500.00', monthFiatLimit: '100000.00' } });
    const user = await op.ok<{ userId: string }>('POST', '/users', { type: 'merchant', email: 'ttl@a.example' });
    const key = await op.newKey(user.userId);
    const timestamp = Date.now();
    const query = `timestamp=${timestamp}`;
    const issued = await request(`${t.url}/v2/token/generate?${query}&signature=${hmacHex(key.secretKey, query)}`, { headers: { 'X-BH-APIKEY': key.apiKey } });
    const { token, expireTime } = (issued.body as { data: { token: string; expireTime: string } }).data;
    expect(Number(expireTime) - timestamp).toBeGreaterThanOrEqual(60_000);
    expect(Number(expireTime) - Date.now()).toBeLessThanOrEqual(60_000);
    const client = new MerchantClient(t.url, token, key.apiKey);
    const created = { merchantType: 'BUSINESS', callbackUrl: 'https://a.example/kyc' };
    await client.ok('POST', '/v2/merchants', { ...created, merchantName: 'Only One', email: 'one@a.example' });
    expect(await client.refused('POST', '/v2/merchants', { ...created, merchantName: 'Second', email: 'two@a.example' })).toEqual([400, -5064]);
    expect((await client.ok<{ data: { dayFiatLimit: string }[] }>('GET', '/v2/merchants')).data[0].dayFiatLimit).toBe('500.00');
  });

  it('when the server restarts, then the patched document is still in force', async () => {
    await t.server.close();
    t.server = await startServer({ PORT: '0', BOURSE_DATA: t.dataDir, LOG_LEVEL: 'silent', BOURSE_DEMO: '1', BOURSE_DEMO_MARKET_MAKER: '0' });
    const config = (await new AdminClient(t.server.url, t.adminToken).send('GET', '/payments/config')).body as PaymentsConfig;
    expect(config).toMatchObject({ maxMerchantsPerUser: 1, tokenTtlMs: 60_000 });
  });
});
