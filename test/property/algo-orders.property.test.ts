import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatUnits } from '../../src/core/decimal.js';
import { BourseError } from '../../src/core/errors.js';
import type { Command, FlowPosting, OrderRow, TradeRow } from '../../src/core/types.js';
import type { ExchangeCore } from '../../src/exchange/exchange-core.js';
import type { PlaceOrderResult } from '../../src/exchange/order-commands.js';
import { restoreCore, serializeCore, stateHash } from '../../src/exchange/snapshot.js';
import { checkLedger } from '../../src/exchange/verify.js';
import { algoCommand, algoOpArb } from '../support/algo-ops.js';
import { CoreHarness, createCoreHarness, demoCatalogue, replay } from '../support/core-harness.js';
import { spotParties } from '../support/spot-ops.js';
import { SpotReferenceModel, type ModelAnswer, type ModelOrder, type ModelStats } from '../support/spot-reference-model.js';

/** The symbols and assets the streams trade (test/support/algo-ops.ts). */
const SYMBOLS = ['BTCUSDT', 'ETHUSDT', 'ETHBTC'];
const ASSETS = ['BTC', 'ETH', 'USDT'];
/** Every asset of the demo catalogue has 8 decimals. */
const PRECISION = 8;

/** A core and the reference model fed the same commands, with what the checks carry from step to step. */
interface Stream {
  h: CoreHarness;
  model: SpotReferenceModel;
  accounts: number[];
  /** Per `account:asset`, the sum of the flow rows so far. */
  flowSums: Map<string, bigint>;
  /** Each order's latest record, as the history the API reads keeps it. */
  records: Map<number, OrderRow>;
  /** The stream's commands after the set-up, to report a counterexample as the core saw it. */
  commands: Command[];
}

const key = (accountId: number, asset: string): string => `${accountId}:${asset}`;

/** A cheap assertion for what runs tens of thousands of times; `expect` where a diff helps. */
function check(condition: boolean, message: () => string): void {
  if (!condition) throw new Error(message());
}

function accepted(answer: ModelAnswer): void {
  check(answer.accepted, () => `the model refused a set-up command: ${JSON.stringify(answer)}`);
}

/** The demo catalogue, the parties of test/support/spot-ops.ts (varied fee rates, sub-accounts, funds) and algoOrders on, in the core and the model. */
function startStream(): Stream {
  const h = createCoreHarness();
  const model = new SpotReferenceModel(h.feeAccountId);
  for (const command of demoCatalogue()) accepted(model.apply(command));
  const mainAccountOf = new Map<number, number>();
  const parties = spotParties();
  let next = parties.next();
  while (next.done !== true) {
    const command = next.value;
    const result = h.ok(command);
    if (command.type === 'createUser') {
      const { userId, accountId } = result as { userId: number; accountId: number };
      mainAccountOf.set(userId, accountId);
      model.addAccount(accountId);
    } else if (command.type === 'createSubAccount') {
      model.addAccount((result as { accountId: number }).accountId, mainAccountOf.get(command.userId));
    } else {
      accepted(model.apply(command));
    }
    next = parties.next(result);
  }
  const algoOrdersOn: Command = { type: 'setTradingConfig', algoOrders: true };
  h.ok(algoOrdersOn);
  accepted(model.apply(algoOrdersOn));
  const stream: Stream = { h, model, accounts: next.value, flowSums: new Map(), records: new Map(), commands: [] };
  accumulate(stream.flowSums, h.rows.flows);
  checkState(stream);
  return stream;
}

/** Adds flow rows to the running sums; each row's total must be the sum right after it. */
function accumulate(sums: Map<string, bigint>, postings: readonly FlowPosting[]): void {
  for (const posting of postings) {
    const k = key(posting.accountId, posting.asset);
    const sum = (sums.get(k) ?? 0n) + posting.changeAtoms;
    sums.set(k, sum);
    check(posting.totalAtoms === sum, () => `flow ${posting.flowId}: total ${posting.totalAtoms} but the flows sum to ${sum} atoms`);
  }
}

const amount = (atoms: bigint): string => formatUnits(atoms, PRECISION);

