/**
 * Story: FUNDING_WEBHOOK and GLOBAL_PAYMENT_WEBHOOK bodies as docs/webhooks.md "What is sent" shows them, each type to its own
 * receiver. A SPEI arrival with payer data becomes a DEPOSIT record created completed: exactly one
 * event (status "2"), every value a string, the keys in the order of docs/webhooks.md "What is sent", the payer fields and
 * `bankWebhookInfo` (JSON text of the five keys, in order) from the arrival. A claim's WITHDRAW
 * record (no arrival behind it) sends "" payer fields and "{}" for each of its two statuses. An
 * arrival referencing an on-ramp with the wrong amount becomes a REFUND record carrying its payer
 * data and the orderId. A global payment MXN → USD created and paid sends 10, 41, 51, 60 as
 * GLOBAL_PAYMENT_WEBHOOK with the field set of docs/webhooks.md "What is sent" (merchant ids and failCode numbers, the rest
 * strings). Each receiver gets only its own type: the ORDER_WEBHOOK receiver never sees the
 * global payment, the GLOBAL one never the on-ramp.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardedMerchant, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { globalPaymentParams, paymentsStory, WIRE_BENEFICIARY, type PaymentsStory } from '../../support/payments-story.js';
import { settled, webhookEvents, WebhookReceiver } from '../../support/webhook-receiver.js';

const FUNDING_KEYS = [
  'webhookId',
  'eventId',
  'eventType',
  'txId',
  'merchantId',
  'merchantName',
  'clientId',
  'orderId',
  'fiat',
  'totalAmount',
  'amount',
  'fee',
  'userPaymentId',
  'type',
  'status',
  'createTime',
  'updateTime',
  'cardNo',
  'taxId',
  'payerName',
  'payerAccount',
  'bankWebhookInfo',
];
const GLOBAL_KEYS = [
  'webhookId',
  'eventId',
  'eventType',
  'orderId',
  'clientId',
  'userId',
  'onRampCountry',
  'onRampMerchantId',
  'onRampFiat',
  'onRampFiatAmount',
  'onRampFiatFee',
  'offRampCountry',
  'offRampMerchantId',
  'offRampFiat',
  'offRampFiatAmount',
  'offRampFiatFee',
  'offArriveRampFiatAmount',
  'orderPrice',
  'orderStatus',
  'failCode',
  'failReason',
  'createTime',
  'updateTime',
];
const PAYER = { traceNumber: 'BRS20250615000011', payerName: 'CENTAURE SA DE CV', payerAccount: '684180168000000000', taxId: 'CCN2203099WA', cardNo: '5579070012345678', description: 'Payment' };
const MS = /^[0-9]{13}$/;

describe('story: funding and global payment webhook bodies, each type to its own receiver', () => {
  let s: PaymentsStory;
  let funding: WebhookReceiver;
  let global: WebhookReceiver;
  let orders: WebhookReceiver;
  let merchantId: number;
  let speiId: number;
  let wireId: number;
  const ids = { funding: '', global: '', order: '' };

  /** Nothing more is coming: every transition due now has been submitted, and every attempt it started has its outcome. */
  const quiet = async (): Promise<void> => {
    await s.t.server.deadlines.fireDue();
    await settled(s.t.server.webhooks);
  };

  beforeAll(async () => {
    s = await paymentsStory();
    funding = await WebhookReceiver.start(s.t.server.webhookPublicKey, '/funding');
    global = await WebhookReceiver.start(s.t.server.webhookPublicKey, '/global');
    orders = await WebhookReceiver.start(s.t.server.webhookPublicKey, '/orders');
    await exampleBooks(s.op);
    merchantId = await onboardedMerchant(s.client, 'Acme MX', ['MXN', 'USD']);
    speiId = (await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Juan Perez', fieldJson: SPEI_BENEFICIARY })).id;
    wireId = (await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 83, country: 'United States', fiat: 'USD', realName: 'John Smith', fieldJson: WIRE_BENEFICIARY })).id;
  });
  afterAll(async () => {
    await s.t.stop();
    await funding.close();
    await global.close();
    await orders.close();
  });

  it('1. one webhook per type, each to its own receiver', async () => {
    ids.funding = (await s.client.ok<{ webhookId: string }>('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: funding.url })).webhookId;
    ids.global = (await s.client.ok<{ webhookId: string }>('POST', '/v2/webhook', { eventType: 'GLOBAL_PAYMENT_WEBHOOK', url: global.url })).webhookId;
    ids.order = (await s.client.ok<{ webhookId: string }>('POST', '/v2/webhook', { eventType: 'ORDER_WEBHOOK', url: orders.url })).webhookId;
    expect(((await s.client.ok<{ eventType: string }[]>('GET', '/v2/webhooks')).map((w) => w.eventType)).sort()).toEqual(['FUNDING_WEBHOOK', 'GLOBAL_PAYMENT_WEBHOOK', 'ORDER_WEBHOOK']);
  });

  it('2. an arrival with payer data: one DEPOSIT event created completed, docs/webhooks.md "What is sent" keys in order, every value a string', async () => {
    const { txId } = await s.client.ok<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '5000.00', ...PAYER });
    await funding.waitFor(1);
    await quiet();
    expect(funding.received).toHaveLength(1);
    const [got] = funding.received;
    expect(got.verified).toBe(true);
    expect(got.headers['x-bh-event-type']).toBe('FUNDING_WEBHOOK');
    expect(Object.keys(got.body)).toEqual(FUNDING_KEYS);
    expect(Object.values(got.body).every((v) => typeof v === 'string')).toBe(true);
    expect(got.body).toEqual({
      webhookId: ids.funding,
      eventId: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown,
      eventType: 'FUNDING_WEBHOOK',
      txId: String(txId),
      merchantId: String(merchantId),
      merchantName: 'Acme MX',
      clientId: '',
      orderId: '',
      fiat: 'MXN',
      totalAmount: '5000.00',
      amount: '5000.00',
      fee: '0.00',
      userPaymentId: '0',
      type: 'DEPOSIT',
      status: '2',
      createTime: expect.stringMatching(MS) as unknown,
      updateTime: got.body.createTime,
      cardNo: PAYER.cardNo,
      taxId: PAYER.taxId,
      payerName: PAYER.payerName,
      payerAccount: PAYER.payerAccount,
      bankWebhookInfo: '{"sender_account_number":"684180168000000000","description":"Payment","sender_name":"CENTAURE SA DE CV","tracking_id":"BRS20250615000011","sender_id":"CCN2203099WA"}',
    });
    expect(Object.keys(JSON.parse(got.body.bankWebhookInfo as string) as object)).toEqual(['sender_account_number', 'description', 'sender_name', 'tracking_id', 'sender_id']);
    expect((await webhookEvents(s.client, { objectId: String(txId) })).map((r) => [r.eventType, r.objectStatus, r.status])).toEqual([['FUNDING_WEBHOOK', '2', 'DELIVERED']]);
  });

  it('3. a claim\'s WITHDRAW record (no arrival behind it): statuses 1 then 2, payer fields "" and bankWebhookInfo "{}"', async () => {
    const claim = await s.client.ok<{ txId: number }>('POST', '/v2/merchant/claimfunds', { merchantId, clientId: 'claim-1', fiat: 'MXN', amount: '500.00', userPaymentId: speiId });
    await funding.waitFor(3);
    await quiet();
    const bodies = funding.of(String(claim.txId));
    expect(bodies.map((b) => b.status)).toEqual(['1', '2']);
    for (const body of bodies) {
      expect(Object.keys(body)).toEqual(FUNDING_KEYS);
      expect(Object.values(body).every((v) => typeof v === 'string')).toBe(true);
      expect(body).toMatchObject({ txId: String(claim.txId), clientId: 'claim-1', orderId: '', totalAmount: '505.00', amount: '500.00', fee: '5.00', userPaymentId: String(speiId), type: 'WITHDRAW', cardNo: '', taxId: '', payerName: '', payerAccount: '', bankWebhookInfo: '{}' });
    }
    expect(Number(bodies[1].updateTime)).toBeGreaterThanOrEqual(Number(bodies[0].updateTime));
  });

  it('4. an on-ramp goes to the ORDER receiver only; a wrong-amount arrival for it is a REFUND event with the payer data and orderId', async () => {
    const orderId = String((await s.client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', { merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, clientId: 'inv-1' })).orderId);
    await orders.waitFor(2);
    const arrival = await s.client.ok<{ result: string; txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '999.99', reference: orderId, ...PAYER, traceNumber: 'SPEI-WRONG-1' });
    expect(arrival.result).toBe('REFUND');
    await funding.waitFor(4);
    await quiet();
    expect(orders.of(orderId).map((b) => [b.eventType, b.orderType, b.orderStatus])).toEqual([
      ['ORDER_WEBHOOK', 'BUY', '10'],
      ['ORDER_WEBHOOK', 'BUY', '40'],
    ]);
    const [refund] = funding.of(String(arrival.txId));
    expect(Object.keys(refund)).toEqual(FUNDING_KEYS);
    expect(Object.values(refund).every((v) => typeof v === 'string')).toBe(true);
    expect(refund).toMatchObject({ type: 'REFUND', status: '2', orderId, amount: '999.99', totalAmount: '999.99', fee: '0.00', userPaymentId: '0', cardNo: PAYER.cardNo, taxId: PAYER.taxId, payerName: PAYER.payerName, payerAccount: PAYER.payerAccount });
    expect(JSON.parse(refund.bankWebhookInfo as string)).toEqual({ sender_account_number: PAYER.payerAccount, description: PAYER.description, sender_name: PAYER.payerName, tracking_id: 'SPEI-WRONG-1', sender_id: PAYER.taxId });
    expect(global.received).toHaveLength(0);
  });

  it('5. a global payment created and paid sends 10, 41, 51, 60 as GLOBAL_PAYMENT_WEBHOOK with docs/webhooks.md "What is sent"\'s fields', async () => {
    const before = { orders: orders.received.length };
    const orderId = String(
      (
        await s.client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_fiat', globalPaymentParams(merchantId, wireId, 'gp-0001'))
      ).orderId,
    );
    await global.waitFor(2);
    await s.client.ok('POST', `/sandbox/v2/orders/${orderId}/pay`, { traceNumber: 'SPEI-GP-1' });
    await global.waitFor(4);
    await quiet();
    expect(global.received).toHaveLength(4);
    const bodies = global.of(orderId);
    expect(bodies.map((b) => b.orderStatus)).toEqual(['10', '41', '51', '60']);
    for (const [i, got] of global.received.entries()) {
      expect(got.verified).toBe(true);
      expect(got.headers['x-bh-event-type']).toBe('GLOBAL_PAYMENT_WEBHOOK');
      expect(Object.keys(got.body)).toEqual(GLOBAL_KEYS);
      const numbers = ['onRampMerchantId', 'offRampMerchantId', 'failCode'];
      for (const [key, value] of Object.entries(got.body)) expect([key, typeof value]).toEqual([key, numbers.includes(key) ? 'number' : 'string']);
      expect(got.body).toEqual({
        webhookId: ids.global,
        eventId: expect.stringMatching(/^[0-9a-f]{32}$/) as unknown,
        eventType: 'GLOBAL_PAYMENT_WEBHOOK',
        orderId,
        clientId: 'gp-0001',
        userId: s.userId,
        onRampCountry: 'Mexico',
        onRampMerchantId: merchantId,
        onRampFiat: 'MXN',
        onRampFiatAmount: '20000.00',
        onRampFiatFee: '1.00',
        offRampCountry: 'United States',
        offRampMerchantId: merchantId,
        offRampFiat: 'USD',
        offRampFiatAmount: '1037.08',
        offRampFiatFee: '15.00',
        offArriveRampFiatAmount: '1022.08',
        orderPrice: '0.051857',
        orderStatus: ['10', '41', '51', '60'][i],
        failCode: 0,
        failReason: '',
        createTime: bodies[0].createTime,
        updateTime: expect.stringMatching(MS) as unknown,
      });
    }
    const updates = bodies.map((b) => Number(b.updateTime));
    expect(updates).toEqual([...updates].sort((x, y) => x - y));
    expect(bodies[0].updateTime).toBe(bodies[0].createTime);
    // The ORDER_WEBHOOK receiver saw nothing of the global payment.
    expect(orders.received).toHaveLength(before.orders);
    expect(orders.received.every((r) => r.body.eventType === 'ORDER_WEBHOOK' && r.body.orderId !== orderId)).toBe(true);
  });

  it('6. every event went to the receiver of its type only; B40 filters by eventType', async () => {
    expect(funding.received.every((r) => r.body.eventType === 'FUNDING_WEBHOOK' && r.body.webhookId === ids.funding)).toBe(true);
    expect(global.received.every((r) => r.body.eventType === 'GLOBAL_PAYMENT_WEBHOOK' && r.body.webhookId === ids.global)).toBe(true);
    expect(orders.received.every((r) => r.body.eventType === 'ORDER_WEBHOOK' && r.body.webhookId === ids.order)).toBe(true);
    expect((await webhookEvents(s.client, { eventType: 'GLOBAL_PAYMENT_WEBHOOK' })).length).toBe(global.received.length);
    expect((await webhookEvents(s.client, { eventType: 'ORDER_WEBHOOK' })).length).toBe(orders.received.length);
    expect((await webhookEvents(s.client, { eventType: 'FUNDING_WEBHOOK' })).length).toBe(funding.received.length);
  });
});
