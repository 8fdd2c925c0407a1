/**
 * A fixed battery of History questions (src/store/store.ts) for the rows a run wrote: for every
 * account and user it knows (and one it does not), each list query alone and with each filter,
 * paged through to its end the way a client pages (`beforeOrderId`, `fromId`, `toId`,
 * `fromFlowId`, `endFlowId`, `offset`), and each single-object lookup, right and wrong owner
 * alike. Two stores holding the same journal must give every answer alike, rows and order.
 */
import type { DerivedRows } from '../../src/core/types.js';
import type { Awaitable, Store } from '../../src/store/store.js';

/** A question: how to ask it of a store. Its label names the query exactly. */
export type Ask = (store: Store) => Promise<unknown>;

/** Rows per page: small, so that most lists take several pages. */
const PAGE = 4;
/** A bound on any walk: a store that pages in circles still ends. */
const MAX_PAGES = 1000;
/** An id nothing has. */
const UNKNOWN = 999_999;

/** The pages of a list query: the first for `query`, each next for the query `next` makes of the page before, up to a short page. */
function walk<Q extends { limit: number }, T>(query: Q, list: (store: Store, query: Q) => Awaitable<T[]>, next: (query: Q, page: T[]) => Q): Ask {
  return async (store) => {
    const pages: T[][] = [];
    for (let q = query; pages.length < MAX_PAGES; q = next(q, pages[pages.length - 1])) {
      const page = await list(store, q);
      pages.push(page);
      if (page.length < q.limit) break;
    }
    return pages;
  };
}

/** The pages of an offset query (area B), up to a short page. */
function walkOffsets<Q extends { offset: number; limit: number }, T>(query: Q, list: (store: Store, query: Q) => Awaitable<{ total: number; rows: T[] }>): Ask {
  return async (store) => {
    const pages: { total: number; rows: T[] }[] = [];
    for (let q = query; pages.length < MAX_PAGES; q = { ...q, offset: q.offset + q.limit }) {
      const page = await list(store, q);
      pages.push(page);
      if (page.rows.length < q.limit) break;
    }
    return pages;
  };
}

async function collect<T>(items: Iterable<T> | AsyncIterable<T>): Promise<T[]> {
  const list: T[] = [];
  for await (const item of items) list.push(item);
  return list;
}

