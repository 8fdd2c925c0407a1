/**
 * Story: tokens and the scope of a user. B0 issues tokens that all stay valid, at most 20 live per
 * key: the 21st revokes the oldest (-1002 with it); tokens survive a restart; revoking the key kills
 * its tokens. Another user's merchant, beneficiary and funding record answer their not-found codes,
 * exactly as ids that do not exist.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer } from '../../../src/main.js';
import { MerchantClient, merchantUser, onboardedMerchant, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';

describe('story: tokens, and another user\'s ids', () => {
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

  it('2. another user\'s merchant, beneficiary and record are not found, as unknown ids are', async () => {
    const owner = s.client;
    const merchantId = await onboardedMerchant(owner, 'Owner Co');
    const beneficiary = (await owner.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', fieldJson: SPEI_BENEFICIARY })).id;
    await owner.ok('PUT', '/sandbox/v2/modes', { deposit: 'manual' });
    const { txId } = await owner.ok<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '10.00' });
    const { client: stranger } = await merchantUser(s.op, s.t.url);
    for (const id of [merchantId, 999_999]) {
      expect(await stranger.refused('POST', '/v2/merchant/accounts', { merchantId: id, fiat: 'MXN', fieldList: {} })).toEqual([404, -5006]);
      expect(await stranger.refused('GET', '/v2/merchant/addfunds', { merchantId: id, paymentId: 58, fiat: 'MXN' })).toEqual([404, -5006]);
      expect(await stranger.refused('POST', '/sandbox/v2/deposits', { merchantId: id, fiat: 'MXN', amount: '1.00' })).toEqual([404, -5006]);
    }
    for (const id of [beneficiary, 999_999]) {
      expect(await stranger.refused('DELETE', `/v2/payments/${id}`)).toEqual([404, -4027]);
    }
    expect(await stranger.refused('POST', `/sandbox/v2/funding/${txId}/complete`)).toEqual([400, -5104]);
    expect((await stranger.ok<{ total: number }>('GET', '/v2/merchants')).total).toBe(0);
    expect((await stranger.ok<{ total: number }>('GET', '/v2/payments')).total).toBe(0);
    expect((await stranger.ok<{ total: number }>('GET', '/v2/merchant/funding/records')).total).toBe(0);
  });

  it('3. a token survives a restart of the server on the same data', async () => {
    await s.t.server.close();
    const restarted = await startServer({ PORT: '0', BOURSE_DATA: s.t.dataDir, LOG_LEVEL: 'silent', BOURSE_DEMO: '1', BOURSE_DEMO_MARKET_MAKER: '0' });
    s.t.server = restarted;
    const sameToken = new MerchantClient(restarted.url, s.client.token, s.client.apiKey);
    expect((await sameToken.ok<{ total: number }>('GET', '/v2/merchants')).total).toBe(1);
  });
});
