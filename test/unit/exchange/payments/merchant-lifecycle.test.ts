import { describe, expect, it } from 'vitest';
import { stateHash } from '../../../../src/exchange/snapshot.js';
import { PaymentsCore } from '../../../support/payments-core.js';

describe('merchant and merchant account lifecycles (docs/merchant-payments.md "Lifecycles") in the core', () => {
  it('when modes are automatic, then a new merchant is decided at once by journaled follow-ups: 4, then 1, then 2', async () => {
    const h = new PaymentsCore();
    const { userId } = await h.setUp();
    const before = h.store.lastSeq();
    const created = await h.submit<{ merchantId: number; kycToken: string }>({
      type: 'createMerchant', userId, merchantName: 'Acme MX', email: 'pay@acme.mx', merchantType: 'BUSINESS', callbackUrl: 'https://acme.example/done', languageCode: 'en', remark: '', kycToken: 'tok',
    });
    expect(created).toEqual({ merchantId: 1, kycToken: 'tok' });
    // createMerchant, then submit (4 → 1), then approve (1 → 2): three journaled commands.
    expect([...h.store.readJournal(before)].map((s) => [s.command.type, 'action' in s.command ? s.command.action : ''])).toEqual([
      ['createMerchant', ''],
      ['merchantKyc', 'submit'],
      ['merchantKyc', 'approve'],
    ]);
    expect(h.core.payments.state.merchants.get(1)?.status).toBe(2);
    expect(h.core.deadlines()).toEqual([]);
    expect(h.replayHash()).toBe(stateHash(h.core));
  });

  it('when kyc is manual, then the merchant waits in 4 with its decision left to the sandbox API, and no deadline is armed', async () => {
    const h = new PaymentsCore();
    const { userId } = await h.setUp();
    await h.submit({ type: 'setSandboxModes', userId, modes: { kyc: 'manual' } });
    const merchantId = await h.merchant(userId, 'Slow Co', []);
    expect(h.core.payments.state.merchants.get(merchantId)?.status).toBe(4);
    expect(await h.refusal({ type: 'merchantKyc', userId, merchantId, action: 'approve' })).toBe(-5104);
    await h.submit({ type: 'merchantKyc', userId, merchantId, action: 'submit' });
    await h.submit({ type: 'merchantKyc', userId, merchantId, action: 'reject', rejectReason: 'blurry ID' });
    expect(h.core.payments.state.merchants.get(merchantId)).toMatchObject({ status: 3, rejectReason: 'blurry ID' });
    expect(await h.refusal({ type: 'relinkMerchant', userId: userId + 1, merchantId, callbackUrl: 'https://x.example', kycToken: 't2' })).toBe(-5006);
    await h.submit({ type: 'relinkMerchant', userId, merchantId, callbackUrl: 'https://x.example', kycToken: 't2' });
    expect(h.core.payments.state.merchants.get(merchantId)).toMatchObject({ status: 4, rejectReason: '', kycToken: 't2' });
  });

  it('when a USD account is opened, then it waits in 4 for its terms, and the automatic review takes it through 1 to 2', async () => {
    const h = new PaymentsCore();
    const { userId } = await h.setUp();
    await h.submit({ type: 'setSandboxModes', userId, modes: { accountReview: 'manual' } });
    const merchantId = await h.merchant(userId, 'Acme US', ['USD', 'MXN']);
    expect(h.core.payments.state.merchantAccounts.get(`${merchantId}:USD`)).toMatchObject({ status: 4, verifyToken: 'verify-Acme US-USD' });
    expect(h.core.payments.state.merchantAccounts.get(`${merchantId}:MXN`)).toMatchObject({ status: 1, verifyToken: '' });
    expect(await h.refusal({ type: 'activateMerchantAccount', userId, merchantId, fiat: 'MXN', fieldList: {}, verifyToken: '' })).toBe(-5066);
    expect(await h.refusal({ type: 'activateMerchantAccount', userId, merchantId, fiat: 'GBP', fieldList: {}, verifyToken: '' })).toBe(-5045);
    await h.submit({ type: 'setSandboxModes', userId, modes: { accountReview: 'approve' } });
    await h.submit({ type: 'reviewMerchantAccount', userId, merchantId, fiat: 'USD', action: 'verify' });
    expect(h.core.payments.state.merchantAccounts.get(`${merchantId}:USD`)?.status).toBe(2);
    expect(await h.refusal({ type: 'activateMerchantAccount', userId, merchantId, fiat: 'USD', fieldList: {}, verifyToken: '' })).toBe(-5067);
  });

  it('when an automatic decision comes late (its object moved on), then it is dropped, not refused, and never due again', async () => {
    const h = new PaymentsCore();
    const { userId } = await h.setUp();
    const merchantId = await h.merchant(userId, 'Late Co', []);
    expect(h.core.payments.state.merchants.get(merchantId)?.status).toBe(2);
    const late = { type: 'merchantKyc', userId: 0, merchantId, action: 'approve', due: `kyc:${merchantId}` } as const;
    expect(await h.submit(late)).toEqual({ dropped: `kyc:${merchantId}` });
    expect(h.core.deadlines()).toEqual([]);
    // The same step from docs/merchant-payments.md "The simulator and the sandbox API" (no `due`) is refused.
    expect(await h.refusal({ ...late, due: undefined })).toBe(-5104);
  });
});
