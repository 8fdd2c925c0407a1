/**
 * Every area B answer against the schema its registry entry declares (src/api/merchant/schemas.ts),
 * as /openapi.json publishes it: one server, every `/v2/…`, `/openapi/v2/…` and `/sandbox/v2/…`
 * operation driven to a successful answer, each answer's whole envelope checked. The examples of
 * the reference must satisfy their own schemas too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../../support/clients.js';
import { Operator } from '../../support/fixtures.js';
import { requestToken } from '../../support/merchant.js';
import { BUSINESS_FIELDS, INDIVIDUAL_FIELDS, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { WIRE_BENEFICIARY } from '../../support/payments-story.js';
import { SchemaCheck } from '../../support/schema-check.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { settled, WebhookReceiver } from '../../support/webhook-receiver.js';

type Params = Record<string, unknown>;

const BOUNDARY = '----bourse-schema-7c2e';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('area B answers match their declared schemas', () => {
  let t: TestServer;
  let op: Operator;
  let check: SchemaCheck;
  let receiver: WebhookReceiver;
  let token = '';
  let userId = '';

  /** One area B call that must succeed: its envelope is checked against the document; answers `data`. */
  async function ok<T = unknown>(method: string, path: string, params: Params = {}, headers: Record<string, string> = { 'X-BH-TOKEN': token }): Promise<T> {
    const inQuery = method === 'GET' || method === 'DELETE';
    const query = inQuery ? new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)])).toString() : '';
    const url = `${t.url}${path}${query === '' ? '' : `?${query}`}`;
    const answer = await request(url, inQuery ? { method, headers } : { method, headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(params) });
    const body = answer.body as { code?: number; detail?: string; data?: unknown } | undefined;
    expect({ call: `${method} ${path}`, status: answer.status, code: body?.code, detail: body?.detail }).toEqual({ call: `${method} ${path}`, status: 200, code: 200, detail: undefined });
    check.check(method, url, answer.body);
    return body?.data as T;
  }

  const admin = (): Record<string, string> => ({ Authorization: `Bearer ${t.adminToken}` });

  beforeAll(async () => {
    t = await startTestServer({ BOURSE_SANDBOX: '1' });
    op = new Operator(t);
    check = await SchemaCheck.load(t.url);
    receiver = await WebhookReceiver.start(t.server.webhookPublicKey);
    await exampleBooks(op);
  });
  afterAll(async () => {
    await receiver.close();
    await t.stop();
  });

  it('drives every operation to a successful answer that matches its schema', async () => {
    // B0: a token for a signed key.
    const user = await op.ok<{ userId: string }>('POST', '/users', { type: 'merchant', email: 'ops@schema.example' });
    userId = user.userId;
    const key = await op.newKey(userId);
    const b0 = await requestToken(t.url, key.apiKey, { query: `timestamp=${Date.now()}`, secret: key.secretKey });
    expect(b0.status, b0.text).toBe(200);
    check.check('GET', `${t.url}/v2/token/generate`, b0.body);
    token = (b0.body as { data: { token: string } }).data.token;

    // B1–B9, anonymous and with a token.
    await ok('GET', '/v2/base/countrys', {}, {});
    await ok('GET', '/v2/base/countrys', { hasFindAll: true });
    await ok('GET', '/v2/base/fiats');
    await ok('GET', '/v2/base/cryptos');
    await ok('GET', '/v2/base/buy/symbols');
    await ok('GET', '/v2/base/sell/symbols');
    await ok('GET', '/v2/base/fiat/symbols');
    await ok('GET', '/v2/base/buy/payments', { country: 'Mexico', fiat: 'MXN', crypto: 'USDT' });
    await ok('GET', '/v2/base/sell/payments', { country: 'Mexico', fiat: 'MXN', crypto: 'USDT' });
    await ok('GET', '/v2/base/sell/payments', { country: 'Mexico', fiat: 'GBP', crypto: 'USDT' });
    await ok('GET', '/v2/base/fiat/payments', { onRampCountry: 'Mexico', onRampFiat: 'MXN', offRampCountry: 'United States', offRampFiat: 'USD' });

    // Webhooks first, so that what follows makes events: B36, B37, B38 (and back), B39 of another.
    const orderHook = await ok<{ webhookId: string }>('POST', '/v2/webhook', { eventType: 'ORDER_WEBHOOK', url: receiver.url });
    const fundingHook = await ok<{ webhookId: string }>('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: receiver.url });
    await ok('PUT', `/v2/webhook/${fundingHook.webhookId}`, { status: 20 });
    await ok('GET', '/v2/webhooks');
    await ok('GET', '/v2/webhooks', { status: 20 });
    await ok('PUT', `/v2/webhook/${fundingHook.webhookId}`, { status: 10, url: `${receiver.url}?v=2` });

    // B10, B13–B16: merchants with MXN and USD accounts (automatic modes), and a second for transfers.
    await ok('GET', '/v2/user/account');
    const created = await ok<{ merchantId: number }>('POST', '/v2/merchants', { merchantName: 'Acme MX', email: 'acme@schema.example', merchantType: 'BUSINESS', callbackUrl: 'https://merchant.example/kyc' });
    const merchantId = created.merchantId;
    await ok('POST', '/v2/merchant/accounts', { merchantId, fiat: 'MXN', fieldList: BUSINESS_FIELDS });
    await ok('POST', '/v2/merchant/accounts', { merchantId, fiat: 'USD', fieldList: BUSINESS_FIELDS });
    const second = (await ok<{ merchantId: number }>('POST', '/v2/merchants', { merchantName: 'Acme South', email: 'south@schema.example', merchantType: 'BUSINESS', callbackUrl: 'https://merchant.example/kyc' })).merchantId;
    await ok('POST', '/v2/merchant/accounts', { merchantId: second, fiat: 'MXN', fieldList: BUSINESS_FIELDS });
    await ok('GET', '/v2/merchants');
    await ok('GET', '/v2/merchant/accounts', { merchantId });

    // docs/merchant-payments.md "The simulator and the sandbox API" S1, S2, S3 (KYC by hand, after a B13 re-link), S4 (account review by hand), S10, S11.
    await ok('GET', '/sandbox/v2/modes');
    await ok('GET', '/sandbox/v2/modes', { userId }, admin());
    await ok('PUT', '/sandbox/v2/modes', { kyc: 'manual', accountReview: 'manual', beneficiaryReview: 'manual' });
    const manual = (await ok<{ merchantId: number }>('POST', '/v2/merchants', { merchantName: 'Acme Manual', email: 'manual@schema.example', merchantType: 'INDIVIDUAL', callbackUrl: 'https://merchant.example/kyc' })).merchantId;
    await ok('POST', '/v2/merchants', { merchantId: manual, callbackUrl: 'https://merchant.example/kyc-again', languageCode: 'es' });
    await ok('POST', `/sandbox/v2/merchants/${manual}/kyc`, { action: 'submit' });
    await ok('POST', `/sandbox/v2/merchants/${manual}/kyc`, { action: 'approve' });
    await ok('POST', '/v2/merchant/accounts', { merchantId: manual, fiat: 'MXN', fieldList: INDIVIDUAL_FIELDS });
    await ok('POST', `/sandbox/v2/merchant/accounts/${manual}/MXN/review`, { action: 'approve' });
    await ok('PUT', `/sandbox/v2/merchants/${merchantId}/limits`, { dayFiatLimit: '50000.00', accounts: { MXN: { buyAmountLimit: '900000.00' } } });
    await ok('PUT', '/sandbox/v2/user/limit', { monthLimit: '500000.00' });
    await ok('PUT', '/sandbox/v2/user/limit', { userId, monthLimit: '500000.00' }, admin());

    // B24–B28 and S5: beneficiaries, one reviewed by hand and then deleted.
    await ok('GET', '/v2/payments/templates', { paymentId: 58 });
    const reviewed = (await ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Ana Lopez', fieldJson: { 'CLABE number': '002180700000000019', 'Beneficiary Name': 'Ana Lopez' } })).id;
    await ok('POST', `/sandbox/v2/payments/${reviewed}/review`, { action: 'approve' });
    await ok('DELETE', `/v2/payments/${reviewed}`);
    await ok('PUT', '/sandbox/v2/modes', { kyc: 'approve', accountReview: 'approve', beneficiaryReview: 'approve' });
    const speiId = (await ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Juan Perez', fieldJson: SPEI_BENEFICIARY })).id;
    const wireId = (await ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 83, country: 'United States', fiat: 'USD', realName: 'John Smith', fieldJson: WIRE_BENEFICIARY })).id;
    await ok('GET', '/v2/payments');
    await ok('POST', '/openapi/v2/payment/refund_account', { userPaymentId: speiId, merchantId });
    await ok('POST', '/v2/payment/refund_account', { userPaymentId: speiId, merchantId });

    // B11, B12, B17, S6, S7: balances and deposits.
    await ok('POST', '/sandbox/v2/crypto-deposits', { merchantId, crypto: 'USDT', amount: '500.0000' });
    await ok('GET', '/v2/assets/account/assets');
    await ok('GET', '/v2/assets/account/assets', { merchantId });
    await ok('GET', '/v2/assets/depositAddress', { tokenId: 'USDT', chainType: 'TRC20', merchantId });
    await ok('GET', '/v2/merchant/addfunds', { merchantId, paymentId: 58, fiat: 'MXN' });
    await ok('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '5000.00', traceNumber: 'SPEI-SCHEMA-1', payerName: 'Juan Perez' });

    // B18–B21, S8, S9: claims completed and canceled by hand, a transfer, the records.
    await ok('PUT', '/sandbox/v2/modes', { payout: 'manual' });
    const claim = await ok<{ txId: number }>('POST', '/v2/merchant/claimfunds', { merchantId, clientId: 'claim-1', fiat: 'MXN', amount: '500.00', userPaymentId: speiId });
    await ok('POST', `/sandbox/v2/funding/${claim.txId}/complete`);
    const canceled = await ok<{ txId: number }>('POST', '/v2/merchant/claimfunds', { merchantId, fiat: 'MXN', amount: '100.00', userPaymentId: speiId });
    await ok('POST', `/sandbox/v2/funding/${canceled.txId}/cancel`, { failReason: 'bank closed' });
    await ok('GET', '/v2/merchant/transfer_fee', { fiat: 'MXN' });
    await ok('GET', '/v2/merchant/transfer_fee', { fiat: 'USD' });
    await ok('POST', '/v2/merchant/transfer', { clientId: 'tr-1', fromMerchantId: merchantId, toMerchantId: second, fiat: 'MXN', paymentId: 70, fiatAmount: '10.00' });
    await ok('GET', '/v2/merchant/funding/records');

    // B22, B23, S20, S21, S22: quotes and fixed prices.
    await ok('GET', '/v2/user/crypto-quote', { country: 'Mexico', from: 'MXN', to: 'USDT' });
    await ok('GET', '/v2/user/crypto-quote', { country: 'Mexico', from: 'USDT', to: 'MXN', amount: '10.0000' });
    const quote = await ok<{ quoteId: string }>('GET', '/v2/user/crypto-quote', { country: 'Mexico', from: 'MXN', to: 'USDT', amount: '1000.00', createQuoteId: true });
    await ok('POST', `/sandbox/v2/quotes/${quote.quoteId}/expire`);
    await ok('GET', '/v2/user/fiat-quote', { onRampCountry: 'Mexico', onRampFiat: 'MXN', offRampCountry: 'United States', offRampFiat: 'USD' });
    await ok('GET', '/v2/user/fiat-quote', { onRampCountry: 'Mexico', onRampFiat: 'MXN', offRampCountry: 'United States', offRampFiat: 'USD', amount: '2000.00', createQuoteId: true });
    await ok('PUT', '/sandbox/v2/prices', { from: 'MXN', to: 'USDT', price: '19.2000' });
    await ok('DELETE', '/sandbox/v2/prices', { from: 'MXN', to: 'USDT' });

    // Orders. B29–B31 (automatic review), S12–S14 (status 30), B32, S15–S19, B33, B34, B35.
    const f2c = { merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58 };
    const c2f = { merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '20.0000', userPaymentId: speiId };
    const f2f = { onRampMerchantId: merchantId, onRampCountry: 'Mexico', onRampFiat: 'MXN', onRampFiatAmount: '2000.00', onRampPaymentId: 58, offRampCountry: 'United States', offRampFiat: 'USD', offRampPaymentId: wireId };
    const onRamp = (await ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', { ...f2c, clientId: 'o-f2c' })).orderId;
    await ok('POST', '/v2/order/crypto_to_fiat', { ...c2f, clientId: 'o-c2f' });
    const global = (await ok<{ orderId: number }>('POST', '/v2/order/fiat_to_fiat', { ...f2f, clientId: 'o-f2f' })).orderId;
    await ok('GET', '/v2/order/detail', { orderId: onRamp });
    await ok('GET', '/v2/order/detail', { orderId: global, orderType: 'fiat_to_fiat' });
    await ok('POST', `/sandbox/v2/orders/${onRamp}/pay`, { traceNumber: 'SPEI-SCHEMA-2' });
    await ok('POST', `/sandbox/v2/orders/${global}/pay`);
    await ok('POST', `/sandbox/v2/orders/${global}/payout`, { result: 'success' });

    const placedF2c = (await ok<{ orderId: number }>('POST', '/sandbox/v2/orders/fiat_to_crypto', f2c)).orderId;
    const placedC2f = (await ok<{ orderId: number }>('POST', '/sandbox/v2/orders/crypto_to_fiat', c2f)).orderId;
    const placedF2f = (await ok<{ orderId: number }>('POST', '/sandbox/v2/orders/fiat_to_fiat', f2f)).orderId;
    await ok('POST', '/v2/order/confirm', { orderId: placedC2f, orderType: 'crypto_to_fiat' });
    await ok('POST', `/sandbox/v2/orders/${placedC2f}/payout`, { result: 'success' });
    await ok('POST', `/sandbox/v2/orders/${placedC2f}/release`);
    await ok('POST', `/sandbox/v2/orders/${placedF2c}/expire`);
    await ok('POST', '/v2/order/confirm', { orderId: placedF2f, orderType: 'fiat_to_fiat', direction: 'on_ramp' });
    await ok('GET', '/v2/order/detail', { orderId: placedF2f });

    await ok('PUT', '/sandbox/v2/modes', { orderReview: 'manual' });
    const waiting = (await ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', f2c)).orderId;
    await ok('POST', `/sandbox/v2/orders/${waiting}/review`, { decision: 'rfi' });
    const upload = await fetch(`${t.url}/v2/order/invoice`, {
      method: 'POST',
      headers: { 'X-BH-TOKEN': token, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: new Uint8Array(
        Buffer.concat([
          Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="orderId"\r\n\r\n${waiting}\r\n`),
          Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="scan.png"\r\nContent-Type: image/png\r\n\r\n`),
          PNG,
          Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
        ]),
      ),
    });
    expect(upload.status).toBe(200);
    check.check('POST', `${t.url}/v2/order/invoice`, await upload.json());
    await ok('POST', `/sandbox/v2/orders/${waiting}/review`, { decision: 'approve' });
    await ok('GET', '/v2/orders');
    await ok('GET', '/v2/orders', { orderType: 'fiat_to_fiat' });

    // B40, B41, B39: the events the orders and records made, one resent; the funding hook deleted.
    await receiver.waitFor(1);
    await settled(t.server.webhooks);
    const events = await ok<{ record: { eventId: string }[] }>('GET', '/v2/webhook/events', { pageSize: 100 });
    expect(events.record.length).toBeGreaterThan(0);
    await ok('GET', '/v2/webhook/events', { webhookId: orderHook.webhookId, status: 'DELIVERED' });
    await ok('POST', `/v2/webhook/events/${events.record[0]?.eventId ?? ''}/resend`);
    await ok('DELETE', `/v2/webhook/${fundingHook.webhookId}`);
    await settled(t.server.webhooks);
    await ok('GET', '/v2/webhook/events', { pageSize: 100 });
  });

  it('every answer matched its schema, every operation was reached, every example fits', () => {
    if (check.violations.length > 0) console.error(JSON.stringify(check.violations, null, 2));
    expect(check.violations.map((v) => `${v.operation}: ${v.errors}`)).toEqual([]);
    expect(check.unreached('/v2/')).toEqual([]);
    expect(check.unreached('/openapi/v2/')).toEqual([]);
    expect(check.unreached('/sandbox/')).toEqual([]);
    expect(check.badExamples('/v2/')).toEqual([]);
    expect(check.badExamples('/openapi/v2/')).toEqual([]);
    expect(check.badExamples('/sandbox/')).toEqual([]);
  });
});