/** The facts of an order that the core's record and the model must agree on. */
function modelFacts(order: ModelOrder): Pick<OrderRow, 'status' | 'executedQty' | 'cummulativeQuoteQty' | 'isWorking'> {
  const open = order.status === 'NEW' || order.status === 'PARTIALLY_FILLED';
  return { status: order.status, executedQty: amount(order.executedAtoms), cummulativeQuoteQty: amount(order.cumQuoteAtoms), isWorking: open && !order.untriggered };
}

function rowFacts(row: OrderRow): ReturnType<typeof modelFacts> {
  return { status: row.status, executedQty: row.executedQty, cummulativeQuoteQty: row.cummulativeQuoteQty, isWorking: row.isWorking };
}

function modelOrder(model: SpotReferenceModel, orderId: number): ModelOrder {
  const order = model.orders.get(orderId);
  if (order === undefined) throw new Error(`the core has order ${orderId}, the model none`);
  return order;
}

/** Each trade of a step once, in trade id order: price, quantity, both orders, both fees, who made it. */
function coreTrades(rows: readonly TradeRow[]): string[] {
  const byId = new Map<number, { buyer?: TradeRow; seller?: TradeRow }>();
  for (const row of rows) {
    const trade = byId.get(row.tradeId) ?? {};
    if (row.isBuyer) trade.buyer = row;
    else trade.seller = row;
    byId.set(row.tradeId, trade);
  }
  return [...byId.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, { buyer, seller }]) => {
      if (buyer === undefined || seller === undefined) throw new Error('a trade without both sides');
      return `${buyer.symbol} ${buyer.qty}@${buyer.price} buy#${buyer.orderId} fee ${buyer.commission} sell#${seller.orderId} fee ${seller.commission} maker ${buyer.isMaker ? 'buyer' : 'seller'}`;
    });
}

function modelTrades(model: SpotReferenceModel): string[] {
  return model.lastTrades.map(
    (t) =>
      `${t.symbol} ${amount(t.qtyAtoms)}@${formatUnits(t.priceAtto, 18)} buy#${t.buyerOrderId} fee ${amount(t.buyerFeeAtoms)} sell#${t.sellerOrderId} fee ${amount(t.sellerFeeAtoms)} maker ${t.buyerIsMaker ? 'buyer' : 'seller'}`,
  );
}

/**
 * The refusal code a client gets: the core refuses a cancel of an order that is not open with
 * -2013, and A14 tells FILLED (-1139) and CANCELED (-1142) from its record (src/api/spot/orders.ts).
 */
function refusalCode(stream: Stream, command: Command, error: BourseError): number {
  if (command.type !== 'cancelOrder' || error.code !== -2013 || command.orderId === undefined) return error.code;
  const record = stream.records.get(command.orderId);
  if (record?.accountId !== command.accountId) return error.code;
  if (record.status === 'FILLED') return -1139;
  return record.status === 'CANCELED' ? -1142 : error.code;
}

