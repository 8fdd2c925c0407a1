/**
 * Story: an individual merchant is approved. Over real HTTP with the automatic sandbox modes: B13
 * answers a KYC link and status 4; the next read shows the merchant verified (2); B15 with an
 * INDIVIDUAL's fields opens its MXN account, active at the next read; the merchant's ledger account
 * M is an area A sub-account of the user, empty; the operator's verify holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INDIVIDUAL_FIELDS } from '../../support/merchant-client.js';
import { mxnOf, paymentsStory, type PaymentsStory } from '../../support/payments-story.js';

describe('story: an individual merchant is approved', () => {
  let s: PaymentsStory;
  let merchantId: number;

  beforeAll(async () => {
    s = await paymentsStory();
  });
  afterAll(async () => s.t.stop());

  it('1. B13 creates the merchant in status 4 with a KYC link of this server', async () => {
    const created = await s.client.ok<{ merchantId: number; kycLink: string }>('POST', '/v2/merchants', {
      merchantName: 'Juan Perez Tienda',
      email: 'juan@tienda.mx',
      merchantType: 'INDIVIDUAL',
      callbackUrl: 'https://tienda.example/kyc',
      languageCode: 'es',
      remark: 'corner shop',
    });
    merchantId = created.merchantId;
    expect(typeof merchantId).toBe('number');
    expect(created.kycLink).toMatch(new RegExp(`^${s.t.url}/sandbox/kyc/[0-9a-f]{32}$`));
  });

  it('2. the next read shows it verified, with the default limits and every field of the row', async () => {
    const page = await s.client.ok<{ currentPage: number; size: number; total: number; data: Record<string, unknown>[] }>('GET', '/v2/merchants', { merchantName: 'JUAN PEREZ TIENDA' });
    expect(page).toMatchObject({ currentPage: 1, size: 10, total: 1 });
    expect(page.data[0]).toEqual({
      merchantId,
      country: 'Mexico',
      merchantName: 'Juan Perez Tienda',
      email: 'juan@tienda.mx',
      merchantType: 1,
      status: 2,
      rejectReason: '',
      dayFiatLimit: '25000.00',
      dayFiatUsed: '0.00',
      monthFiatLimit: '100000.00',
      monthFiatUsed: '0.00',
      monthCryptoLimit: '15000.00',
      monthCryptoUsed: '0.00',
      remark: 'corner shop',
      createTime: expect.stringMatching(/^[0-9]{13}$/) as unknown,
      updateTime: expect.stringMatching(/^[0-9]{13}$/) as unknown,
    });
  });

  it('3. B15 with an INDIVIDUAL\'s fields (motherSurname "" accepted) opens MXN in status 1, active at the next read', async () => {
    const opened = await s.client.ok('POST', '/v2/merchant/accounts', { merchantId, fiat: 'MXN', fieldList: INDIVIDUAL_FIELDS });
    expect(opened).toEqual({ fiat: 'MXN', status: 1, verifyLink: '', failReason: '' });
    const accounts = await s.client.ok<{ data: Record<string, unknown>[] }>('GET', '/v2/merchant/accounts', { merchantId });
    expect(accounts.data).toEqual([
      expect.objectContaining({ merchantId, fiat: 'MXN', balance: '0.00', status: 2, buyAmountLimit: '0.00', sellAmountLimit: '0.00', paymentId: 58, paymentMethodName: 'Automated SPEI - Arcus', failReason: '' }),
    ]);
    const withoutMother = Object.fromEntries(Object.entries(INDIVIDUAL_FIELDS).filter(([k]) => k !== 'motherSurname'));
    expect(await s.client.refused('POST', '/v2/merchant/accounts', { merchantId, fiat: 'USD', fieldList: withoutMother })).toEqual([400, -4010]);
  });

  it('4. the merchant ledger account is an area A sub-account of the user, empty, and verify holds', async () => {
    const ledger = await s.ledgerOf(1);
    expect(await mxnOf(ledger)).toBe('0/0');
    await s.verified();
  });
});
