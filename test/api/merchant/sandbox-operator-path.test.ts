/**
 * Every route of docs/merchant-payments.md "The simulator and the sandbox API" on both of its paths: the merchant's own token, and the operator's
 * bearer token, which adds `userId=<id>` to the query of routes that name no object. Each row builds
 * the same scene once per path, calls the route, and reads the effect back through the user's own
 * `/v2` view (or the answer where the route's effect is the answer): both paths must have the same
 * effect on the same user, and it is the effect the row names. Place-on-behalf (S12–S14) on the
 * operator path once made an order of user 0, which the user could neither see nor de-duplicate.
 * The operator path's own refusals follow: a place-on-behalf without `userId`, for a user that is
 * not a merchant user or does not exist, or naming another user's merchant creates nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminSandbox, BUSINESS_FIELDS, type Envelope, onboardedMerchant, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { fundingRecords, globalPaymentParams, orderDetail, paymentsStory, WIRE_BENEFICIARY, type PaymentsStory } from '../../support/payments-story.js';

type Path = 'token' | 'operator';
type Body = Record<string, unknown>;

/** Every simulator mode at its sandbox default: a scene states the modes it needs on top of these. */
const DEFAULT_MODES = { kyc: 'approve', accountReview: 'approve', beneficiaryReview: 'approve', orderReview: 'approve', payout: 'success', payoutFailCode: -7001, deposit: 'complete' };

/** What one path of a row works on: the ids its scene made. */
type Scene = Record<string, number | string>;

interface Row {
  route: string;
  /** The route names no object: the operator's call carries `userId`. */
  forUser?: boolean;
  /** Builds the scene for one path (`tag` keeps names, clientIds and accounts apart). */
  scene: (tag: string) => Promise<Scene>;
  request: (scene: Scene) => [method: string, path: string, body?: Body];
  /** The effect on the user, with the ids of the scene replaced by whether they match; `repeat` sends the same request on the same path again. */
  effect: (data: unknown, scene: Scene, repeat: () => Promise<Envelope>) => Promise<unknown>;
  expected: unknown;
}

function pick(value: unknown, keys: readonly string[]): Record<string, unknown> {
  const row = value as Record<string, unknown>;
  return Object.fromEntries(keys.map((key) => [key, row[key]]));
}

