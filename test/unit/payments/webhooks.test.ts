/**
 * docs/webhooks.md "What is sent" bodies, docs/webhooks.md "Answering, retries, order" retry schedule and event ids of area B webhooks (src/payments/webhooks.ts),
 * as pure functions: exact key order and value types of each body, the payer fields of an arrival,
 * ids of 32 lowercase hex that differ per webhook and count, and a jitter of 0–10 % that is spread
 * like random values yet the same for the same event and attempt.
 */
import { describe, expect, it } from 'vitest';
import { defaultPaymentsConfig, type WebhookSettings } from '../../../src/payments/config.js';
import type { FundingRecord } from '../../../src/payments/model.js';
import type { PaymentOrder } from '../../../src/payments/orders.js';
import { eventIdOf, fundingPayload, nextAttemptAt, orderEventType, orderPayload } from '../../../src/payments/webhooks.js';

const money = (units: bigint, accuracy: number) => ({ units, accuracy });

/** The on-ramp of docs/merchant-payments.md "Quotes and orders" of 1000.00 MXN at 19.2639 → 51.8586 USDT, released. */
function onRamp(over: Partial<PaymentOrder> = {}): PaymentOrder {
  return {
    orderId: 10000042,
    userId: 1001,
    kind: 'fiat_to_crypto',
    clientId: 'inv-2025-0001',
    remark: '',
    quoteId: '',
    status: 60,
    failCode: 0,
    failReason: '',
    hasRefund: false,
    traceNumber: 'SPEI-1',
    documents: 0,
    createTime: 1750000000000,
    updateTime: 1750000065000,
    completedTime: 1750000065000,
    merchantId: 7,
    country: 'Mexico',
    fiat: 'MXN',
    crypto: 'USDT',
    paymentId: 58,
    userPaymentId: 0,
    orderPrice: money(192639n, 4),
    fiatAmount: money(100000n, 2),
    fiatFee: money(100n, 2),
    cryptoAmount: money(518586n, 4),
    gross: money(0n, 2),
    onRamp: undefined,
    offRamp: undefined,
    deadline: undefined,
    usage: [],
    statusLog: [
      { status: 10, time: 1750000000000, seq: 101 },
      { status: 40, time: 1750000001000, seq: 102 },
      { status: 50, time: 1750000065000, seq: 103 },
      { status: 60, time: 1750000065000, seq: 103 },
    ],
    ...over,
  };
}

/** The global payment of docs/merchant-payments.md "Quotes and orders" of 20000.00 MXN at 0.051857 → 1037.08 USD, 1022.08 arriving. */
function globalPayment(over: Partial<PaymentOrder> = {}): PaymentOrder {
  return onRamp({
    orderId: 10000043,
    kind: 'fiat_to_fiat',
    clientId: 'gp-0001',
    merchantId: 0,
    fiat: '',
    crypto: '',
    orderPrice: money(51857n, 6),
    onRamp: { merchantId: 7, country: 'Mexico', fiat: 'MXN', paymentId: 58, amount: money(2000000n, 2), fee: money(100n, 2) },
    offRamp: { merchantId: 8, country: 'United States', fiat: 'USD', paymentId: 1001, amount: money(103708n, 2), fee: money(1500n, 2), arrive: money(102208n, 2) },
    createTime: 1750000300000,
    updateTime: 1750000400000,
    ...over,
  });
}

function record(over: Partial<FundingRecord> = {}): FundingRecord {
  return {
    txId: 3000011,
    userId: 1001,
    merchantId: 7,
    merchantName: 'Acme MX',
    clientId: '',
    orderId: '',
    fiat: 'MXN',
    totalAmount: 500000n,
    amount: 500000n,
    fee: 0n,
    accuracy: 2,
    userPaymentId: 0,
    type: 'DEPOSIT',
    status: 2,
    failReason: '',
    payer: {
      payerName: 'CENTAURE SA DE CV',
      payerAccount: '684180168000000000',
      cardNo: '',
      taxId: 'CCN2203099WA',
      description: 'Payment',
      traceNumber: 'BRS20250615000011',
    },
    createTime: 1750000090000,
    updateTime: 1750000090000,
    ...over,
  };
}

const settings = (over: Partial<WebhookSettings> = {}): WebhookSettings => ({ ...defaultPaymentsConfig().webhook, ...over });

