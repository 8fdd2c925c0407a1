/**
 * The transition table of payment orders (src/exchange/payments/order-transitions.ts): every move
 * it holds is made by real commands through the core and the sequencer, nothing outside it ever
 * happens, its graph is the one of docs/merchant-payments.md "Order statuses"
 * (test/support/order-statuses.ts), and a move it does not hold throws without changing anything.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { OrderRequest } from '../../../src/core/payment-commands.js';
import { emptyDerivedRows, type Command } from '../../../src/core/types.js';
import type { WebhookEventType } from '../../../src/core/webhook-commands.js';
import { move, railOf, TRANSITIONS, type Rail } from '../../../src/exchange/payments/order-transitions.js';
import type { PaymentsContext } from '../../../src/exchange/payments/payments-context.js';
import { ORDER_KINDS, type OrderKind, type PaymentOrder } from '../../../src/payments/orders.js';
import { ORDER_EDGES } from '../../support/order-statuses.js';
import { PaymentsCore } from '../../support/payments-core.js';

const FILE = { name: 'id.pdf', size: 10, sha256: '0'.repeat(64), contentType: 'application/pdf' };

/** `kind rail from→to`: one move as the table names it, or as an order was seen to make it. */
const moveKey = (kind: OrderKind, rail: Rail, from: number | 'new', to: number): string => `${kind} ${rail} ${from}→${to}`;

/** Every move of the table, with the rails it applies to. */
function tableMoves(): { kind: OrderKind; rails: Rail[]; from: number | 'new'; to: number }[] {
  return ORDER_KINDS.flatMap((kind) =>
    (TRANSITIONS[kind] as readonly { from: readonly (number | 'new')[]; to: number; rail?: Rail }[]).flatMap((t) =>
      t.from.map((from) => ({ kind, rails: t.rail === undefined ? (['bank', 'fund'] as Rail[]) : [t.rail], from, to: t.to })),
    ),
  );
}

