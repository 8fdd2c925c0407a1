/**
 * Story: B32 in every row of docs/merchant-payments.md "Order statuses". Any kind in 30 (f2f with `direction=on_ramp`) moves on to 40/41;
 * a c2f in 50 is released at once (60); a payout in flight (c2f 40, f2f 51) is -5009; a pay-in that
 * the rails detect (f2c 40, f2f 41) and an f2f in 30 confirmed `off_ramp` are -5011; an order under
 * review (10, 11, 12, 31) is -5035; an ended one (60, 70, 71, 72) is -5034. A confirm names the
 * order's kind (else -5101); for fiat_to_fiat `direction` is required (-4010).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onboardedMerchant, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { orderDetail, paymentsStory, WIRE_BENEFICIARY, type PaymentsStory } from '../../support/payments-story.js';

/** A 1×1 PNG: B35 recognises files by their content. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

type Kind = 'fiat_to_crypto' | 'crypto_to_fiat' | 'fiat_to_fiat';

describe('story: B32 in every status of docs/merchant-payments.md "Order statuses"', () => {
  let s: PaymentsStory;
  let merchantId: number;
  let speiId: number;
  let wireId: number;
  let serial = 0;
  const o: Record<string, number> = {};

  const bodyOf = (kind: Kind): Record<string, unknown> => {
    const clientId = `confirm-${++serial}`;
    if (kind === 'fiat_to_crypto') return { merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, clientId };
    if (kind === 'crypto_to_fiat') return { merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '50.0000', userPaymentId: speiId, clientId };
    return { onRampCountry: 'Mexico', onRampFiat: 'MXN', onRampFiatAmount: '2000.00', onRampPaymentId: 58, offRampCountry: 'United States', offRampFiat: 'USD', offRampPaymentId: wireId, clientId };
  };
  /** B29–B31, or with `onBehalf` docs/merchant-payments.md "The simulator and the sandbox API" place-on-behalf (status 30). */
  const place = async (kind: Kind, onBehalf = false): Promise<number> => (await s.client.ok<{ orderId: number }>('POST', `${onBehalf ? '/sandbox/v2/orders' : '/v2/order'}/${kind}`, bodyOf(kind))).orderId;
  const confirm = (orderId: number, orderType: Kind, direction?: 'on_ramp' | 'off_ramp'): Promise<[number, number]> =>
    s.client.refused('POST', '/v2/order/confirm', { orderId, orderType, ...(direction === undefined ? {} : { direction }) });
  const confirmed = (orderId: number, orderType: Kind, direction?: 'on_ramp' | 'off_ramp'): Promise<unknown> =>
    s.client.ok('POST', '/v2/order/confirm', { orderId, orderType, ...(direction === undefined ? {} : { direction }) });
  const status = async (orderId: number): Promise<unknown> => (await orderDetail(s.client, orderId)).orderStatus;
  const review = (orderId: number, decision: string): Promise<Record<string, unknown>> => s.client.ok('POST', `/sandbox/v2/orders/${orderId}/review`, { decision });

  beforeAll(async () => {
    s = await paymentsStory();
    await exampleBooks(s.op);
    merchantId = await onboardedMerchant(s.client, 'Acme MX', ['MXN', 'USD']);
    speiId = (await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Juan Perez', fieldJson: SPEI_BENEFICIARY })).id;
    wireId = (await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 83, country: 'United States', fiat: 'USD', realName: 'John Smith', fieldJson: WIRE_BENEFICIARY })).id;
    await s.client.ok('POST', '/sandbox/v2/crypto-deposits', { merchantId, crypto: 'USDT', amount: '500.0000' });
    await s.client.ok('PUT', '/sandbox/v2/modes', { payout: 'manual' });
  });
  afterAll(async () => s.t.stop());

  it('1. any kind in 30 → 40/41, true (fiat_to_fiat with on_ramp; without direction -4010; off_ramp -5011)', async () => {
    o.f2c = await place('fiat_to_crypto', true);
    o.c2f = await place('crypto_to_fiat', true);
    o.f2f = await place('fiat_to_fiat', true);
    expect([await status(o.f2c), await status(o.c2f), await status(o.f2f)]).toEqual([30, 30, 30]);
    expect(await confirmed(o.f2c, 'fiat_to_crypto')).toBe(true);
    expect(await status(o.f2c)).toBe(40);
    expect(await confirmed(o.c2f, 'crypto_to_fiat')).toBe(true);
    expect(await status(o.c2f)).toBe(40);
    expect(await confirm(o.f2f, 'fiat_to_fiat')).toEqual([400, -4010]);
    expect(await confirm(o.f2f, 'fiat_to_fiat', 'off_ramp')).toEqual([400, -5011]);
    expect(await status(o.f2f)).toBe(30);
    expect(await confirmed(o.f2f, 'fiat_to_fiat', 'on_ramp')).toBe(true);
    expect(await status(o.f2f)).toBe(41);
    expect(await confirm(o.f2c, 'crypto_to_fiat')).toEqual([404, -5101]);
  });

  it('2. f2c in 40 and f2f in 41 → -5011 (the rails detect the pay-in)', async () => {
    expect(await confirm(o.f2c, 'fiat_to_crypto')).toEqual([400, -5011]);
    expect(await confirm(o.f2f, 'fiat_to_fiat', 'on_ramp')).toEqual([400, -5011]);
    expect(await confirm(o.f2f, 'fiat_to_fiat', 'off_ramp')).toEqual([400, -5011]);
    expect([await status(o.f2c), await status(o.f2f)]).toEqual([40, 41]);
  });

  it('3. c2f in 40 and f2f in 51 → -5009 (a payout in flight)', async () => {
    expect(await confirm(o.c2f, 'crypto_to_fiat')).toEqual([400, -5009]);
    expect(await s.client.ok('POST', `/sandbox/v2/orders/${o.f2f}/pay`, {})).toMatchObject({ result: 'ORDER_PAID' });
    expect(await status(o.f2f)).toBe(51);
    expect(await confirm(o.f2f, 'fiat_to_fiat', 'on_ramp')).toEqual([400, -5009]);
    expect(await confirm(o.f2f, 'fiat_to_fiat', 'off_ramp')).toEqual([400, -5009]);
    expect([await status(o.c2f), await status(o.f2f)]).toEqual([40, 51]);
  });

  it('4. c2f in 50 → 60 at once, true', async () => {
    expect(await s.client.ok('POST', `/sandbox/v2/orders/${o.c2f}/payout`, { result: 'success' })).toMatchObject({ orderStatus: 50 });
    expect(await confirmed(o.c2f, 'crypto_to_fiat')).toBe(true);
    expect(await status(o.c2f)).toBe(60);
  });

  it('5. any in 10, 11 and 31 → -5035', async () => {
    await s.client.ok('PUT', '/sandbox/v2/modes', { orderReview: 'manual' });
    o.f2c10 = await place('fiat_to_crypto');
    o.c2f10 = await place('crypto_to_fiat');
    o.f2f10 = await place('fiat_to_fiat');
    expect([await status(o.f2c10), await status(o.c2f10), await status(o.f2f10)]).toEqual([10, 10, 10]);
    expect(await confirm(o.f2c10, 'fiat_to_crypto')).toEqual([400, -5035]);
    expect(await confirm(o.c2f10, 'crypto_to_fiat')).toEqual([400, -5035]);
    expect(await confirm(o.f2f10, 'fiat_to_fiat', 'on_ramp')).toEqual([400, -5035]);

    o.f2c11 = await place('fiat_to_crypto');
    expect(await review(o.f2c11, 'rfi')).toMatchObject({ orderStatus: 11 });
    expect(await confirm(o.f2c11, 'fiat_to_crypto')).toEqual([400, -5035]);

    o.f2f31 = await place('fiat_to_fiat');
    expect(await review(o.f2f31, 'documents')).toMatchObject({ orderStatus: 31 });
    expect(await confirm(o.f2f31, 'fiat_to_fiat', 'on_ramp')).toEqual([400, -5035]);
    expect(await confirm(o.f2f31, 'fiat_to_fiat', 'off_ramp')).toEqual([400, -5035]);
    expect([await status(o.f2c11), await status(o.f2f31)]).toEqual([11, 31]);
  });

  it('6. any in 12 (RFI answered by a B35 upload, review manual) → -5035', async () => {
    o.c2f12 = await place('crypto_to_fiat');
    expect(await review(o.c2f12, 'rfi')).toMatchObject({ orderStatus: 11 });
    const form = new FormData();
    form.set('orderId', String(o.c2f12));
    form.set('orderType', 'crypto_to_fiat');
    form.append('files', new Blob([PNG], { type: 'image/png' }), 'invoice.png');
    const upload = await fetch(`${s.t.url}/v2/order/invoice`, { method: 'POST', headers: { 'X-BH-TOKEN': s.client.token }, body: form });
    expect([upload.status, await upload.json()]).toEqual([200, { code: 200, msg: 'SUCCESS', data: true }]);
    expect(await status(o.c2f12)).toBe(12);
    expect(await confirm(o.c2f12, 'crypto_to_fiat')).toEqual([400, -5035]);
    expect(await status(o.c2f12)).toBe(12);
  });

  it('7. any in 60, 70, 71 and 72 → -5034', async () => {
    // 60: the c2f released in step 4, and an f2c paid by the bank.
    expect(await confirm(o.c2f, 'crypto_to_fiat')).toEqual([400, -5034]);
    expect(await s.client.ok('POST', `/sandbox/v2/orders/${o.f2c}/pay`, {})).toMatchObject({ result: 'ORDER_PAID' });
    expect(await status(o.f2c)).toBe(60);
    expect(await confirm(o.f2c, 'fiat_to_crypto')).toEqual([400, -5034]);
    // 70: an f2c rejected in review; 71: an f2f rejected in review.
    expect(await review(o.f2c10, 'reject')).toMatchObject({ orderStatus: 70, failCode: -7003 });
    expect(await confirm(o.f2c10, 'fiat_to_crypto')).toEqual([400, -5034]);
    expect(await review(o.f2f10, 'reject')).toMatchObject({ orderStatus: 71, failCode: -7003 });
    expect(await confirm(o.f2f10, 'fiat_to_fiat', 'on_ramp')).toEqual([400, -5034]);
    // 72: the f2f in 51 whose payout fails.
    expect(await s.client.ok('POST', `/sandbox/v2/orders/${o.f2f}/payout`, { result: 'fail' })).toMatchObject({ orderStatus: 72, failCode: -7001, hasRefund: 1 });
    expect(await confirm(o.f2f, 'fiat_to_fiat', 'on_ramp')).toEqual([400, -5034]);
    expect(await confirm(o.f2f, 'fiat_to_fiat', 'off_ramp')).toEqual([400, -5034]);
    // Refusals changed nothing.
    expect([await status(o.c2f), await status(o.f2c), await status(o.f2c10), await status(o.f2f10), await status(o.f2f)]).toEqual([60, 60, 70, 71, 72]);
    await s.verified();
  });
});
