/**
 * Story: every waiting timer of an order runs out. With `orderReview: manual`, five orders are put
 * at the same instant into each waiting status: 30 (docs/merchant-payments.md "The simulator and the sandbox API" place-on-behalf, f2c), 11 (f2c, docs/merchant-payments.md "The simulator and the sandbox API" rfi), 31
 * (c2f, docs/merchant-payments.md "The simulator and the sandbox API" documents), 40 (f2c approved, not paid) and 41 (f2f approved, not paid). One ms before a
 * window ends nothing happens; just past `acceptWindowMs` / `paymentWindowMs` (30 min) the 30 order
 * ends in 70 -7002 and the 40 / 41 orders in 70 / 71 -7004; just past `documentsWindowMs` (24 h)
 * the 11 and 31 orders end in 70 -7002. Every reservation comes back, limits are given back, verify
 * holds, and a second pass of the scheduler changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { holdings } from '../../support/account-reads.js';
import type { SpotClient } from '../../support/clients.js';
import { MerchantClient, onboardedMerchant, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { flowMark, limitsUsed, paymentsStory, systemFlows, systemHoldings, WIRE_BENEFICIARY, type PaymentsStory } from '../../support/payments-story.js';

const ACCEPT_WINDOW_MS = 1_800_000;
const PAYMENT_WINDOW_MS = 1_800_000;
const DOCUMENTS_WINDOW_MS = 86_400_000;

describe('story: every order timer runs out', () => {
  let s: PaymentsStory;
  let client: MerchantClient;
  let merchantId: number;
  let ledger: SpotClient;
  let speiId: number;
  let wireId: number;
  let t0: number;
  let mark: number;
  const ids: Record<'o30' | 'o11' | 'o31' | 'o40' | 'o41', number> = { o30: 0, o11: 0, o31: 0, o40: 0, o41: 0 };

  const f2c = (clientId: string): Record<string, unknown> => ({ merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, clientId });
  const statuses = async (): Promise<Record<string, [number, number, string, string]>> => {
    const out: Record<string, [number, number, string, string]> = {};
    for (const [name, orderId] of Object.entries(ids)) {
      const d = await client.ok<{ orderStatus: number; failCode: number; failReason: string; completedTime: string }>('GET', '/v2/order/detail', { orderId });
      out[name] = [d.orderStatus, d.failCode, d.failReason, d.completedTime];
    }
    return out;
  };
  /** Moves the server clock to `ms` and submits whatever is due then. */
  const at = async (ms: number): Promise<void> => {
    vi.setSystemTime(ms);
    await s.t.server.deadlines.fireDue();
  };

  beforeAll(async () => {
    s = await paymentsStory();
    client = s.client;
    await exampleBooks(s.op);
    merchantId = await onboardedMerchant(s.client, 'Acme MX', ['MXN', 'USD']);
    ledger = await s.ledgerOf(1);
    speiId = (await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Juan Perez', fieldJson: SPEI_BENEFICIARY })).id;
    wireId = (await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 83, country: 'United States', fiat: 'USD', realName: 'John Smith', fieldJson: WIRE_BENEFICIARY })).id;
    await s.client.ok('POST', '/sandbox/v2/crypto-deposits', { merchantId, crypto: 'USDT', amount: '100.0000' });
    await s.client.ok('PUT', '/sandbox/v2/modes', { orderReview: 'manual' });
    mark = flowMark(s);
    vi.useFakeTimers({ toFake: ['Date'] });
    t0 = Date.now();
  });
  afterAll(async () => {
    await s.t.stop();
    vi.useRealTimers();
  });

  it('1. five orders wait, all entered at the same instant, in 30, 11, 31, 40 and 41', async () => {
    ids.o30 = (await client.ok<{ orderId: number }>('POST', '/sandbox/v2/orders/fiat_to_crypto', f2c('wait-30'))).orderId;
    ids.o11 = (await client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', f2c('wait-11'))).orderId;
    ids.o31 = (
      await client.ok<{ orderId: number }>('POST', '/v2/order/crypto_to_fiat', { merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '50.0000', userPaymentId: speiId, clientId: 'wait-31' })
    ).orderId;
    ids.o40 = (await client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', f2c('wait-40'))).orderId;
    ids.o41 = (
      await client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_fiat', {
        onRampCountry: 'Mexico',
        onRampFiat: 'MXN',
        onRampFiatAmount: '20000.00',
        onRampPaymentId: 58,
        offRampCountry: 'United States',
        offRampFiat: 'USD',
        offRampPaymentId: wireId,
        clientId: 'wait-41',
      })
    ).orderId;
    expect(await client.ok('POST', `/sandbox/v2/orders/${ids.o11}/review`, { decision: 'rfi' })).toMatchObject({ orderStatus: 11 });
    expect(await client.ok('POST', `/sandbox/v2/orders/${ids.o31}/review`, { decision: 'documents' })).toMatchObject({ orderStatus: 31 });
    expect(await client.ok('POST', `/sandbox/v2/orders/${ids.o40}/review`, { decision: 'approve' })).toMatchObject({ orderStatus: 40 });
    expect(await client.ok('POST', `/sandbox/v2/orders/${ids.o41}/review`, { decision: 'approve' })).toMatchObject({ orderStatus: 41 });
    expect(await statuses()).toEqual({ o30: [30, 0, '', ''], o11: [11, 0, '', ''], o31: [31, 0, '', ''], o40: [40, 0, '', ''], o41: [41, 0, '', ''] });

    // Reserved: the desk 3 × 51.8586 USDT (30, 11, 40), G 952.71 MXN (31), 1037.08 USD (41); M 50 USDT (31).
    expect(systemHoldings(s, 'desk', 'USDT')).toBe('999844.4242/155.5758');
    expect(systemHoldings(s, 'desk', 'MXN')).toBe('19999047.29/952.71');
    expect(systemHoldings(s, 'desk', 'USD')).toBe('998962.92/1037.08');
    expect(await holdings(ledger, ['USDT'])).toEqual({ USDT: '50/50' });
    expect(await limitsUsed(client, merchantId)).toMatchObject({ monthCryptoUsed: '50.00', 'MXN.buy': '23000.00', 'MXN.sell': '947.71', 'USD.sell': '1037.08' });
    await s.verified();
  });

  it('2. one ms before the 30-minute windows end, nothing happens', async () => {
    await at(t0 + ACCEPT_WINDOW_MS - 1);
    expect(await statuses()).toEqual({ o30: [30, 0, '', ''], o11: [11, 0, '', ''], o31: [31, 0, '', ''], o40: [40, 0, '', ''], o41: [41, 0, '', ''] });
  });

  it('3. past acceptWindowMs and paymentWindowMs: 30 → 70 -7002, 40 → 70 -7004, 41 → 71 -7004; 11 and 31 still wait', async () => {
    expect(PAYMENT_WINDOW_MS).toBe(ACCEPT_WINDOW_MS);
    const now = t0 + PAYMENT_WINDOW_MS + 1;
    await at(now);
    expect(await statuses()).toEqual({
      o30: [70, -7002, 'ORDER_TIMEOUT', String(now)],
      o11: [11, 0, '', ''],
      o31: [31, 0, '', ''],
      o40: [70, -7004, 'ORDER_UNPAID_TIMEOUT', String(now)],
      o41: [71, -7004, 'ORDER_UNPAID_TIMEOUT', String(now)],
    });
    expect(systemHoldings(s, 'desk', 'USDT')).toBe('999948.1414/51.8586');
    expect(systemHoldings(s, 'desk', 'USD')).toBe('1000000/0');
    expect(systemHoldings(s, 'desk', 'MXN')).toBe('19999047.29/952.71');
    expect(await limitsUsed(client, merchantId)).toMatchObject({ monthCryptoUsed: '50.00', 'MXN.buy': '1000.00', 'MXN.sell': '947.71', 'USD.sell': '0.00' });
    await s.verified();
  });

  it('4. one ms before documentsWindowMs ends, 11 and 31 still wait', async () => {
    await at(t0 + DOCUMENTS_WINDOW_MS - 1);
    // The token of B0 lives 2 h: a day later the merchant signs in again.
    expect((await s.client.call('GET', '/v2/user/account')).code).toBe(-1002);
    const key = await s.op.newKey(s.userId);
    client = await MerchantClient.connect(s.t.url, key.apiKey, key.secretKey);
    expect(await statuses()).toMatchObject({ o11: [11, 0, '', ''], o31: [31, 0, '', ''] });
  });

  it('5. past documentsWindowMs: 11 → 70 -7002 and 31 → 70 -7002; every reservation is back, every limit given back', async () => {
    const now = t0 + DOCUMENTS_WINDOW_MS + 1;
    await at(now);
    const first = t0 + PAYMENT_WINDOW_MS + 1;
    expect(await statuses()).toEqual({
      o30: [70, -7002, 'ORDER_TIMEOUT', String(first)],
      o11: [70, -7002, 'ORDER_TIMEOUT', String(now)],
      o31: [70, -7002, 'ORDER_TIMEOUT', String(now)],
      o40: [70, -7004, 'ORDER_UNPAID_TIMEOUT', String(first)],
      o41: [71, -7004, 'ORDER_UNPAID_TIMEOUT', String(first)],
    });
    expect(systemHoldings(s, 'desk', 'USDT')).toBe('1000000/0');
    expect(systemHoldings(s, 'desk', 'MXN')).toBe('20000000/0');
    expect(systemHoldings(s, 'desk', 'USD')).toBe('1000000/0');
    expect(await holdings(ledger, ['USDT'])).toEqual({ USDT: '100/0' });
    for (const asset of ['USDT', 'MXN', 'USD']) expect(await systemFlows(s, 'desk', asset, mark)).toEqual([]);
    expect(await limitsUsed(client, merchantId)).toEqual({ monthUsed: '0.00', dayFiatUsed: '0.00', monthFiatUsed: '0.00', monthCryptoUsed: '0.00', 'MXN.buy': '0.00', 'MXN.sell': '0.00', 'USD.buy': '0.00', 'USD.sell': '0.00' });
    await s.verified();
  });

  it('6. a second pass of the scheduler changes nothing; the sandbox API expire of an ended order is -5104', async () => {
    const before = await client.ok<{ record: unknown[] }>('GET', '/v2/orders', {});
    const flowsBefore = flowMark(s);
    await s.t.server.deadlines.fireDue();
    await at(t0 + DOCUMENTS_WINDOW_MS + 3_600_000);
    expect(await client.ok('GET', '/v2/orders', {})).toEqual(before);
    expect(flowMark(s)).toBe(flowsBefore);
    expect(await client.refused('POST', `/sandbox/v2/orders/${ids.o30}/expire`)).toEqual([400, -5104]);
    expect(await client.refused('POST', `/sandbox/v2/orders/${ids.o41}/expire`)).toEqual([400, -5104]);
    await s.verified();
  });
});
