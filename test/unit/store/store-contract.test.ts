/**
 * The store contract (src/store/store.ts), the same cases on both stores: SQLite on a file and
 * PostgreSQL on a fresh database. Journal, rows, snapshots and every area A history query with
 * its paging and filters must answer alike (docs/deployment.md: "The same journal gives the same
 * answers on both stores"). store-contract-story.test.ts compares both over a real story.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseSignedDecimal } from '../../../src/core/decimal.js';
import {
  emptyDerivedRows,
  type Command,
  type DepositRow,
  type DerivedRows,
  type FlowPosting,
  type FlowRow,
  type OrderRow,
  type OrderStatus,
  type Side,
  type StampedCommand,
  type TradeRow,
  type WithdrawalRow,
} from '../../../src/core/types.js';
import { openPostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../../src/store/store.js';
import { postgresDatabases } from '../../support/postgres.js';

/** A place for a store: open it (again), and read what the store keeps of its snapshots, by seq. */
interface StorePlace {
  open(): Promise<Store>;
  snapshotSeqs(): Promise<number[]>;
  remove(): void;
}

const databases = postgresDatabases();

const PLACES: readonly [string, () => Promise<StorePlace>][] = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'bourse-contract-'));
      const path = join(dir, 'bourse.db');
      return {
        open: async () => openSqliteStore({ path, synchronous: 'NORMAL' }),
        async snapshotSeqs() {
          const reader = new Database(path, { readonly: true });
          try {
            return reader.prepare<[], number>('SELECT seq FROM snapshots ORDER BY seq').pluck().all();
          } finally {
            reader.close();
          }
        },
        remove: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const url = await databases.url();
      return {
        open: () => openPostgresStore({ url }),
        async snapshotSeqs() {
          const client = new pg.Client({ connectionString: url });
          await client.connect();
          try {
            return (await client.query<{ seq: string }>('SELECT seq FROM bourse.snapshots ORDER BY seq')).rows.map((r) => Number(r.seq));
          } finally {
            await client.end();
          }
        },
        remove: () => undefined,
      };
    },
  ],
];

async function collect<T>(items: Iterable<T> | AsyncIterable<T>): Promise<T[]> {
  const list: T[] = [];
  for await (const item of items) list.push(item);
  return list;
}

function deposit(amount: string): Command {
  return { type: 'deposit', accountId: 1, asset: 'USDT', amount, txId: `tx-${amount}` };
}

function stamp(seq: number, ts: number, command: Command = deposit(String(seq))): StampedCommand {
  return { seq, ts, command };
}

function rowsOf(parts: Partial<DerivedRows>): DerivedRows {
  return { ...emptyDerivedRows(), ...parts };
}

const order: OrderRow = {
  orderId: 52001,
  accountId: 1,
  symbol: 'BTCUSDT',
  clientOrderId: 'my-1',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  price: '30000',
  origQty: '0.01',
  executedQty: '0.004',
  cummulativeQuoteQty: '120',
  status: 'PARTIALLY_FILLED',
  stopPrice: '0',
  icebergQty: '0',
  isWorking: true,
  time: 1_700_000_000_000,
  updateTime: 1_700_000_000_500,
};
const trade: TradeRow = {
  tradeId: 9001,
  accountId: 1,
  symbol: 'BTCUSDT',
  orderId: 52001,
  matchOrderId: 51990,
  price: '30000',
  qty: '0.004',
  quoteQty: '120',
  commission: '0.000004',
  commissionAsset: 'BTC',
  isBuyer: true,
  isMaker: false,
  time: 1_700_000_000_400,
};
const flow: FlowRow = {
  flowId: 60001,
  accountId: 1,
  asset: 'BTC',
  flowType: 1,
  change: '-12.5',
  total: '379.624059937852365',
  created: 1_700_000_000_000,
  seq: 1,
};
/** The ledger's form of a flow written as text: atoms at 18 decimals, which the writer formats back. */
function posting(row: FlowRow): FlowPosting {
  const atoms = (text: string): bigint => parseSignedDecimal(text) ?? (() => { throw new Error(`not a decimal: ${text}`); })();
  return { flowId: row.flowId, accountId: row.accountId, asset: row.asset, flowType: row.flowType, changeAtoms: atoms(row.change), totalAtoms: atoms(row.total), precision: 18, created: row.created, seq: row.seq };
}
const depositRow: DepositRow = {
  depositId: 7001,
  accountId: 1,
  asset: 'USDT',
  amount: '1000',
  txId: '9c1e',
  time: 1_700_000_000_000,
};
const withdrawal: WithdrawalRow = {
  withdrawalId: 8001,
  accountId: 1,
  clientOrderId: 'w-1',
  asset: 'USDT',
  chainType: 'TRC20',
  address: 'TXYZ',
  addressExt: '',
  amount: '100',
  fee: '1',
  status: 1,
  txId: '',
  time: 1_700_000_000_000,
  updateTime: 1_700_000_000_000,
};

