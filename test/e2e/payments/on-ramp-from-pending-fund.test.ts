/**
 * Story: an on-ramp paid from the pending fund. A SPEI arrival funds the pending fund (5000.00 MXN);
 * B29 with `paymentId` 70 for 1000.00 MXN (pay-in fee 0.00 on rail 70) prices at 19.2639 and buys
 * 51.9105 USDT; the automatic review approves it and, in one go, the fund pays (40 → 50) and the
 * crypto is settled (60): the BUY_CRYPTO record is completed, the pending fund is down by the amount,
 * M holds the crypto, the desk holds the fiat. Under manual review the reservation shows first (M
 * locks the amount, BUY_CRYPTO in 1) until docs/merchant-payments.md "The simulator and the sandbox API" approves; a rejection cancels the record (3) and
 * unlocks the fund; an order over the pending fund is -5100.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdings } from '../../support/account-reads.js';
import type { SpotClient } from '../../support/clients.js';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { flowMark, flowRows, fundingRecords, limitsUsed, orderDetail, paymentsStory, systemFlows, systemHoldings, type PaymentsStory } from '../../support/payments-story.js';

describe('story: an on-ramp paid from the pending fund', () => {
  let s: PaymentsStory;
  let merchantId: number;
  let ledger: SpotClient;
  let depositTxId: number;
  let mark: number;

  const onRamp = (fiatAmount: string, clientId: string): Record<string, unknown> => ({ merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount, paymentId: 70, clientId });
  const pendingFund = async (): Promise<unknown> => (await s.client.ok<{ data: { balance: string }[] }>('GET', '/v2/merchant/accounts', { merchantId, fiat: 'MXN' })).data[0]?.balance;

  beforeAll(async () => {
    s = await paymentsStory();
    await exampleBooks(s.op);
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    ledger = await s.ledgerOf(1);
  });
  afterAll(async () => s.t.stop());

  it('1. an arrival without a reference funds the pending fund: a completed DEPOSIT of 5000.00', async () => {
    const arrival = await s.client.ok<{ result: string; orderId: string; txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '5000.00', traceNumber: 'SPEI-FUND-0001' });
    expect(arrival).toMatchObject({ result: 'DEPOSIT', orderId: '' });
    depositTxId = arrival.txId;
    expect(await pendingFund()).toBe('5000.00');
    expect(await holdings(ledger, ['MXN'])).toEqual({ MXN: '5000/0' });
    expect(systemHoldings(s, 'desk', 'MXN')).toBe('20000000/0');
    expect(systemHoldings(s, 'desk', 'USDT')).toBe('1000000/0');
    mark = flowMark(s);
  });

  it('2. B29 with paymentId 70 answers 10; the next read shows it approved, paid from the fund and released (60)', async () => {
    const created = await s.client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', onRamp('1000.00', 'fund-buy-0001'));
    expect(typeof created.orderId).toBe('number');
    const detail = await orderDetail(s.client, created.orderId);
    expect(detail).toMatchObject({
      orderId: String(created.orderId),
      clientId: 'fund-buy-0001',
      orderType: 'fiat_to_crypto',
      merchantId,
      paymentId: 70,
      userPaymentId: 0,
      country: 'Mexico',
      crypto: 'USDT',
      fiat: 'MXN',
      orderPrice: '19.2639',
      cryptoAmount: '51.9105',
      fiatAmount: '1000.00',
      fiatFee: '0.00',
      orderStatus: 60,
      hasRefund: 0,
      traceNumber: '',
      paymentInfo: {},
      quoteId: '',
      failCode: 0,
      failReason: '',
    });
    expect(detail.completedTime).toMatch(/^[0-9]{13}$/);

    const records = await fundingRecords(s.client, { merchantId });
    expect(records.map((r) => [r.type, r.status])).toEqual([
      ['BUY_CRYPTO', 2],
      ['DEPOSIT', 2],
    ]);
    expect(records[0]).toMatchObject({ merchantId, merchantName: 'Acme MX', orderId: String(created.orderId), fiat: 'MXN', totalAmount: '1000.00', amount: '1000.00', fee: '0.00', userPaymentId: 70, type: 'BUY_CRYPTO', status: 2 });
    expect(records[0].txId).not.toBe(depositTxId);
  });

  it('3. the pending fund is down by the amount; M holds the crypto; the desk took the fiat and gave the crypto', async () => {
    expect(await pendingFund()).toBe('4000.00');
    expect(await holdings(ledger, ['MXN', 'USDT'])).toEqual({ MXN: '4000/0', USDT: '51.9105/0' });
    expect(await flowRows(ledger, 'MXN')).toEqual([
      ['DEPOSIT', '5000', '5000'],
      ['OTC_BUY_COIN', '-1000', '4000'],
    ]);
    expect(await flowRows(ledger, 'USDT')).toEqual([['OTC_BUY_COIN', '51.9105', '51.9105']]);
    expect(await systemFlows(s, 'desk', 'MXN', mark)).toEqual([['OTC_SELL_COIN', '1000', '20001000']]);
    expect(await systemFlows(s, 'desk', 'USDT', mark)).toEqual([['OTC_SELL_COIN', '-51.9105', '999948.0895']]);
    expect(systemHoldings(s, 'desk', 'USDT')).toBe('999948.0895/0');
    // The pay-in fee of rail 70 is 0.00: nothing goes to FEE.
    expect(await systemFlows(s, 'fee', 'MXN', mark)).toEqual([]);
    expect(await limitsUsed(s.client, merchantId)).toEqual({ monthUsed: '50.00', dayFiatUsed: '50.00', monthFiatUsed: '50.00', monthCryptoUsed: '0.00', 'MXN.buy': '1000.00', 'MXN.sell': '0.00' });
    await s.verified();
  });

  it('4. under manual review the reservation shows: 10, BUY_CRYPTO in 1, the amount locked in M; the sandbox API approve settles it at once', async () => {
    await s.client.ok('PUT', '/sandbox/v2/modes', { orderReview: 'manual' });
    const { orderId } = await s.client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', onRamp('2000.00', 'fund-buy-0002'));
    expect(await orderDetail(s.client, orderId)).toMatchObject({ orderStatus: 10, cryptoAmount: '103.8211', fiatFee: '0.00', completedTime: '' });
    const pending = (await fundingRecords(s.client, { type: 'BUY_CRYPTO', status: 1 }))[0];
    expect(pending).toMatchObject({ orderId: String(orderId), totalAmount: '2000.00', amount: '2000.00', fee: '0.00', userPaymentId: 70, status: 1 });
    expect(await pendingFund()).toBe('2000.00');
    expect(await holdings(ledger, ['MXN'])).toEqual({ MXN: '2000/2000' });
    expect(systemHoldings(s, 'desk', 'USDT')).toBe('999844.2684/103.8211');
    await s.verified();

    const approved = await s.client.ok<Record<string, unknown>>('POST', `/sandbox/v2/orders/${orderId}/review`, { decision: 'approve' });
    expect(approved).toMatchObject({ orderId: String(orderId), orderStatus: 60 });
    const settled = (await fundingRecords(s.client, { type: 'BUY_CRYPTO' })).find((r) => r.txId === pending.txId);
    expect(settled).toMatchObject({ orderId: String(orderId), status: 2 });
    expect(await pendingFund()).toBe('2000.00');
    expect(await holdings(ledger, ['MXN', 'USDT'])).toEqual({ MXN: '2000/0', USDT: '155.7316/0' });
    expect(systemHoldings(s, 'desk', 'USDT')).toBe('999844.2684/0');
    expect(await limitsUsed(s.client, merchantId)).toMatchObject({ monthUsed: '150.00', 'MXN.buy': '3000.00' });
    await s.verified();
  });

  it('5. a rejected order cancels its BUY_CRYPTO (3) and unlocks the fund; over the pending fund is -5100', async () => {
    const { orderId } = await s.client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', onRamp('500.00', 'fund-buy-0003'));
    expect(await holdings(ledger, ['MXN'])).toEqual({ MXN: '1500/500' });
    const rejected = await s.client.ok<Record<string, unknown>>('POST', `/sandbox/v2/orders/${orderId}/review`, { decision: 'reject' });
    expect(rejected).toMatchObject({ orderStatus: 70, failCode: -7003, failReason: 'ORDER_REVIEW_REJECTION' });
    expect((await fundingRecords(s.client, { type: 'BUY_CRYPTO' })).find((r) => r.orderId === String(orderId))).toMatchObject({ totalAmount: '500.00', status: 3 });
    expect(await holdings(ledger, ['MXN'])).toEqual({ MXN: '2000/0' });
    expect(await limitsUsed(s.client, merchantId)).toMatchObject({ monthUsed: '150.00', 'MXN.buy': '3000.00' });

    expect(await s.client.refused('POST', '/v2/order/fiat_to_crypto', onRamp('2000.01', 'fund-buy-0004'))).toEqual([400, -5100]);
    expect((await s.client.ok<{ total: number }>('GET', '/v2/orders', {})).total).toBe(3);
    expect(await pendingFund()).toBe('2000.00');
    await s.verified();
  });
});
