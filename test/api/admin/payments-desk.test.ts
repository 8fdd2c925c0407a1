/**
 * The payments desk (O30–O33, docs/operating.md "The payments desk"). With every simulator mode
 * manual, each kind of waiting object shows in its queue; the call a row names, replayed verbatim
 * with the operator token, decides it and the row leaves. A merchant's story then reads back whole
 * through O31, an order's through O32 (statuses, postings, webhook events, documents) and O33:
 * on both stores, the uploaded document coming from `<BOURSE_DATA>/uploads` on SQLite and from
 * the database on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSandbox, BUSINESS_FIELDS, merchantUser, onboardedMerchant, SPEI_BENEFICIARY, type MerchantClient } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';
import { postgresDatabases } from '../../support/postgres.js';
import { settled, WebhookReceiver } from '../../support/webhook-receiver.js';

interface DeskCall {
  method: string;
  path: string;
  body: Record<string, unknown>;
  reasonField?: string;
  failCodes?: number[];
}
interface QueueRow {
  [field: string]: unknown;
  actions: string[];
  calls: Record<string, DeskCall>;
}
interface Queue {
  queue: string;
  count: number;
  rows: QueueRow[];
}

const MANUAL = { kyc: 'manual', accountReview: 'manual', beneficiaryReview: 'manual', orderReview: 'manual', payout: 'manual', deposit: 'manual' };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1');
const BOUNDARY = '----bourse-desk-7c3e';

const databases = postgresDatabases();
/** The server's store: its own data directory's SQLite, or a fresh PostgreSQL database (one node alone). */
const STORES: readonly [string, () => Promise<Record<string, string>>][] = [
  ['SQLite', async () => ({})],
  ['PostgreSQL', async () => ({ BOURSE_DB: await databases.url(), BOURSE_NODE_URL: 'http://127.0.0.1:1' })],
];

