import { describe, expect, it } from 'vitest';
import type { OrderRequest } from '../../../../src/core/payment-commands.js';
import { stateHash } from '../../../../src/exchange/snapshot.js';
import { PaymentsCore } from '../../../support/payments-core.js';

/** The book of docs/merchant-payments.md "Quotes and orders": USDTMXN ask 19.1680 / bid 19.1500, USDTUSD ask 1.0010 / bid 0.9990, deep enough. */
async function market() {
  const h = new PaymentsCore();
  const { userId } = await h.setUp();
  const desk = h.core.payments.state.deskAccountId;
  for (const [asset, amount] of [['USDT', '100000'], ['MXN', '2000000'], ['USD', '100000']] as const) await h.submit({ type: 'deposit', accountId: desk, asset, amount, txId: `desk-${asset}` });
  const maker = await h.submit<{ accountId: number }>({ type: 'createUser', email: 'mm@example.com', userType: 'user' });
  for (const [asset, amount] of [['USDT', '1000000'], ['MXN', '100000000'], ['USD', '10000000']] as const) await h.submit({ type: 'deposit', accountId: maker.accountId, asset, amount, txId: `mm-${asset}` });
  const place = (symbol: string, side: 'BUY' | 'SELL', price: string) =>
    h.submit({ type: 'placeOrder', accountId: maker.accountId, symbol, side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: '50000' });
  await place('USDTMXN', 'SELL', '19.1680');
  await place('USDTMXN', 'BUY', '19.1500');
  await place('USDTUSD', 'SELL', '1.0010');
  await place('USDTUSD', 'BUY', '0.9990');
  const merchantId = await h.merchant(userId, 'Acme MX', ['MXN', 'USD']);
  const accountId = h.core.payments.state.merchants.get(merchantId)?.accountId ?? 0;
  return { h, userId, merchantId, accountId, desk };
}

const onRamp = (merchantId: number, fiatAmount: string, paymentId = 58): OrderRequest => ({ kind: 'fiat_to_crypto', merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount, paymentId });
const atoms = (text: string): bigint => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(8, '0'));
};