/** A merchant user with MXN and USD accounts and beneficiaries, funds everywhere, fixed prices, manual decisions and webhooks on every order. */
async function world() {
  const h = new PaymentsCore();
  const { userId } = await h.setUp();
  const merchantId = await h.merchant(userId, 'Acme MX', ['MXN', 'USD']);
  const desk = h.core.payments.state.deskAccountId;
  const merchantAccount = h.core.payments.state.merchants.get(merchantId)?.accountId ?? 0;
  const commands: Command[] = [
    { type: 'setSandboxModes', userId, modes: { orderReview: 'manual', payout: 'manual' } },
    { type: 'deposit', accountId: desk, asset: 'USDT', amount: '1000000', txId: 'desk-usdt' },
    { type: 'deposit', accountId: desk, asset: 'MXN', amount: '10000000', txId: 'desk-mxn' },
    { type: 'deposit', accountId: desk, asset: 'USD', amount: '1000000', txId: 'desk-usd' },
    { type: 'deposit', accountId: merchantAccount, asset: 'USDT', amount: '10000', txId: 'm-usdt' },
    { type: 'setPriceOverride', userId, from: 'USDT', to: 'MXN', price: '19.0000' },
    { type: 'setPriceOverride', userId, from: 'MXN', to: 'USD', price: '0.0500' },
    { type: 'bankArrival', userId, merchantId, fiat: 'MXN', amount: '100000.00', reference: '', traceNumber: 'fund-mxn', payerName: '', payerAccount: '', cardNo: '', taxId: '', description: '' },
  ];
  for (const command of commands) await h.submit(command);
  for (const eventType of ['ORDER_WEBHOOK', 'GLOBAL_PAYMENT_WEBHOOK'] as WebhookEventType[]) {
    const webhookId = createHash('sha256').update(eventType).digest('hex').slice(0, 32);
    await h.submit({ type: 'registerWebhook', userId, webhookId, eventType, url: 'https://merchant.example/bourse' });
  }
  const beneficiary = async (fiat: 'MXN' | 'USD'): Promise<number> => {
    const added = await h.submit<{ userPaymentId: number }>(
      fiat === 'MXN'
        ? { type: 'addBeneficiary', userId, merchantId, paymentId: 58, country: 'Mexico', fiat, realName: 'Juan Perez', fieldList: {}, accountKey: '012180000000000001', remark: '' }
        : { type: 'addBeneficiary', userId, merchantId, paymentId: 83, country: 'United States', fiat, realName: 'Juan Perez', fieldList: {}, accountKey: '026009593:000123451', remark: '' },
    );
    return added.userPaymentId;
  };
  const mxnBeneficiary = await beneficiary('MXN');
  const usdBeneficiary = await beneficiary('USD');
  const requests: Record<string, OrderRequest> = {
    f2c: { kind: 'fiat_to_crypto', merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '500.00', paymentId: 58 },
    f2cFund: { kind: 'fiat_to_crypto', merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '500.00', paymentId: 70 },
    c2f: { kind: 'crypto_to_fiat', merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '50.0000', userPaymentId: mxnBeneficiary },
    c2fFund: { kind: 'crypto_to_fiat', merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '50.0000', userPaymentId: 70 },
    f2f: { kind: 'fiat_to_fiat', onRampMerchantId: merchantId, onRampCountry: 'Mexico', onRampFiat: 'MXN', onRampFiatAmount: '2000.00', onRampPaymentId: 58, offRampCountry: 'United States', offRampFiat: 'USD', offRampPaymentId: usdBeneficiary },
  };
  let traces = 0;
  const order = (orderId: number): PaymentOrder => h.core.payments.state.orders.get(orderId) ?? expect.fail(`no order ${orderId}`);
  const w = {
    h,
    userId,
    async create(request: keyof typeof requests, onBehalf = false): Promise<number> {
      return (await h.submit<{ orderId: number }>({ type: 'createPaymentOrder', userId, onBehalf, clientId: '', remark: '', quoteId: '', order: requests[request] })).orderId;
    },
    order,
    review: (orderId: number, decision: 'approve' | 'rfi' | 'documents' | 'reject') => h.submit({ type: 'reviewOrder', userId: 0, orderId, decision }),
    upload: (orderId: number) => h.submit({ type: 'attachDocuments', userId, orderId, files: [FILE] }),
    confirm: (orderId: number) => h.submit({ type: 'confirmOrder', userId, orderId, kind: order(orderId).kind, direction: 'on_ramp' }),
    expire: (orderId: number) => h.submit({ type: 'expireOrder', userId: 0, orderId }),
    release: (orderId: number) => h.submit({ type: 'releaseOrder', userId: 0, orderId }),
    payout: (orderId: number, result: 'success' | 'fail') => h.submit({ type: 'orderPayout', userId: 0, orderId, result, ...(result === 'fail' ? { failCode: -7001 } : {}) }),
    /** The exact pay-in, referencing the order. */
    async pay(orderId: number): Promise<void> {
      const o = order(orderId);
      const due = o.onRamp?.amount ?? o.fiatAmount;
      const amount = `${due.units / 100n}.${String(due.units % 100n).padStart(2, '0')}`;
      const answer = await h.submit<{ result: string }>({ type: 'bankArrival', userId, merchantId, fiat: o.onRamp?.fiat ?? o.fiat, amount, reference: String(orderId), traceNumber: `pay-${++traces}`, payerName: '', payerAccount: '', cardNo: '', taxId: '', description: '' });
      expect(answer.result).toBe('ORDER_PAID');
    },
    /** Every move the orders made, read from the outbox: each status passed is one event. */
    seenMoves(): Set<string> {
      const events = h.store.listWebhookEvents({ userId, offset: 0, limit: 10_000 }).rows.filter((e) => e.eventType !== 'FUNDING_WEBHOOK');
      const byOrder = new Map<number, number[]>();
      for (const e of events.sort((a, b) => a.eventNo - b.eventNo)) {
        const statuses = byOrder.get(Number(e.objectId)) ?? [];
        statuses.push(Number(e.objectStatus));
        byOrder.set(Number(e.objectId), statuses);
      }
      const seen = new Set<string>();
      for (const [orderId, statuses] of byOrder) {
        const o = order(orderId);
        statuses.forEach((status, i) => seen.add(moveKey(o.kind, railOf(o), i === 0 ? 'new' : statuses[i - 1], status)));
      }
      return seen;
    },
  };
  return w;
}

/** Stories that between them make every move of the table, on the rails it names. */
async function everyMove(w: Awaited<ReturnType<typeof world>>): Promise<void> {
  for (const kind of ['f2c', 'c2f', 'f2f'] as const) {
    // The review prefix: 10 → 11 → 12 → 31 → paying; 12 → 11, 12 → approve, 12 → reject; 10 → reject; 30 → confirm; expiries from 30, 11, 31.
    let id = await w.create(kind);
    await w.review(id, 'rfi');
    await w.upload(id);
    await w.review(id, 'rfi');
    await w.upload(id);
    await w.review(id, 'documents');
    await w.upload(id);
    id = await w.create(kind);
    await w.review(id, 'rfi');
    await w.upload(id);
    await w.review(id, 'approve');
    id = await w.create(kind);
    await w.review(id, 'rfi');
    await w.upload(id);
    await w.review(id, 'reject');
    await w.review(await w.create(kind), 'reject');
    await w.review(await w.create(kind), 'approve');
    await w.confirm(await w.create(kind, true));
    await w.expire(await w.create(kind, true));
    id = await w.create(kind);
    await w.review(id, 'rfi');
    await w.expire(id);
    id = await w.create(kind);
    await w.review(id, 'documents');
    await w.expire(id);
  }
  // f2c: the bank pay-in, the payment window, the pending fund paying at once.
  let id = await w.create('f2c');
  await w.review(id, 'approve');
  await w.pay(id);
  id = await w.create('f2c');
  await w.review(id, 'approve');
  await w.expire(id);
  await w.review(await w.create('f2cFund'), 'approve');
  // c2f: the payout's outcomes, release and confirm at 50, the pending fund credited at once.
  for (const after of ['release', 'confirm', 'fail'] as const) {
    id = await w.create('c2f');
    await w.review(id, 'approve');
    if (after === 'fail') {
      await w.payout(id, 'fail');
      continue;
    }
    await w.payout(id, 'success');
    await (after === 'release' ? w.release(id) : w.confirm(id));
  }
  await w.review(await w.create('c2fFund'), 'approve');
  // f2f: the pay-in, the payment window, the payout's outcomes.
  for (const after of ['success', 'fail', 'expire'] as const) {
    id = await w.create('f2f');
    await w.review(id, 'approve');
    if (after === 'expire') {
      await w.expire(id);
      continue;
    }
    await w.pay(id);
    await w.payout(id, after);
  }
}

