/**
 * Story: another user's ids answer not-found. Another user's merchant, beneficiary and funding
 * record answer their not-found codes exactly as ids that do not exist, its lists are empty, and
 * nothing of the owner's changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantUser, onboardedMerchant, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';

describe("story: another user's ids answer not-found", () => {
  let s: PaymentsStory;

  beforeAll(async () => {
    s = await paymentsStory();
  });
  afterAll(async () => s.t.stop());

  it('1. another user\'s merchant, beneficiary and record are not found, as unknown ids are', async () => {
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
    expect((await owner.ok<{ data: { balance: string }[] }>('GET', '/v2/merchant/accounts', { merchantId })).data[0].balance).toBe('0.00');
    await s.verified();
  });

});
