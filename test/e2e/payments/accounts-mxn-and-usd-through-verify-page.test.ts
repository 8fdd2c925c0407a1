/**
 * Story: MXN account activated, and a USD account activated through its verify page. With
 * `accountReview: manual`, B15 MXN waits in 1 for the review and USD in 4 with a verify link; the
 * page accepts the terms (4 → 1), docs/merchant-payments.md "The simulator and the sandbox API" approves both; a repeat of B15 is -5067 for an active account
 * and -5066 for one under review; a rejected account may be re-submitted (3 → 1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../support/clients.js';
import { BUSINESS_FIELDS, onboardedMerchant } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';

describe('story: MXN and USD merchant accounts, USD through its verify page', () => {
  let s: PaymentsStory;
  let merchantId: number;
  let verifyLink: string;

  const status = async (fiat: string): Promise<unknown> => (await s.client.ok<{ data: { status: number }[] }>('GET', '/v2/merchant/accounts', { merchantId, fiat })).data[0]?.status;

  beforeAll(async () => {
    s = await paymentsStory();
    merchantId = await onboardedMerchant(s.client, 'Acme Global', []);
    await s.client.ok('PUT', '/sandbox/v2/modes', { accountReview: 'manual' });
  });
  afterAll(async () => s.t.stop());

  it('1. B15 MXN is under review (1) with no link; B15 USD waits for its terms (4) with a verify link', async () => {
    expect(await s.client.ok('POST', '/v2/merchant/accounts', { merchantId, fiat: 'MXN', fieldList: BUSINESS_FIELDS })).toEqual({ fiat: 'MXN', status: 1, verifyLink: '', failReason: '' });
    const usd = await s.client.ok<{ fiat: string; status: number; verifyLink: string }>('POST', '/v2/merchant/accounts', { merchantId, fiat: 'USD', fieldList: BUSINESS_FIELDS });
    expect(usd).toMatchObject({ fiat: 'USD', status: 4, failReason: '' });
    expect(usd.verifyLink).toMatch(new RegExp(`^${s.t.url}/sandbox/verify/[0-9a-f]{32}$`));
    verifyLink = usd.verifyLink;
    expect(await s.client.refused('POST', '/v2/merchant/accounts', { merchantId, fiat: 'MXN', fieldList: BUSINESS_FIELDS })).toEqual([400, -5066]);
    expect(await s.client.refused('POST', '/v2/merchant/accounts', { merchantId, fiat: 'GBP', fieldList: BUSINESS_FIELDS })).toEqual([400, -5045]);
  });

  it('2. the verify page shows the terms; accepting them moves USD to 1', async () => {
    const page = await request(verifyLink);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('I accept the terms of the USD account');
    const unticked = await request(verifyLink, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'action=verify' });
    expect([unticked.status, unticked.text.includes('Tick the box')]).toEqual([400, true]);
    expect(await status('USD')).toBe(4);
    const accepted = await request(verifyLink, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'accept=1&action=verify' });
    expect(accepted.status).toBe(200);
    expect(accepted.text).toContain('the terms are accepted');
    expect(await status('USD')).toBe(1);
  });

  it('3. A sandbox API review approves both; B15 again is -5067; the MXN instructions are live (B17)', async () => {
    for (const fiat of ['MXN', 'USD']) {
      const row = await s.client.ok<{ status: number; fiat: string }>('POST', `/sandbox/v2/merchant/accounts/${merchantId}/${fiat}/review`, { action: 'approve' });
      expect(row).toMatchObject({ fiat, status: 2 });
    }
    expect(await s.client.refused('POST', '/v2/merchant/accounts', { merchantId, fiat: 'USD', fieldList: BUSINESS_FIELDS })).toEqual([400, -5067]);
    const instructions = await s.client.ok<{ fieldList: Record<string, string> }>('GET', '/v2/merchant/addfunds', { merchantId, paymentId: 58, fiat: 'MXN' });
    expect(instructions).toEqual({ fiat: 'MXN', paymentMethodName: 'Automated SPEI - Arcus', fieldList: { 'Cuenta CLABE': expect.stringMatching(/^706180[0-9]{12}$/) as unknown, 'Beneficiary Name': 'Acme Global' } });
    expect(await s.client.refused('GET', '/v2/merchant/addfunds', { merchantId, paymentId: 83, fiat: 'MXN' })).toEqual([400, -5018]);
    expect(await s.client.refused('GET', '/v2/merchant/addfunds', { merchantId, paymentId: 85, fiat: 'EUR' })).toEqual([400, -5070]);
  });

  it('4. a rejected EUR account carries its reason and may be submitted again', async () => {
    await s.client.ok('POST', '/v2/merchant/accounts', { merchantId, fiat: 'EUR', fieldList: BUSINESS_FIELDS });
    await s.client.ok('POST', `/sandbox/v2/merchant/accounts/${merchantId}/EUR/review`, { action: 'verify' });
    const rejected = await s.client.ok('POST', `/sandbox/v2/merchant/accounts/${merchantId}/EUR/review`, { action: 'reject', failReason: 'IBAN holder differs' });
    expect(rejected).toMatchObject({ fiat: 'EUR', status: 3, failReason: 'IBAN holder differs' });
    expect(await s.client.refused('POST', `/sandbox/v2/merchant/accounts/${merchantId}/EUR/review`, { action: 'approve' })).toEqual([400, -5104]);
    const again = await s.client.ok('POST', '/v2/merchant/accounts', { merchantId, fiat: 'EUR', fieldList: BUSINESS_FIELDS });
    expect(again).toMatchObject({ fiat: 'EUR', status: 4, failReason: '' });
    await s.verified();
  });
});
