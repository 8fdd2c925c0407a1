/**
 * Story: the operator places orders for a merchant user (docs/merchant-payments.md "The simulator and the sandbox API" place-on-behalf, `Authorization: Bearer
 * <admin token>`, `userId` in the query). Each order is the user's: its creation (status 30) reaches
 * the user's own webhook receiver, signed (ORDER_WEBHOOK for fiat_to_crypto and crypto_to_fiat,
 * GLOBAL_PAYMENT_WEBHOOK for fiat_to_fiat), with the user's `userId`; the user reads it with B33
 * and confirms it with B32 (another event, 40); a repeated `clientId` is -1174 with the order's id,
 * from the operator and from the user alike, and sends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSandbox, onboardedMerchant } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { globalPaymentParams, orderDetail, paymentsStory, WIRE_BENEFICIARY, type PaymentsStory } from '../../support/payments-story.js';
import { settled, webhookEvents, WebhookReceiver } from '../../support/webhook-receiver.js';

describe('story: the operator places orders for a user, and the user hears of them', () => {
  let s: PaymentsStory;
  let receiver: WebhookReceiver;
  let merchantId: number;
  let wireId: number;
  const orderIds: Record<string, number> = {};

  const f2c = { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, clientId: 'op-f2c-0001' };
  const place = (kind: string, body: Record<string, unknown>) => adminSandbox<{ orderId: number }>(s.t.url, s.t.adminToken, 'POST', `/orders/${kind}?userId=${s.userId}`, body);

  beforeAll(async () => {
    s = await paymentsStory();
    await exampleBooks(s.op);
    receiver = await WebhookReceiver.start(s.t.server.webhookPublicKey);
    merchantId = await onboardedMerchant(s.client, 'Acme MX', ['MXN', 'USD']);
    await s.client.ok('POST', '/sandbox/v2/crypto-deposits', { merchantId, crypto: 'USDT', amount: '100' });
    wireId = (await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 83, country: 'United States', fiat: 'USD', realName: 'John Smith', fieldJson: WIRE_BENEFICIARY })).id;
    await s.client.ok('POST', '/v2/webhook', { eventType: 'ORDER_WEBHOOK', url: receiver.url });
    await s.client.ok('POST', '/v2/webhook', { eventType: 'GLOBAL_PAYMENT_WEBHOOK', url: receiver.url });
  });
  afterAll(async () => {
    await s.t.stop();
    await receiver.close();
  });

  it('1. the operator places an on-ramp for the user: the user\'s receiver gets its ORDER_WEBHOOK (BUY, 30), signed, with the user\'s userId', async () => {
    const placed = await place('fiat_to_crypto', f2c);
    expect([placed.code, typeof placed.data.orderId]).toEqual([200, 'number']);
    orderIds.f2c = placed.data.orderId;
    await receiver.waitFor(1);
    const [event] = receiver.received;
    expect(event.verified).toBe(true);
    expect(event.headers['x-bh-event-type']).toBe('ORDER_WEBHOOK');
    expect(event.body).toMatchObject({ eventType: 'ORDER_WEBHOOK', orderId: String(orderIds.f2c), clientId: 'op-f2c-0001', userId: s.userId, merchantId, orderType: 'BUY', fiatAmount: '1000.00', cryptoAmount: '51.8586', orderStatus: '30' });
  });

  it('2. the user reads the order (B33, B34) and confirms it (B32): 40, and the receiver gets that event too', async () => {
    expect(await orderDetail(s.client, orderIds.f2c)).toMatchObject({ orderId: String(orderIds.f2c), clientId: 'op-f2c-0001', merchantId, orderStatus: 30 });
    expect((await s.client.ok<{ total: number }>('GET', '/v2/orders', { clientId: 'op-f2c-0001' })).total).toBe(1);
    expect(await s.client.ok('POST', '/v2/order/confirm', { orderId: orderIds.f2c, orderType: 'fiat_to_crypto' })).toBe(true);
    await receiver.waitFor(2);
    expect(receiver.of(String(orderIds.f2c)).map((b) => b.orderStatus)).toEqual(['30', '40']);
    await settled(s.t.server.webhooks);
    expect((await webhookEvents(s.client, { objectId: String(orderIds.f2c) })).map((e) => [e.objectStatus, e.status])).toEqual([
      ['40', 'DELIVERED'],
      ['30', 'DELIVERED'],
    ]);
  });

  it('3. the clientId is taken: the operator\'s repeat and the user\'s own create are -1174 with the order\'s id, and nothing is sent', async () => {
    const again = await place('fiat_to_crypto', f2c);
    expect([again.status, again.code, again.data]).toEqual([409, -1174, { orderId: String(orderIds.f2c) }]);
    const own = await s.client.call('POST', '/v2/order/fiat_to_crypto', f2c);
    expect([own.status, own.code, own.data]).toEqual([409, -1174, { orderId: String(orderIds.f2c) }]);
    await settled(s.t.server.webhooks);
    expect(receiver.received).toHaveLength(2);
    expect(await webhookEvents(s.client)).toHaveLength(2);
  });

  it('4. an off-ramp and a global payment placed by the operator reach the receiver as ORDER_WEBHOOK (SELL, 30) and GLOBAL_PAYMENT_WEBHOOK (30)', async () => {
    const c2f = await place('crypto_to_fiat', { merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '10.0000', userPaymentId: 70, clientId: 'op-c2f-0001' });
    const f2f = await place('fiat_to_fiat', globalPaymentParams(merchantId, wireId, 'op-f2f-0001'));
    expect([c2f.code, f2f.code]).toEqual([200, 200]);
    await receiver.waitFor(4);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(receiver.of(String(c2f.data.orderId))).toEqual([expect.objectContaining({ eventType: 'ORDER_WEBHOOK', userId: s.userId, merchantId, orderType: 'SELL', cryptoAmount: '10.0000', orderStatus: '30' })]);
    expect(receiver.of(String(f2f.data.orderId))).toEqual([
      expect.objectContaining({ eventType: 'GLOBAL_PAYMENT_WEBHOOK', userId: s.userId, onRampMerchantId: merchantId, offRampMerchantId: merchantId, onRampFiatAmount: '20000.00', orderStatus: '30' }),
    ]);
    await s.verified();
  });
});