describe('docs/webhooks.md "What is sent" order bodies', () => {
  it('an on-ramp body has docs/webhooks.md "What is sent" keys in order, merchantId and failCode numbers and every other value text (BUY = fiat_to_crypto)', () => {
    const body = orderPayload(onRamp());
    // The spec example's body after webhookId, eventId and eventType, exactly (order and types).
    expect(JSON.stringify(body)).toBe(
      '{"orderId":"10000042","clientId":"inv-2025-0001","userId":"1001","merchantId":7,"orderType":"BUY","fiat":"MXN","fiatAmount":"1000.00","fiatFee":"1.00","crypto":"USDT","cryptoAmount":"51.8586","orderPrice":"19.2639","orderStatus":"60","failCode":0,"failReason":"","createTime":"1750000000000","updateTime":"1750000065000"}',
    );
    for (const [key, value] of Object.entries(body)) expect([key, typeof value]).toEqual([key, key === 'merchantId' || key === 'failCode' ? 'number' : 'string']);
    expect(orderEventType(onRamp())).toBe('ORDER_WEBHOOK');
  });

  it('an off-ramp is SELL, and a canceled order carries its failCode (a number) and failReason', () => {
    const body = orderPayload(onRamp({ kind: 'crypto_to_fiat', status: 70, failCode: -7001, failReason: 'RECEIVING_ACCOUNT_NUMBER_INCORRECT', fiatAmount: money(94771n, 2), fiatFee: money(500n, 2), cryptoAmount: money(500000n, 4), orderPrice: money(190542n, 4) }));
    expect(body).toMatchObject({ orderType: 'SELL', orderStatus: '70', failCode: -7001, failReason: 'RECEIVING_ACCOUNT_NUMBER_INCORRECT', fiatAmount: '947.71', fiatFee: '5.00', cryptoAmount: '50.0000', orderPrice: '19.0542' });
    expect(typeof body.failCode).toBe('number');
    expect(orderEventType(onRamp({ kind: 'crypto_to_fiat' }))).toBe('ORDER_WEBHOOK');
  });

  it('a global payment body has the f2f keys in docs/webhooks.md "What is sent" order, the merchant ids numbers, no orderType/fiat/crypto keys', () => {
    const body = orderPayload(globalPayment());
    expect(JSON.stringify(body)).toBe(
      '{"orderId":"10000043","clientId":"gp-0001","userId":"1001","onRampCountry":"Mexico","onRampMerchantId":7,"onRampFiat":"MXN","onRampFiatAmount":"20000.00","onRampFiatFee":"1.00","offRampCountry":"United States","offRampMerchantId":8,"offRampFiat":"USD","offRampFiatAmount":"1037.08","offRampFiatFee":"15.00","offArriveRampFiatAmount":"1022.08","orderPrice":"0.051857","orderStatus":"60","failCode":0,"failReason":"","createTime":"1750000300000","updateTime":"1750000400000"}',
    );
    const numbers = new Set(['onRampMerchantId', 'offRampMerchantId', 'failCode']);
    for (const [key, value] of Object.entries(body)) expect([key, typeof value]).toEqual([key, numbers.has(key) ? 'number' : 'string']);
    expect(orderEventType(globalPayment())).toBe('GLOBAL_PAYMENT_WEBHOOK');
  });

  it('the body is taken from the order as it is now: a later change of the order does not alter a body already made', () => {
    const order = onRamp({ status: 40, updateTime: 1750000010000 });
    const before = JSON.stringify(orderPayload(order));
    order.status = 50;
    order.updateTime = 1750000020000;
    expect(JSON.parse(before)).toMatchObject({ orderStatus: '40', updateTime: '1750000010000' });
    expect(orderPayload(order)).toMatchObject({ orderStatus: '50', updateTime: '1750000020000' });
  });
});

describe('docs/webhooks.md "What is sent" funding bodies', () => {
  it("a DEPOSIT from an arrival: every value text, keys in the order docs/webhooks.md shows, payer fields and bankWebhookInfo's five keys from the arrival", () => {
    const body = fundingPayload(record());
    expect(JSON.stringify(body)).toBe(
      '{"txId":"3000011","merchantId":"7","merchantName":"Acme MX","clientId":"","orderId":"","fiat":"MXN","totalAmount":"5000.00","amount":"5000.00","fee":"0.00","userPaymentId":"0","type":"DEPOSIT","status":"2","createTime":"1750000090000","updateTime":"1750000090000","cardNo":"","taxId":"CCN2203099WA","payerName":"CENTAURE SA DE CV","payerAccount":"684180168000000000","bankWebhookInfo":"{\\"sender_account_number\\":\\"684180168000000000\\",\\"description\\":\\"Payment\\",\\"sender_name\\":\\"CENTAURE SA DE CV\\",\\"tracking_id\\":\\"BRS20250615000011\\",\\"sender_id\\":\\"CCN2203099WA\\"}"}',
    );
    for (const value of Object.values(body)) expect(typeof value).toBe('string');
    expect(Object.keys(JSON.parse(body.bankWebhookInfo) as object)).toEqual(['sender_account_number', 'description', 'sender_name', 'tracking_id', 'sender_id']);
  });

  it('a record without an arrival behind it (a claim) has empty payer fields and bankWebhookInfo "{}"', () => {
    const body = fundingPayload(record({ type: 'WITHDRAW', status: 1, payer: undefined, clientId: 'claim-1', userPaymentId: 1001, totalAmount: 10500n, amount: 10000n, fee: 500n }));
    expect(body).toMatchObject({ type: 'WITHDRAW', status: '1', clientId: 'claim-1', userPaymentId: '1001', totalAmount: '105.00', amount: '100.00', fee: '5.00', cardNo: '', taxId: '', payerName: '', payerAccount: '', bankWebhookInfo: '{}' });
    expect(Object.keys(body)).toEqual(['txId', 'merchantId', 'merchantName', 'clientId', 'orderId', 'fiat', 'totalAmount', 'amount', 'fee', 'userPaymentId', 'type', 'status', 'createTime', 'updateTime', 'cardNo', 'taxId', 'payerName', 'payerAccount', 'bankWebhookInfo']);
  });

  it('amounts keep the accuracy of the record (zero-padded, never exponent form)', () => {
    expect(fundingPayload(record({ accuracy: 2, amount: 5n, totalAmount: 5n })).amount).toBe('0.05');
    expect(fundingPayload(record({ accuracy: 0, amount: 12n, totalAmount: 12n })).amount).toBe('12');
  });
});