describe('payment order transitions', () => {
  it('when stories of every kind run, then every move of the table is made and no move outside it', async () => {
    const w = await world();
    await everyMove(w);
    const seen = w.seenMoves();
    const table = tableMoves();
    const legal = new Set(table.flatMap((m) => m.rails.map((rail) => moveKey(m.kind, rail, m.from, m.to))));
    expect([...seen].filter((key) => !legal.has(key))).toEqual([]);
    const missed = table.filter((m) => !m.rails.some((rail) => seen.has(moveKey(m.kind, rail, m.from, m.to))));
    expect(missed).toEqual([]);
  });

  it('when the table is read as a graph, then it is the graph of the order statuses, and every status is reached from creation', () => {
    for (const kind of ORDER_KINDS) {
      const edges: Record<number, number[]> = {};
      const reached = new Set<number | 'new'>(['new']);
      for (const m of tableMoves().filter((t) => t.kind === kind)) {
        if (m.from !== 'new') (edges[m.from] ??= []).push(m.to);
        reached.add(m.to);
      }
      const sorted = (graph: Readonly<Record<number, readonly number[]>>): Record<string, number[]> =>
        Object.fromEntries(Object.entries(graph).map(([from, tos]) => [from, [...new Set(tos)].sort((a, b) => a - b)]));
      expect(sorted(edges)).toEqual(sorted(ORDER_EDGES[kind]));
      // Every `from` a move starts at is a status some move reaches.
      for (const m of tableMoves().filter((t) => t.kind === kind)) expect(reached.has(m.from)).toBe(true);
    }
  });

  it('when a move the table does not hold is asked, then it throws and the order, the rows and the outbox stay as they were', async () => {
    const w = await world();
    const id = await w.create('f2cFund');
    await w.review(id, 'approve');
    const order = w.order(id);
    expect(order.status).toBe(60);
    const core = w.h.core;
    const before = structuredClone(order);
    const eventsBefore = core.webhooks.eventsMade;
    const ctx = { seq: core.lastSeq + 1, ts: w.h.now + 1, rows: emptyDerivedRows(), recordRows: true, recordFlows: true, touched: new Map() };
    const p: PaymentsContext = {
      state: core.payments.state,
      ledger: core.ledger,
      ports: { keys: core.catalogue, books: core.spot, spotLocks: core.spot, outbox: core.webhooks },
      ctx,
      changedOrders: new Set(),
    };
    expect(() => move(p, order, 'approve')).toThrow(`payment order ${id} (fiat_to_crypto, fund) has no move from 60 on approve`);
    expect(order).toEqual(before);
    expect(ctx.rows.moduleRows).toEqual([]);
    expect(core.webhooks.eventsMade).toBe(eventsBefore);
    // A move of the other rail is not this order's either: the pending fund is never paid by a bank arrival.
    const pending = w.order(await w.create('f2cFund'));
    expect(() => move(p, pending, 'payIn', { traceNumber: 'x' })).toThrow('has no move from 10 on payIn');
    expect(pending.status).toBe(10);
  });

  it('when one command moves an order through several statuses, then it writes the order once, as it leaves it, and one event per status', async () => {
    const w = await world();
    const id = await w.create('f2cFund');
    const core = w.h.core;
    const rows = emptyDerivedRows();
    core.apply({ seq: core.lastSeq + 1, ts: w.h.now + 1, command: { type: 'reviewOrder', userId: 0, orderId: id, decision: 'approve' } }, rows);
    const orderRows = rows.moduleRows.flatMap((row) => (row.kind === 'paymentOrder' ? [row.order.order] : []));
    expect(orderRows.map((o) => [o.orderId, o.status])).toEqual([[id, 60]]);
    const statuses = rows.moduleRows.flatMap((row) => (row.kind === 'webhookEvent' && row.event.objectId === String(id) ? [row.event.objectStatus] : []));
    expect(statuses).toEqual(['40', '50', '60']);
  });

  it('when an order is created, then the command writes its row once', async () => {
    const w = await world();
    const core = w.h.core;
    const rows = emptyDerivedRows();
    const order: OrderRequest = { kind: 'fiat_to_crypto', country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '500.00', paymentId: 58 };
    core.apply({ seq: core.lastSeq + 1, ts: w.h.now + 1, command: { type: 'createPaymentOrder', userId: w.userId, onBehalf: false, clientId: '', remark: '', quoteId: '', order } }, rows);
    const orderRows = rows.moduleRows.filter((row) => row.kind === 'paymentOrder');
    expect(orderRows).toHaveLength(1);
  });
});
