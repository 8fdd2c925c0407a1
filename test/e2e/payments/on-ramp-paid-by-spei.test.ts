/**
 * Story: an on-ramp paid by SPEI reaches 60. On the book of docs/merchant-payments.md "Quotes and orders", B22 quotes MXN → USDT as the inverse
 * of the buy price 19.2639; B29 for 1000.00 MXN creates the order (10 in the answer, 40 at the next
 * read after the automatic review); B33 shows where to pay; the bank pays exactly the amount due
 * with the order as reference: the order is paid and released (60), M holds 51.8586 USDT, FEE
 * 1.00 MXN, the limits count 50.00 USD; verify holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpotClient } from '../../support/clients.js';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { flowRows, paymentsStory, type PaymentsStory } from '../../support/payments-story.js';

describe('story: an on-ramp paid by SPEI', () => {
  let s: PaymentsStory;
  let merchantId: number;
  let ledger: SpotClient;
  let orderId: number;

  beforeAll(async () => {
    s = await paymentsStory();
    await exampleBooks(s.op);
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    ledger = await s.ledgerOf(1);
  });
  afterAll(async () => s.t.stop());

  it('1. B22 quotes MXN → USDT as the inverse of the buy price, and USDT → MXN at the sell price', async () => {
    expect(await s.client.ok('GET', '/v2/user/crypto-quote', { country: 'Mexico', from: 'MXN', to: 'USDT' })).toEqual({ price: '0.05191056', quoteId: '', expireTime: '' });
    expect(await s.client.ok('GET', '/v2/user/crypto-quote', { country: 'Mexico', from: 'USDT', to: 'MXN' })).toEqual({ price: '19.0542', quoteId: '', expireTime: '' });
    expect(await s.client.ok('GET', '/v2/user/fiat-quote', { onRampCountry: 'Mexico', onRampFiat: 'MXN', offRampCountry: 'United States', offRampFiat: 'USD' })).toEqual({ price: '0.051857', quoteId: '', expireTime: '' });
  });

  it('2. B29 creates the order; the next read shows it approved and waiting for the pay-in, with where to pay', async () => {
    const created = await s.client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, clientId: 'inv-2025-0001' });
    orderId = created.orderId;
    expect(typeof orderId).toBe('number');
    const detail = await s.client.ok<Record<string, unknown>>('GET', '/v2/order/detail', { orderId });
    expect(detail).toMatchObject({
      orderId: String(orderId),
      clientId: 'inv-2025-0001',
      orderType: 'fiat_to_crypto',
      merchantId,
      paymentId: 58,
      userPaymentId: 0,
      country: 'Mexico',
      crypto: 'USDT',
      fiat: 'MXN',
      orderPrice: '19.2639',
      cryptoAmount: '51.8586',
      fiatAmount: '1000.00',
      fiatFee: '1.00',
      orderStatus: 40,
      hasRefund: 0,
      traceNumber: '',
      failCode: 0,
      failReason: '',
      completedTime: '',
    });
    expect(detail.paymentInfo).toMatchObject({ 'Beneficiary Name': 'Acme MX', Reference: String(orderId) });
    const again = await s.client.call('POST', '/v2/order/fiat_to_crypto', { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, clientId: 'inv-2025-0001' });
    expect([again.status, again.code, again.data]).toEqual([409, -1174, { orderId: String(orderId) }]);
    await s.verified();
  });

  it('3. the bank pays exactly the amount due with the order as reference: 60, crypto in M, fee to FEE', async () => {
    const paid = await s.client.ok('POST', `/sandbox/v2/orders/${orderId}/pay`, { traceNumber: 'SPEI-778899' });
    expect(paid).toEqual({ result: 'ORDER_PAID', orderId: String(orderId), txId: 0 });
    const detail = await s.client.ok<Record<string, unknown>>('GET', '/v2/order/detail', { orderId, orderType: 'fiat_to_crypto' });
    expect(detail).toMatchObject({ orderStatus: 60, traceNumber: 'SPEI-778899' });
    expect(detail.completedTime).toMatch(/^[0-9]{13}$/);
    expect(await flowRows(ledger, 'USDT')).toEqual([['OTC_BUY_COIN', '51.8586', '51.8586']]);
    expect(await flowRows(ledger, 'MXN')).toEqual([
      ['DEPOSIT', '1000', '1000'],
      ['OTC_FEE', '-1', '999'],
      ['OTC_BUY_COIN', '-999', '0'],
    ]);
    const list = await s.client.ok<{ total: number; record: Record<string, unknown>[] }>('GET', '/v2/orders', { orderStatus: 60 });
    expect(list.total).toBe(1);
    expect(list.record[0]).not.toHaveProperty('paymentInfo');
    expect(await s.client.refused('GET', '/v2/order/detail', { orderId, orderType: 'crypto_to_fiat' })).toEqual([404, -5101]);
    await s.verified();
  });

  it('4. the limits count the order in USD (1000.00 MXN × 0.05 = 50.00)', async () => {
    expect(await s.client.ok('GET', '/v2/user/account')).toMatchObject({ monthLimit: '250000.00', monthUsed: '50.00' });
    expect((await s.client.ok<{ data: Record<string, unknown>[] }>('GET', '/v2/merchants')).data[0]).toMatchObject({ dayFiatUsed: '50.00', monthFiatUsed: '50.00', monthCryptoUsed: '0.00' });
    expect((await s.client.ok<{ data: Record<string, unknown>[] }>('GET', '/v2/merchant/accounts', { fiat: 'MXN' })).data[0]).toMatchObject({ buyAmountUsed: '1000.00', sellAmountUsed: '0.00' });
  });
});