describe('eventIdOf', () => {
  it('is 32 lowercase hex, the same for the same webhook and count, and distinct over counts and webhooks', () => {
    const a = '5f0c2a8e9b1d4e7fa3c6b2d1e0f9a8b7';
    const b = '6a1b2c3d4e5f60718293a4b5c6d7e8f9';
    const ids = new Set<string>();
    for (let n = 1; n <= 2000; n++) {
      for (const webhookId of [a, b]) {
        const id = eventIdOf(webhookId, n);
        expect(id).toMatch(/^[0-9a-f]{32}$/);
        ids.add(id);
      }
    }
    expect(ids.size).toBe(4000);
    expect(eventIdOf(a, 7)).toBe(eventIdOf(a, 7));
  });
});

describe('nextAttemptAt (docs/webhooks.md "Answering, retries, order" retries)', () => {
  const gaps = defaultPaymentsConfig().webhook.retryGapsMs;

  it('the default schedule is 15 s, 1 min, 5 min, 30 min, 2 h, 6 h, 15 h: after attempt k the gap k plus 0–10 %, and nothing after attempt 8', () => {
    expect(gaps).toEqual([15_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 54_000_000]);
    const now = 1_750_000_000_000;
    for (let attempt = 1; attempt <= 7; attempt++) {
      const at = nextAttemptAt(settings(), 'e'.repeat(32), attempt, now) as number;
      const gap = gaps[attempt - 1];
      expect(at).toBeGreaterThanOrEqual(now + gap);
      expect(at).toBeLessThanOrEqual(now + gap + gap / 10);
      expect(Number.isInteger(at)).toBe(true);
    }
    expect(nextAttemptAt(settings(), 'e'.repeat(32), 8, now)).toBeUndefined();
    expect(nextAttemptAt(settings({ retryGapsMs: [50, 50] }), 'e'.repeat(32), 3, now)).toBeUndefined();
    expect(nextAttemptAt(settings({ retryGapsMs: [] }), 'e'.repeat(32), 1, now)).toBeUndefined();
  });

  it('the jitter stays within 0–10 % over many events, is spread over the range (not constant) and repeats for the same event and attempt', () => {
    const now = 1_000_000;
    const fractions: number[] = [];
    for (let n = 1; n <= 2000; n++) {
      const eventId = eventIdOf('5f0c2a8e9b1d4e7fa3c6b2d1e0f9a8b7', n);
      for (let attempt = 1; attempt <= 7; attempt++) {
        const gap = gaps[attempt - 1];
        const at = nextAttemptAt(settings(), eventId, attempt, now) as number;
        const jitter = at - now - gap;
        expect(jitter).toBeGreaterThanOrEqual(0);
        expect(jitter).toBeLessThanOrEqual(gap / 10);
        expect(nextAttemptAt(settings(), eventId, attempt, now)).toBe(at);
        fractions.push(jitter / (gap / 10));
      }
    }
    // Spread like uniform draws: each tenth of the range gets a fair share, the mean is near one half.
    const deciles = Array.from({ length: 10 }, (_, i) => fractions.filter((f) => f >= i / 10 && f < (i + 1) / 10).length);
    for (const count of deciles) expect(count).toBeGreaterThan(fractions.length / 10 / 2);
    const mean = fractions.reduce((s, f) => s + f, 0) / fractions.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.05);
    // Different attempts of one event draw differently too.
    const oneEvent = new Set(Array.from({ length: 7 }, (_, i) => (nextAttemptAt(settings(), 'a'.repeat(32), i + 1, 0) as number) - gaps[i]));
    expect(oneEvent.size).toBeGreaterThan(1);
  });

  it('jitterPct 0 gives the gap exactly; a larger jitterPct widens the range', () => {
    for (let n = 1; n <= 50; n++) {
      const eventId = eventIdOf('ab'.repeat(16), n);
      expect(nextAttemptAt(settings({ jitterPct: 0 }), eventId, 1, 500)).toBe(500 + 15_000);
      const wide = (nextAttemptAt(settings({ jitterPct: 50 }), eventId, 1, 0) as number) - 15_000;
      expect(wide).toBeGreaterThanOrEqual(0);
      expect(wide).toBeLessThanOrEqual(7_500);
    }
    const wides = Array.from({ length: 200 }, (_, n) => (nextAttemptAt(settings({ jitterPct: 50 }), eventIdOf('cd'.repeat(16), n + 1), 1, 0) as number) - 15_000);
    expect(Math.max(...wides)).toBeGreaterThan(1_500);
  });
});
