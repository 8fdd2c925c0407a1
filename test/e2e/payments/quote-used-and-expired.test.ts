/**
 * Story: quotes locked, used once, expired. B22 with `createQuoteId=true` and an amount stores a
 * quote (32 hex id, `expireTime` = now + 10 s); B29 with it takes the quote's buy price (19.2639)
 * even after a docs/merchant-payments.md "The simulator and the sandbox API" price override moved the live price to 20.0000; a used quote is -5200 and the
 * clientId of the refused request stays free. A quote is good until its expireTime and -5200 after
 * it; a quote covers any smaller order, a larger one, or one of another kind, is -4010 (the quote stays ACTIVE); docs/merchant-payments.md "The simulator and the sandbox API" expires a
 * quote on demand; an unknown id is -5200 too.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { orderDetail, paymentsStory, type PaymentsStory } from '../../support/payments-story.js';

const QUOTE_TTL_MS = 10_000;

describe('story: quotes used once and expired', () => {
  let s: PaymentsStory;
  let merchantId: number;
  let t0: number;
  let q1: string;

  interface QuoteAnswer {
    price: string;
    quoteId: string;
    expireTime: string;
  }
  const quote = (amount: string): Promise<QuoteAnswer> => s.client.ok<QuoteAnswer>('GET', '/v2/user/crypto-quote', { country: 'Mexico', from: 'MXN', to: 'USDT', amount, createQuoteId: true });
  const onRamp = (fiatAmount: string, clientId: string, quoteId?: string): Record<string, unknown> => ({
    merchantId,
    country: 'Mexico',
    crypto: 'USDT',
    fiat: 'MXN',
    fiatAmount,
    paymentId: 58,
    clientId,
    ...(quoteId === undefined ? {} : { quoteId }),
  });
  const create = async (body: Record<string, unknown>): Promise<number> => (await s.client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', body)).orderId;

  beforeAll(async () => {
    s = await paymentsStory();
    await exampleBooks(s.op);
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    vi.useFakeTimers({ toFake: ['Date'] });
    t0 = Date.now();
  });
  afterAll(async () => {
    await s.t.stop();
    vi.useRealTimers();
  });

  it('1. B22 with createQuoteId and an amount stores a quote: the shown price, a 32-hex id, expireTime = now + 10 s', async () => {
    const answer = await quote('1000.00');
    expect(answer).toEqual({ price: '0.05191056', quoteId: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown, expireTime: String(t0 + QUOTE_TTL_MS) });
    q1 = answer.quoteId;
    expect(await s.client.refused('GET', '/v2/user/crypto-quote', { country: 'Mexico', from: 'MXN', to: 'USDT', createQuoteId: true })).toEqual([400, -4010]);
  });

  it("2. B29 with the quote takes the quote's buy price, though a sandbox API override moved the live price", async () => {
    expect(await s.client.ok('PUT', '/sandbox/v2/prices', { from: 'USDT', to: 'MXN', price: '20.0000' })).toEqual({ from: 'USDT', to: 'MXN', price: '20.0000' });
    const quoted = await create(onRamp('1000.00', 'q-0001', q1));
    expect(await orderDetail(s.client, quoted)).toMatchObject({ orderPrice: '19.2639', cryptoAmount: '51.8586', fiatAmount: '1000.00', fiatFee: '1.00', quoteId: q1, orderStatus: 40 });
    const live = await create(onRamp('1000.00', 'q-0002'));
    expect(await orderDetail(s.client, live)).toMatchObject({ orderPrice: '20.0000', cryptoAmount: '49.9500', quoteId: '' });
    expect(await s.client.ok('DELETE', '/sandbox/v2/prices', { from: 'USDT', to: 'MXN' })).toBe(true);
  });

  it('3. a used quote is -5200 and creates nothing: its clientId stays free', async () => {
    const before = (await s.client.ok<{ total: number }>('GET', '/v2/orders', {})).total;
    expect(await s.client.refused('POST', '/v2/order/fiat_to_crypto', onRamp('1000.00', 'q-0003', q1))).toEqual([400, -5200]);
    expect((await s.client.ok<{ total: number }>('GET', '/v2/orders', {})).total).toBe(before);
    const retried = await create(onRamp('1000.00', 'q-0003'));
    expect(await orderDetail(s.client, retried)).toMatchObject({ clientId: 'q-0003', orderPrice: '19.2639', quoteId: '' });
  });

  it('4. a quote is good until its expireTime; past it (by the server clock) it is -5200', async () => {
    const early = await quote('1000.00');
    const late = await quote('1000.00');
    expect([early.expireTime, late.expireTime]).toEqual([String(t0 + QUOTE_TTL_MS), String(t0 + QUOTE_TTL_MS)]);
    vi.setSystemTime(t0 + QUOTE_TTL_MS - 1);
    const inTime = await create(onRamp('1000.00', 'q-0004', early.quoteId));
    expect(await orderDetail(s.client, inTime)).toMatchObject({ orderPrice: '19.2639', quoteId: early.quoteId });
    vi.setSystemTime(t0 + QUOTE_TTL_MS + 1);
    expect(await s.client.refused('POST', '/v2/order/fiat_to_crypto', onRamp('1000.00', 'q-0005', late.quoteId))).toEqual([400, -5200]);
    await s.t.server.deadlines.fireDue();
    expect(await s.client.refused('POST', '/v2/order/fiat_to_crypto', onRamp('1000.00', 'q-0005', late.quoteId))).toEqual([400, -5200]);
  });

  it('5. a quote for 2000.00 covers an order of 1500.00; an order above the quoted amount is -4010 and the quote stays active', async () => {
    const larger = await quote('2000.00');
    const smaller = await create(onRamp('1500.00', 'q-0006', larger.quoteId));
    expect(await orderDetail(s.client, smaller)).toMatchObject({ fiatAmount: '1500.00', orderPrice: '19.2639', cryptoAmount: '77.8139', quoteId: larger.quoteId });

    const exact = await quote('2000.00');
    const over = await s.client.call('POST', '/v2/order/fiat_to_crypto', onRamp('2000.01', 'q-0007', exact.quoteId));
    expect([over.status, over.code]).toEqual([400, -4010]);
    expect(over.detail).toContain('quoteId');
    const atAmount = await create(onRamp('2000.00', 'q-0007', exact.quoteId));
    expect(await orderDetail(s.client, atAmount)).toMatchObject({ fiatAmount: '2000.00', quoteId: exact.quoteId });

    // A quote of another kind (USDT → MXN is crypto_to_fiat) is -4010 for an on-ramp.
    const sell = await s.client.ok<QuoteAnswer>('GET', '/v2/user/crypto-quote', { country: 'Mexico', from: 'USDT', to: 'MXN', amount: '50.0000', createQuoteId: true });
    expect(sell.price).toBe('19.0542');
    expect(await s.client.refused('POST', '/v2/order/fiat_to_crypto', onRamp('100.00', 'q-0009', sell.quoteId))).toEqual([400, -4010]);
  });

  it('6. The sandbox API expires an active quote: {quoteId, status EXPIRED}; then it is -5200, and so is a second expire; an unknown id is -5200', async () => {
    const doomed = await quote('1000.00');
    expect(await s.client.ok('POST', `/sandbox/v2/quotes/${doomed.quoteId}/expire`)).toEqual({ quoteId: doomed.quoteId, status: 'EXPIRED' });
    expect(await s.client.refused('POST', '/v2/order/fiat_to_crypto', onRamp('1000.00', 'q-0008', doomed.quoteId))).toEqual([400, -5200]);
    expect(await s.client.refused('POST', `/sandbox/v2/quotes/${doomed.quoteId}/expire`)).toEqual([400, -5200]);
    expect(await s.client.refused('POST', '/v2/order/fiat_to_crypto', onRamp('1000.00', 'q-0008', '0'.repeat(32)))).toEqual([400, -5200]);
    await s.verified();
  });
});
