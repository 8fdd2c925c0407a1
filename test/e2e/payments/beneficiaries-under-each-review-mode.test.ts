/**
 * Story: beneficiaries added, listed and deleted under each review mode. `approve` gives 1, `reject`
 * 3 with a reason, `manual` 2 until docs/merchant-payments.md "The simulator and the sandbox API" reviews it; B26 lists newest first with every field; B28
 * makes a valid one the refund account (one per merchant and fiat); B27 deletes, after which the id
 * no longer exists anywhere (-4027).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';

describe('story: beneficiaries under each review mode', () => {
  let s: PaymentsStory;
  let merchantId: number;
  const ids: Record<string, number> = {};

  const spei = (clabe: string): Record<string, unknown> => ({ merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Juan Perez', fieldJson: { 'CLABE number': clabe, 'Beneficiary Name': 'Juan Perez' } });

  beforeAll(async () => {
    s = await paymentsStory();
    merchantId = await onboardedMerchant(s.client, 'Acme MX', ['MXN', 'USD']);
  });
  afterAll(async () => s.t.stop());

  it('1. B24 gives the template of each rail; 70 and unknown rails are -5017', async () => {
    expect(await s.client.ok('GET', '/v2/payments/templates', { paymentId: 58 })).toEqual({ 'CLABE number': '', 'Account number/card': '', 'Beneficiary Name': '' });
    expect(await s.client.refused('GET', '/v2/payments/templates', { paymentId: 70 })).toEqual([400, -5017]);
  });

  it('2. approve → 1, reject → 3 with a reason, manual → 2', async () => {
    const approved = await s.client.ok<{ id: number }>('POST', '/v2/payments', spei('012180001234567891'));
    // Ids count from 1001 (the demo's beneficiary took the first), so none equals 70.
    expect(approved).toEqual({ id: expect.any(Number) as unknown, status: 1, failReason: '' });
    expect(approved.id).toBeGreaterThan(1000);
    ids.approved = approved.id;
    await s.client.ok('PUT', '/sandbox/v2/modes', { beneficiaryReview: 'reject' });
    const rejected = await s.client.ok<{ id: number; status: number; failReason: string }>('POST', '/v2/payments', spei('012180001234567892'));
    expect([rejected.status, rejected.failReason === '']).toEqual([3, false]);
    ids.rejected = rejected.id;
    await s.client.ok('PUT', '/sandbox/v2/modes', { beneficiaryReview: 'manual' });
    const waiting = await s.client.ok<{ id: number; status: number }>('POST', '/v2/payments', spei('012180001234567893'));
    expect(waiting.status).toBe(2);
    ids.waiting = waiting.id;
    expect(await s.client.refused('POST', '/v2/payments', spei('012180001234567891'))).toEqual([400, -5053]);
  });

  it('3. B26 lists them newest first; a status filter picks one', async () => {
    const all = await s.client.ok<{ total: number; record: Record<string, unknown>[] }>('GET', '/v2/payments', {});
    expect(all.total).toBe(3);
    expect(all.record.map((b) => [b.id, b.status])).toEqual([
      [ids.waiting, 2],
      [ids.rejected, 3],
      [ids.approved, 1],
    ]);
    expect(all.record[2]).toEqual({
      id: ids.approved,
      merchantId,
      country: 'Mexico',
      fiat: 'MXN',
      paymentId: 58,
      paymentMethodName: 'Automated SPEI - Arcus',
      realName: 'Juan Perez',
      status: 1,
      failReason: '',
      hasRefundAccount: 0,
      fieldList: { 'CLABE number': '012180001234567891', 'Account number/card': '', 'Beneficiary Name': 'Juan Perez' },
      remark: '',
      createTime: expect.any(Number) as unknown,
    });
    const valid = await s.client.ok<{ record: { id: number }[] }>('GET', '/v2/payments', { status: 1 });
    expect(valid.record.map((b) => b.id)).toEqual([ids.approved]);
  });

  it('4. the sandbox API approves the waiting one; B28 makes it the refund account, replacing none', async () => {
    expect(await s.client.ok('POST', `/sandbox/v2/payments/${ids.waiting}/review`, { action: 'approve' })).toMatchObject({ id: ids.waiting, status: 1 });
    expect(await s.client.refused('POST', `/sandbox/v2/payments/${ids.waiting}/review`, { action: 'reject' })).toEqual([400, -5104]);
    expect(await s.client.refused('POST', '/openapi/v2/payment/refund_account', { merchantId, userPaymentId: ids.rejected })).toEqual([400, -5017]);
    expect(await s.client.ok('POST', '/openapi/v2/payment/refund_account', { merchantId, userPaymentId: ids.approved })).toBe(true);
    expect(await s.client.ok('POST', '/v2/payment/refund_account', { merchantId, userPaymentId: ids.waiting })).toBe(true);
    const refund = await s.client.ok<{ record: { id: number; hasRefundAccount: number }[] }>('GET', '/v2/payments', { status: 1 });
    expect(refund.record.map((b) => [b.id, b.hasRefundAccount])).toEqual([
      [ids.waiting, 1],
      [ids.approved, 0],
    ]);
  });

  it('5. B27 deletes from any status; the id then does not exist (-4027)', async () => {
    expect(await s.client.ok('DELETE', `/v2/payments/${ids.rejected}`)).toBe(true);
    expect(await s.client.ok('DELETE', `/v2/payments/${ids.waiting}`)).toBe(true);
    expect(await s.client.refused('DELETE', `/v2/payments/${ids.waiting}`)).toEqual([404, -4027]);
    expect(await s.client.refused('POST', '/v2/payment/refund_account', { merchantId, userPaymentId: ids.waiting })).toEqual([404, -4027]);
    const left = await s.client.ok<{ total: number; record: { id: number; hasRefundAccount: number }[] }>('GET', '/v2/payments', {});
    expect(left.record.map((b) => [b.id, b.hasRefundAccount])).toEqual([[ids.approved, 0]]);
    await s.verified();
  });
});
