import { asOrderRecord, isFinalStatus, qtyAtto, statusRank, type AckedOrder, type AckLog, type OrderRecord } from './ack-log.js';
import { AdminClient, SpotClient } from './clients.js';
import type { Trader } from './order-load.js';

const PAGE = 1000;
/** Concurrent one-by-one order queries. */
const QUERY_CONCURRENCY = 8;

interface TradeRecord {
  id: string;
  orderId: string;
  price: string;
  qty: string;
}

export interface VerifyAnswer {
  ok: boolean;
  details: unknown[];
  replay?: { ok: boolean; stateHash: string; replayHash: string };
}

async function signedGet<T>(client: SpotClient, path: string, params: Record<string, string | number>): Promise<T> {
  const answer = await client.signed('GET', path, params);
  if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status} ${answer.text}`);
  return answer.body as T;
}

/** Every record of a list endpoint that pages to smaller order ids with `orderId` (A17, A18). */
async function listAllOrders(client: SpotClient, path: string): Promise<OrderRecord[]> {
  const all: OrderRecord[] = [];
  let before: string | undefined;
  for (;;) {
    const page = (await signedGet<unknown[]>(client, path, before === undefined ? { limit: PAGE } : { limit: PAGE, orderId: before })).map(asOrderRecord);
    all.push(...page);
    if (page.length < PAGE) return all;
    // Pages come oldest first.
    before = page[0].orderId;
  }
}

/** Every trade of the account (A20 pages to smaller ids with `fromId`, newest first). */
async function listAllTrades(client: SpotClient): Promise<TradeRecord[]> {
  const all: TradeRecord[] = [];
  let fromId: string | undefined;
  for (;;) {
    const page = await signedGet<TradeRecord[]>(client, '/openapi/v1/myTrades', fromId === undefined ? { limit: PAGE } : { limit: PAGE, fromId });
    all.push(...page);
    if (page.length < PAGE) return all;
    fromId = page[page.length - 1].id;
  }
}

/** What is wrong with the server's record of an acknowledged order, if anything. */
function orderProblems(acked: AckedOrder, found: OrderRecord | undefined, source: string): string[] {
  const name = `${acked.trader} order ${acked.orderId} (acknowledged ${acked.status}, executedQty ${acked.executedQty})`;
  if (found === undefined) return [`${name} is missing from ${source}`];
  const problems: string[] = [];
  if (isFinalStatus(acked.status) ? found.status !== acked.status : statusRank(found.status) < statusRank(acked.status)) {
    problems.push(`${name} is ${found.status} in ${source}`);
  }
  const executed = qtyAtto(found.executedQty);
  const filled = acked.fills.reduce((sum, fill) => sum + qtyAtto(fill.qty), 0n);
  if (executed < qtyAtto(acked.executedQty) || executed < filled) problems.push(`${name} has executedQty ${found.executedQty} in ${source}`);
  return problems;
}

function tradeProblems(acked: AckedOrder, trades: Map<string, TradeRecord>): string[] {
  const problems: string[] = [];
  for (const fill of acked.fills) {
    const trade = trades.get(fill.tradeId);
    if (trade === undefined) {
      problems.push(`${acked.trader} trade ${fill.tradeId} of order ${acked.orderId} is missing from myTrades`);
    } else if (trade.orderId !== acked.orderId || trade.price !== fill.price || trade.qty !== fill.qty) {
      problems.push(`${acked.trader} trade ${fill.tradeId} was acknowledged ${JSON.stringify(fill)} for order ${acked.orderId}, myTrades has ${JSON.stringify(trade)}`);
    }
  }
  return problems;
}

/** A row stored twice (a batch applied twice) shows as an id listed twice. */
function listedTwice(ids: readonly string[], what: string, source: string): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const id of ids) (seen.has(id) ? twice : seen).add(id);
  return [...twice].map((id) => `${what} ${id} is listed more than once in ${source}`);
}

async function inPool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

/**
 * Every acknowledged order and trade of the log, looked up on the server at `url`: orders in the
 * open and history lists, trades in myTrades, and the orders acknowledged in `round` also one by
 * one (A13); and no order or trade listed twice. Returns one line per problem; none means nothing
 * acknowledged was lost.
 */
export async function findLostAcknowledgements(url: string, traders: readonly Trader[], log: AckLog, round: number): Promise<string[]> {
  const problems: string[] = [...log.conflicts];
  for (const trader of traders) {
    const client = new SpotClient(url, trader.apiKey, trader.secretKey);
    const listed = new Map<string, OrderRecord>();
    for (const path of ['/openapi/v1/openOrders', '/openapi/v1/historyOrders']) {
      const records = await listAllOrders(client, path);
      problems.push(...listedTwice(records.map((record) => record.orderId), `${trader.name} order`, path));
      for (const record of records) listed.set(record.orderId, record);
    }
    const tradeList = await listAllTrades(client);
    problems.push(...listedTwice(tradeList.map((trade) => trade.id), `${trader.name} trade`, 'myTrades'));
    const trades = new Map(tradeList.map((trade) => [trade.id, trade]));
    const acked = [...log.orders.values()].filter((order) => order.trader === trader.name);
    for (const order of acked) problems.push(...orderProblems(order, listed.get(order.orderId), 'the order lists'), ...tradeProblems(order, trades));
    await inPool(
      acked.filter((order) => order.round === round),
      QUERY_CONCURRENCY,
      async (order) => {
        const answer = await client.signed('GET', '/openapi/v1/order', { orderId: order.orderId });
        const found = answer.status === 200 ? asOrderRecord(answer.body) : undefined;
        problems.push(...orderProblems(order, found, `GET /openapi/v1/order (${answer.status})`));
      },
    );
  }
  return problems;
}

/** GET /admin/v1/verify?replay=1: the ledger checks plus a fresh replay of the whole journal. */
export async function verifyWithReplay(url: string, adminToken: string): Promise<VerifyAnswer> {
  const answer = await new AdminClient(url, adminToken).send('GET', '/verify?replay=1');
  if (answer.status !== 200) throw new Error(`GET /admin/v1/verify?replay=1 answered ${answer.status} ${answer.text}`);
  return answer.body as VerifyAnswer;
}

/** A19's balances of the trader's account. */
export async function balancesOf(url: string, trader: Trader): Promise<unknown> {
  const account = await signedGet<{ balances: unknown }>(new SpotClient(url, trader.apiKey, trader.secretKey), '/openapi/v1/account', {});
  return account.balances;
}
