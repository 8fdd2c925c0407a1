/**
 * Every operator operation (`/admin/v1`) driven to a 200 answer on one server, each answer checked
 * against the schema `/openapi.json` declares for it; every operation must be reached and every
 * declared example must satisfy its own schema.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, SpotClient } from '../../support/clients.js';
import { Operator } from '../../support/fixtures.js';
import { BUSINESS_FIELDS, merchantUser, onboardedMerchant, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { SchemaCheck } from '../../support/schema-check.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { settled, WebhookReceiver } from '../../support/webhook-receiver.js';

interface UserRef {
  userId: string;
  accountId: string;
}

describe('operator API answers match their declared schemas (O1–O33)', () => {
  let t: TestServer;
  let op: Operator;
  let check: SchemaCheck;
  let receiver: WebhookReceiver | undefined;

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    check = await SchemaCheck.load(t.url);
  });
  afterAll(async () => {
    await receiver?.close();
    await t.stop();
  });

  /** One operator call that must answer 200; its body is checked against the document. */
  const call = async <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await op.admin.send(method, path, body);
    expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(200);
    check.check(method, `/admin/v1${path}`, answer.body);
    return answer.body as T;
  };

  const withdraw = async (client: SpotClient, clientOrderId: string, quantity: string): Promise<string> => {
    const answer = await client.signed('POST', '/openapi/v1/withdraw', { tokenId: 'USDT', chainType: 'TRC20', address: 'TXYZabc123', withdrawQuantity: quantity, clientOrderId });
    expect(answer.status, answer.text).toBe(200);
    return (answer.body as { orderId: string }).orderId;
  };

  it('users, sub-accounts and keys (O1–O5, O23)', async () => {
    const user = await call<UserRef>('POST', '/users', { email: 'schema@example.com' });
    await call('POST', '/users', { type: 'merchant' });
    await call('POST', `/users/${user.userId}/sub-accounts`, { name: 'savings' });
    await call('POST', `/users/${user.userId}/sub-accounts`, {});
    const key = await call<{ apiKey: string }>('POST', `/users/${user.userId}/api-keys`, { permissions: ['MARKET_DATA', 'USER_DATA'], ipWhitelist: ['203.0.113.0/24'], label: 'bot', accountIndex: 1 });
    await call('POST', `/users/${user.userId}/api-keys`, {});
    await call('DELETE', `/api-keys/${key.apiKey}`);
    await call('GET', `/users/${user.userId}/api-keys`);
    await call('GET', '/users');
  });

  it('assets, symbols, deposits, withdrawals, fees and lists (O6–O12, O24–O27)', async () => {
    await call('POST', '/assets', { asset: 'SCH', precision: 6, fullName: 'Schema coin', withdrawFee: '0.5', minWithdraw: '1' });
    await call('POST', '/assets', { asset: 'SCHF', precision: 2, kind: 'fiat' });
    await call('POST', '/symbols', { symbol: 'SCHUSDT', baseAsset: 'SCH', quoteAsset: 'USDT', tickSize: '0.01', stepSize: '0.1', minNotional: '1' });
    await call('PATCH', '/symbols/SCHUSDT', { status: 'HALT' });
    await call('PATCH', '/symbols/schusdt', { status: 'TRADING' });

    const owner = await op.user();
    const sub = await op.subAccount(owner.userId, 'cold');
    await call('POST', '/deposits', { accountId: owner.accountId, asset: 'USDT', amount: '1000', txId: '0xdeposit' });
    await call('POST', '/deposits', { accountId: Number(sub.accountId), asset: 'sch', amount: 2.5 });
    const client = await op.keyOf(owner.userId);
    const sent = await withdraw(client, 'schema-sent', '100');
    const rejected = await withdraw(client, 'schema-rejected', '50');
    await withdraw(client, 'schema-pending', '10');
    await call('GET', '/withdrawals?status=PENDING');
    await call('POST', `/withdrawals/${sent}/approve`, { txId: '0xfeed' });
    await call('POST', `/withdrawals/${rejected}/reject`, { reason: 'address on a sanctions list' });
    await call('GET', '/withdrawals');
    await call('GET', '/withdrawals?status=sent&limit=1');

    await call('PATCH', `/accounts/${owner.accountId}`, { makerFeeRate: '0.0005', takerFeeRate: '0.00075' });
    await call('PATCH', `/accounts/${sub.accountId}`, { takerFeeRate: '0.002' });

    await call('GET', `/users/${owner.userId}/balances`);
    await call('GET', '/symbols');
    await call('GET', '/assets');
  });

  it('configuration documents and the ledger check (O15–O19)', async () => {
    await call('GET', '/payments/config');
    await call('PATCH', '/payments/config', { spreadBps: 40, limitRates: { GBP: '1.27' }, webhook: { jitterPct: 0 } });
    await call('GET', '/trading/config');
    await call('PATCH', '/trading/config', { ordersPerSecond: 25, defaultMakerFeeRate: '0.0008' });
    // The algo option on and its limits changed: the answer's switch and counts are checked as changed values too.
    await call('PATCH', '/trading/config', { algoOrders: true, maxAlgoOrdersPerSymbol: 7, maxAlgoOrdersPerAccount: 70, maxIcebergParts: 20 });
    await call('GET', '/verify');
    await call('GET', '/verify?replay=1');
  });

  it('webhook events, their resend and the public key (O20–O22)', async () => {
    const { publicKey } = await call<{ publicKey: string }>('GET', '/webhooks/public-key');
    receiver = await WebhookReceiver.start(publicKey);
    const { client } = await merchantUser(op, t.url);
    const merchantId = await onboardedMerchant(client, 'Schema MX');
    await client.ok('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: receiver.url });
    await client.ok('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '5000.00', traceNumber: 'SCHEMA-1', payerName: 'CENTAURE SA DE CV' });
    await receiver.waitFor(1);
    await settled(t.server.webhooks);
    const page = await call<{ events: { eventId: string; deliveries: unknown[] }[] }>('GET', '/webhooks/events?eventType=FUNDING_WEBHOOK&status=DELIVERED');
    expect(page.events).toHaveLength(1);
    expect(page.events[0].deliveries).toHaveLength(1);
    await call('POST', `/webhooks/events/${page.events[0].eventId}/resend`);
    await call('GET', '/webhooks/events?limit=5');
    await receiver.waitFor(2);
    await settled(t.server.webhooks);
    await call('GET', `/webhooks/events?changedSince=1`);
  });

  it('the payments desk (O30–O33): every queue with a row, a merchant, an order and its document', async () => {
    await exampleBooks(op);
    const { client } = await merchantUser(op, t.url);
    const merchantId = await onboardedMerchant(client, 'Desk Schema');
    await client.ok('PUT', '/sandbox/v2/modes', { kyc: 'manual', accountReview: 'manual', beneficiaryReview: 'manual', orderReview: 'manual', payout: 'manual', deposit: 'manual' });
    await client.ok('POST', '/sandbox/v2/crypto-deposits', { merchantId, crypto: 'USDT', amount: '50.0000' });
    const { id: approved } = await client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', fieldJson: SPEI_BENEFICIARY });
    await client.ok('POST', `/sandbox/v2/payments/${approved}/review`, { action: 'approve' });
    await client.ok('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', fieldJson: { ...SPEI_BENEFICIARY, 'CLABE number': '012180001234567892' } });
    const { merchantId: waiting } = await client.ok<{ merchantId: number }>('POST', '/v2/merchants', { merchantName: 'Desk Waiting', email: 'waiting@example.mx', merchantType: 'BUSINESS', callbackUrl: 'https://merchant.example/kyc' });
    await client.ok('POST', `/sandbox/v2/merchants/${waiting}/kyc`, { action: 'submit' });
    await client.ok('POST', '/v2/merchant/accounts', { merchantId, fiat: 'USD', fieldList: BUSINESS_FIELDS });
    await client.ok('POST', `/sandbox/v2/merchant/accounts/${merchantId}/USD/review`, { action: 'verify' });
    await client.ok('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '300.00' });
    const onRamp = { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, merchantId };
    await client.ok('POST', '/v2/order/fiat_to_crypto', onRamp);
    const { orderId: documented } = await client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', onRamp);
    await client.ok('POST', `/sandbox/v2/orders/${documented}/review`, { decision: 'documents' });
    const { orderId: sold } = await client.ok<{ orderId: number }>('POST', '/v2/order/crypto_to_fiat', { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '20.0000', userPaymentId: approved, merchantId });
    await client.ok('POST', `/sandbox/v2/orders/${sold}/review`, { decision: 'approve' });

    const { queues } = await call<{ queues: { queue: string; count: number }[] }>('GET', '/payments/queues');
    expect(queues.filter((q) => q.count === 0).map((q) => q.queue)).toEqual([]);
    await call('GET', '/payments/queues?limit=1');
    await call('GET', `/payments/merchants/${merchantId}`);
    await call('GET', `/payments/merchants/${waiting}`);
    await call('GET', `/payments/orders/${sold}`);

    const boundary = '----schema-desk';
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1');
    const form = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="orderId"\r\n\r\n${documented}\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`, 'utf8'),
      pdf,
      Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1'),
    ]);
    const upload = await request(`${t.url}/v2/order/invoice`, { method: 'POST', headers: { 'X-BH-TOKEN': client.token, 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body: new Uint8Array(form) });
    expect(upload.status, upload.text).toBe(200);
    const order = await call<{ documents: { url: string }[] }>('GET', `/payments/orders/${documented}`);
    const document = await request(`${t.url}${order.documents[0].url}`, { headers: { Authorization: `Bearer ${t.adminToken}` } });
    expect(document.status).toBe(200);
    check.check('GET', order.documents[0].url, document.text);
  });

  it('the nodes of the deployment (O28): a SQLite server lists itself', async () => {
    const { nodes } = await call<{ nodes: { url: string; role: string; term: number }[] }>('GET', '/cluster');
    expect(nodes).toEqual([expect.objectContaining({ url: t.url, role: 'leader', term: 0 })]);
  });

  it('bans, listed, set and lifted (O13, O14, O29)', async () => {
    await call('GET', '/bans');
    await call('POST', '/bans', { ip: '203.0.113.9', bannedUntil: Date.now() + 3_600_000 });
    await call('POST', '/bans', { ip: '::ffff:203.0.113.9', bannedUntil: Date.now() + 60_000, banCount: 5 });
    await call('DELETE', '/bans/203.0.113.9');
    await call('PATCH', '/trading/config', { requestWeightPerMinute: 1, banStrikes: 2 });
    try {
      let banned = false;
      for (let sent = 0; sent < 6 && !banned; sent++) banned = (await request(`${t.url}/openapi/v1/pairs`)).status === 418;
      expect(banned).toBe(true);
      const bans = await call<unknown[]>('GET', '/bans');
      expect(bans).toHaveLength(1);
      await call('DELETE', '/bans/127.0.0.1');
    } finally {
      await call('PATCH', '/trading/config', { requestWeightPerMinute: 3000, banStrikes: 20 });
    }
    await call('DELETE', '/bans/127.0.0.1');
  });

  it('then every answer matched its schema, every operation was reached and every example fits its schema', () => {
    expect(check.violations, JSON.stringify(check.violations, null, 2)).toEqual([]);
    expect(check.unreached('/admin/')).toEqual([]);
    expect(check.badExamples('/admin/')).toEqual([]);
  });
});
