/**
 * Story: an arrival for an order with the wrong amount is refunded; the exact amount then pays it.
 * An on-ramp of 1000.00 MXN waits in 40; the bank sends 999.99 with the order as reference: docs/merchant-payments.md "Bank arrivals and refunds"
 * rule 3 makes it a REFUND record to the pending fund (no refund account, so the money stays
 * there), the order shows `hasRefund` 1 and still waits in 40. Then 1000.00 with the same reference
 * pays it (rule 2): 60. An arrival naming the order once it has ended is refunded too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdings } from '../../support/account-reads.js';
import type { SpotClient } from '../../support/clients.js';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { flowMark, flowRows, fundingRecords, limitsUsed, orderDetail, paymentsStory, systemFlows, type PaymentsStory } from '../../support/payments-story.js';

describe('story: a wrong amount is refunded, the exact amount pays the order', () => {
  let s: PaymentsStory;
  let merchantId: number;
  let ledger: SpotClient;
  let orderId: number;
  let refundTxId: number;
  let mark: number;

  const pendingFund = async (): Promise<unknown> => (await s.client.ok<{ data: { balance: string }[] }>('GET', '/v2/merchant/accounts', { merchantId, fiat: 'MXN' })).data[0]?.balance;

  beforeAll(async () => {
    s = await paymentsStory();
    await exampleBooks(s.op);
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    ledger = await s.ledgerOf(1);
    orderId = (await s.client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', { merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, clientId: 'inv-0001' })).orderId;
    mark = flowMark(s);
  });
  afterAll(async () => s.t.stop());

  it('1. the on-ramp waits for its pay-in (40)', async () => {
    expect(await orderDetail(s.client, orderId)).toMatchObject({ orderStatus: 40, fiatAmount: '1000.00', hasRefund: 0 });
  });

  it('2. 999.99 with the order as reference: REFUND to the pending fund; hasRefund 1; the order still 40', async () => {
    const arrival = await s.client.ok<{ result: string; orderId: string; txId: number }>('POST', '/sandbox/v2/deposits', {
      merchantId,
      fiat: 'MXN',
      amount: '999.99',
      reference: String(orderId),
      traceNumber: 'SPEI-SHORT-0001',
      payerName: 'CENTAURE SA DE CV',
    });
    expect(arrival).toEqual({ result: 'REFUND', orderId: String(orderId), txId: expect.any(Number) as unknown });
    refundTxId = arrival.txId;
    expect(refundTxId).toBeGreaterThan(0);

    const records = await fundingRecords(s.client, { merchantId });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ txId: refundTxId, merchantId, merchantName: 'Acme MX', orderId: String(orderId), fiat: 'MXN', totalAmount: '999.99', amount: '999.99', fee: '0.00', userPaymentId: 0, type: 'REFUND', status: 2 });

    expect(await orderDetail(s.client, orderId)).toMatchObject({ orderStatus: 40, hasRefund: 1, traceNumber: '', failCode: 0, completedTime: '' });
    expect(await pendingFund()).toBe('999.99');
    expect(await holdings(ledger, ['MXN'])).toEqual({ MXN: '999.99/0' });
    expect(await flowRows(ledger, 'MXN')).toEqual([['DEPOSIT', '999.99', '999.99']]);
    expect(await systemFlows(s, 'desk', 'MXN', mark)).toEqual([]);
    await s.verified();
  });

  it('3. the exact amount with the same reference pays the order: 60, hasRefund stays 1', async () => {
    expect(await s.client.ok('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '1000.00', reference: String(orderId), traceNumber: 'SPEI-EXACT-0002' })).toEqual({
      result: 'ORDER_PAID',
      orderId: String(orderId),
      txId: 0,
    });
    const detail = await orderDetail(s.client, orderId);
    expect(detail).toMatchObject({ orderStatus: 60, hasRefund: 1, traceNumber: 'SPEI-EXACT-0002', cryptoAmount: '51.8586', fiatFee: '1.00' });
    expect(detail.completedTime).toMatch(/^[0-9]{13}$/);
    expect(await flowRows(ledger, 'MXN')).toEqual([
      ['DEPOSIT', '999.99', '999.99'],
      ['DEPOSIT', '1000', '1999.99'],
      ['OTC_FEE', '-1', '1998.99'],
      ['OTC_BUY_COIN', '-999', '999.99'],
    ]);
    expect(await holdings(ledger, ['MXN', 'USDT'])).toEqual({ MXN: '999.99/0', USDT: '51.8586/0' });
    expect(await pendingFund()).toBe('999.99');
    expect(await systemFlows(s, 'desk', 'MXN', mark)).toEqual([['OTC_SELL_COIN', '999', '20000999']]);
    expect((await fundingRecords(s.client, { merchantId })).map((r) => r.type)).toEqual(['REFUND']);
    expect(await limitsUsed(s.client, merchantId)).toMatchObject({ monthUsed: '50.00', 'MXN.buy': '1000.00' });
    await s.verified();
  });

  it('4. an arrival naming the order after it ended is refunded too; the order does not change', async () => {
    const late = await s.client.ok<{ result: string; orderId: string; txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '1000.00', reference: String(orderId), traceNumber: 'SPEI-LATE-0003' });
    expect(late).toMatchObject({ result: 'REFUND', orderId: String(orderId) });
    expect(await orderDetail(s.client, orderId)).toMatchObject({ orderStatus: 60, hasRefund: 1, traceNumber: 'SPEI-EXACT-0002' });
    expect(await pendingFund()).toBe('1999.99');
    expect((await fundingRecords(s.client, { type: 'REFUND' })).map((r) => [r.txId, r.amount])).toEqual([
      [late.txId, '1000.00'],
      [refundTxId, '999.99'],
    ]);
    await s.verified();
  });
});