describe.each(PLACES)('%s store: journal and rows', (_name, place) => {
  let where: StorePlace;
  let store: Store;

  beforeEach(async () => {
    where = await place();
    store = await where.open();
  });
  afterEach(async () => {
    await store.close();
    where.remove();
  });

  it('when the journal is empty, then lastSeq and lastTs are 0', () => {
    expect(store.lastSeq()).toBe(0);
    expect(store.lastTs()).toBe(0);
  });

  it('when a batch with every row kind is appended, then each row reads back as written', async () => {
    await store.appendBatch(
      [stamp(1, 1_700_000_000_000)],
      rowsOf({ orders: [order], trades: [trade], flows: [posting(flow)], deposits: [depositRow], withdrawals: [withdrawal] }),
    );

    expect(store.lastSeq()).toBe(1);
    expect(store.lastTs()).toBe(1_700_000_000_000);
    expect(store.projectedSeq()).toBe(1);
    expect(await store.getOrder(1, 52001)).toEqual(order);
    expect(await store.listTrades({ accountId: 1, limit: 10 })).toEqual([trade]);
    expect(await store.listFlows({ accountId: 1, limit: 10 })).toEqual([flow]);
    expect(await store.listDeposits({ accountId: 1, limit: 10 })).toEqual([depositRow]);
    expect(await store.getWithdrawal(1, { withdrawalId: 8001 })).toEqual(withdrawal);
  });

  it('when an order or a withdrawal is written again, then its latest state wins, within one batch too', async () => {
    await store.appendBatch([stamp(1, 10)], rowsOf({ orders: [order], withdrawals: [withdrawal] }));
    const filled: OrderRow = { ...order, executedQty: '0.01', cummulativeQuoteQty: '300', status: 'FILLED', updateTime: 20 };
    const sent: WithdrawalRow = { ...withdrawal, status: 6, txId: 'ab12', updateTime: 20 };
    const canceled: OrderRow = { ...order, status: 'CANCELED', updateTime: 15 };
    const pending: WithdrawalRow = { ...withdrawal, status: 2, updateTime: 15 };
    await store.appendBatch([stamp(2, 20)], rowsOf({ orders: [canceled, filled], withdrawals: [pending, sent] }));

    expect(await store.getOrder(1, 52001)).toEqual(filled);
    expect(await store.getWithdrawal(1, { withdrawalId: 8001 })).toEqual(sent);
  });

  it('when one batch holds two states of several orders among many, then each order\'s later state wins', async () => {
    const orders = Array.from({ length: 40 }, (_, i): OrderRow => ({ ...order, orderId: i + 1, clientOrderId: `c-${i + 1}` }));
    orders[20] = { ...order, orderId: 3, clientOrderId: 'c-3', status: 'CANCELED', updateTime: 30 };
    orders[35] = { ...order, orderId: 4, clientOrderId: 'c-4', status: 'FILLED', updateTime: 40 };
    await store.appendBatch([stamp(1, 10)], rowsOf({ orders }));

    expect(await store.getOrder(1, 3)).toEqual({ ...order, orderId: 3, clientOrderId: 'c-3', status: 'CANCELED', updateTime: 30 });
    expect(await store.getOrder(1, 4)).toEqual({ ...order, orderId: 4, clientOrderId: 'c-4', status: 'FILLED', updateTime: 40 });
    expect((await store.listOrders({ accountId: 1, final: true, limit: 100 })).map((o) => o.orderId)).toEqual([3, 4]);
  });

  it('when an order belongs to another account, then getOrder does not find it', async () => {
    await store.appendBatch([stamp(1, 10)], rowsOf({ orders: [order] }));

    expect(await store.getOrder(2, 52001)).toBeUndefined();
  });

  it('when the journal is read, then commands come back in seq order with their stamps', async () => {
    const commands: Command[] = [
      deposit('5'),
      { type: 'placeOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '30000.5', clientOrderId: 'c-"quoted"\\ é 😀' },
      { type: 'cancelOrder', accountId: 1, orderId: 52001 },
    ];
    await store.appendBatch([stamp(1, 100, commands[0]), stamp(2, 100, commands[1])], emptyDerivedRows());
    await store.appendBatch([stamp(3, 105, commands[2])], emptyDerivedRows());

    expect(await collect(store.readJournal(0))).toEqual([stamp(1, 100, commands[0]), stamp(2, 100, commands[1]), stamp(3, 105, commands[2])]);
    expect((await collect(store.readJournal(2))).map((s) => s.seq)).toEqual([3]);
    expect(await collect(store.readJournal(3))).toEqual([]);
  });

  it('when the journal is read in pages smaller than it, then every command comes once, in order', async () => {
    await store.appendBatch([1, 2, 3, 4, 5].map((seq) => stamp(seq, seq)), emptyDerivedRows());

    expect((await collect(store.readJournal(0, 2))).map((s) => s.seq)).toEqual([1, 2, 3, 4, 5]);
    expect((await collect(store.readJournal(1, 1))).map((s) => s.seq)).toEqual([2, 3, 4, 5]);
  });

  it('when a replay stops early, then the store accepts writes again', async () => {
    await store.appendBatch([1, 2, 3].map((seq) => stamp(seq, seq)), emptyDerivedRows());
    for await (const stamped of store.readJournal(0, 10)) {
      if (stamped.seq === 2) break;
    }
    await store.appendBatch([stamp(4, 4)], emptyDerivedRows());

    expect(store.lastSeq()).toBe(4);
  });

  it('when a batch does not continue lastSeq, then it is refused and nothing is written', async () => {
    await store.appendBatch([stamp(1, 10)], emptyDerivedRows());

    await expect(async () => store.appendBatch([stamp(3, 10)], rowsOf({ orders: [order] }))).rejects.toThrow('seq 3 does not follow 1');
    await expect(async () => store.appendBatch([stamp(2, 10), stamp(4, 10)], emptyDerivedRows())).rejects.toThrow('seq 4 does not follow 2');
    await expect(async () => store.appendBatch([stamp(1, 10)], emptyDerivedRows())).rejects.toThrow('seq 1 does not follow 1');
    expect(store.lastSeq()).toBe(1);
    expect((await collect(store.readJournal(0))).map((s) => s.seq)).toEqual([1]);
    expect(await store.getOrder(1, 52001)).toBeUndefined();
  });

  it('when a stamp goes back in time, then the batch is refused', async () => {
    await store.appendBatch([stamp(1, 1000)], emptyDerivedRows());

    await expect(async () => store.appendBatch([stamp(2, 999)], emptyDerivedRows())).rejects.toThrow('ts 999 of seq 2 is before 1000');
    expect(store.lastSeq()).toBe(1);
  });

  it('when one row of a batch cannot be written, then none of the batch is, journal included', async () => {
    await store.appendBatch([stamp(1, 10)], rowsOf({ trades: [trade] }));

    // The same (tradeId, accountId) twice violates the trades key: the whole transaction rolls back.
    await expect(async () =>
      store.appendBatch([stamp(2, 20)], rowsOf({ orders: [order], flows: [posting(flow)], trades: [trade] })),
    ).rejects.toThrow(/UNIQUE|duplicate key/);
    expect(store.lastSeq()).toBe(1);
    expect((await collect(store.readJournal(0))).map((s) => s.seq)).toEqual([1]);
    expect(await store.getOrder(1, 52001)).toBeUndefined();
    expect(await store.listFlows({ accountId: 1, limit: 10 })).toEqual([]);
    await store.appendBatch([stamp(2, 20)], rowsOf({ orders: [order] }));
    expect(store.lastSeq()).toBe(2);
  });

  it('when a batch has no command, then rows alone are refused and an empty batch changes nothing', async () => {
    await expect(async () => store.appendBatch([], rowsOf({ flows: [posting(flow)] }))).rejects.toThrow('1 derived rows without a command');
    await store.appendBatch([], emptyDerivedRows());

    expect(store.lastSeq()).toBe(0);
    expect(await store.listFlows({ accountId: 1, limit: 10 })).toEqual([]);
  });

  it('when more rows than one multi-row insert holds are appended, then all of them are written', async () => {
    const flows = Array.from({ length: 75 }, (_, i): FlowRow => ({ ...flow, flowId: i + 1, change: `${i + 1}` }));
    await store.appendBatch(
      Array.from({ length: 70 }, (_, i) => stamp(i + 1, 10)),
      rowsOf({ flows: flows.map(posting) }),
    );

    expect(store.lastSeq()).toBe(70);
    expect((await collect(store.readJournal(0))).length).toBe(70);
    expect((await store.listFlows({ accountId: 1, limit: 100 })).map((f) => f.flowId)).toEqual(flows.map((f) => f.flowId));
    expect(await store.flowSums()).toEqual([{ accountId: 1, asset: 'BTC', sum: '2850' }]);
  });

  it('when flows carry many decimals, then flowSums adds them exactly per account and asset', async () => {
    const flows: FlowRow[] = [
      { ...flow, flowId: 1, accountId: 2, asset: 'BTC', change: '0.1' },
      { ...flow, flowId: 2, accountId: 1, asset: 'USDT', change: '-5' },
      { ...flow, flowId: 3, accountId: 1, asset: 'BTC', change: '1.000000000000000001' },
      { ...flow, flowId: 4, accountId: 2, asset: 'BTC', change: '0.2' },
      { ...flow, flowId: 5, accountId: 1, asset: 'BTC', change: '-0.000000000000000002' },
      { ...flow, flowId: 6, accountId: 1, asset: 'USDT', change: '2.5' },
      { ...flow, flowId: 7, accountId: 1, asset: 'BTC', change: '12345678901234567890.123456789012345678' },
      { ...flow, flowId: 8, accountId: 3, asset: 'ETH', change: '-1.25' },
      { ...flow, flowId: 9, accountId: 3, asset: 'ETH', change: '1.25' },
      { ...flow, flowId: 10, accountId: 10, asset: 'USDT', change: '99999999999999999999.999999999999999999' },
      { ...flow, flowId: 11, accountId: 10, asset: 'USDT', change: '99999999999999999999.999999999999999999' },
      { ...flow, flowId: 12, accountId: 1, asset: 'Btc', change: '-0.5' },
    ];
    await store.appendBatch([stamp(1, 10)], rowsOf({ flows: flows.map(posting) }));

    expect(await store.flowSums()).toEqual([
      { accountId: 1, asset: 'BTC', sum: '12345678901234567891.123456789012345677' },
      { accountId: 1, asset: 'Btc', sum: '-0.5' },
      { accountId: 1, asset: 'USDT', sum: '-2.5' },
      { accountId: 2, asset: 'BTC', sum: '0.3' },
      { accountId: 3, asset: 'ETH', sum: '0' },
      { accountId: 10, asset: 'USDT', sum: '199999999999999999999.999999999999999998' },
    ]);
  });

  it('when there are no flows, then flowSums is empty', async () => {
    expect(await store.flowSums()).toEqual([]);
  });

  it('when a snapshot is past the journal, then it is refused', async () => {
    await store.appendBatch([stamp(1, 10)], emptyDerivedRows());

    await expect(async () => store.saveSnapshot({ seq: 2, hash: 'h2', state: '{}' })).rejects.toThrow('seq 2 is not in the journal');
    expect(await store.loadLatestSnapshot()).toBeUndefined();
  });

  it('when snapshots are saved, then the latest is loaded and only the last two are kept', async () => {
    await store.appendBatch([1, 2, 3, 4].map((seq) => stamp(seq, seq)), emptyDerivedRows());
    expect(await store.loadLatestSnapshot()).toBeUndefined();
    await store.saveSnapshot({ seq: 1, hash: 'h1', state: '{"n":1}' });
    await store.saveSnapshot({ seq: 2, hash: 'h2', state: '{"n":2}' });
    await store.saveSnapshot({ seq: 4, hash: 'h4', state: '{"n":4}' });

    expect(await store.loadLatestSnapshot()).toEqual({ seq: 4, hash: 'h4', state: '{"n":4}' });
    expect(await where.snapshotSeqs()).toEqual([2, 4]);
  });

  it('when the store is closed and reopened, then journal, rows, snapshots and lastSeq are still there', async () => {
    await store.appendBatch([stamp(1, 1000), stamp(2, 1001)], rowsOf({ orders: [order], flows: [posting(flow)] }));
    await store.saveSnapshot({ seq: 2, hash: 'abc', state: '{"balances":[]}' });
    await store.close();

    store = await where.open();
    expect(store.lastSeq()).toBe(2);
    expect(store.lastTs()).toBe(1001);
    expect(await collect(store.readJournal(0))).toEqual([stamp(1, 1000), stamp(2, 1001)]);
    expect(await store.getOrder(1, 52001)).toEqual(order);
    expect(await store.listFlows({ accountId: 1, limit: 10 })).toEqual([flow]);
    expect(await store.loadLatestSnapshot()).toEqual({ seq: 2, hash: 'abc', state: '{"balances":[]}' });
    await store.appendBatch([stamp(3, 1002)], emptyDerivedRows());
    expect(store.lastSeq()).toBe(3);
  });
});

// ------------------------------------------------------------------ history queries (A17 … A31)

function listedOrder(orderId: number, accountId: number, status: OrderStatus, symbol: string, side: Side, time: number): OrderRow {
  return { ...order, orderId, accountId, symbol, clientOrderId: `c-${orderId}`, side, price: '100', origQty: '1', executedQty: '0', cummulativeQuoteQty: '0', status, time, updateTime: time };
}

function listedTrade(tradeId: number, accountId: number, orderId: number, symbol: string, time: number, isBuyer = true): TradeRow {
  return { tradeId, accountId, symbol, orderId, matchOrderId: 900 + tradeId, price: '100.5', qty: '0.25', quoteQty: '25.125', commission: '0.00025', commissionAsset: 'BTC', isBuyer, isMaker: !isBuyer, time };
}

/** Change `<flowId>.5`, total `<flowId × 10>`, in tenths. */
function listedFlow(flowId: number, accountId: number, asset: string, flowType: number, created: number): FlowPosting {
  return { flowId, accountId, asset, flowType, changeAtoms: BigInt(flowId * 10 + 5), totalAtoms: BigInt(flowId * 100), precision: 1, created, seq: 1 };
}

function listedDeposit(depositId: number, accountId: number, asset: string, time: number): DepositRow {
  return { depositId, accountId, asset, amount: `${depositId}00`, txId: `tx-${depositId}`, time };
}

function listedWithdrawal(withdrawalId: number, accountId: number, asset: string, time: number): WithdrawalRow {
  return { ...withdrawal, withdrawalId, accountId, clientOrderId: `w-${withdrawalId}`, asset, amount: '10', time, updateTime: time };
}

const orderIds = (rows: OrderRow[]): number[] => rows.map((r) => r.orderId);
const tradeIds = (rows: TradeRow[]): number[] => rows.map((r) => r.tradeId);
const flowIds = (rows: FlowRow[]): number[] => rows.map((r) => r.flowId);

describe.each(PLACES)('%s store: history queries', (_name, place) => {
  let where: StorePlace;
  let store: Store;

  beforeAll(async () => {
    where = await place();
    store = await where.open();
    const rows: DerivedRows = rowsOf({
      orders: [
        listedOrder(1, 1, 'NEW', 'BTCUSDT', 'BUY', 1000),
        listedOrder(2, 1, 'FILLED', 'BTCUSDT', 'SELL', 2000),
        listedOrder(3, 1, 'CANCELED', 'ETHUSDT', 'BUY', 3000),
        listedOrder(4, 1, 'PARTIALLY_FILLED', 'ETHUSDT', 'SELL', 4000),
        listedOrder(5, 1, 'REJECTED', 'BTCUSDT', 'BUY', 5000),
        listedOrder(6, 1, 'NEW', 'BTCUSDT', 'SELL', 6000),
        listedOrder(7, 1, 'FILLED', 'BTCUSDT', 'BUY', 7000),
        listedOrder(8, 2, 'FILLED', 'BTCUSDT', 'BUY', 8000),
        listedOrder(9, 1, 'PENDING_CANCEL', 'BTCUSDT', 'BUY', 9000),
        listedOrder(10, 1, 'CANCELED', 'BTCUSDT', 'BUY', 10000),
      ],
      trades: [
        listedTrade(1, 1, 2, 'BTCUSDT', 1000),
        listedTrade(2, 1, 2, 'BTCUSDT', 2000),
        listedTrade(3, 1, 4, 'ETHUSDT', 3000),
        listedTrade(3, 2, 8, 'ETHUSDT', 3000, false),
        listedTrade(4, 1, 7, 'BTCUSDT', 4000),
        listedTrade(5, 1, 4, 'ETHUSDT', 5000),
        listedTrade(6, 1, 7, 'BTCUSDT', 6000),
      ],
      flows: [
        listedFlow(1, 1, 'BTC', 4, 1000),
        listedFlow(2, 1, 'USDT', 1, 2000),
        listedFlow(3, 1, 'BTC', 1, 3000),
        listedFlow(4, 2, 'BTC', 1, 4000),
        listedFlow(5, 1, 'BTC', 2, 5000),
        listedFlow(6, 1, 'USDT', 1, 6000),
        listedFlow(7, 1, 'BTC', 1, 7000),
      ],
      deposits: [
        listedDeposit(1, 1, 'USDT', 1000),
        listedDeposit(2, 1, 'BTC', 2000),
        listedDeposit(3, 2, 'USDT', 3000),
        listedDeposit(4, 1, 'USDT', 4000),
        listedDeposit(5, 1, 'USDT', 5000),
        listedDeposit(6, 1, 'BTC', 6000),
      ],
      withdrawals: [
        listedWithdrawal(1, 1, 'USDT', 1000),
        listedWithdrawal(2, 1, 'BTC', 2000),
        listedWithdrawal(3, 2, 'USDT', 3000),
        listedWithdrawal(4, 1, 'USDT', 4000),
        listedWithdrawal(5, 1, 'USDT', 5000),
        listedWithdrawal(6, 1, 'BTC', 6000),
      ],
    });
    await store.appendBatch([{ seq: 1, ts: 1000, command: { type: 'setSymbolStatus', symbol: 'BTCUSDT', status: 'TRADING' } }], rows);
  });
  afterAll(async () => {
    await store.close();
    where.remove();
  });

  describe('listOrders (A17, A18)', () => {
    it('when final orders are listed, then FILLED, CANCELED and REJECTED come oldest first', async () => {
      expect(orderIds(await store.listOrders({ accountId: 1, final: true, limit: 500 }))).toEqual([2, 3, 5, 7, 10]);
    });

    it('when open orders are listed, then NEW and PARTIALLY_FILLED come, PENDING_CANCEL in neither list', async () => {
      expect(orderIds(await store.listOrders({ accountId: 1, final: false, limit: 500 }))).toEqual([1, 4, 6]);
    });

    it('when the limit is below the matches, then the newest are returned, oldest first', async () => {
      expect(orderIds(await store.listOrders({ accountId: 1, final: true, limit: 2 }))).toEqual([7, 10]);
    });

    it('when beforeOrderId is given, then only ids below it are listed', async () => {
      expect(orderIds(await store.listOrders({ accountId: 1, final: true, beforeOrderId: 7, limit: 500 }))).toEqual([2, 3, 5]);
      expect(orderIds(await store.listOrders({ accountId: 1, final: false, beforeOrderId: 6, limit: 1 }))).toEqual([4]);
    });

    it('when symbol or side is given, then only matching orders are listed', async () => {
      expect(orderIds(await store.listOrders({ accountId: 1, final: true, symbol: 'BTCUSDT', limit: 500 }))).toEqual([2, 5, 7, 10]);
      expect(orderIds(await store.listOrders({ accountId: 1, final: true, side: 'BUY', limit: 500 }))).toEqual([3, 5, 7, 10]);
      expect(orderIds(await store.listOrders({ accountId: 1, final: false, symbol: 'ETHUSDT', side: 'SELL', limit: 500 }))).toEqual([4]);
    });

    it('when startTime and endTime are given, then both bounds on time are inclusive', async () => {
      expect(orderIds(await store.listOrders({ accountId: 1, final: true, startTime: 3000, endTime: 7000, limit: 500 }))).toEqual([3, 5, 7]);
      expect(orderIds(await store.listOrders({ accountId: 1, final: true, startTime: 7001, limit: 500 }))).toEqual([10]);
    });

    it('when another account is named, then only its orders are listed', async () => {
      expect(orderIds(await store.listOrders({ accountId: 2, final: true, limit: 500 }))).toEqual([8]);
      expect(orderIds(await store.listOrders({ accountId: 2, final: false, limit: 500 }))).toEqual([]);
    });

    it('when the limit is out of range, then the query is refused', async () => {
      await expect(async () => store.listOrders({ accountId: 1, final: true, limit: 0 })).rejects.toThrow(RangeError);
      await expect(async () => store.listOrders({ accountId: 1, final: true, limit: 10_001 })).rejects.toThrow(RangeError);
      await expect(async () => store.listOrders({ accountId: 1, final: true, limit: 1.5 })).rejects.toThrow(RangeError);
    });
  });

  describe('listTrades (A20)', () => {
    it('when neither fromId nor toId is given, then the most recent come in descending order', async () => {
      expect(tradeIds(await store.listTrades({ accountId: 1, limit: 500 }))).toEqual([6, 5, 4, 3, 2, 1]);
      expect(tradeIds(await store.listTrades({ accountId: 1, limit: 2 }))).toEqual([6, 5]);
    });

    it('when only fromId is given, then ids below it come in descending order', async () => {
      expect(tradeIds(await store.listTrades({ accountId: 1, fromId: 4, limit: 500 }))).toEqual([3, 2, 1]);
      expect(tradeIds(await store.listTrades({ accountId: 1, fromId: 4, limit: 2 }))).toEqual([3, 2]);
    });

    it('when only toId is given, then ids above it come in ascending order', async () => {
      expect(tradeIds(await store.listTrades({ accountId: 1, toId: 2, limit: 500 }))).toEqual([3, 4, 5, 6]);
      expect(tradeIds(await store.listTrades({ accountId: 1, toId: 2, limit: 2 }))).toEqual([3, 4]);
    });

    it('when both are given, then ids between them come in descending order', async () => {
      expect(tradeIds(await store.listTrades({ accountId: 1, fromId: 6, toId: 2, limit: 500 }))).toEqual([5, 4, 3]);
      expect(tradeIds(await store.listTrades({ accountId: 1, fromId: 6, toId: 2, limit: 2 }))).toEqual([5, 4]);
    });

    it('when orderId, symbol or a time range is given, then only matching trades come', async () => {
      expect(tradeIds(await store.listTrades({ accountId: 1, orderId: 4, limit: 500 }))).toEqual([5, 3]);
      expect(tradeIds(await store.listTrades({ accountId: 1, symbol: 'BTCUSDT', limit: 500 }))).toEqual([6, 4, 2, 1]);
      expect(tradeIds(await store.listTrades({ accountId: 1, startTime: 2000, endTime: 4000, limit: 500 }))).toEqual([4, 3, 2]);
    });

    it('when each side of a trade is read, then each account sees its own record under the shared id', async () => {
      const [buyer] = await store.listTrades({ accountId: 1, fromId: 4, toId: 2, limit: 500 });
      const [seller] = await store.listTrades({ accountId: 2, limit: 500 });

      expect(buyer).toEqual(listedTrade(3, 1, 4, 'ETHUSDT', 3000));
      expect(seller).toEqual(listedTrade(3, 2, 8, 'ETHUSDT', 3000, false));
      expect([buyer.isBuyer, buyer.isMaker, seller.isBuyer, seller.isMaker]).toEqual([true, false, false, true]);
    });

    it('when trades are read for market data, then each trade comes once (its buyer\'s row), by id, page after page', async () => {
      expect(tradeIds(await collect(store.readTrades(0, 2)))).toEqual([1, 2, 3, 4, 5, 6]);
      expect(tradeIds(await collect(store.readTrades(3, 5)))).toEqual([4, 5, 6]);
      expect(tradeIds(await collect(store.readTrades(6)))).toEqual([]);
    });
  });

  describe('listFlows (A31)', () => {
    it('when no id bound is given, then the newest come, oldest first', async () => {
      expect(flowIds(await store.listFlows({ accountId: 1, limit: 100 }))).toEqual([1, 2, 3, 5, 6, 7]);
      expect(flowIds(await store.listFlows({ accountId: 1, limit: 2 }))).toEqual([6, 7]);
    });

    it('when fromFlowId is given, then the newest ids below it come, oldest first', async () => {
      expect(flowIds(await store.listFlows({ accountId: 1, fromFlowId: 5, limit: 100 }))).toEqual([1, 2, 3]);
      expect(flowIds(await store.listFlows({ accountId: 1, fromFlowId: 5, limit: 2 }))).toEqual([2, 3]);
    });

    it('when only endFlowId is given, then the first ids above it come, oldest first', async () => {
      expect(flowIds(await store.listFlows({ accountId: 1, endFlowId: 2, limit: 100 }))).toEqual([3, 5, 6, 7]);
      expect(flowIds(await store.listFlows({ accountId: 1, endFlowId: 2, limit: 2 }))).toEqual([3, 5]);
    });

    it('when both are given, then the newest ids between them come, oldest first', async () => {
      expect(flowIds(await store.listFlows({ accountId: 1, fromFlowId: 7, endFlowId: 1, limit: 100 }))).toEqual([2, 3, 5, 6]);
      expect(flowIds(await store.listFlows({ accountId: 1, fromFlowId: 7, endFlowId: 1, limit: 2 }))).toEqual([5, 6]);
    });

    it('when asset, flowType or a created range is given, then only matching flows come', async () => {
      expect(flowIds(await store.listFlows({ accountId: 1, asset: 'BTC', limit: 100 }))).toEqual([1, 3, 5, 7]);
      expect(flowIds(await store.listFlows({ accountId: 1, flowType: 1, limit: 100 }))).toEqual([2, 3, 6, 7]);
      expect(flowIds(await store.listFlows({ accountId: 1, asset: 'BTC', flowType: 1, limit: 100 }))).toEqual([3, 7]);
      expect(flowIds(await store.listFlows({ accountId: 1, startTime: 3000, endTime: 6000, limit: 100 }))).toEqual([3, 5, 6]);
    });

    it('when a flow is read back, then change and total are its exact strings', async () => {
      expect(await store.listFlows({ accountId: 2, limit: 100 })).toEqual([{ flowId: 4, accountId: 2, asset: 'BTC', flowType: 1, change: '4.5', total: '40', created: 4000, seq: 1 }]);
    });
  });

  describe('listDeposits (A21) and listWithdrawals (A24)', () => {
    it('when fromId is given, then the first ids above it come, oldest first', async () => {
      expect((await store.listDeposits({ accountId: 1, fromId: 1, limit: 2 })).map((d) => d.depositId)).toEqual([2, 4]);
      expect((await store.listWithdrawals({ accountId: 1, fromId: 1, limit: 2 })).map((w) => w.withdrawalId)).toEqual([2, 4]);
    });

    it('when fromId is absent, then the most recent come, oldest first', async () => {
      expect((await store.listDeposits({ accountId: 1, limit: 2 })).map((d) => d.depositId)).toEqual([5, 6]);
      expect((await store.listWithdrawals({ accountId: 1, limit: 2 })).map((w) => w.withdrawalId)).toEqual([5, 6]);
      expect((await store.listDeposits({ accountId: 1, limit: 500 })).map((d) => d.depositId)).toEqual([1, 2, 4, 5, 6]);
    });

    it('when asset or a time range is given, then only matching records come', async () => {
      expect((await store.listDeposits({ accountId: 1, asset: 'USDT', limit: 500 })).map((d) => d.depositId)).toEqual([1, 4, 5]);
      expect((await store.listWithdrawals({ accountId: 1, asset: 'BTC', fromId: 2, limit: 500 })).map((w) => w.withdrawalId)).toEqual([6]);
      expect((await store.listDeposits({ accountId: 1, startTime: 2000, endTime: 5000, limit: 500 })).map((d) => d.depositId)).toEqual([2, 4, 5]);
    });

    it('when a deposit is read back, then it is the row as written', async () => {
      expect(await store.listDeposits({ accountId: 2, limit: 500 })).toEqual([listedDeposit(3, 2, 'USDT', 3000)]);
    });
  });

  describe('getWithdrawal (A25)', () => {
    it('when named by id or by clientOrderId, then the account\'s record is found', async () => {
      expect(await store.getWithdrawal(1, { withdrawalId: 4 })).toEqual(listedWithdrawal(4, 1, 'USDT', 4000));
      expect(await store.getWithdrawal(1, { clientOrderId: 'w-4' })).toEqual(listedWithdrawal(4, 1, 'USDT', 4000));
      expect(await store.getWithdrawal(1, { withdrawalId: 4, clientOrderId: 'w-4' })).toEqual(listedWithdrawal(4, 1, 'USDT', 4000));
    });

    it('when the keys disagree or name another account\'s record, then nothing is found', async () => {
      expect(await store.getWithdrawal(1, { withdrawalId: 4, clientOrderId: 'w-5' })).toBeUndefined();
      expect(await store.getWithdrawal(1, { withdrawalId: 3 })).toBeUndefined();
      expect(await store.getWithdrawal(1, { clientOrderId: 'w-3' })).toBeUndefined();
    });

    it('when neither key is given, then the lookup is refused', async () => {
      await expect(async () => store.getWithdrawal(1, {})).rejects.toThrow(RangeError);
    });
  });
});