const sorted = <T extends string | number>(values: Iterable<T>): T[] => [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** Per account, the values `value` takes in its rows, and one it does not; all of them for an account with none. */
function among<R extends { accountId: number }, T extends string | number>(rows: readonly R[], value: (row: R) => T): (accountId: number) => T[] {
  const all = sorted(rows.map(value));
  const byAccount = new Map<number, T[]>();
  for (const row of rows) {
    const values = byAccount.get(row.accountId);
    if (values === undefined) byAccount.set(row.accountId, [value(row)]);
    else values.push(value(row));
  }
  return (accountId) => {
    const own = byAccount.get(accountId);
    if (own === undefined) return all;
    const values = sorted(own);
    const other = all.find((v) => !values.includes(v));
    return other === undefined ? values : [...values, other];
  };
}

/** What the battery asks about: the rows a run derived, the accounts and users that exist, and the times the journal spans. */
export interface BatteryScope {
  rows: DerivedRows;
  accountIds: Iterable<number>;
  userIds: Iterable<number>;
  firstTs: number;
  lastTs: number;
}

/** The questions, by label. */
export function historyBattery({ rows, accountIds, userIds, firstTs, lastTs }: BatteryScope): Map<string, Ask> {
  const questions = new Map<string, Ask>();
  const ask = (label: string, how: Ask): void => {
    questions.set(label, how);
  };
  const midTs = Math.floor((firstTs + lastTs) / 2);
  const windows = [{ startTime: midTs }, { endTime: midTs }, { startTime: firstTs + 1, endTime: midTs }];
  // Per account, the symbols, assets and flow types it has rows of, and one it has none of; every one for an account it does not know.
  const symbolsOf = among(rows.orders, (o) => o.symbol);
  const assetsOf = among(rows.flows, (f) => f.asset);
  const flowTypesOf = among(rows.flows, (f) => f.flowType);
  const owners = new Map(rows.orders.map((o) => [o.orderId, o.accountId]));
  const tradedOrders = new Map(rows.trades.map((t) => [t.accountId, t.orderId]));
  const tradeIds = sorted(rows.trades.map((t) => t.tradeId));
  const withdrawals = [...new Map(rows.withdrawals.map((w) => [w.withdrawalId, w])).values()];
  const records = rows.moduleRows.flatMap((m) => (m.kind === 'fundingRecord' ? [m.record] : []));
  const paymentOrders = sorted(rows.moduleRows.flatMap((m) => (m.kind === 'paymentOrder' ? [m.order.order.orderId] : [])));
  const events = sorted(rows.moduleRows.flatMap((m) => (m.kind === 'webhookEvent' ? [m.event.eventId] : [])));

  for (const accountId of [...sorted(accountIds), UNKNOWN]) {
    for (const final of [false, true]) {
      for (const filter of [{}, { side: 'SELL' as const }, ...windows, ...symbolsOf(accountId).map((symbol) => ({ symbol }))]) {
        const query = { accountId, final, ...filter, limit: PAGE };
        ask(`listOrders ${JSON.stringify(query)}`, walk(query, (s, q) => s.listOrders(q), (q, page) => ({ ...q, beforeOrderId: page[0].orderId })));
      }
    }
    const orderId = tradedOrders.get(accountId) ?? UNKNOWN;
    for (const filter of [{}, ...windows, ...symbolsOf(accountId).map((symbol) => ({ symbol })), { orderId }]) {
      // Newest first, down with fromId; oldest first, up with toId.
      const down = { accountId, ...filter, limit: PAGE };
      ask(`listTrades ${JSON.stringify(down)}`, walk(down, (s, q) => s.listTrades(q), (q, page) => ({ ...q, fromId: page[page.length - 1].tradeId })));
      const up = { accountId, ...filter, toId: 0, limit: PAGE };
      ask(`listTrades ${JSON.stringify(up)}`, walk(up, (s, q) => s.listTrades(q), (q, page) => ({ ...q, toId: page[page.length - 1].tradeId })));
    }
    const between = { accountId, fromId: tradeIds[Math.floor((tradeIds.length * 3) / 4)] ?? UNKNOWN, toId: tradeIds[Math.floor(tradeIds.length / 4)] ?? 0, limit: PAGE };
    ask(`listTrades ${JSON.stringify(between)}`, (s) => Promise.resolve(s.listTrades(between)));
    for (const filter of [{}, ...windows, ...assetsOf(accountId).map((asset) => ({ asset })), ...flowTypesOf(accountId).map((flowType) => ({ flowType }))]) {
      // Both page oldest first: back from the newest with fromFlowId, forward from the first with endFlowId.
      const back = { accountId, ...filter, limit: PAGE };
      ask(`listFlows ${JSON.stringify(back)}`, walk(back, (s, q) => s.listFlows(q), (q, page) => ({ ...q, fromFlowId: page[0].flowId })));
      const forward = { accountId, ...filter, endFlowId: 0, limit: PAGE };
      ask(`listFlows ${JSON.stringify(forward)}`, walk(forward, (s, q) => s.listFlows(q), (q, page) => ({ ...q, endFlowId: page[page.length - 1].flowId })));
    }
    for (const filter of [{}, ...windows, ...assetsOf(accountId).map((asset) => ({ asset }))]) {
      const newest = { accountId, ...filter, limit: PAGE };
      ask(`listDeposits ${JSON.stringify(newest)}`, async (s) => s.listDeposits(newest));
      ask(`listWithdrawals ${JSON.stringify(newest)}`, async (s) => s.listWithdrawals(newest));
      const forward = { accountId, ...filter, fromId: 0, limit: PAGE };
      ask(`listDeposits ${JSON.stringify(forward)}`, walk(forward, (s, q) => s.listDeposits(q), (q, page) => ({ ...q, fromId: page[page.length - 1].depositId })));
      ask(`listWithdrawals ${JSON.stringify(forward)}`, walk(forward, (s, q) => s.listWithdrawals(q), (q, page) => ({ ...q, fromId: page[page.length - 1].withdrawalId })));
    }
    for (const clientOrderId of sorted(withdrawals.filter((w) => w.accountId === accountId).map((w) => w.clientOrderId))) {
      ask(`getWithdrawal ${accountId} ${clientOrderId}`, async (s) => s.getWithdrawal(accountId, { clientOrderId }));
    }
  }
  for (const w of withdrawals) {
    for (const key of [{ withdrawalId: w.withdrawalId }, { withdrawalId: w.withdrawalId, clientOrderId: w.clientOrderId }, { withdrawalId: w.withdrawalId, clientOrderId: `${w.clientOrderId}x` }]) {
      ask(`getWithdrawal ${w.accountId} ${JSON.stringify(key)}`, async (s) => s.getWithdrawal(w.accountId, key));
    }
    ask(`getWithdrawal ${w.accountId + 1} ${w.withdrawalId}`, async (s) => s.getWithdrawal(w.accountId + 1, { withdrawalId: w.withdrawalId }));
  }
  for (const [orderId, accountId] of [...owners, [UNKNOWN, 1]]) {
    ask(`getOrder ${accountId} ${orderId}`, async (s) => s.getOrder(accountId, orderId));
    ask(`getOrder ${accountId + 1} ${orderId}`, async (s) => s.getOrder(accountId + 1, orderId));
  }

  const merchantIds = sorted(records.map((r) => r.merchantId));
  const filters = [
    {},
    ...windows,
    ...merchantIds.map((merchantId) => ({ merchantId })),
    ...sorted(records.map((r) => r.fiat)).map((fiat) => ({ fiat })),
    ...sorted(records.map((r) => r.type)).map((type) => ({ type })),
    ...sorted(records.map((r) => r.status)).map((status) => ({ status })),
    ...sorted(records.map((r) => r.clientId).filter((c) => c !== '')).map((clientId) => ({ clientId })),
  ];
  for (const userId of [...sorted(userIds), UNKNOWN]) {
    for (const filter of filters) {
      const query = { userId, ...filter, offset: 0, limit: PAGE };
      ask(`listFundingRecords ${JSON.stringify(query)}`, walkOffsets(query, (s, q) => s.listFundingRecords(q)));
    }
    for (const filter of [{}, ...windows, ...merchantIds.map((merchantId) => ({ merchantId }))]) {
      const query = { userId, ...filter, offset: 0, limit: PAGE };
      ask(`listPaymentOrders ${JSON.stringify(query)}`, walkOffsets(query, (s, q) => s.listPaymentOrders(q)));
    }
    for (const orderId of [...paymentOrders, UNKNOWN]) ask(`getPaymentOrder ${userId} ${orderId}`, async (s) => s.getPaymentOrder(userId, orderId));
    ask(`listWebhooks ${userId} [10,20]`, async (s) => s.listWebhooks(userId, [10, 20]));
    const query = { userId, offset: 0, limit: PAGE };
    ask(`listWebhookEvents ${JSON.stringify(query)}`, walkOffsets(query, (s, q) => s.listWebhookEvents(q)));
  }
  for (const txId of [...sorted(records.map((r) => r.txId)), UNKNOWN]) ask(`getFundingRecord ${txId}`, async (s) => s.getFundingRecord(txId));
  for (const eventId of [...events, 'none']) {
    ask(`getWebhookEvent ${eventId}`, async (s) => s.getWebhookEvent(eventId));
    ask(`webhookPayload ${eventId}`, async (s) => s.webhookPayload(eventId));
  }
  const changed = { changedSince: midTs, offset: 0, limit: PAGE };
  ask(`listWebhookEvents ${JSON.stringify(changed)}`, walkOffsets(changed, (s, q) => s.listWebhookEvents(q)));
  ask('flowSums', async (s) => s.flowSums());
  ask('readTrades 0 7', (s) => collect(s.readTrades(0, 7)));
  ask('readJournal 0 25', (s) => collect(s.readJournal(0, 25)));
  ask('loadLatestSnapshot', async (s) => s.loadLatestSnapshot());
  return questions;
}