describe('payment orders in the core (docs/merchant-payments.md "Quotes and orders")', () => {
  it('when an on-ramp of 1000.00 MXN is paid by SPEI, then docs/merchant-payments.md "Quotes and orders" prices it 19.2639 → 51.8586 USDT, the desk reserves it and settles at 60', async () => {
    const { h, userId, merchantId, accountId, desk } = await market();
    const { orderId } = await h.submit<{ orderId: number }>({ type: 'createPaymentOrder', userId, onBehalf: false, clientId: 'inv-1', remark: '', quoteId: '', order: onRamp(merchantId, '1000.00') });
    const order = h.core.payments.state.orders.get(orderId);
    expect(order).toMatchObject({ status: 40, orderPrice: { units: 192639n, accuracy: 4 }, cryptoAmount: { units: 518586n, accuracy: 4 }, fiatFee: { units: 100n, accuracy: 2 } });
    expect(h.locked(desk, 'USDT')).toBe(atoms('51.8586'));
    expect(h.verify().ok).toBe(true);
    const arrival = { type: 'bankArrival', userId, merchantId, fiat: 'MXN', amount: '1000.00', reference: String(orderId), traceNumber: 'SPEI-1', payerName: '', payerAccount: '', cardNo: '', taxId: '', description: '' } as const;
    expect(await h.submit(arrival)).toEqual({ result: 'ORDER_PAID', orderId: String(orderId), txId: 0 });
    expect(order).toMatchObject({ status: 60, traceNumber: 'SPEI-1' });
    expect([h.free(accountId, 'USDT'), h.free(accountId, 'MXN'), h.locked(desk, 'USDT')]).toEqual([atoms('51.8586'), 0n, 0n]);
    expect(h.free(h.core.ledger.feeAccountId, 'MXN')).toBe(atoms('1.00'));
    expect(await h.refusal({ ...arrival, traceNumber: 'SPEI-1' })).toBe(-1174);
    expect(h.verify().ok).toBe(true);
    expect(h.replayHash()).toBe(stateHash(h.core));
  });

  it('when the amount sent differs from the amount due, then it is a REFUND to the pending fund and the order hasRefund', async () => {
    const { h, userId, merchantId, accountId } = await market();
    const { orderId } = await h.submit<{ orderId: number }>({ type: 'createPaymentOrder', userId, onBehalf: false, clientId: '', remark: '', quoteId: '', order: onRamp(merchantId, '1000.00') });
    const result = await h.submit<{ result: string; txId: number }>({ type: 'bankArrival', userId, merchantId, fiat: 'MXN', amount: '999.99', reference: String(orderId), traceNumber: '', payerName: '', payerAccount: '', cardNo: '', taxId: '', description: '' });
    expect(result.result).toBe('REFUND');
    expect(h.core.payments.state.orders.get(orderId)).toMatchObject({ status: 40, hasRefund: true });
    expect(h.free(accountId, 'MXN')).toBe(atoms('999.99'));
    expect(h.verify().ok).toBe(true);
  });

  it('when an off-ramp payout fails, then 70 with -7001 and the crypto and the desk fiat are unlocked', async () => {
    const { h, userId, merchantId, accountId, desk } = await market();
    await h.submit({ type: 'deposit', accountId, asset: 'USDT', amount: '50', txId: 'm-usdt' });
    await h.submit({ type: 'addBeneficiary', userId, merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: '', fieldList: {}, accountKey: '012180001234567891', remark: '' });
    await h.submit({ type: 'setSandboxModes', userId, modes: { payout: 'manual' } });
    const { orderId } = await h.submit<{ orderId: number }>({
      type: 'createPaymentOrder', userId, onBehalf: false, clientId: '', remark: '', quoteId: '',
      order: { kind: 'crypto_to_fiat', merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '50.0000', userPaymentId: 1001 },
    });
    const order = h.core.payments.state.orders.get(orderId);
    // docs/merchant-payments.md "Quotes and orders": 50.0000 × 19.0542 = G 952.71, fee 5.00 → 947.71.
    expect(order).toMatchObject({ status: 40, orderPrice: { units: 190542n }, gross: { units: 95271n }, fiatAmount: { units: 94771n } });
    expect([h.locked(accountId, 'USDT'), h.locked(desk, 'MXN')]).toEqual([atoms('50'), atoms('952.71')]);
    expect(h.verify().ok).toBe(true);
    // Money sent with an off-ramp's id as reference is docs/merchant-payments.md "Bank arrivals and refunds" rule 3: refunded to the pending fund.
    const sent = await h.submit<{ result: string }>({ type: 'bankArrival', userId, merchantId, fiat: 'MXN', amount: '10.00', reference: String(orderId), traceNumber: 'X1', payerName: '', payerAccount: '', cardNo: '', taxId: '', description: '' });
    expect(sent.result).toBe('REFUND');
    expect(order?.hasRefund).toBe(true);
    await h.submit({ type: 'orderPayout', userId: 0, orderId, result: 'fail' });
    expect(order).toMatchObject({ status: 70, failCode: -7001, failReason: 'RECEIVING_ACCOUNT_NUMBER_INCORRECT' });
    expect([h.locked(accountId, 'USDT'), h.locked(desk, 'MXN'), h.free(accountId, 'USDT'), h.free(accountId, 'MXN')]).toEqual([0n, 0n, atoms('50'), atoms('10')]);
    expect(h.verify().ok).toBe(true);
  });

  it("when a global payment's payout fails, then 72 with a full refund routed to the refund account as an automatic WITHDRAW", async () => {
    const { h, userId, merchantId, accountId, desk } = await market();
    const usd = { 'Account Owner Type': 'Individual', 'Account Number': '000123456789' };
    await h.submit({ type: 'addBeneficiary', userId, merchantId, paymentId: 83, country: 'United States', fiat: 'USD', realName: '', fieldList: usd, accountKey: '026009593:000123456789', remark: '' });
    await h.submit({ type: 'addBeneficiary', userId, merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: '', fieldList: {}, accountKey: '012180001234567891', remark: '' });
    await h.submit({ type: 'setRefundAccount', userId, merchantId, userPaymentId: 1002 });
    await h.submit({ type: 'setSandboxModes', userId, modes: { payout: 'fail' } });
    const { orderId } = await h.submit<{ orderId: number }>({
      type: 'createPaymentOrder', userId, onBehalf: false, clientId: '', remark: '', quoteId: '',
      order: { kind: 'fiat_to_fiat', onRampCountry: 'Mexico', onRampFiat: 'MXN', onRampFiatAmount: '20000.00', onRampPaymentId: 58, offRampCountry: 'United States', offRampFiat: 'USD', offRampPaymentId: 1001 },
    });
    const order = h.core.payments.state.orders.get(orderId);
    expect(order?.status).toBe(41);
    // docs/merchant-payments.md "Quotes and orders": 0.9990 ÷ 19.1680 × 0.995 at size → 0.051857 at the top of this deep book.
    expect(order?.orderPrice).toEqual({ units: 51857n, accuracy: 6 });
    expect(order?.offRamp?.amount).toEqual({ units: 103708n, accuracy: 2 });
    await h.submit({ type: 'bankArrival', userId, merchantId, fiat: 'MXN', amount: '20000.00', reference: String(orderId), traceNumber: 'T1', payerName: '', payerAccount: '', cardNo: '', taxId: '', description: '' });
    expect(order).toMatchObject({ status: 72, hasRefund: true, failCode: -7001 });
    // The refund (20000.00) went straight back out to the refund account, whose payout also failed: it stays in the pending fund.
    expect([h.free(accountId, 'MXN'), h.locked(accountId, 'MXN'), h.locked(desk, 'USD')]).toEqual([atoms('20000'), 0n, 0n]);
    const records = h.store.listFundingRecords({ userId, offset: 0, limit: 10 }).rows.map((r) => [r.type, r.status, r.amount]);
    expect(records).toEqual([
      ['WITHDRAW', 3, '20000.00'],
      ['REFUND', 2, '20000.00'],
    ]);
    expect(h.verify().ok).toBe(true);
    expect(h.replayHash()).toBe(stateHash(h.core));
  });

  it('when nobody pays, then the payment window deadline cancels with -7004 and the reservation is returned', async () => {
    const { h, userId, merchantId, desk } = await market();
    const { orderId } = await h.submit<{ orderId: number }>({ type: 'createPaymentOrder', userId, onBehalf: false, clientId: '', remark: '', quoteId: '', order: onRamp(merchantId, '500.00') });
    const due = h.core.deadlines().filter((d) => d.command.type === 'expireOrder');
    expect(due.map((d) => d.at - h.now)).toEqual([1_800_000 - 0]);
    await h.submit(due[0].command);
    expect(h.core.payments.state.orders.get(orderId)).toMatchObject({ status: 70, failCode: -7004, failReason: 'ORDER_UNPAID_TIMEOUT' });
    expect(h.locked(desk, 'USDT')).toBe(0n);
    // Late again: dropped, not refused.
    expect(await h.submit(due[0].command)).toEqual({ dropped: `deadline:${orderId}` });
    expect(h.verify().ok).toBe(true);
  });

  it('when a quote is used, then its price is the order price and it cannot be used again (-5200)', async () => {
    const { h, userId, merchantId } = await market();
    const quote = await h.submit<{ price: { units: bigint } }>({ type: 'createQuote', userId, quoteId: 'q1', kind: 'fiat_to_crypto', from: 'MXN', to: 'USDT', amount: '2000.00' });
    expect(quote.price.units).toBe(192639n);
    await h.submit({ type: 'setPriceOverride', userId, from: 'USDT', to: 'MXN', price: '20.0000' });
    const { orderId } = await h.submit<{ orderId: number }>({ type: 'createPaymentOrder', userId, onBehalf: false, clientId: '', remark: '', quoteId: 'q1', order: onRamp(merchantId, '1000.00') });
    expect(h.core.payments.state.orders.get(orderId)?.orderPrice.units).toBe(192639n);
    expect(await h.refusal({ type: 'createPaymentOrder', userId, onBehalf: false, clientId: '', remark: '', quoteId: 'q1', order: onRamp(merchantId, '1000.00') })).toBe(-5200);
    const { orderId: overridden } = await h.submit<{ orderId: number }>({ type: 'createPaymentOrder', userId, onBehalf: false, clientId: '', remark: '', quoteId: '', order: onRamp(merchantId, '1000.00') });
    expect(h.core.payments.state.orders.get(overridden)?.orderPrice.units).toBe(200000n);
  });

  it('when a global payment is paid in, then what the desk and FEE received stays locked until the payout: a 72 refund cannot fail', async () => {
    const { h, userId, merchantId, accountId, desk } = await market();
    await h.submit({ type: 'addBeneficiary', userId, merchantId, paymentId: 83, country: 'United States', fiat: 'USD', realName: '', fieldList: {}, accountKey: 'k-usd', remark: '' });
    await h.submit({ type: 'setSandboxModes', userId, modes: { payout: 'manual' } });
    const deskMxn = h.free(desk, 'MXN');
    const { orderId } = await h.submit<{ orderId: number }>({
      type: 'createPaymentOrder', userId, onBehalf: false, clientId: '', remark: '', quoteId: '',
      order: { kind: 'fiat_to_fiat', onRampCountry: 'Mexico', onRampFiat: 'MXN', onRampFiatAmount: '1000.00', onRampPaymentId: 58, offRampCountry: 'United States', offRampFiat: 'USD', offRampPaymentId: 1001 },
    });
    await h.submit({ type: 'bankArrival', userId, merchantId, fiat: 'MXN', amount: '1000.00', reference: String(orderId), traceNumber: 'T1', payerName: '', payerAccount: '', cardNo: '', taxId: '', description: '' });
    expect([h.free(desk, 'MXN'), h.locked(desk, 'MXN'), h.locked(h.core.ledger.feeAccountId, 'MXN')]).toEqual([deskMxn, atoms('999'), atoms('1')]);
    expect(h.verify().ok).toBe(true);
    await h.submit({ type: 'orderPayout', userId: 0, orderId, result: 'fail' });
    expect(h.core.payments.state.orders.get(orderId)?.status).toBe(72);
    expect([h.free(accountId, 'MXN'), h.locked(desk, 'MXN'), h.free(desk, 'MXN')]).toEqual([atoms('1000'), 0n, deskMxn]);
    expect(h.verify().ok).toBe(true);
  });

  it('when the desk trades through area A, then its open orders count among its locks and verify holds', async () => {
    const { h, desk } = await market();
    await h.submit({ type: 'placeOrder', accountId: desk, symbol: 'USDTMXN', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: '19.0000', quantity: '100' });
    expect(h.locked(desk, 'MXN')).toBe(atoms('1900'));
    expect(h.core.moduleChecks().every((c) => c.ok)).toBe(true);
    expect(h.verify().ok).toBe(true);
  });
});