describe('sandbox API: the operator path has the same effect on the user as the token path', () => {
  let s: PaymentsStory;
  /** "Trade MX": verified, MXN and USD accounts, 1000 USDT, a valid SPEI and a valid WIRE beneficiary. */
  let trade: number;
  let spei: number;
  let wire: number;

  const call = async <T = unknown>(path: Path, method: string, route: string, body: Body | undefined, forUser: boolean): Promise<Envelope<T>> =>
    path === 'token'
      ? s.client.call<T>(method, `/sandbox/v2${route}`, body)
      : adminSandbox<T>(s.t.url, s.t.adminToken, method, forUser ? `${route}?userId=${s.userId}` : route, body);
  const modes = async (overrides: Body = {}): Promise<void> => {
    await s.client.ok('PUT', '/sandbox/v2/modes', { ...DEFAULT_MODES, ...overrides });
  };
  const merchant = (tag: string, fiats: string[] = ['MXN']): Promise<number> => onboardedMerchant(s.client, `Scene ${tag}`, fiats);
  const f2c = (clientId: string): Body => ({ merchantId: trade, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, clientId });
  const c2f = (clientId: string, userPaymentId: number): Body => ({ merchantId: trade, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '10.0000', userPaymentId, clientId });
  const created = async (path: string, body: Body): Promise<number> => (await s.client.ok<{ orderId: number }>('POST', path, body)).orderId;
  const orderState = async (orderId: number | string): Promise<Record<string, unknown>> => pick(await orderDetail(s.client, orderId), ['orderStatus', 'failCode', 'failReason']);
  const merchantRow = async (merchantId: number | string): Promise<Record<string, unknown>> =>
    (await s.client.ok<{ data: Record<string, unknown>[] }>('GET', '/v2/merchants', { pageSize: 1000 })).data.find((m) => m.merchantId === merchantId) ?? {};
  const accountRow = async (merchantId: number | string): Promise<Record<string, unknown>> => (await s.client.ok<{ data: Record<string, unknown>[] }>('GET', '/v2/merchant/accounts', { merchantId })).data[0] ?? {};
  const pendingFund = async (merchantId: number | string): Promise<unknown> => (await accountRow(merchantId)).balance;
  const sellQuote = async (): Promise<string> => (await s.client.ok<{ price: string }>('GET', '/v2/user/crypto-quote', { country: 'Mexico', from: 'USDT', to: 'MXN' })).price;

  /** A place-on-behalf row: the order is the user's, in 30, listed under its clientId, and a repeat is -1174 with its id. */
  const placeRow = (id: string, kind: string, body: (clientId: string) => Body, detail: Record<string, unknown>): Row => ({
    route: `${id} POST /orders/${kind}`,
    forUser: true,
    scene: async (tag) => {
      await modes();
      return { clientId: `place-${kind}-${tag}` };
    },
    request: (scene) => ['POST', `/orders/${kind}`, body(String(scene.clientId))],
    effect: async (data, scene, repeat) => {
      const { orderId } = data as { orderId: number };
      const shown = await orderDetail(s.client, orderId);
      const listed = await s.client.ok<{ total: number }>('GET', '/v2/orders', { clientId: scene.clientId });
      const again = await repeat();
      return { orderId: typeof orderId, detail: pick(shown, Object.keys(detail)), listed: listed.total, repeat: { status: again.status, code: again.code, sameOrder: (again.data as { orderId?: string } | null)?.orderId === String(orderId) } };
    },
    expected: { orderId: 'number', detail, listed: 1, repeat: { status: 409, code: -1174, sameOrder: true } },
  });

  const ROWS: Row[] = [
    {
      route: 'S1 GET /modes',
      forUser: true,
      scene: async () => {
        await modes({ orderReview: 'rfi', payout: 'manual' });
        return {};
      },
      request: () => ['GET', '/modes'],
      effect: async (data) => data,
      expected: { ...DEFAULT_MODES, orderReview: 'rfi', payout: 'manual' },
    },
    {
      route: 'S2 PUT /modes',
      forUser: true,
      scene: async () => {
        await modes();
        return {};
      },
      request: () => ['PUT', '/modes', { orderReview: 'documents' }],
      effect: async (data) => ({ answer: data, read: await s.client.ok('GET', '/sandbox/v2/modes') }),
      expected: { answer: { ...DEFAULT_MODES, orderReview: 'documents' }, read: { ...DEFAULT_MODES, orderReview: 'documents' } },
    },
    {
      route: 'S3 POST /merchants/{merchantId}/kyc',
      scene: async (tag) => {
        await modes({ kyc: 'manual' });
        const { merchantId } = await s.client.ok<{ merchantId: number }>('POST', '/v2/merchants', { merchantName: `Kyc ${tag}`, email: `kyc.${tag}@example.mx`, merchantType: 'BUSINESS', callbackUrl: 'https://merchant.example/kyc-done' });
        await s.client.ok('POST', `/sandbox/v2/merchants/${merchantId}/kyc`, { action: 'submit' });
        return { merchantId };
      },
      request: (scene) => ['POST', `/merchants/${scene.merchantId}/kyc`, { action: 'reject', rejectReason: 'Blurry ID' }],
      effect: async (data, scene) => ({ answer: pick(data, ['status', 'rejectReason']), listed: pick(await merchantRow(scene.merchantId), ['status', 'rejectReason']) }),
      expected: { answer: { status: 3, rejectReason: 'Blurry ID' }, listed: { status: 3, rejectReason: 'Blurry ID' } },
    },
    {
      route: 'S4 POST /merchant/accounts/{merchantId}/{fiat}/review',
      scene: async (tag) => {
        await modes({ accountReview: 'manual' });
        const merchantId = await merchant(`account ${tag}`, []);
        await s.client.ok('POST', '/v2/merchant/accounts', { merchantId, fiat: 'MXN', fieldList: BUSINESS_FIELDS });
        return { merchantId };
      },
      request: (scene) => ['POST', `/merchant/accounts/${scene.merchantId}/MXN/review`, { action: 'reject', failReason: 'Bad address' }],
      effect: async (data, scene) => ({ answer: pick(data, ['fiat', 'status', 'failReason']), listed: pick(await accountRow(scene.merchantId), ['fiat', 'status', 'failReason']) }),
      expected: { answer: { fiat: 'MXN', status: 3, failReason: 'Bad address' }, listed: { fiat: 'MXN', status: 3, failReason: 'Bad address' } },
    },
    {
      route: 'S5 POST /payments/{userPaymentId}/review',
      scene: async (tag) => {
        await modes({ beneficiaryReview: 'manual' });
        const clabe = tag === 'token' ? '012180000000000011' : '012180000000000012';
        const { id } = await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId: trade, paymentId: 58, country: 'Mexico', fiat: 'MXN', fieldJson: { 'CLABE number': clabe, 'Beneficiary Name': 'Ana Ruiz' } });
        return { id };
      },
      request: (scene) => ['POST', `/payments/${scene.id}/review`, { action: 'reject', failReason: 'Name mismatch' }],
      effect: async (data, scene) => {
        const rows = (await s.client.ok<{ record: Record<string, unknown>[] }>('GET', '/v2/payments', { merchantId: trade, pageSize: 1000 })).record;
        return { answer: pick(data, ['status', 'failReason']), listed: pick(rows.find((r) => r.id === scene.id), ['status', 'failReason']) };
      },
      expected: { answer: { status: 3, failReason: 'Name mismatch' }, listed: { status: 3, failReason: 'Name mismatch' } },
    },
    {
      route: 'S6 POST /deposits',
      scene: async (tag) => {
        await modes();
        return { merchantId: await merchant(`deposit ${tag}`) };
      },
      request: (scene) => ['POST', '/deposits', { merchantId: scene.merchantId, fiat: 'MXN', amount: '250.00', payerName: 'ACME SA' }],
      effect: async (data, scene) => {
        const { txId, ...rest } = data as { txId: number };
        const record = (await fundingRecords(s.client, { merchantId: scene.merchantId })).find((r) => r.txId === txId);
        return { answer: rest, record: pick(record, ['type', 'status', 'amount', 'fee']), pendingFund: await pendingFund(scene.merchantId) };
      },
      expected: { answer: { result: 'DEPOSIT', orderId: '' }, record: { type: 'DEPOSIT', status: 2, amount: '250.00', fee: '0.00' }, pendingFund: '250.00' },
    },
    {
      route: 'S7 POST /crypto-deposits',
      scene: async (tag) => ({ merchantId: await merchant(`crypto ${tag}`) }),
      request: (scene) => ['POST', '/crypto-deposits', { merchantId: scene.merchantId, crypto: 'USDT', amount: '12.5' }],
      effect: async (data, scene) => {
        const { merchantId, ...rest } = data as { merchantId: number };
        const assets = await s.client.ok<{ balances: Record<string, unknown>[] }>('GET', '/v2/assets/account/assets', { merchantId: scene.merchantId });
        return { sameMerchant: merchantId === scene.merchantId, answer: rest, usdt: pick(assets.balances.find((b) => b.asset === 'USDT'), ['total', 'free']) };
      },
      expected: { sameMerchant: true, answer: { crypto: 'USDT', amount: '12.5000' }, usdt: { total: '12.50000000', free: '12.50000000' } },
    },
    ...(['complete', 'cancel'] as const).map(
      (action): Row => ({
        route: `S${action === 'complete' ? 8 : 9} POST /funding/{txId}/${action}`,
        scene: async (tag) => {
          await modes({ deposit: 'manual' });
          const merchantId = await merchant(`funding ${action} ${tag}`);
          const { txId } = await s.client.ok<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '300.00' });
          return { merchantId, txId };
        },
        request: (scene) => ['POST', `/funding/${scene.txId}/${action}`, action === 'cancel' ? { failReason: 'Returned' } : undefined],
        effect: async (data, scene) => ({ answer: pick(data, ['type', 'status', 'amount']), pendingFund: await pendingFund(scene.merchantId) }),
        expected: { answer: { type: 'DEPOSIT', status: action === 'complete' ? 2 : 3, amount: '300.00' }, pendingFund: action === 'complete' ? '300.00' : '0.00' },
      }),
    ),
    {
      route: 'S10 PUT /merchants/{merchantId}/limits',
      scene: async (tag) => ({ merchantId: await merchant(`limits ${tag}`) }),
      request: (scene) => ['PUT', `/merchants/${scene.merchantId}/limits`, { dayFiatLimit: '123.45', monthCryptoLimit: '0' }],
      effect: async (data, scene) => {
        const keys = ['dayFiatLimit', 'monthFiatLimit', 'monthCryptoLimit'];
        return { answer: pick(data, keys), listed: pick(await merchantRow(scene.merchantId), keys) };
      },
      expected: { answer: { dayFiatLimit: '123.45', monthFiatLimit: '100000.00', monthCryptoLimit: '0.00' }, listed: { dayFiatLimit: '123.45', monthFiatLimit: '100000.00', monthCryptoLimit: '0.00' } },
    },
    {
      route: 'S11 PUT /user/limit',
      forUser: true,
      scene: async () => {
        await s.client.ok('PUT', '/sandbox/v2/user/limit', { monthLimit: '250000.00' });
        return {};
      },
      request: () => ['PUT', '/user/limit', { monthLimit: '5000.00' }],
      effect: async (data) => {
        const read = await s.client.ok<{ userId: number; monthLimit: string }>('GET', '/v2/user/account');
        const { userId, monthLimit } = data as { userId: number; monthLimit: string };
        return { answer: { ownUser: userId === Number(s.userId), monthLimit }, read: { ownUser: read.userId === Number(s.userId), monthLimit: read.monthLimit } };
      },
      expected: { answer: { ownUser: true, monthLimit: '5000.00' }, read: { ownUser: true, monthLimit: '5000.00' } },
    },
    placeRow('S12', 'fiat_to_crypto', (clientId) => f2c(clientId), { orderType: 'fiat_to_crypto', orderStatus: 30, fiatAmount: '1000.00', cryptoAmount: '51.8586', orderPrice: '19.2639' }),
    placeRow('S13', 'crypto_to_fiat', (clientId) => c2f(clientId, 70), { orderType: 'crypto_to_fiat', orderStatus: 30, cryptoAmount: '10.0000', fiatAmount: '190.54', orderPrice: '19.0542' }),
    placeRow('S14', 'fiat_to_fiat', (clientId) => globalPaymentParams(trade, wire, clientId), { orderType: 'fiat_to_fiat', orderStatus: 30, onRampFiatAmount: '20000.00', offRampFiatAmount: '1037.08', orderPrice: '0.051857' }),
    {
      route: 'S15 POST /orders/{orderId}/review',
      scene: async (tag) => {
        await modes({ orderReview: 'manual' });
        return { orderId: await created('/v2/order/fiat_to_crypto', f2c(`review-${tag}`)) };
      },
      request: (scene) => ['POST', `/orders/${scene.orderId}/review`, { decision: 'reject' }],
      effect: async (data, scene) => ({ answer: pick(data, ['orderStatus', 'failCode', 'failReason']), read: await orderState(scene.orderId) }),
      expected: { answer: { orderStatus: 70, failCode: -7003, failReason: 'ORDER_REVIEW_REJECTION' }, read: { orderStatus: 70, failCode: -7003, failReason: 'ORDER_REVIEW_REJECTION' } },
    },
    {
      route: 'S16 POST /orders/{orderId}/pay',
      scene: async (tag) => {
        await modes();
        return { orderId: await created('/v2/order/fiat_to_crypto', f2c(`pay-${tag}`)), traceNumber: `SPEI-${tag}` };
      },
      request: (scene) => ['POST', `/orders/${scene.orderId}/pay`, { traceNumber: scene.traceNumber }],
      effect: async (data, scene) => {
        const { orderId, ...rest } = data as { orderId: string };
        const detail = await orderDetail(s.client, scene.orderId);
        return { sameOrder: orderId === String(scene.orderId), answer: rest, read: { orderStatus: detail.orderStatus, sameTrace: detail.traceNumber === scene.traceNumber } };
      },
      expected: { sameOrder: true, answer: { result: 'ORDER_PAID', txId: 0 }, read: { orderStatus: 60, sameTrace: true } },
    },
    {
      route: 'S17 POST /orders/{orderId}/payout',
      scene: async (tag) => {
        await modes({ payout: 'manual' });
        return { orderId: await created('/v2/order/crypto_to_fiat', c2f(`payout-${tag}`, spei)) };
      },
      request: (scene) => ['POST', `/orders/${scene.orderId}/payout`, { result: 'fail', failCode: -7000 }],
      effect: async (data, scene) => ({ answer: pick(data, ['orderStatus', 'failCode', 'failReason']), read: await orderState(scene.orderId) }),
      expected: { answer: { orderStatus: 70, failCode: -7000, failReason: 'BANK_ORDER_CREATE_FAILED' }, read: { orderStatus: 70, failCode: -7000, failReason: 'BANK_ORDER_CREATE_FAILED' } },
    },
    {
      route: 'S18 POST /orders/{orderId}/expire',
      scene: async (tag) => {
        await modes();
        return { orderId: await created('/sandbox/v2/orders/fiat_to_crypto', f2c(`expire-${tag}`)) };
      },
      request: (scene) => ['POST', `/orders/${scene.orderId}/expire`],
      effect: async (data, scene) => ({ answer: pick(data, ['orderStatus', 'failCode', 'failReason']), read: await orderState(scene.orderId) }),
      expected: { answer: { orderStatus: 70, failCode: -7002, failReason: 'ORDER_TIMEOUT' }, read: { orderStatus: 70, failCode: -7002, failReason: 'ORDER_TIMEOUT' } },
    },
    {
      route: 'S19 POST /orders/{orderId}/release',
      scene: async (tag) => {
        await modes();
        const orderId = await created('/v2/order/crypto_to_fiat', c2f(`release-${tag}`, spei));
        expect((await orderState(orderId)).orderStatus).toBe(50);
        return { orderId };
      },
      request: (scene) => ['POST', `/orders/${scene.orderId}/release`],
      effect: async (data, scene) => ({ answer: pick(data, ['orderStatus', 'failCode']), read: pick(await orderState(scene.orderId), ['orderStatus', 'failCode']) }),
      expected: { answer: { orderStatus: 60, failCode: 0 }, read: { orderStatus: 60, failCode: 0 } },
    },
    {
      route: 'S20 POST /quotes/{quoteId}/expire',
      scene: async () => {
        const { quoteId } = await s.client.ok<{ quoteId: string }>('GET', '/v2/user/crypto-quote', { country: 'Mexico', from: 'MXN', to: 'USDT', amount: '1000.00', createQuoteId: true });
        return { quoteId };
      },
      request: (scene) => ['POST', `/quotes/${scene.quoteId}/expire`],
      effect: async (data, scene) => {
        const { quoteId, ...rest } = data as { quoteId: string };
        const use = await s.client.call('POST', '/v2/order/fiat_to_crypto', { ...f2c(''), quoteId: scene.quoteId });
        return { sameQuote: quoteId === scene.quoteId, answer: rest, use: [use.status, use.code] };
      },
      expected: { sameQuote: true, answer: { status: 'EXPIRED' }, use: [400, -5200] },
    },
    {
      route: 'S21 PUT /prices',
      forUser: true,
      scene: async () => {
        await s.client.ok('DELETE', '/sandbox/v2/prices', { from: 'USDT', to: 'MXN' });
        return {};
      },
      request: () => ['PUT', '/prices', { from: 'USDT', to: 'MXN', price: '19.2' }],
      effect: async (data) => ({ answer: data, quote: await sellQuote() }),
      expected: { answer: { from: 'USDT', to: 'MXN', price: '19.2000' }, quote: '19.2000' },
    },
    {
      route: 'S22 DELETE /prices',
      forUser: true,
      scene: async () => {
        await s.client.ok('PUT', '/sandbox/v2/prices', { from: 'USDT', to: 'MXN', price: '19.2' });
        return {};
      },
      request: () => ['DELETE', '/prices', { from: 'USDT', to: 'MXN' }],
      effect: async (data) => ({ answer: data, quote: await sellQuote() }),
      expected: { answer: true, quote: '19.0542' },
    },
  ];

  beforeAll(async () => {
    s = await paymentsStory();
    await exampleBooks(s.op);
    trade = await onboardedMerchant(s.client, 'Trade MX', ['MXN', 'USD']);
    await s.client.ok('POST', '/sandbox/v2/crypto-deposits', { merchantId: trade, crypto: 'USDT', amount: '1000' });
    spei = (await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId: trade, paymentId: 58, country: 'Mexico', fiat: 'MXN', fieldJson: SPEI_BENEFICIARY })).id;
    wire = (await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId: trade, paymentId: 83, country: 'United States', fiat: 'USD', realName: 'John Smith', fieldJson: WIRE_BENEFICIARY })).id;
  });
  afterAll(async () => s.t.stop());

  it.each(ROWS.map((row) => [row.route, row] as const))('when %s is called with the merchant token and with the operator token, then both have the same effect on the user', async (_route, row) => {
    const effects: Partial<Record<Path, unknown>> = {};
    for (const path of ['token', 'operator'] as const) {
      const scene = await row.scene(path);
      const [method, route, body] = row.request(scene);
      const send = (): Promise<Envelope> => call(path, method, route, body, row.forUser === true);
      const answer = await send();
      effects[path] = { code: answer.code, detail: answer.detail, effect: answer.code === 200 ? await row.effect(answer.data, scene, send) : undefined };
    }
    const expected = { code: 200, detail: '', effect: row.expected };
    expect(effects).toEqual({ token: expected, operator: expected });
  });

  it('when the operator places an order without userId, for a user that is not a merchant user or does not exist, or naming another user\'s merchant, then it is refused and nothing is created', async () => {
    const nextOrderId = s.t.server.exchange.core.payments.state.nextOrderId;
    const plain = await s.op.user();
    const place = async (query: string, body: Body): Promise<[number, number]> => {
      const answer = await adminSandbox(s.t.url, s.t.adminToken, 'POST', `/orders/fiat_to_crypto${query}`, body);
      return [answer.status, answer.code];
    };
    expect(await place('', f2c('refused-1'))).toEqual([400, -4010]);
    expect(await place(`?userId=${plain.userId}`, f2c('refused-2'))).toEqual([403, -5033]);
    expect(await place('?userId=999999', f2c('refused-3'))).toEqual([403, -5033]);
    expect(await place(`?userId=${s.userId}`, { ...f2c('refused-4'), merchantId: Number(s.t.demo.merchantId) })).toEqual([404, -5006]);
    const demoMerchantUser = s.t.server.exchange.core.payments.state.merchants.get(Number(s.t.demo.merchantId))?.userId;
    expect(await place(`?userId=${demoMerchantUser}`, f2c('refused-5'))).toEqual([404, -5006]);
    expect(s.t.server.exchange.core.payments.state.nextOrderId).toBe(nextOrderId);
    expect((await s.client.ok<{ total: number }>('GET', '/v2/orders', { clientId: 'refused-4' })).total).toBe(0);
  });
});
