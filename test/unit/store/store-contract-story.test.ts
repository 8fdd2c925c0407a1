/**
 * Both stores over one real story (docs/deployment.md: "The same journal gives the same answers
 * on both stores"): spot trading, deposits and withdrawals, payment orders, funding records,
 * webhooks with their outbox, attempts and purge, driven through the real sequencer; the journal
 * is then applied to a fresh core batch by batch, and each batch with the rows it derived is
 * appended to a SQLite store and to a PostgreSQL store. Every history query, over its filters and
 * pages, must then give the same answer on both, down to the order of the fields.
 */

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderRequest } from '../../../src/core/payment-commands.js';
import { emptyDerivedRows, type DerivedRows, type StampedCommand } from '../../../src/core/types.js';
import type { WebhookEventType } from '../../../src/core/webhook-commands.js';
import { ExchangeCore } from '../../../src/exchange/exchange-core.js';
import type { PlaceOrderResult } from '../../../src/exchange/order-commands.js';
import { openPostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../../src/store/store.js';
import { limit, market } from '../../support/core-harness.js';
import { PaymentsCore } from '../../support/payments-core.js';
import { postgresDatabases } from '../../support/postgres.js';

const databases = postgresDatabases();

const DAY_MS = 86_400_000;
/** Batch sizes, in turn: single commands and groups, as a busy sequencer forms them. */
const BATCH_SIZES = [1, 4, 2, 9, 3, 1, 17];

interface Story {
  journal: StampedCommand[];
  userIds: number[];
  accountIds: number[];
  merchantIds: number[];
}

/** The story, through the real sequencer on an in-memory SQLite store: its journal and who took part. */
async function tellStory(): Promise<Story> {
  const h = new PaymentsCore();
  const { userId, accountId: merchantAccount } = await h.setUp();
  const acme = await h.merchant(userId, 'Acme MX');
  const bravo = await h.merchant(userId, 'Bravo MX');
  const desk = h.core.payments.state.deskAccountId;
  await h.submit({ type: 'deposit', accountId: desk, asset: 'USDT', amount: '1000000', txId: 'desk-usdt' });
  await h.submit({ type: 'setPriceOverride', userId, from: 'USDT', to: 'MXN', price: '19.0000' });

  // Spot: two traders with fees, resting orders, fills, a cancel, a market order.
  const traders: number[] = [];
  let traderUser = 0;
  for (const email of ['ana@example.com', 'ben@example.com', 'cy@example.com']) {
    const { userId: trader, accountId } = await h.submit<{ userId: number; accountId: number }>({ type: 'createUser', email, userType: 'user' });
    traderUser = trader;
    await h.submit({ type: 'setFeeRates', accountId, makerFeeRate: '0.001', takerFeeRate: '0.002' });
    await h.submit({ type: 'deposit', accountId, asset: 'USDT', amount: '250000.5', txId: `usdt-${email}` });
    await h.submit({ type: 'deposit', accountId, asset: 'BTC', amount: '3.14159265', txId: `btc-${email}` });
    await h.submit({ type: 'deposit', accountId, asset: 'ETH', amount: '40', txId: `eth-${email}` });
    traders.push(accountId);
  }
  const [ana, ben, cy] = traders;
  const resting: number[] = [];
  for (let i = 0; i < 6; i++) {
    await h.submit(limit(ana, 'BTCUSDT', 'SELL', `${30000 + i * 10}`, '0.05', { clientOrderId: `ana-s-${i}` }));
    resting.push((await h.submit<PlaceOrderResult>(limit(ben, 'BTCUSDT', 'BUY', `${29900 - i * 10}`, '0.04'))).order.orderId);
    await h.submit(limit(cy, 'ETHUSDT', 'SELL', `${2000 + i}`, '0.5'));
  }
  await h.submit(market(ben, 'BTCUSDT', 'BUY', '4000'));
  await h.submit(limit(cy, 'BTCUSDT', 'SELL', '29890', '0.1'));
  await h.submit(market(ana, 'ETHUSDT', 'BUY', '1500'));
  await h.submit({ type: 'cancelOrder', accountId: ben, orderId: resting[4] });
  await h.submit(limit(ben, 'ETHUSDT', 'BUY', '2003', '1.25', { timeInForce: 'IOC' }));

  // Withdrawals: one approved, one rejected, one left pending.
  for (const [i, approve] of [[1, true], [2, false], [3, undefined]] as const) {
    const { withdrawalId } = await h.submit<{ withdrawalId: number }>({
      type: 'withdraw', accountId: ana, asset: 'USDT', amount: `${100 * i}`, address: 'TXYZ123', addressExt: '', chainType: 'TRC20', clientOrderId: `w-${i}`,
    });
    if (approve !== undefined) await h.submit({ type: 'settleWithdrawal', withdrawalId, approve, txId: approve ? `chain-${i}` : '', reason: approve ? '' : 'refused' });
  }

  // Payments, with webhooks recording their events.
  const hook = async (eventType: WebhookEventType): Promise<string> => {
    const webhookId = createHash('sha256').update(`${eventType}:${h.now}`).digest('hex').slice(0, 32);
    await h.submit({ type: 'registerWebhook', userId, webhookId, eventType, url: `https://merchant.example/${eventType}` });
    return webhookId;
  };
  const orderHook = await hook('ORDER_WEBHOOK');
  await hook('FUNDING_WEBHOOK');
  const onRamp = async (merchantId: number, fiatAmount: string, clientId: string): Promise<number> => {
    const order: OrderRequest = { kind: 'fiat_to_crypto', merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount, paymentId: 58 };
    return (await h.submit<{ orderId: number }>({ type: 'createPaymentOrder', userId, onBehalf: false, clientId, remark: '', quoteId: '', order })).orderId;
  };
  const arrival = (merchantId: number, amount: string, reference: string, trace: string) =>
    h.submit({ type: 'bankArrival', userId, merchantId, fiat: 'MXN', amount, reference, traceNumber: trace, payerName: 'CENTAURE SA DE CV', payerAccount: '684180168000000000', cardNo: '', taxId: 'CCN2203099WA', description: 'Pago "marzo" \\ ñ' });
  const paid: number[] = [];
  for (let i = 0; i < 7; i++) {
    const merchantId = i % 2 === 0 ? acme : bravo;
    const orderId = await onRamp(merchantId, `${500 + i}.00`, i % 3 === 0 ? `client-${i}` : '');
    if (i < 4) {
      await arrival(merchantId, `${500 + i}.00`, String(orderId), `pay-${orderId}`);
      paid.push(orderId);
    }
    await arrival(merchantId, `${100 + i}.25`, '', `dep-${i}`);
  }
  await h.submit({ type: 'updateWebhook', userId, webhookId: orderHook, status: 20 });
  await onRamp(acme, '999.00', 'while-disabled');
  await h.submit({ type: 'updateWebhook', userId, webhookId: orderHook, status: 10 });

  // Deliveries: every second event fails once then is delivered, the others delivered at once.
  const deliver = async (): Promise<void> => {
    const sendable = [...h.core.webhooks.sendable()].map((s) => s.event.eventId).sort();
    for (const [i, eventId] of sendable.entries()) {
      const url = 'https://merchant.example/hook';
      if (i % 2 === 0) await h.submit({ type: 'webhookAttempt', eventId, attempt: 1, url, time: h.now, httpStatus: 503, durationMs: 12, error: 'HTTP 503' });
      await h.submit({ type: 'webhookAttempt', eventId, attempt: i % 2 === 0 ? 2 : 1, url, time: h.now, httpStatus: 200, durationMs: 3, error: '' });
    }
  };
  await deliver();
  // Past the retention of the events ended so far: they go with their attempts; later ones stay.
  h.now += 31 * DAY_MS;
  await onRamp(bravo, '321.00', 'after-purge');
  await arrival(acme, '42.42', '', 'dep-late');
  await h.submit({ type: 'purgeWebhookEvents' });
  await deliver();
  await onRamp(acme, '177.00', 'last');

  const journal = [...h.store.readJournal(0)];
  const ledger = h.core.ledger;
  h.store.close();
  return {
    journal,
    userIds: [userId, traderUser, 9999],
    accountIds: [...new Set([0, merchantAccount, desk, ledger.feeAccountId, ...traders, 9999])].sort((a, b) => a - b),
    merchantIds: [acme, bravo, 0],
  };
}

/** The journal cut into batches, each with the rows the commands derived on a fresh core. */
function batches(journal: readonly StampedCommand[]): { commands: StampedCommand[]; rows: DerivedRows }[] {
  const core = new ExchangeCore();
  const result: { commands: StampedCommand[]; rows: DerivedRows }[] = [];
  for (let next = 0, turn = 0; next < journal.length; turn++) {
    const commands = journal.slice(next, next + BATCH_SIZES[turn % BATCH_SIZES.length]);
    const rows = emptyDerivedRows();
    for (const stamped of commands) core.apply(stamped, rows);
    result.push({ commands, rows });
    next += commands.length;
  }
  return result;
}

async function collect<T>(items: Iterable<T> | AsyncIterable<T>): Promise<T[]> {
  const list: T[] = [];
  for await (const item of items) list.push(item);
  return list;
}

/** Every subset of the optional filters, each filter from its own values: a query per combination. */
function combinations(base: Record<string, unknown>, options: Record<string, readonly unknown[]>): Record<string, unknown>[] {
  let queries = [base];
  for (const [key, values] of Object.entries(options)) {
    queries = queries.flatMap((query) => [query, ...values.map((value) => ({ ...query, [key]: value }))]);
  }
  return queries;
}

/** Each question asked of a store: a label and how to ask. */
type Question = [string, (store: Store) => Promise<unknown>];

function questions(story: Story, derived: { commands: StampedCommand[]; rows: DerivedRows }[]): Question[] {
  const all = derived.map((b) => b.rows);
  const orderIds = [...new Set(all.flatMap((r) => r.orders.map((o) => o.orderId)))];
  const orderTimes = all.flatMap((r) => r.orders.map((o) => o.time)).sort((a, b) => a - b);
  const midTime = orderTimes[Math.floor(orderTimes.length / 2)];
  const tradeIds = all.flatMap((r) => r.trades.map((t) => t.tradeId));
  const midTrade = tradeIds[Math.floor(tradeIds.length / 2)];
  const moduleRows = all.flatMap((r) => r.moduleRows);
  const eventIds = [...new Set(moduleRows.flatMap((m) => (m.kind === 'webhookEvent' ? [m.event.eventId] : [])))];
  const webhookIds = [...new Set(moduleRows.flatMap((m) => (m.kind === 'webhook' ? [m.webhook.webhookId] : [])))];
  const txIds = [...new Set(moduleRows.flatMap((m) => (m.kind === 'fundingRecord' ? [m.record.txId] : [])))];
  const paymentOrders = [...new Set(moduleRows.flatMap((m) => (m.kind === 'paymentOrder' ? [m.order.order.orderId] : [])))];
  const lastTs = story.journal[story.journal.length - 1].ts;
  const q: Question[] = [];
  const ask = (label: string, how: (store: Store) => Promise<unknown> | unknown): void => {
    q.push([label, async (store) => how(store)]);
  };

  for (const accountId of story.accountIds) {
    for (const orderId of [...orderIds, 9999]) ask(`getOrder ${accountId} ${orderId}`, (s) => s.getOrder(accountId, orderId));
    for (const final of [true, false]) {
      for (const query of combinations({ accountId, final }, { symbol: ['BTCUSDT'], side: ['SELL'], beforeOrderId: [orderIds[5]], startTime: [midTime], endTime: [midTime + 5] })) {
        for (const limit of [1, 3, 500]) ask(`listOrders ${JSON.stringify({ ...query, limit })}`, (s) => s.listOrders({ ...(query as { accountId: number; final: boolean }), limit }));
      }
    }
    for (const query of combinations({ accountId }, { symbol: ['BTCUSDT'], orderId: [orderIds[0]], startTime: [midTime], endTime: [lastTs], fromId: [midTrade], toId: [tradeIds[1]] })) {
      for (const limit of [1, 4, 1000]) ask(`listTrades ${JSON.stringify({ ...query, limit })}`, (s) => s.listTrades({ ...(query as { accountId: number }), limit }));
    }
    for (const query of combinations({ accountId }, { asset: ['USDT', 'MXN'], flowType: [1], fromFlowId: [40], endFlowId: [10], startTime: [midTime], endTime: [lastTs] })) {
      for (const limit of [2, 100]) ask(`listFlows ${JSON.stringify({ ...query, limit })}`, (s) => s.listFlows({ ...(query as { accountId: number }), limit }));
    }
    for (const query of combinations({ accountId }, { asset: ['USDT'], fromId: [1], startTime: [midTime], endTime: [lastTs] })) {
      for (const limit of [1, 500]) {
        ask(`listDeposits ${JSON.stringify({ ...query, limit })}`, (s) => s.listDeposits({ ...(query as { accountId: number }), limit }));
        ask(`listWithdrawals ${JSON.stringify({ ...query, limit })}`, (s) => s.listWithdrawals({ ...(query as { accountId: number }), limit }));
      }
    }
    for (const key of [{ withdrawalId: 1 }, { withdrawalId: 2 }, { clientOrderId: 'w-3' }, { withdrawalId: 3, clientOrderId: 'w-3' }, { withdrawalId: 1, clientOrderId: 'w-2' }]) {
      ask(`getWithdrawal ${accountId} ${JSON.stringify(key)}`, (s) => s.getWithdrawal(accountId, key));
    }
  }

  for (const userId of story.userIds) {
    for (const query of combinations({ userId }, { merchantId: story.merchantIds.slice(0, 2), fiat: ['MXN'], type: ['DEPOSIT', 'BUY_CRYPTO'], status: [2], clientId: ['client-3'], startTime: [midTime], endTime: [lastTs - DAY_MS] })) {
      for (const [offset, limit] of [[0, 100], [3, 4], [50, 10]]) {
        ask(`listFundingRecords ${JSON.stringify({ ...query, offset, limit })}`, (s) => s.listFundingRecords({ ...(query as { userId: number }), offset, limit }));
      }
    }
    for (const query of combinations({ userId }, { kind: ['fiat_to_crypto'], status: [40, 60], clientId: ['client-0'], merchantId: story.merchantIds, startTime: [midTime], endTime: [lastTs - DAY_MS] })) {
      for (const [offset, limit] of [[0, 100], [1, 3]]) {
        ask(`listPaymentOrders ${JSON.stringify({ ...query, offset, limit })}`, (s) => s.listPaymentOrders({ ...(query as { userId: number }), offset, limit }));
      }
    }
    for (const orderId of [...paymentOrders, 9999]) ask(`getPaymentOrder ${userId} ${orderId}`, (s) => s.getPaymentOrder(userId, orderId));
    for (const statuses of [[10], [10, 20], [20], []]) ask(`listWebhooks ${userId} ${statuses}`, (s) => s.listWebhooks(userId, statuses));
  }
  for (const txId of [...txIds, 9999]) ask(`getFundingRecord ${txId}`, (s) => s.getFundingRecord(txId));

  for (const query of combinations({}, { userId: story.userIds, webhookId: webhookIds.slice(0, 1), eventType: ['FUNDING_WEBHOOK'], status: ['PENDING', 'DELIVERED'], objectId: [String(paymentOrders[0])], startTime: [midTime], changedSince: [midTime] })) {
    for (const [offset, limit] of [[0, 1000], [2, 3]]) {
      ask(`listWebhookEvents ${JSON.stringify({ ...query, offset, limit })}`, (s) => s.listWebhookEvents({ ...query, offset, limit }));
    }
  }
  for (const eventId of [...eventIds, 'missing']) {
    ask(`getWebhookEvent ${eventId}`, (s) => s.getWebhookEvent(eventId));
    ask(`webhookPayload ${eventId}`, (s) => s.webhookPayload(eventId));
  }

  ask('flowSums', (s) => s.flowSums());
  ask('readTrades 0 3', (s) => collect(s.readTrades(0, 3)));
  ask(`readTrades ${midTrade}`, (s) => collect(s.readTrades(midTrade)));
  ask('readJournal 0 7', (s) => collect(s.readJournal(0, 7)));
  ask('loadLatestSnapshot', (s) => s.loadLatestSnapshot());
  return q;
}

describe('SQLite and PostgreSQL stores over one story', () => {
  let story: Story;
  let derived: { commands: StampedCommand[]; rows: DerivedRows }[];
  let dir: string;
  let sqlite: Store;
  let postgres: Store;

  beforeAll(async () => {
    story = await tellStory();
    derived = batches(story.journal);
    dir = mkdtempSync(join(tmpdir(), 'bourse-contract-story-'));
    sqlite = openSqliteStore({ path: join(dir, 'bourse.db'), synchronous: 'NORMAL' });
    postgres = await openPostgresStore({ url: await databases.url() });
    for (const { commands, rows } of derived) {
      await sqlite.appendBatch(commands, rows);
      await postgres.appendBatch(commands, rows);
    }
    const snapshot = { seq: story.journal.length - 3, hash: 'h', state: '{"story":true}' };
    await sqlite.saveSnapshot(snapshot);
    await postgres.saveSnapshot(snapshot);
  });
  afterAll(async () => {
    await postgres?.close();
    await sqlite?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('when the story is written, then it holds every row kind the stores keep', () => {
    const count = (pick: (rows: DerivedRows) => number): number => derived.reduce((sum, b) => sum + pick(b.rows), 0);
    const kinds = new Set(derived.flatMap((b) => b.rows.moduleRows.map((m) => m.kind)));

    expect([count((r) => r.orders.length), count((r) => r.trades.length), count((r) => r.flows.length)].every((n) => n > 10)).toBe(true);
    expect([count((r) => r.deposits.length), count((r) => r.withdrawals.length)].every((n) => n > 3)).toBe(true);
    expect([...kinds].sort()).toEqual(['fundingRecord', 'paymentOrder', 'webhook', 'webhookAttempt', 'webhookEvent', 'webhookEventsPurge']);
  });

  it('when both stores are asked the same questions, then every answer is the same, field order included', async () => {
    const asked = questions(story, derived);
    const differ: string[] = [];
    for (const [label, how] of asked) {
      const [fromSqlite, fromPostgres] = [await how(sqlite), await how(postgres)];
      if (JSON.stringify(fromPostgres) !== JSON.stringify(fromSqlite)) {
        expect({ label, answer: fromPostgres }).toEqual({ label, answer: fromSqlite });
        differ.push(label);
      }
    }

    expect(differ).toEqual([]);
    expect(asked.length).toBeGreaterThan(5000);
  });

  it('when the journals are read back, then both give the story\'s journal', async () => {
    expect(await collect(postgres.readJournal(0, 50))).toEqual(story.journal);
    expect(await collect(sqlite.readJournal(0, 50))).toEqual(story.journal);
    expect([postgres.lastSeq(), postgres.lastTs()]).toEqual([sqlite.lastSeq(), sqlite.lastTs()]);
  });
});
