import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  emptyDerivedRows,
  type Command,
  type DepositRow,
  type DerivedRows,
  type FlowPosting,
  type FlowRow,
  type OrderRow,
  type StampedCommand,
  type TradeRow,
  type WithdrawalRow,
} from '../../../src/core/types.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { parseSignedDecimal } from '../../../src/core/decimal.js';

function deposit(amount: string): Command {
  return { type: 'deposit', accountId: 1, asset: 'USDT', amount, txId: `tx-${amount}` };
}

function stamp(seq: number, ts: number, command: Command = deposit(String(seq))): StampedCommand {
  return { seq, ts, command };
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

function rowsOf(parts: Partial<DerivedRows>): DerivedRows {
  return { ...emptyDerivedRows(), ...parts };
}

describe('SqliteStore journal and rows', () => {
  let store: SqliteStore;

  beforeEach(() => {
    store = openSqliteStore({ path: ':memory:', synchronous: 'NORMAL' });
  });
  afterEach(() => {
    store.close();
  });

  it('when the journal is empty, then lastSeq and lastTs are 0', () => {
    expect(store.lastSeq()).toBe(0);
    expect(store.lastTs()).toBe(0);
  });

  it('when a batch with every row kind is appended, then each row reads back as written', () => {
    store.appendBatch(
      [stamp(1, 1_700_000_000_000)],
      rowsOf({ orders: [order], trades: [trade], flows: [posting(flow)], deposits: [depositRow], withdrawals: [withdrawal] }),
    );

    expect(store.lastSeq()).toBe(1);
    expect(store.lastTs()).toBe(1_700_000_000_000);
    expect(store.getOrder(1, 52001)).toEqual(order);
    expect(store.listTrades({ accountId: 1, limit: 10 })).toEqual([trade]);
    expect(store.listFlows({ accountId: 1, limit: 10 })).toEqual([flow]);
    expect(store.listDeposits({ accountId: 1, limit: 10 })).toEqual([depositRow]);
    expect(store.getWithdrawal(1, { withdrawalId: 8001 })).toEqual(withdrawal);
  });

  it('when an order or a withdrawal is written again, then its latest state wins', () => {
    store.appendBatch([stamp(1, 10)], rowsOf({ orders: [order], withdrawals: [withdrawal] }));
    const filled: OrderRow = { ...order, executedQty: '0.01', cummulativeQuoteQty: '300', status: 'FILLED', updateTime: 20 };
    const sent: WithdrawalRow = { ...withdrawal, status: 6, txId: 'ab12', updateTime: 20 };
    const canceled: OrderRow = { ...order, status: 'CANCELED', updateTime: 15 };
    // Within one batch, too: the later row of the same order replaces the earlier one.
    store.appendBatch([stamp(2, 20)], rowsOf({ orders: [canceled, filled], withdrawals: [sent] }));

    expect(store.getOrder(1, 52001)).toEqual(filled);
    expect(store.getWithdrawal(1, { withdrawalId: 8001 })).toEqual(sent);
  });

  it('when one multi-row insert holds two states of an order, then the later one wins', () => {
    const orders = Array.from({ length: 40 }, (_, i): OrderRow => ({ ...order, orderId: i + 1, clientOrderId: `c-${i + 1}` }));
    orders[20] = { ...order, orderId: 3, clientOrderId: 'c-3', status: 'CANCELED', updateTime: 30 };
    orders[35] = { ...order, orderId: 4, clientOrderId: 'c-4', status: 'FILLED', updateTime: 40 };
    store.appendBatch([stamp(1, 10)], rowsOf({ orders }));

    expect(store.getOrder(1, 3)).toEqual({ ...order, orderId: 3, clientOrderId: 'c-3', status: 'CANCELED', updateTime: 30 });
    expect(store.getOrder(1, 4)).toEqual({ ...order, orderId: 4, clientOrderId: 'c-4', status: 'FILLED', updateTime: 40 });
    expect(store.listOrders({ accountId: 1, final: true, limit: 100 }).map((o) => o.orderId)).toEqual([3, 4]);
  });

  it('when an order belongs to another account, then getOrder does not find it', () => {
    store.appendBatch([stamp(1, 10)], rowsOf({ orders: [order] }));

    expect(store.getOrder(2, 52001)).toBeUndefined();
  });

  it('when the journal is read, then commands come back in seq order with their stamps', () => {
    const commands: Command[] = [
      deposit('5'),
      { type: 'placeOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '30000.5', clientOrderId: 'c-1' },
      { type: 'cancelOrder', accountId: 1, orderId: 52001 },
    ];
    store.appendBatch([stamp(1, 100, commands[0]), stamp(2, 100, commands[1])], emptyDerivedRows());
    store.appendBatch([stamp(3, 105, commands[2])], emptyDerivedRows());

    expect([...store.readJournal(0)]).toEqual([stamp(1, 100, commands[0]), stamp(2, 100, commands[1]), stamp(3, 105, commands[2])]);
    expect([...store.readJournal(2)].map((s) => s.seq)).toEqual([3]);
    expect([...store.readJournal(3)]).toEqual([]);
  });

  it('when the journal is read in pages smaller than it, then every command comes once, in order', () => {
    store.appendBatch([1, 2, 3, 4, 5].map((seq) => stamp(seq, seq)), emptyDerivedRows());

    expect([...store.readJournal(0, 2)].map((s) => s.seq)).toEqual([1, 2, 3, 4, 5]);
    expect([...store.readJournal(1, 1)].map((s) => s.seq)).toEqual([2, 3, 4, 5]);
  });

  it('when a replay stops early, then the store accepts writes again', () => {
    store.appendBatch([1, 2, 3].map((seq) => stamp(seq, seq)), emptyDerivedRows());
    for (const stamped of store.readJournal(0, 10)) {
      if (stamped.seq === 2) break;
    }
    store.appendBatch([stamp(4, 4)], emptyDerivedRows());

    expect(store.lastSeq()).toBe(4);
  });

  it('when a batch does not continue lastSeq, then it is refused and nothing is written', () => {
    store.appendBatch([stamp(1, 10)], emptyDerivedRows());

    expect(() => store.appendBatch([stamp(3, 10)], rowsOf({ orders: [order] }))).toThrow('seq 3 does not follow 1');
    expect(() => store.appendBatch([stamp(2, 10), stamp(4, 10)], emptyDerivedRows())).toThrow('seq 4 does not follow 2');
    expect(() => store.appendBatch([stamp(1, 10)], emptyDerivedRows())).toThrow('seq 1 does not follow 1');
    expect(store.lastSeq()).toBe(1);
    expect([...store.readJournal(0)].map((s) => s.seq)).toEqual([1]);
    expect(store.getOrder(1, 52001)).toBeUndefined();
  });

  it('when a stamp goes back in time, then the batch is refused', () => {
    store.appendBatch([stamp(1, 1000)], emptyDerivedRows());

    expect(() => store.appendBatch([stamp(2, 999)], emptyDerivedRows())).toThrow('ts 999 of seq 2 is before 1000');
    expect(store.lastSeq()).toBe(1);
  });

  it('when one row of a batch cannot be written, then none of the batch is, journal included', () => {
    store.appendBatch([stamp(1, 10)], rowsOf({ trades: [trade] }));

    // The same (tradeId, accountId) twice violates the trades key: the whole transaction rolls back.
    expect(() =>
      store.appendBatch([stamp(2, 20)], rowsOf({ orders: [order], flows: [posting(flow)], trades: [trade] })),
    ).toThrow(/UNIQUE/);
    expect(store.lastSeq()).toBe(1);
    expect([...store.readJournal(0)].map((s) => s.seq)).toEqual([1]);
    expect(store.getOrder(1, 52001)).toBeUndefined();
    expect(store.listFlows({ accountId: 1, limit: 10 })).toEqual([]);
    store.appendBatch([stamp(2, 20)], rowsOf({ orders: [order] }));
    expect(store.lastSeq()).toBe(2);
  });

  it('when a batch has no command, then rows alone are refused and an empty batch changes nothing', () => {
    expect(() => store.appendBatch([], rowsOf({ flows: [posting(flow)] }))).toThrow('1 derived rows without a command');
    store.appendBatch([], emptyDerivedRows());

    expect(store.lastSeq()).toBe(0);
    expect(store.listFlows({ accountId: 1, limit: 10 })).toEqual([]);
  });

  it('when more rows than one multi-row insert holds are appended, then all of them are written', () => {
    const flows = Array.from({ length: 75 }, (_, i): FlowRow => ({ ...flow, flowId: i + 1, change: `${i + 1}` }));
    store.appendBatch(
      Array.from({ length: 70 }, (_, i) => stamp(i + 1, 10)),
      rowsOf({ flows: flows.map(posting) }),
    );

    expect(store.lastSeq()).toBe(70);
    expect([...store.readJournal(0)].length).toBe(70);
    expect(store.listFlows({ accountId: 1, limit: 100 }).map((f) => f.flowId)).toEqual(flows.map((f) => f.flowId));
    expect(store.flowSums()).toEqual([{ accountId: 1, asset: 'BTC', sum: '2850' }]);
  });

  it('when flows carry many decimals, then flowSums adds them exactly per account and asset', () => {
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
    ];
    store.appendBatch([stamp(1, 10)], rowsOf({ flows: flows.map(posting) }));

    expect(store.flowSums()).toEqual([
      { accountId: 1, asset: 'BTC', sum: '12345678901234567891.123456789012345677' },
      { accountId: 1, asset: 'USDT', sum: '-2.5' },
      { accountId: 2, asset: 'BTC', sum: '0.3' },
      { accountId: 3, asset: 'ETH', sum: '0' },
    ]);
  });

  it('when there are no flows, then flowSums is empty', () => {
    expect(store.flowSums()).toEqual([]);
  });

  it('when a snapshot is past the journal, then it is refused', () => {
    store.appendBatch([stamp(1, 10)], emptyDerivedRows());

    expect(() => store.saveSnapshot({ seq: 2, hash: 'h2', state: '{}' })).toThrow('seq 2 is not in the journal');
    expect(store.loadLatestSnapshot()).toBeUndefined();
  });
});

describe('SqliteStore on a file', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bourse-store-test-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('when the store is closed and reopened, then journal, rows and snapshots are still there', () => {
    const path = join(dir, 'bourse.db');
    const first = openSqliteStore({ path, synchronous: 'FULL' });
    first.appendBatch([stamp(1, 1000), stamp(2, 1001)], rowsOf({ orders: [order], flows: [posting(flow)] }));
    first.saveSnapshot({ seq: 2, hash: 'abc', state: '{"balances":[]}' });
    first.close();

    const second = openSqliteStore({ path, synchronous: 'NORMAL' });
    try {
      expect(second.lastSeq()).toBe(2);
      expect(second.lastTs()).toBe(1001);
      expect([...second.readJournal(0)]).toEqual([stamp(1, 1000), stamp(2, 1001)]);
      expect(second.getOrder(1, 52001)).toEqual(order);
      expect(second.listFlows({ accountId: 1, limit: 10 })).toEqual([flow]);
      expect(second.loadLatestSnapshot()).toEqual({ seq: 2, hash: 'abc', state: '{"balances":[]}' });
      second.appendBatch([stamp(3, 1002)], emptyDerivedRows());
      expect(second.lastSeq()).toBe(3);
    } finally {
      second.close();
    }
  });

  it('when snapshots are saved, then the latest is loaded and only the last two are kept', () => {
    const path = join(dir, 'bourse.db');
    const store = openSqliteStore({ path, synchronous: 'NORMAL' });
    store.appendBatch([1, 2, 3, 4].map((seq) => stamp(seq, seq)), emptyDerivedRows());
    expect(store.loadLatestSnapshot()).toBeUndefined();
    store.saveSnapshot({ seq: 1, hash: 'h1', state: '{"n":1}' });
    store.saveSnapshot({ seq: 2, hash: 'h2', state: '{"n":2}' });
    store.saveSnapshot({ seq: 4, hash: 'h4', state: '{"n":4}' });

    expect(store.loadLatestSnapshot()).toEqual({ seq: 4, hash: 'h4', state: '{"n":4}' });
    const reader = new Database(path, { readonly: true });
    try {
      expect(reader.prepare('SELECT seq FROM snapshots ORDER BY seq').pluck().all()).toEqual([2, 4]);
    } finally {
      reader.close();
      store.close();
    }
  });

  it('when a file store is opened, then it is in WAL mode and records its schema version', () => {
    const path = join(dir, 'bourse.db');
    openSqliteStore({ path, synchronous: 'NORMAL' }).close();

    const reader = new Database(path, { readonly: true });
    try {
      expect(reader.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(reader.prepare('SELECT version, name FROM schema_version').all()).toEqual([
        { version: 1, name: 'journal, read models, snapshots' },
        { version: 2, name: 'drop orders_by_client_id' },
        { version: 3, name: 'area B funding records' },
        { version: 4, name: 'area B payment orders' },
        { version: 5, name: 'area B webhooks and their outbox' },
        { version: 6, name: 'write probe' },
        { version: 7, name: 'projection mark' },
      ]);
    } finally {
      reader.close();
    }
  });

  it('when the file was written by a newer schema, then opening it fails', () => {
    const path = join(dir, 'bourse.db');
    openSqliteStore({ path, synchronous: 'NORMAL' }).close();
    const writer = new Database(path);
    writer.prepare("INSERT INTO schema_version (version, name) VALUES (99, 'future')").run();
    writer.close();

    expect(() => openSqliteStore({ path, synchronous: 'NORMAL' })).toThrow(
      'database schema version 99 is newer than this server knows (7)',
    );
  });
});
