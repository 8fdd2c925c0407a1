/**
 * Story: a global payment MXN → USD settled. On the book of docs/merchant-payments.md "Quotes and orders" the MXN → USD rate is 0.051857; B31 for
 * 20000.00 MXN (pay-in fee 1.00) to a USD WIRE beneficiary (payout fee 15.00) gives 1037.08 USD,
 * 1022.08 arriving (docs/merchant-payments.md "Quotes and orders"); the desk reserves 1037.08 USD. The bank pays the order (docs/merchant-payments.md "The simulator and the sandbox API" pay): M takes
 * the arrival, 1.00 goes to FEE and 19999.00 to the desk (OTC_TRADE), the order waits for its payout
 * (51); the payout succeeds: the desk pays 1022.08 USD out (WITHDRAW) and 15.00 to FEE (60).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdings } from '../../support/account-reads.js';
import type { SpotClient } from '../../support/clients.js';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { flowMark, flowRows, globalPaymentParams, limitsUsed, orderDetail, paymentsStory, systemFlows, systemHoldings, WIRE_BENEFICIARY, type PaymentsStory } from '../../support/payments-story.js';

describe('story: a global payment MXN → USD settled', () => {
  let s: PaymentsStory;
  let merchantId: number;
  let ledger: SpotClient;
  let wireId: number;
  let orderId: number;
  let mark: number;

  const globalPayment = (clientId: string): Record<string, unknown> => globalPaymentParams(merchantId, wireId, clientId);

  beforeAll(async () => {
    s = await paymentsStory();
    await exampleBooks(s.op);
    merchantId = await onboardedMerchant(s.client, 'Acme MX', ['MXN', 'USD']);
    ledger = await s.ledgerOf(1);
    wireId = (await s.client.ok<{ id: number; status: number }>('POST', '/v2/payments', { merchantId, paymentId: 83, country: 'United States', fiat: 'USD', realName: 'John Smith', fieldJson: WIRE_BENEFICIARY })).id;
    await s.client.ok('PUT', '/sandbox/v2/modes', { payout: 'manual' });
    mark = flowMark(s);
  });
  afterAll(async () => s.t.stop());

  it('1. B23 quotes MXN → USD at 0.051857; B31 creates the order, approved at the next read (41) with docs/merchant-payments.md "Quotes and orders" amounts', async () => {
    expect(await s.client.ok('GET', '/v2/user/fiat-quote', { onRampCountry: 'Mexico', onRampFiat: 'MXN', offRampCountry: 'United States', offRampFiat: 'USD' })).toEqual({ price: '0.051857', quoteId: '', expireTime: '' });
    const created = await s.client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_fiat', globalPayment('gp-0001'));
    orderId = created.orderId;
    expect(typeof orderId).toBe('number');
    const detail = await orderDetail(s.client, orderId);
    expect(detail).toMatchObject({
      orderId: String(orderId),
      clientId: 'gp-0001',
      orderType: 'fiat_to_fiat',
      onRampMerchantId: merchantId,
      onRampPaymentId: 58,
      onRampCountry: 'Mexico',
      onRampFiat: 'MXN',
      onRampFiatAmount: '20000.00',
      onRampFiatFee: '1.00',
      offRampMerchantId: merchantId,
      offRampPaymentId: wireId,
      offRampCountry: 'United States',
      offRampFiat: 'USD',
      offRampFiatAmount: '1037.08',
      offRampFiatFee: '15.00',
      offArriveRampFiatAmount: '1022.08',
      orderPrice: '0.051857',
      orderStatus: 41,
      hasRefund: 0,
      traceNumber: '',
      offRampPaymentInfo: WIRE_BENEFICIARY,
      quoteId: '',
      remark: '',
      failCode: 0,
      failReason: '',
      completedTime: '',
    });
    expect(detail.onRampPaymentInfo).toMatchObject({ 'Beneficiary Name': 'Acme MX', Reference: String(orderId) });
    expect(systemHoldings(s, 'desk', 'USD')).toBe('998962.92/1037.08');
    expect(await limitsUsed(s.client, merchantId)).toEqual({ monthUsed: '1000.00', dayFiatUsed: '1000.00', monthFiatUsed: '1000.00', monthCryptoUsed: '0.00', 'MXN.buy': '20000.00', 'MXN.sell': '0.00', 'USD.buy': '0.00', 'USD.sell': '1037.08' });
    await s.verified();
  });

  it('2. the bank pays the order (docs/merchant-payments.md "The simulator and the sandbox API" pay): ORDER_PAID, 51; M → FEE 1.00, M → D 19999.00 (OTC_TRADE)', async () => {
    expect(await s.client.ok('POST', `/sandbox/v2/orders/${orderId}/pay`, { traceNumber: 'SPEI-GP-0001' })).toEqual({ result: 'ORDER_PAID', orderId: String(orderId), txId: 0 });
    const paid = await orderDetail(s.client, orderId);
    expect(paid).toMatchObject({ orderStatus: 51, completedTime: '' });
    // B33: the traceNumber of a global payment is the payout's, and there is none yet.
    expect.soft(paid.traceNumber).toBe('');
    expect(await flowRows(ledger, 'MXN')).toEqual([
      ['DEPOSIT', '20000', '20000'],
      ['OTC_FEE', '-1', '19999'],
      ['OTC_TRADE', '-19999', '0'],
    ]);
    expect(await holdings(ledger, ['MXN'])).toEqual({ MXN: '0/0' });
    expect(await systemFlows(s, 'desk', 'MXN', mark)).toEqual([['OTC_TRADE', '19999', '20019999']]);
    expect((await systemFlows(s, 'fee', 'MXN', mark)).map((r) => r.slice(0, 2))).toEqual([['OTC_FEE', '1']]);
    expect(systemHoldings(s, 'desk', 'USD')).toBe('998962.92/1037.08');
    await s.verified();
  });

  it('3. the payout succeeds (docs/merchant-payments.md "The simulator and the sandbox API"): 60; the desk pays 1022.08 USD out (WITHDRAW) and 15.00 to FEE', async () => {
    const settled = await s.client.ok<Record<string, unknown>>('POST', `/sandbox/v2/orders/${orderId}/payout`, { result: 'success' });
    expect(settled).toMatchObject({ orderId: String(orderId), orderStatus: 60, hasRefund: 0, failCode: 0, failReason: '' });
    expect(settled.traceNumber).toMatch(/^\S+$/);
    expect(settled.traceNumber).not.toBe('SPEI-GP-0001');
    expect(settled.completedTime).toMatch(/^[0-9]{13}$/);
    expect(await orderDetail(s.client, orderId)).toEqual(settled);
    expect(await systemFlows(s, 'desk', 'USD', mark)).toEqual([
      ['WITHDRAW', '-1022.08', '998977.92'],
      ['OTC_FEE', '-15', '998962.92'],
    ]);
    expect(systemHoldings(s, 'desk', 'USD')).toBe('998962.92/0');
    expect((await systemFlows(s, 'fee', 'USD', mark)).map((r) => r.slice(0, 2))).toEqual([['OTC_FEE', '15']]);
    expect(await flowRows(ledger, 'USD')).toEqual([]);
    expect(await limitsUsed(s.client, merchantId)).toMatchObject({ monthUsed: '1000.00', 'MXN.buy': '20000.00', 'USD.sell': '1037.08' });
    await s.verified();
  });

  it('4. with payout success, a second one is paid and paid out in one go: 60 at the next read', async () => {
    await s.client.ok('PUT', '/sandbox/v2/modes', { payout: 'success' });
    const second = (await s.client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_fiat', globalPayment('gp-0002'))).orderId;
    expect(await s.client.ok('POST', `/sandbox/v2/orders/${second}/pay`, {})).toEqual({ result: 'ORDER_PAID', orderId: String(second), txId: 0 });
    expect(await orderDetail(s.client, second)).toMatchObject({ orderStatus: 60, offRampFiatAmount: '1037.08', offArriveRampFiatAmount: '1022.08' });
    expect(systemHoldings(s, 'desk', 'USD')).toBe('997925.84/0');
    expect(await limitsUsed(s.client, merchantId)).toMatchObject({ monthUsed: '2000.00', 'MXN.buy': '40000.00', 'USD.sell': '2074.16' });
    await s.verified();
  });
});