function describeResult(result: unknown): string {
  return result instanceof BourseError ? `${result.code} ${result.message}` : JSON.stringify(result, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** Runs one command on the core and the model and checks that they agree on it and on the state after it; the core's result. */
function step(stream: Stream, command: Command): unknown {
  const { h, model } = stream;
  stream.commands.push(command);
  const result = h.run(command);
  const answer = model.apply(command);
  if (!answer.accepted) {
    check(result instanceof BourseError && refusalCode(stream, command, result) === answer.code, () => `the model refuses ${answer.code}, the core answers ${describeResult(result)}`);
  } else {
    check(!(result instanceof BourseError), () => `the model accepts, the core refuses ${describeResult(result)}`);
    if (command.type === 'placeOrder') {
      const reply = result as PlaceOrderResult;
      expect(reply.order.orderId, 'order id').toBe(answer.orderId);
      // The reply is the taker's record after the whole step, cascades included, and its own taker fills.
      expect(rowFacts(reply.order), 'reply record').toEqual(modelFacts(modelOrder(model, reply.order.orderId)));
      const fills = answer.fills.map((f) => ({ price: formatUnits(f.priceAtto, 18), qty: amount(f.qtyAtoms), commission: amount(f.commissionAtoms), commissionAsset: f.commissionAsset }));
      expect(reply.fills.map(({ price, qty, commission, commissionAsset }) => ({ price, qty, commission, commissionAsset })), 'reply fills').toEqual(fills);
    }
    expect(coreTrades(h.lastRows.trades), 'trades of the step').toEqual(modelTrades(model));
    const lastRows = new Map(h.lastRows.orders.map((row) => [row.orderId, row]));
    for (const row of lastRows.values()) {
      expect(rowFacts(row), `order ${row.orderId} as recorded`).toEqual(modelFacts(modelOrder(model, row.orderId)));
      stream.records.set(row.orderId, row);
    }
    accumulate(stream.flowSums, h.lastRows.flows);
  }
  checkState(stream);
  return result;
}

/** Balances, open orders and books equal the model's; funds are conserved and the ledger verifies. */
function checkState({ h, model, flowSums }: Stream): void {
  const core = h.core;
  for (const accountId of model.accountIds()) {
    const balances = core.ledger.account(accountId).balances;
    for (const asset of ASSETS) {
      const actual = balances.get(asset) ?? { free: 0n, locked: 0n };
      const expected = model.balance(accountId, asset);
      check(actual.free === expected.free && actual.locked === expected.locked, () => `${key(accountId, asset)}: core ${actual.free}/${actual.locked}, model ${expected.free}/${expected.locked} (free/locked atoms)`);
    }
  }
  const modelOpen = model.openOrders();
  expect([...core.spot.liveOrders.keys()].sort((a, b) => a - b), 'open orders').toEqual(modelOpen.map((o) => o.orderId));
  for (const expected of modelOpen) {
    const order = core.spot.liveOrders.get(expected.orderId);
    if (order === undefined) throw new Error(`order ${expected.orderId} is not live`);
    const lotAtoms = core.spot.symbol(order.symbol).spec.baseAtomsPerLot;
    const actual = { status: order.status, executed: BigInt(order.executedLots) * lotAtoms, cumQuote: order.cumQuoteAtoms, locked: order.lockedAtoms, untriggered: order.untriggered };
    check(
      actual.status === expected.status && actual.executed === expected.executedAtoms && actual.cumQuote === expected.cumQuoteAtoms && actual.locked === expected.lockedAtoms && actual.untriggered === expected.untriggered,
      () => `order ${expected.orderId}: core ${describeResult(actual)}, model ${describeResult(expected)}`,
    );
  }
  for (const name of SYMBOLS) {
    const { book, spec } = core.spot.symbol(name);
    const symbol = model.symbol(name);
    const coreSide = (side: 'bids' | 'asks'): string[] => [...book[side].orders()].map((o) => `${o.orderId}:${BigInt(o.remainingLots) * spec.baseAtomsPerLot}+${BigInt(o.hiddenLots) * spec.baseAtomsPerLot}`);
    const modelSide = (side: 'bids' | 'asks'): string[] => symbol[side].map((o) => `${o.orderId}:${o.visibleAtoms}+${o.hiddenAtoms}`);
    expect(coreSide('bids'), `${name} bids (id:visible+hidden)`).toEqual(modelSide('bids'));
    expect(coreSide('asks'), `${name} asks (id:visible+hidden)`).toEqual(modelSide('asks'));
  }
  checkConservation(core, flowSums, h.now);
}

/** The ledger-conservation property's invariants, with untriggered stops: locked, not in the book, open but not counted by MAX_NUM_ORDERS. */
function checkConservation(core: ExchangeCore, flowSums: Map<string, bigint>, now: number): void {
  const sums = [...flowSums].map(([k, atoms]) => {
    const [accountId, asset] = k.split(':');
    return { accountId: Number(accountId), asset, sum: amount(atoms) };
  });
  const report = checkLedger(core, sums, now);
  check(report.ok, () => `verify: ${JSON.stringify(report.details.filter((d) => d.mismatch !== undefined))}`);
  const expectedLocked = new Map<string, bigint>();
  const working = new Map<number, number>();
  const live = new Map<number, number>();
  let resting = 0;
  for (const state of core.spot.symbols.values()) resting += state.book.size;
  for (const order of core.spot.liveOrders.values()) {
    const { spec, book } = core.spot.symbol(order.symbol);
    const k = key(order.accountId, order.side === 'BUY' ? spec.quoteAsset : spec.baseAsset);
    expectedLocked.set(k, (expectedLocked.get(k) ?? 0n) + order.lockedAtoms);
    live.set(order.accountId, (live.get(order.accountId) ?? 0) + 1);
    const inBook = book.get(order.orderId);
    check(order.untriggered === (inBook === undefined), () => `order ${order.orderId}: untriggered ${order.untriggered}, in the book ${inBook !== undefined}`);
    if (inBook === undefined) continue;
    working.set(order.accountId, (working.get(order.accountId) ?? 0) + 1);
    resting--;
    const remaining = inBook.remainingLots + inBook.hiddenLots;
    check(remaining === order.origLots - order.executedLots, () => `order ${order.orderId} rests with ${remaining} lots`);
  }
  check(resting === 0, () => `${resting} resting orders that are not live`);
  for (const account of core.ledger.accounts.values()) {
    const id = account.accountId;
    check(account.openOrderCount === (working.get(id) ?? 0), () => `account ${id} counts ${account.openOrderCount} open orders, ${working.get(id) ?? 0} rest`);
    const open = [...core.spot.openOrderIdsOf(id)];
    check(open.length === (live.get(id) ?? 0) && open.every((orderId) => core.spot.liveOrders.get(orderId)?.accountId === id), () => `account ${id} lists open orders ${open}, not its live ones`);
    for (const [asset, balance] of account.balances) {
      const k = key(id, asset);
      check(balance.free >= 0n && balance.locked >= 0n, () => `${k} negative: ${balance.free}/${balance.locked}`);
      check(balance.locked === (expectedLocked.get(k) ?? 0n), () => `${k}: locked ${balance.locked} != open orders' locks ${expectedLocked.get(k)}`);
    }
  }
}

function addStats(total: ModelStats, run: ModelStats): void {
  total.fired += run.fired;
  total.cascaded += run.cascaded;
  total.refills += run.refills;
}

describe('stop and iceberg orders against a reference model', () => {
  it('when random streams mix stops and icebergs with other orders and cancels, then the core answers, balances, orders and books equal the model after every step, funds are conserved, and replay and snapshot give the same state', () => {
    const total: ModelStats = { fired: 0, cascaded: 0, refills: 0 };
    let runsThatFired = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.array(algoOpArb, { maxLength: 400, size: 'max' }), fc.array(algoOpArb, { maxLength: 40 }), (ops, tail) => {
        const stream = startStream();
        const world = { model: stream.model, accounts: stream.accounts };
        try {
          for (const op of ops) step(stream, algoCommand(op, world));
          const hash = stateHash(stream.h.core);
          expect(stateHash(replay(stream.h.accepted)), 'replay').toBe(hash);
          const restored = restoreCore(serializeCore(stream.h.core));
          expect(stateHash(restored), 'snapshot').toBe(hash);
          // The stream goes on in both: the same answers, still the model's, and the same state.
          stream.h = new CoreHarness(stream.h.core);
          const twin = new CoreHarness(restored);
          for (const op of tail) {
            const command = algoCommand(op, world);
            const twinResult = twin.run(command);
            expect(describeResult(twinResult), 'restored core answer').toBe(describeResult(step(stream, command)));
          }
          expect(stateHash(restored), 'restored core after the tail').toBe(stateHash(stream.h.core));
        } catch (error) {
          const commands = stream.commands.map((c) => JSON.stringify(c)).join('\n');
          throw new Error(`${error instanceof Error ? error.message : String(error)}\nat command ${stream.commands.length} after the set-up:\n${commands}`);
        }
        runs++;
        if (stream.model.stats.fired > 0) runsThatFired++;
        addStats(total, stream.model.stats);
      }),
      { seed: 20_250_712, numRuns: 70 },
    );
    // The streams must really fire stops, cascade and refill icebergs, or the property says little.
    expect(runsThatFired).toBeGreaterThan(runs / 2);
    expect(total.fired).toBeGreaterThan(runs * 5);
    expect(total.cascaded).toBeGreaterThan(runs);
    expect(total.refills).toBeGreaterThan(runs * 10);
  });
});