describe.each(STORES)('the payments desk: queues, their calls, and look-ups (O30–O33), on %s', (_store, storeEnv) => {
  let s: PaymentsStory;
  let receiver: WebhookReceiver;
  let client: MerchantClient;
  let merchantId: number;
  let beneficiaryId: number;

  const admin = async <T = unknown>(path: string): Promise<{ status: number; body: T }> => {
    const answer = await s.op.admin.send('GET', path);
    return { status: answer.status, body: answer.body as T };
  };
  const queues = async (limit?: number): Promise<Queue[]> => {
    const answer = await admin<{ queues: Queue[] }>(`/payments/queues${limit === undefined ? '' : `?limit=${limit}`}`);
    expect(answer.status).toBe(200);
    return answer.body.queues;
  };
  const queue = async (name: string): Promise<Queue> => (await queues()).find((q) => q.queue === name) ?? expect.fail(`no queue ${name}`);
  /** The row of `queue` whose `field` is `id`. */
  const rowOf = async (name: string, field: string, id: string | number): Promise<QueueRow | undefined> => (await queue(name)).rows.find((r) => r[field] === String(id));
  /** Sends a row's call exactly as named, with the operator token; `fill` sets what a person types. */
  const replay = async (call: DeskCall, fill: Record<string, unknown> = {}): Promise<{ code: number; data: unknown }> => {
    const response = await fetch(`${s.t.url}${call.path}`, {
      method: call.method,
      headers: { Authorization: `Bearer ${s.t.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...call.body, ...fill }),
    });
    const body = (await response.json()) as { code: number; data: unknown };
    expect(body.code, JSON.stringify(body)).toBe(200);
    return body;
  };
  const orderStatus = async (orderId: number): Promise<number> => (await client.ok<{ orderStatus: number }>('GET', '/v2/order/detail', { orderId })).orderStatus;
  const offRamp = async (clientId: string): Promise<number> =>
    (await client.ok<{ orderId: number }>('POST', '/v2/order/crypto_to_fiat', { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '20.0000', userPaymentId: beneficiaryId, merchantId, clientId })).orderId;

  beforeAll(async () => {
    s = await paymentsStory(await storeEnv());
    client = s.client;
    await exampleBooks(s.op);
    const { publicKey } = await s.op.ok<{ publicKey: string }>('GET', '/webhooks/public-key');
    receiver = await WebhookReceiver.start(publicKey);
    await client.ok('PUT', '/sandbox/v2/modes', MANUAL);
    await client.ok('POST', '/v2/webhook', { eventType: 'ORDER_WEBHOOK', url: receiver.url });
  });
  afterAll(async () => {
    await settled(s.t.server.webhooks);
    await receiver.close();
    await s.t.stop();
  });

  it('when nothing waits, then every queue is present, in order, with count 0', async () => {
    const all = await queues();
    expect(all.map((q) => [q.queue, q.count, q.rows.length])).toEqual(
      ['merchantsKyc', 'merchantAccounts', 'beneficiaries', 'ordersReview', 'ordersDocuments', 'payouts', 'fundingRecords'].map((name) => [name, 0, 0]),
    );
  });

  it('when a merchant submits its KYC, then it waits in merchantsKyc and its approve call makes it normal', async () => {
    ({ merchantId } = await client.ok<{ merchantId: number }>('POST', '/v2/merchants', { merchantName: 'Desk MX', email: 'desk@example.mx', merchantType: 'BUSINESS', callbackUrl: 'https://merchant.example/kyc' }));
    expect(await rowOf('merchantsKyc', 'merchantId', merchantId)).toBeUndefined();
    await client.ok('POST', `/sandbox/v2/merchants/${merchantId}/kyc`, { action: 'submit' });
    const row = await rowOf('merchantsKyc', 'merchantId', merchantId);
    expect(row).toMatchObject({ userId: s.userId, merchantName: 'Desk MX', email: 'desk@example.mx', merchantType: 'BUSINESS', status: 1, actions: ['approve', 'reject'] });
    expect(row?.calls.reject).toEqual({ method: 'POST', path: `/sandbox/v2/merchants/${merchantId}/kyc`, body: { action: 'reject', rejectReason: '' }, reasonField: 'rejectReason' });
    await replay(row?.calls.approve ?? expect.fail('no approve call'));
    expect(await rowOf('merchantsKyc', 'merchantId', merchantId)).toBeUndefined();
    expect((await client.ok<{ data: { status: number }[] }>('GET', '/v2/merchants')).data[0].status).toBe(2);
  });

  it('when a merchant account is in review, then it waits in merchantAccounts with what was submitted, and approve activates it', async () => {
    await client.ok('POST', '/v2/merchant/accounts', { merchantId, fiat: 'MXN', fieldList: BUSINESS_FIELDS });
    const row = await rowOf('merchantAccounts', 'merchantId', merchantId);
    expect(row).toMatchObject({ fiat: 'MXN', status: 1, fieldList: BUSINESS_FIELDS, actions: ['approve', 'reject'] });
    await replay(row?.calls.approve ?? expect.fail('no approve call'));
    expect((await queue('merchantAccounts')).count).toBe(0);
    expect((await client.ok<{ data: { status: number }[] }>('GET', '/v2/merchant/accounts', { merchantId })).data[0].status).toBe(2);
  });

  it('when a beneficiary is in review, then it waits in beneficiaries and approve makes it valid', async () => {
    ({ id: beneficiaryId } = await client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Juan Perez', fieldJson: SPEI_BENEFICIARY }));
    const row = await rowOf('beneficiaries', 'beneficiaryId', beneficiaryId);
    expect(row).toMatchObject({ merchantId: String(merchantId), fiat: 'MXN', paymentId: 58, realName: 'Juan Perez', status: 2, actions: ['approve', 'reject'] });
    await replay(row?.calls.approve ?? expect.fail('no approve call'));
    expect(await rowOf('beneficiaries', 'beneficiaryId', beneficiaryId)).toBeUndefined();
  });

  it('when money arrives with deposits manual, then the DEPOSIT waits in fundingRecords; complete credits it, cancel with a reason returns it', async () => {
    const kept = await adminSandbox<{ txId: number }>(s.t.url, s.t.adminToken, 'POST', '/deposits', { merchantId, fiat: 'MXN', amount: '5000.00', traceNumber: 'DESK-1', payerName: 'CENTAURE SA DE CV' });
    const returned = await adminSandbox<{ txId: number }>(s.t.url, s.t.adminToken, 'POST', '/deposits', { merchantId, fiat: 'MXN', amount: '7.00', traceNumber: 'DESK-2' });
    const fundingQueue = await queue('fundingRecords');
    expect(fundingQueue.rows.map((r) => r.txId)).toEqual([String(returned.data.txId), String(kept.data.txId)]);
    const row = fundingQueue.rows[1];
    expect(row).toMatchObject({ type: 'DEPOSIT', status: 1, fiat: 'MXN', amount: '5000.00', totalAmount: '5000.00', fee: '0.00', payerName: 'CENTAURE SA DE CV', traceNumber: 'DESK-1', actions: ['complete', 'cancel'] });
    await replay(row.calls.complete);
    const cancel = fundingQueue.rows[0].calls.cancel;
    expect(cancel.reasonField).toBe('failReason');
    expect((await replay(cancel, { failReason: 'sender unknown' })).data).toMatchObject({ status: 3 });
    expect((await queue('fundingRecords')).count).toBe(0);
  });

  it('when an order waits for review, then its review calls move it: documents → ordersDocuments, an upload, then the pay-in settles it', async () => {
    const { orderId } = await client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, merchantId, clientId: 'desk-buy-1' });
    const review = await rowOf('ordersReview', 'orderId', orderId);
    expect(review).toMatchObject({ kind: 'fiat_to_crypto', status: 10, fiat: 'MXN', fiatAmount: '1000.00', crypto: 'USDT', cryptoAmount: '51.8586', orderPrice: '19.2639', actions: ['approve', 'reject', 'rfi', 'documents'] });
    await replay(review?.calls.documents ?? expect.fail('no documents call'));
    expect(await rowOf('ordersReview', 'orderId', orderId)).toBeUndefined();
    const waiting = await rowOf('ordersDocuments', 'orderId', orderId);
    expect(waiting).toMatchObject({ status: 31, actions: ['expire'] });
    expect(Number(waiting?.deadlineTime)).toBeGreaterThan(0);

    const form = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="orderId"\r\n\r\n${orderId}\r\n`, 'utf8'),
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="invoice.pdf"\r\nContent-Type: application/pdf\r\n\r\n`, 'utf8'),
      PDF,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`, 'latin1'),
    ]);
    const upload = await fetch(`${s.t.url}/v2/order/invoice`, { method: 'POST', headers: { 'X-BH-TOKEN': client.token, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` }, body: new Uint8Array(form) });
    expect(((await upload.json()) as { code: number }).code).toBe(200);
    expect(await rowOf('ordersDocuments', 'orderId', orderId)).toBeUndefined();
    await adminSandbox(s.t.url, s.t.adminToken, 'POST', `/orders/${orderId}/pay`, { traceNumber: 'DESK-PAYIN-1' });
    expect(await orderStatus(orderId)).toBe(60);
  });

  it('when an off-ramp waits for its payout, then it is in payouts; fail with a code cancels one, success takes another to the hold', async () => {
    await adminSandbox(s.t.url, s.t.adminToken, 'POST', '/crypto-deposits', { merchantId, crypto: 'USDT', amount: '100.0000' });
    const failed = await offRamp('desk-sell-1');
    const paid = await offRamp('desk-sell-2');
    for (const orderId of [failed, paid]) await replay((await rowOf('ordersReview', 'orderId', orderId))?.calls.approve ?? expect.fail('no approve call'));
    const payouts = await queue('payouts');
    expect(payouts.rows.map((r) => r.orderId)).toEqual([String(paid), String(failed)]);
    const row = payouts.rows[1];
    expect(row).toMatchObject({ kind: 'crypto_to_fiat', status: 40, cryptoAmount: '20.0000', beneficiaryId: String(beneficiaryId), actions: ['success', 'fail'] });
    expect(row.calls.fail.failCodes).toEqual([-7001, -7000]);
    await replay(row.calls.fail, { failCode: -7000 });
    await replay(payouts.rows[0].calls.success);
    expect((await queue('payouts')).count).toBe(0);
    expect(await client.ok('GET', '/v2/order/detail', { orderId: failed })).toMatchObject({ orderStatus: 70, failCode: -7000 });
    expect(await orderStatus(paid)).toBe(50);
  });

  it('when a queue holds more rows than the limit, then the count is of all and the rows are the newest', async () => {
    const first = await offRamp('desk-sell-3');
    const second = await offRamp('desk-sell-4');
    const review = (await queues(1)).find((q) => q.queue === 'ordersReview');
    expect(review?.count).toBe(2);
    expect(review?.rows.map((r) => r.orderId)).toEqual([String(second)]);
    for (const orderId of [first, second]) await replay((await rowOf('ordersReview', 'orderId', orderId))?.calls.reject ?? expect.fail('no reject call'));
    expect((await queue('ordersReview')).count).toBe(0);
  });

  it('then O31 shows the merchant whole: accounts, balances of M, limits and usage, beneficiaries, orders and funding records', async () => {
    const { status, body } = await admin<Record<string, unknown>>(`/payments/merchants/${merchantId}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ userId: s.userId, merchant: { merchantId, merchantName: 'Desk MX', status: 2 }, actions: [], calls: {}, modes: { ...MANUAL, payoutFailCode: -7001 } });
    expect(body.accounts).toEqual([expect.objectContaining({ fiat: 'MXN', status: 2, balance: '5000.00', fieldList: BUSINESS_FIELDS, actions: [] })]);
    // 5000.00 deposited; the on-ramp's 1000.00 came in, its fee 1.00 and 999.00 went to the desk; 51.8586 USDT bought, 100 deposited, 20 held for the off-ramp in 50.
    expect(body.balances).toEqual([
      { asset: 'MXN', free: '5000', locked: '0', total: '5000' },
      { asset: 'USDT', free: '131.8586', locked: '20', total: '151.8586' },
    ]);
    expect(body.limits).toMatchObject({ monthLimit: '250000.00', dayFiatLimit: '25000.00', monthFiatLimit: '100000.00', monthCryptoLimit: '15000.00' });
    expect(body.beneficiaries).toEqual([expect.objectContaining({ id: beneficiaryId, status: 1, actions: [] })]);
    const orders = body.orders as { total: number; rows: { clientId: string; orderStatus: number }[] };
    expect(orders.total).toBe(5);
    expect(orders.rows.map((o) => [o.clientId, o.orderStatus])).toEqual([
      ['desk-sell-4', 70],
      ['desk-sell-3', 70],
      ['desk-sell-2', 50],
      ['desk-sell-1', 70],
      ['desk-buy-1', 60],
    ]);
    const funding = body.fundingRecords as { total: number; rows: { type: string; status: number; amount: string }[] };
    expect(funding.rows.map((r) => [r.type, r.status, r.amount])).toEqual([
      ['DEPOSIT', 3, '7.00'],
      ['DEPOSIT', 2, '5000.00'],
    ]);
  });

  it('then O32 shows an order whole: its statuses with times, its postings, its webhook events and its document, which O33 serves inline', async () => {
    const orderId = Number(((await admin<{ orders: { rows: { orderId: string; clientId: string }[] } }>(`/payments/merchants/${merchantId}`)).body.orders.rows.find((o) => o.clientId === 'desk-buy-1'))?.orderId);
    const { status, body } = await admin<{
      order: Record<string, unknown>;
      actions: string[];
      history: { status: number; time: number }[];
      historyComplete: boolean;
      postings: { account: string; asset: string; flowName: string; change: string }[];
      webhookEvents: { objectStatus: string; eventType: string }[];
      documents: { documentId: string; name: string; contentType: string; size: number; url: string }[];
    }>(`/payments/orders/${orderId}`);
    expect(status).toBe(200);
    expect(body.order).toMatchObject({ orderId: String(orderId), orderStatus: 60, traceNumber: 'DESK-PAYIN-1' });
    expect(body.actions).toEqual([]);
    expect(body.history.map((h) => h.status)).toEqual([10, 31, 40, 50, 60]);
    expect(body.historyComplete).toBe(true);
    expect(body.history[0].time).toBe(Number(body.order.createTime));
    expect(body.webhookEvents.map((e) => e.objectStatus)).toEqual(['10', '31', '40', '50', '60']);
    expect(body.postings.map((p) => [p.account, p.asset, p.flowName, p.change])).toEqual(
      expect.arrayContaining([
        [`merchant ${merchantId}`, 'MXN', 'DEPOSIT', '1000'],
        [`merchant ${merchantId}`, 'MXN', 'OTC_FEE', '-1'],
        ['fee', 'MXN', 'OTC_FEE', '1'],
        ['desk', 'MXN', expect.any(String), '999'],
        ['desk', 'USDT', expect.any(String), '-51.8586'],
        [`merchant ${merchantId}`, 'USDT', expect.any(String), '51.8586'],
      ]),
    );
    expect(body.postings).toHaveLength(7);
    expect(body.documents).toEqual([expect.objectContaining({ contentType: 'application/pdf', size: PDF.length, url: `/admin/v1/payments/orders/${orderId}/documents/${body.documents[0].documentId}` })]);

    const file = await fetch(`${s.t.url}${body.documents[0].url}`, { headers: { Authorization: `Bearer ${s.t.adminToken}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
    const unauthenticated = await fetch(`${s.t.url}${body.documents[0].url}`);
    expect(unauthenticated.status).toBe(401);
  });

  it('when the merchant registered no webhook, then O32 shows the order\'s statuses exactly as the commands that moved it were stamped, complete, with their postings', async () => {
    const other = await merchantUser(s.op, s.t.url);
    const otherMerchant = await onboardedMerchant(other.client, 'Quiet MX');
    const { id: otherBeneficiary } = await other.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId: otherMerchant, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Ana Lopez', fieldJson: SPEI_BENEFICIARY });
    await other.client.ok('PUT', '/sandbox/v2/modes', { orderReview: 'manual', payout: 'manual' });
    await adminSandbox(s.t.url, s.t.adminToken, 'POST', '/crypto-deposits', { merchantId: otherMerchant, crypto: 'USDT', amount: '30.0000' });
    const { orderId } = await other.client.ok<{ orderId: number }>('POST', '/v2/order/crypto_to_fiat', { country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '20.0000', userPaymentId: otherBeneficiary, merchantId: otherMerchant, clientId: 'quiet-sell-1' });
    for (const [path, body] of [
      ['review', { decision: 'approve' }],
      ['payout', { result: 'success' }],
      ['release', {}],
    ] as const) {
      expect((await adminSandbox(s.t.url, s.t.adminToken, 'POST', `/orders/${orderId}/${path}`, body)).code).toBe(200);
    }

    const { status, body } = await admin<{
      order: Record<string, unknown>;
      history: { status: number; time: number }[];
      historyComplete: boolean;
      postings: { seq: number; account: string; asset: string; flowName: string; change: string; time: number }[];
      webhookEvents: unknown[];
    }>(`/payments/orders/${orderId}`);
    expect(status).toBe(200);
    expect(body.webhookEvents).toEqual([]);
    expect(body.historyComplete).toBe(true);
    expect(body.history.map((h) => h.status)).toEqual([10, 40, 50, 60]);
    expect([body.history[0].time, body.history[3].time]).toEqual([Number(body.order.createTime), Number(body.order.completedTime)]);
    // Each status is the one its journaled command entered, at that command's stamp.
    const log = s.t.server.exchange.core.payments.state.orders.get(orderId)?.statusLog ?? expect.fail('no order');
    expect(log.map(({ status: entered, time }) => ({ status: entered, time }))).toEqual(body.history);
    const journaled: [number, number, string][] = [];
    for (const entry of log) {
      for await (const stamped of s.t.server.exchange.history.readJournal(entry.seq - 1, 1)) {
        journaled.push([stamped.seq, stamped.ts, stamped.command.type]);
        break;
      }
    }
    expect(journaled).toEqual([
      [log[0].seq, body.history[0].time, 'createPaymentOrder'],
      [log[1].seq, body.history[1].time, 'reviewOrder'],
      [log[2].seq, body.history[2].time, 'orderPayout'],
      [log[3].seq, body.history[3].time, 'releaseOrder'],
    ]);
    // What those commands posted, by the status each entered: creation and approval only lock (no flow rows), the payout at 50 pays the desk's MXN out with its fee, the release at 60 takes the crypto.
    expect(body.postings.map((p) => [log.find((e) => e.seq === p.seq)?.status, p.account, p.asset, p.flowName, p.change])).toEqual([
      [50, 'desk', 'MXN', 'WITHDRAW', '-376.08'],
      [50, 'desk', 'MXN', 'OTC_FEE', '-5'],
      [50, 'fee', 'MXN', 'OTC_FEE', '5'],
      [60, `merchant ${otherMerchant}`, 'USDT', 'OTC_SELL_COIN', '-20'],
      [60, 'desk', 'USDT', 'OTC_BUY_COIN', '20'],
    ]);
    for (const posting of body.postings) expect(posting.time).toBe(log.find((e) => e.seq === posting.seq)?.time);
  });

  it('then an off-ramp held in 50 offers its release, whose call settles it', async () => {
    const rows = (await admin<{ orders: { rows: { orderId: string; clientId: string }[] } }>(`/payments/merchants/${merchantId}`)).body.orders.rows;
    const orderId = Number(rows.find((o) => o.clientId === 'desk-sell-2')?.orderId);
    const { body } = await admin<{ actions: string[]; calls: Record<string, DeskCall>; deadlineTime: number }>(`/payments/orders/${orderId}`);
    expect(body.actions).toEqual(['release']);
    expect(body.deadlineTime).toBeGreaterThan(0);
    await replay(body.calls.release);
    expect(await orderStatus(orderId)).toBe(60);
    await s.verified();
  });

  it('when an id names nothing, then 404 -1000 naming it', async () => {
    for (const path of ['/payments/merchants/999999', '/payments/merchants/abc', '/payments/orders/99999999', '/payments/orders/99999999/documents/' + 'a'.repeat(64)]) {
      const answer = await admin<{ code: number; msg: string }>(path);
      expect([path, answer.status, answer.body.code]).toEqual([path, 404, -1000]);
    }
    const orderId = (await client.ok<{ record: { orderId: string }[] }>('GET', '/v2/orders')).record[0].orderId;
    const missing = await admin<{ code: number; msg: string }>(`/payments/orders/${orderId}/documents/${'b'.repeat(64)}`);
    expect([missing.status, missing.body.code]).toEqual([404, -1000]);
    expect(missing.body.msg).toContain('document');
    const bad = await admin<{ code: number }>('/payments/queues?limit=501');
    expect([bad.status, bad.body.code]).toEqual([400, -1130]);
  });
});

describe('the payments desk on a production deployment (BOURSE_SANDBOX=0)', () => {
  let s: PaymentsStory;

  beforeAll(async () => {
    s = await paymentsStory({ BOURSE_SANDBOX: '0' });
  });
  afterAll(async () => s.t.stop());

  it('when a merchant waits for KYC review, then the row\'s reject call, with a reason, works with the operator token alone', async () => {
    const { client } = await merchantUser(s.op, s.t.url);
    const { merchantId } = await client.ok<{ merchantId: number }>('POST', '/v2/merchants', { merchantName: 'Prod MX', email: 'prod@example.mx', merchantType: 'BUSINESS', callbackUrl: 'https://merchant.example/kyc' });
    expect((await adminSandbox(s.t.url, s.t.adminToken, 'POST', `/merchants/${merchantId}/kyc`, { action: 'submit' })).code).toBe(200);
    const answer = await s.op.ok<{ queues: Queue[] }>('GET', '/payments/queues');
    const row = answer.queues[0].rows.find((r) => r.merchantId === String(merchantId)) ?? expect.fail('no row');
    const call = row.calls.reject;
    const response = await fetch(`${s.t.url}${call.path}`, { method: call.method, headers: { Authorization: `Bearer ${s.t.adminToken}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ ...call.body, rejectReason: 'documents unreadable' }) });
    expect(((await response.json()) as { data: unknown }).data).toMatchObject({ merchantId, status: 3, rejectReason: 'documents unreadable' });
    const after = await s.op.ok<{ queues: Queue[] }>('GET', '/payments/queues');
    expect(after.queues[0].rows.find((r) => r.merchantId === String(merchantId))).toBeUndefined();
  });
});
