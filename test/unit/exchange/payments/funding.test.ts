import { describe, expect, it } from 'vitest';
import { restoreCore, serializeCore, stateHash } from '../../../../src/exchange/snapshot.js';
import { PaymentsCore } from '../../../support/payments-core.js';

const MXN = 10n ** 6n; // ledger atoms per MXN cent (precision 8, accuracy 2)

async function funded() {
  const h = new PaymentsCore();
  const { userId } = await h.setUp();
  const merchantId = await h.merchant(userId, 'Acme MX');
  const accountId = h.core.payments.state.merchants.get(merchantId)?.accountId ?? 0;
  const arrival = { type: 'bankArrival', userId, merchantId, fiat: 'MXN', amount: '5000.00', reference: '', traceNumber: 'T-1', payerName: 'CENTAURE SA DE CV', payerAccount: '684180168000000000', cardNo: '', taxId: 'CCN2203099WA', description: 'Payment' } as const;
  await h.submit(arrival);
  return { h, userId, merchantId, accountId, arrival };
}

describe('funding records and their ledger postings (docs/merchant-payments.md "Lifecycles", docs/merchant-payments.md "Bank arrivals and refunds") in the core', () => {
  it('when a SPEI arrival comes, then a completed DEPOSIT record credits the pending fund; the same traceNumber again is -1174 and changes nothing', async () => {
    const { h, accountId, arrival } = await funded();
    expect(h.free(accountId, 'MXN')).toBe(500_000n * MXN);
    const { rows, total } = h.store.listFundingRecords({ userId: arrival.userId, offset: 0, limit: 10 });
    expect(total).toBe(1);
    expect(rows[0]).toMatchObject({ type: 'DEPOSIT', status: 2, amount: '5000.00', totalAmount: '5000.00', fee: '0.00', userPaymentId: 0 });
    expect(JSON.parse(rows[0].payer)).toMatchObject({ traceNumber: 'T-1', payerName: 'CENTAURE SA DE CV' });
    expect(await h.refusal({ ...arrival, amount: '1.00' })).toBe(-1174);
    expect(h.free(accountId, 'MXN')).toBe(500_000n * MXN);
    expect(h.verify().ok).toBe(true);
  });

  it('when a claim pays out, then amount + fee is locked, then the payout takes amount to the bank and the fee to FEE', async () => {
    const { h, userId, merchantId, accountId } = await funded();
    await h.submit({ type: 'setSandboxModes', userId, modes: { payout: 'manual' } });
    const beneficiary = await h.submit<{ userPaymentId: number }>({
      type: 'addBeneficiary', userId, merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Juan Perez', fieldList: { 'CLABE number': '012180001234567891', 'Account number/card': '', 'Beneficiary Name': 'Juan Perez' }, accountKey: '012180001234567891', remark: '',
    });
    expect(beneficiary.userPaymentId).toBe(1001);
    const claim = { type: 'claimFunds', userId, merchantId, clientId: 'claim-1', fiat: 'MXN', amount: '500.00', userPaymentId: 1001 } as const;
    const record = await h.submit<{ txId: number; status: number }>(claim);
    expect(record.status).toBe(1);
    expect([h.free(accountId, 'MXN'), h.locked(accountId, 'MXN')]).toEqual([449_500n * MXN, 50_500n * MXN]);
    expect(h.verify().ok).toBe(true);
    expect(await h.refusal(claim)).toBe(-1174);
    expect(await h.refusal({ type: 'deleteBeneficiary', userId, userPaymentId: 1001 })).toBe(-5003);
    await h.submit({ type: 'settleFunding', userId: 0, txId: record.txId, action: 'complete' });
    const fee = h.core.ledger.feeAccountId;
    expect([h.free(accountId, 'MXN'), h.locked(accountId, 'MXN'), h.free(fee, 'MXN')]).toEqual([449_500n * MXN, 0n, 500n * MXN]);
    expect(h.core.ledger.totals.get('MXN')?.withdrawals).toBe(50_000n * MXN);
    expect(await h.refusal({ type: 'settleFunding', userId: 0, txId: record.txId, action: 'cancel' })).toBe(-5104);
    expect(h.verify().ok).toBe(true);
    expect(h.replayHash()).toBe(stateHash(h.core));
  });

  it('when a payout fails, then the claim is canceled and its funds unlocked', async () => {
    const { h, userId, merchantId, accountId } = await funded();
    await h.submit({ type: 'setSandboxModes', userId, modes: { payout: 'fail' } });
    await h.submit({ type: 'addBeneficiary', userId, merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: '', fieldList: {}, accountKey: '012180001234567891', remark: '' });
    const record = await h.submit<{ txId: number }>({ type: 'claimFunds', userId, merchantId, clientId: '', fiat: 'MXN', amount: '4995.00', userPaymentId: 1001 });
    expect([h.free(accountId, 'MXN'), h.locked(accountId, 'MXN')]).toEqual([500_000n * MXN, 0n]);
    expect(h.store.getFundingRecord(record.txId)).toMatchObject({ status: 3, failReason: 'RECEIVING_ACCOUNT_NUMBER_INCORRECT' });
    expect(await h.refusal({ type: 'claimFunds', userId, merchantId, clientId: '', fiat: 'MXN', amount: '4995.01', userPaymentId: 1001 })).toBe(-5100);
    expect(h.verify().ok).toBe(true);
  });

  it('when pending funds move between two merchants, then the receiver gets the amount, FEE the fixed 2.00 MXN, and two records tell it', async () => {
    const { h, userId, merchantId, accountId } = await funded();
    const other = await h.merchant(userId, 'Acme Two');
    const otherAccount = h.core.payments.state.merchants.get(other)?.accountId ?? 0;
    const result = await h.submit({ type: 'transferFunds', userId, clientId: 'tr-1', fromMerchantId: merchantId, toMerchantId: other, fiat: 'MXN', paymentId: 70, fiatAmount: '10.00' });
    expect(result).toMatchObject({ clientId: 'tr-1', fiat: 'MXN', fiatAmount: '10.00', totalFiatAmount: '12.00', fee: '2.00' });
    expect([h.free(accountId, 'MXN'), h.free(otherAccount, 'MXN'), h.free(h.core.ledger.feeAccountId, 'MXN')]).toEqual([498_800n * MXN, 1_000n * MXN, 200n * MXN]);
    expect(await h.refusal({ type: 'transferFunds', userId, clientId: 'tr-1', fromMerchantId: merchantId, toMerchantId: other, fiat: 'MXN', paymentId: 70, fiatAmount: '10.00' })).toBe(-1174);
    expect(await h.refusal({ type: 'transferFunds', userId, clientId: 'tr-2', fromMerchantId: merchantId, toMerchantId: other, fiat: 'MXN', paymentId: 83, fiatAmount: '10.00' })).toBe(-5018);
    expect(await h.refusal({ type: 'transferFunds', userId: userId + 99, clientId: 'tr-3', fromMerchantId: merchantId, toMerchantId: other, fiat: 'MXN', paymentId: 70, fiatAmount: '10.00' })).toBe(-5006);
    expect(h.verify().ok).toBe(true);
  });

  it('when area A reaches for a merchant ledger account, then orders from it and fiat deposits into it are refused, crypto deposits are not', async () => {
    const { h, accountId } = await funded();
    const order = { type: 'placeOrder', accountId, symbol: 'USDTMXN', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: '17.5', quantity: '100' } as const;
    await expect(h.submit(order)).rejects.toMatchObject({ code: -1005 });
    await expect(h.submit({ type: 'deposit', accountId, asset: 'MXN', amount: '1', txId: 'x' })).rejects.toMatchObject({ code: -1130 });
    await h.submit({ type: 'deposit', accountId, asset: 'USDT', amount: '1', txId: 'y' });
    expect([h.locked(accountId, 'MXN'), h.free(accountId, 'USDT')]).toEqual([0n, 10n ** 8n]);
    // The mark is state: a restored core refuses the same.
    const restored = restoreCore(serializeCore(h.core));
    expect(restored.ledger.account(accountId).merchantLedger).toBe(true);
    expect(h.verify().ok).toBe(true);
  });
});
