/**
 * Story: a business is rejected, then re-linked. The user sets `kyc: reject`; B13 creates the
 * merchant, which the simulator rejects (3, with a reason); accounts and beneficiaries are refused
 * for it; the user switches to `approve` and re-links: a new link, status 4 at once in the answer,
 * the reason cleared, and verified at the next read. Re-linking a verified merchant is -5063.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../support/clients.js';
import { BUSINESS_FIELDS, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';

describe('story: a business is rejected, then re-linked', () => {
  let s: PaymentsStory;
  let merchantId: number;
  let firstLink: string;

  const row = async (): Promise<Record<string, unknown>> => (await s.client.ok<{ data: Record<string, unknown>[] }>('GET', '/v2/merchants', {})).data[0];

  beforeAll(async () => {
    s = await paymentsStory();
  });
  afterAll(async () => s.t.stop());

  it('1. with kyc=reject, the new business ends in 3 with a reject reason', async () => {
    expect(await s.client.ok('PUT', '/sandbox/v2/modes', { kyc: 'reject' })).toMatchObject({ kyc: 'reject', accountReview: 'approve' });
    const created = await s.client.ok<{ merchantId: number; kycLink: string }>('POST', '/v2/merchants', {
      merchantName: 'Acme MX',
      email: 'pay@acme.mx',
      merchantType: 'BUSINESS',
      callbackUrl: 'https://acme.example/kyc',
    });
    merchantId = created.merchantId;
    firstLink = created.kycLink;
    expect(await row()).toMatchObject({ merchantId, merchantType: 2, status: 3, rejectReason: expect.stringContaining('reject') as unknown });
  });

  it('2. a rejected merchant may not open accounts (-5043) nor add beneficiaries (-5044)', async () => {
    expect(await s.client.refused('POST', '/v2/merchant/accounts', { merchantId, fiat: 'MXN', fieldList: BUSINESS_FIELDS })).toEqual([400, -5043]);
    expect(await s.client.refused('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', fieldJson: SPEI_BENEFICIARY })).toEqual([400, -5044]);
  });

  it('3. a second merchant with the same name or e-mail is refused (-5069, -2017)', async () => {
    const base = { merchantType: 'BUSINESS', callbackUrl: 'https://acme.example/kyc' };
    expect(await s.client.refused('POST', '/v2/merchants', { ...base, merchantName: 'ACME mx', email: 'other@acme.mx' })).toEqual([400, -5069]);
    expect(await s.client.refused('POST', '/v2/merchants', { ...base, merchantName: 'Other', email: 'PAY@acme.mx' })).toEqual([400, -2017]);
  });

  it('4. after kyc=approve, re-linking gives a new link and the merchant is verified at the next read', async () => {
    await s.client.ok('PUT', '/sandbox/v2/modes', { kyc: 'approve' });
    const relinked = await s.client.ok<{ merchantId: number; kycLink: string }>('POST', '/v2/merchants', { merchantId, callbackUrl: 'https://acme.example/kyc-again' });
    expect(relinked.merchantId).toBe(merchantId);
    expect(relinked.kycLink).not.toBe(firstLink);
    expect((await request(firstLink)).status).toBe(404);
    expect(await row()).toMatchObject({ status: 2, rejectReason: '' });
    expect(await s.client.refused('POST', '/v2/merchants', { merchantId, callbackUrl: 'https://acme.example/kyc' })).toEqual([400, -5063]);
    await s.verified();
  });
});
