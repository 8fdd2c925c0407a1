import { formatUnits } from '../../src/core/decimal.js';
import { BourseError } from '../../src/core/errors.js';
import {
  emptyDerivedRows,
  type Command,
  type DerivedRows,
  type PlaceOrderCommand,
  type Side,
  type StampedCommand,
} from '../../src/core/types.js';
import { DEMO_ASSETS, DEMO_SYMBOLS } from '../../src/demo/demo-catalogue.js';
import { ExchangeCore } from '../../src/exchange/exchange-core.js';
import type { PlaceOrderResult } from '../../src/exchange/order-commands.js';

/** Time of the first command a harness stamps (ms). */
export const T0 = 1_700_000_000_000;

/** The demo catalogue of docs/operating.md "Demo data": every asset at precision 8, the seven demo symbols. */
export function demoCatalogue(): Command[] {
  return [...DEMO_ASSETS, ...DEMO_SYMBOLS];
}

/** A LIMIT order command (GTC unless `extra` says otherwise). */
export function limit(
  accountId: number,
  symbolName: string,
  side: Side,
  price: string,
  quantity: string,
  extra: Partial<PlaceOrderCommand> = {},
): PlaceOrderCommand {
  return { type: 'placeOrder', accountId, symbol: symbolName, side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity, ...extra };
}

/** A MARKET order command; `quantity` is base for SELL and the quote amount for BUY (docs/spot-api.md "MARKET BUY amount"). */
export function market(accountId: number, symbolName: string, side: Side, quantity: string, extra: Partial<PlaceOrderCommand> = {}): PlaceOrderCommand {
  return { type: 'placeOrder', accountId, symbol: symbolName, side, orderType: 'MARKET', timeInForce: 'GTC', quantity, ...extra };
}

/**
 * An ExchangeCore driven the way the sequencer drives it: each command stamped with the next
 * sequence number and a time 1 ms after the previous one; a refused command takes no number and
 * leaves no rows.
 */
export class CoreHarness {
  /** Rows of every accepted command, in order. */
  readonly rows: DerivedRows = emptyDerivedRows();
  /** Rows of the last accepted command. */
  lastRows: DerivedRows = emptyDerivedRows();
  /** Every accepted command as stamped, for replays. */
  readonly accepted: StampedCommand[] = [];
  /** Time the next command is stamped with. */
  now: number;
  private seq: number;

  /** Drives `core` from where it stands (a restored core continues after its last command). */
  constructor(readonly core: ExchangeCore = new ExchangeCore()) {
    this.seq = core.lastSeq;
    this.now = Math.max(T0, core.lastTs + 1);
  }

  /** Applies a command: its result, or the BourseError that refused it. Other errors are bugs and throw. */
  run(command: Command): unknown {
    const stamped: StampedCommand = { seq: this.seq + 1, ts: this.now++, command };
    const rows = emptyDerivedRows();
    try {
      const result = this.core.apply(stamped, rows);
      this.seq = stamped.seq;
      this.accepted.push(stamped);
      this.lastRows = rows;
      for (const key of Object.keys(rows) as (keyof DerivedRows)[]) (this.rows[key] as unknown[]).push(...rows[key]);
      return result;
    } catch (error) {
      if (error instanceof BourseError) return error;
      throw error;
    }
  }

  /** Applies a command that must be accepted. */
  ok<T = unknown>(command: Command): T {
    const result = this.run(command);
    if (result instanceof BourseError) throw new Error(`${command.type} refused: ${result.code} ${result.message}`);
    return result as T;
  }

  /** Applies a command that must be refused; the error. */
  refuse(command: Command): BourseError {
    const result = this.run(command);
    if (!(result instanceof BourseError)) throw new Error(`${command.type} was accepted: ${JSON.stringify(result)}`);
    return result;
  }

  /** Places an order that must be accepted. */
  place(command: PlaceOrderCommand): PlaceOrderResult {
    return this.ok<PlaceOrderResult>(command);
  }

  /** Creates a user (an e-mail of its own unless given: one user per e-mail); its main account id. */
  addUser(email = `trader${this.core.ledger.nextUserId}@example.com`): number {
    return this.ok<{ accountId: number }>({ type: 'createUser', email, userType: 'user' }).accountId;
  }

  /** Creates a user with funds in its main account, at the given fee rates (default 0). */
  funded(balances: Record<string, string>, feeRates: { maker: string; taker: string } = { maker: '0', taker: '0' }): number {
    const accountId = this.addUser();
    this.ok({ type: 'setFeeRates', accountId, makerFeeRate: feeRates.maker, takerFeeRate: feeRates.taker });
    for (const [assetName, amount] of Object.entries(balances)) this.deposit(accountId, assetName, amount);
    return accountId;
  }

  deposit(accountId: number, assetName: string, amount: string): void {
    this.ok({ type: 'deposit', accountId, asset: assetName, amount, txId: `tx-${this.seq + 1}` });
  }

  /** Free and locked of one asset, as canonical decimals. */
  balance(accountId: number, assetName: string): { free: string; locked: string } {
    const account = this.core.ledger.account(accountId);
    const b = account.balances.get(assetName) ?? { free: 0n, locked: 0n };
    const precision = this.core.ledger.asset(assetName).precision;
    return { free: formatUnits(b.free, precision), locked: formatUnits(b.locked, precision) };
  }

  /** Resting order ids of a book side, best price first then time priority. */
  bookOrderIds(symbolName: string, side: Side): number[] {
    const book = this.core.spot.symbol(symbolName).book;
    return [...(side === 'BUY' ? book.bids : book.asks).orders()].map((o) => o.orderId);
  }

  /** The fee account's id (docs/spot-api.md). */
  get feeAccountId(): number {
    return this.core.ledger.feeAccountId;
  }
}

/** A harness with the demo catalogue listed. */
export function createCoreHarness(): CoreHarness {
  const harness = new CoreHarness();
  for (const command of demoCatalogue()) harness.ok(command);
  return harness;
}

/** A fresh core fed the given stamped commands, for determinism checks. */
export function replay(commands: readonly StampedCommand[]): ExchangeCore {
  const core = new ExchangeCore();
  for (const stamped of commands) core.apply(stamped, emptyDerivedRows());
  return core;
}
