import { formatUnits } from '../core/decimal.js';
import { BourseError, reject } from '../core/errors.js';
import { emptyDerivedRows, type Command, type DerivedRows, type Permission, type StampedCommand } from '../core/types.js';
import type { OrderBook } from '../engine/order-book.js';
import type { SymbolSpec } from '../engine/symbol-spec.js';
import type { Account } from '../ledger/account.js';
import { Ledger, type PostingContext } from '../ledger/ledger.js';
import { applyCatalogueCommand } from './catalogue-commands.js';
import { ClientOrderIds } from './client-order-ids.js';
import { applyFundsCommand, type Withdrawal } from './funds-commands.js';
import type { LiveOrder } from './live-order.js';
import { cancelOrder, cancelOrders, placeOrder } from './order-commands.js';
import { DEFAULT_CORE_LIMITS, setTradingConfig, type CoreLimits } from './trading-config.js';

export type RowRecording = 'all' | 'fanout' | 'none';

export interface SymbolState {
  spec: SymbolSpec;
  book: OrderBook;
}

export interface ApiKeyRecord {
  apiKey: string;
  userId: number;
  accountId: number;
  secretSealed: string;
  permissions: Permission[];
  ipWhitelist: string[];
  label: string;
  createdAt: number;
  revoked: boolean;
}

/**
 * The state machine of DESIGN.md §1: every state change is a command applied here, in sequence
 * order, with the time the sequencer stamped. No I/O, no clock, no randomness: the same commands
 * give the same state (see `stateHash`).
 */
export class ExchangeCore {
  readonly ledger = new Ledger();
  readonly symbols = new Map<string, SymbolState>();
  readonly liveOrders = new Map<number, LiveOrder>();
  /** Open order ids per account, in creation order. */
  readonly openOrdersByAccount = new Map<number, Set<number>>();
  /** Every client order id an account ever used (area A §4.7), → order id. */
  clientOrderIds = new ClientOrderIds();
  readonly apiKeys = new Map<string, ApiKeyRecord>();
  readonly withdrawals = new Map<number, Withdrawal>();
  /** Client ids of withdrawals per account (A23 idempotency), → withdrawal id. */
  readonly withdrawalClientIds = new Map<number, Map<string, number>>();
  /** Client ids of A32 transfers per source account, → what the transfer moved (idempotency). */
  readonly transferClientIds = new Map<number, Map<string, string>>();
  limits: CoreLimits = { ...DEFAULT_CORE_LIMITS };
  nextOrderId = 1;
  nextTradeId = 1;
  nextDepositId = 1;
  nextWithdrawalId = 1;
  /** Sequence number of the last applied command. */
  lastSeq = 0;
  lastTs = 0;

  /**
   * Applies one stamped command; throws a BourseError (state unchanged) to refuse it. `record`:
   * `all` rows for the store, `fanout` all but the flows (a replica's streams and read models need
   * no flows), `none` (a replay: state only).
   */
  apply(stamped: StampedCommand, rows: DerivedRows, record: RowRecording = 'all'): unknown {
    if (stamped.seq !== this.lastSeq + 1) throw new Error(`command seq ${stamped.seq} after ${this.lastSeq}`);
    const recordRows = record !== 'none';
    const ctx: PostingContext = { seq: stamped.seq, ts: stamped.ts, rows, recordRows, recordFlows: record === 'all', touched: new Map() };
    const result = this.dispatch(stamped.command, ctx);
    if (recordRows) {
      for (const [accountId, assets] of ctx.touched) {
        const account = this.ledger.account(accountId);
        const balances = [...assets].sort().map((asset) => {
          // Read without creating: a replay (which records no events) must build the same state.
          const balance = account.balances.get(asset) ?? { free: 0n, locked: 0n };
          const precision = this.ledger.asset(asset).precision;
          return { asset, free: formatUnits(balance.free, precision), locked: formatUnits(balance.locked, precision) };
        });
        rows.events.push({ kind: 'balance', seq: stamped.seq, time: stamped.ts, accountId, balances });
      }
    }
    this.lastSeq = stamped.seq;
    this.lastTs = stamped.ts;
    return result;
  }

  /**
   * Validates a command against the current state without changing anything (A12 test order).
   * Returns normally when it would be accepted.
   */
  check(command: Command, ts: number): void {
    if (command.type !== 'placeOrder') throw new Error('only orders can be checked');
    placeOrder(this, { ...command, test: true }, { seq: this.lastSeq + 1, ts, rows: emptyDerivedRows(), recordRows: true, recordFlows: true, touched: new Map() });
  }

  private dispatch(command: Command, ctx: PostingContext): unknown {
    switch (command.type) {
      case 'placeOrder':
        return placeOrder(this, command, ctx);
      case 'cancelOrder':
        return cancelOrder(this, command, ctx);
      case 'cancelOrders':
        return cancelOrders(this, command, ctx);
      case 'deposit':
      case 'withdraw':
      case 'settleWithdrawal':
      case 'transfer':
        return applyFundsCommand(this, command, ctx);
      case 'setTradingConfig':
        return setTradingConfig(this, command);
      default:
        return applyCatalogueCommand(this, command, ctx);
    }
  }

  symbol(symbol: string): SymbolState {
    return this.symbols.get(symbol) ?? reject('INVALID_SYMBOL');
  }

  account(accountId: number): Account {
    const account = this.ledger.accounts.get(accountId);
    if (account === undefined) throw new BourseError('NOT_FOUND', [`account ${accountId}`]);
    return account;
  }

  openOrderIdsOf(accountId: number): Set<number> {
    let ids = this.openOrdersByAccount.get(accountId);
    if (ids === undefined) {
      ids = new Set();
      this.openOrdersByAccount.set(accountId, ids);
    }
    return ids;
  }
}
