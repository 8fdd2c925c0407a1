import { emptyDerivedRows, type BalanceEvent, type Command, type CommandType, type DerivedRows, type StampedCommand } from '../core/types.js';
import type { Account } from '../ledger/account.js';
import { Ledger, type AccountSet, type PostingContext } from '../ledger/ledger.js';
import { CatalogueModule } from './catalogue-module.js';
import { coreContext, type CoreContext, type CoreModule, type Deadline, type ModuleCheck } from './core-module.js';
import { FundsModule } from './funds-module.js';
import { IpBanModule } from './ip-ban-module.js';
import { ListenKeyModule } from './listen-key-module.js';
import { PaymentsModule } from './payments/payments-module.js';
import { SpotModule } from './spot-module.js';
import { WebhooksModule } from './webhooks/webhooks-module.js';

export type RowRecording = 'all' | 'fanout' | 'none';

/**
 * The one-writer state machine: every state change is a command applied here, in sequence
 * order, with the time the sequencer stamped. No I/O, no clock, no randomness: the same commands
 * give the same state (see `stateHash`). The ledger is shared; each domain is a module that owns
 * its state and commands, and the core routes a command to the module declaring its type. The
 * core composes the modules: each takes the shared context and, in its constructor, the ports it
 * declares for what it needs of another.
 */
export class ExchangeCore {
  readonly ledger = new Ledger();
  private readonly context: CoreContext = coreContext(this.ledger);
  readonly catalogue: CatalogueModule;
  readonly spot: SpotModule;
  readonly funds: FundsModule;
  readonly payments: PaymentsModule;
  readonly webhooks: WebhooksModule;
  readonly listenKeys: ListenKeyModule;
  /** IP bans, journaled so that every node refuses a banned address (the limiter follows them). */
  readonly bans = new IpBanModule();
  /** In restore order (and the snapshot image's): a module may refer to what an earlier one holds. */
  readonly modules: readonly CoreModule[];
  private readonly moduleOf: ReadonlyMap<CommandType, CoreModule>;
  /** Sequence number of the last applied command. */
  lastSeq = 0;
  /** Bumped by every command of a module with deadlines: the scheduler re-reads them only then. */
  deadlineEpoch = 0;
  lastTs = 0;
  /**
   * Accounts whose order and balance events commands record: the ones user data streams watch,
   * set by the stream; every account while unset (tools and tests that read events directly).
   */
  streamedAccounts: AccountSet | undefined = undefined;
  /** Balances touched by the command being applied: one map reused, cleared for each command. */
  private readonly touched = new Map<number, string[]>();
  private readonly ctx: PostingContext = { seq: 0, ts: 0, rows: emptyDerivedRows(), recordRows: true, recordFlows: true, touched: this.touched, streamedAccounts: undefined };

  constructor() {
    // Payments checks the catalogue's keys and writes the webhooks' outbox, and both read back what
    // payments holds (the desk's account, the webhook settings): those two ports read it once it exists.
    const fromPayments = {
      get deskAccountId(): number {
        return payments.deskAccountId;
      },
      get webhookSettings() {
        return payments.webhookSettings;
      },
    };
    this.catalogue = new CatalogueModule(this.context, fromPayments);
    this.spot = new SpotModule(this.context);
    this.funds = new FundsModule(this.context);
    this.webhooks = new WebhooksModule(fromPayments);
    const payments = new PaymentsModule(this.context, { keys: this.catalogue, books: this.spot, spotLocks: this.spot, outbox: this.webhooks });
    this.payments = payments;
    // A listenKey dies with its API key (the catalogue's) and lives for the TTL of the trading config (the spot module's).
    this.listenKeys = new ListenKeyModule(this.catalogue, this.spot);
    this.modules = [this.catalogue, this.spot, this.funds, this.payments, this.webhooks, this.listenKeys, this.bans];
    const moduleOf = new Map<CommandType, CoreModule>();
    for (const module of this.modules) {
      for (const type of module.commandTypes) {
        if (moduleOf.has(type)) throw new Error(`command ${type} is claimed by two modules`);
        moduleOf.set(type, module);
      }
    }
    this.moduleOf = moduleOf;
  }

  /**
   * Applies one stamped command; throws a Refusal (state unchanged) to refuse it. `record`:
   * `all` rows for the store, `fanout` all but the flows (a replica's streams and read models need
   * no flows), `none` (a replay: state only).
   */
  apply(stamped: StampedCommand, rows: DerivedRows, record: RowRecording = 'all'): unknown {
    if (stamped.seq !== this.lastSeq + 1) throw new Error(`command seq ${stamped.seq} after ${this.lastSeq}`);
    const recordRows = record !== 'none';
    const touched = this.touched;
    // Map.clear allocates a new table, even for an empty map.
    if (touched.size > 0) touched.clear();
    // One context reused for every command (no module keeps it past its command): an object less per command.
    const ctx = this.ctx;
    ctx.seq = stamped.seq;
    ctx.ts = stamped.ts;
    ctx.rows = rows;
    ctx.recordRows = recordRows;
    ctx.recordFlows = record === 'all';
    ctx.streamedAccounts = this.streamedAccounts;
    const module = this.moduleOf.get(stamped.command.type);
    if (module === undefined) throw new Error(`no module applies ${stamped.command.type}`);
    const result = module.apply(stamped.command, ctx);
    if (module.deadlines !== undefined) this.deadlineEpoch++;
    if (recordRows) {
      for (const [accountId, assets] of touched) {
        const account = this.ledger.account(accountId);
        sortInPlace(assets);
        const balances: BalanceEvent['balances'] = [];
        for (const asset of assets) {
          // Read without creating: a replay (which records no events) must build the same state.
          const balance = account.balances.get(asset);
          balances.push({ asset, free: balance?.free ?? 0n, locked: balance?.locked ?? 0n, precision: this.ledger.asset(asset).precision });
        }
        rows.events.push({ kind: 'balance', seq: stamped.seq, time: stamped.ts, accountId, balances });
      }
    }
    this.lastSeq = stamped.seq;
    this.lastTs = stamped.ts;
    return result;
  }

  /**
   * Validates a command against the current state without changing anything (A12 test order),
   * through the module that owns it. Returns normally when it would be accepted.
   */
  check(command: Command, ts: number): void {
    const module = this.moduleOf.get(command.type);
    if (module?.check === undefined) throw new Error(`${command.type} cannot be checked`);
    module.check(command, { seq: this.lastSeq + 1, ts, rows: emptyDerivedRows(), recordRows: true, recordFlows: true, touched: new Map() });
  }

  /** Every deadline the modules' objects carry now, earliest first. */
  deadlines(): Deadline[] {
    const all: Deadline[] = [];
    for (const module of this.modules) if (module.deadlines !== undefined) all.push(...module.deadlines());
    return all.sort((a, b) => a.at - b.at);
  }

  /** The modules' own invariants (verify). */
  moduleChecks(): ModuleCheck[] {
    return this.modules.flatMap((module) => module.verify?.() ?? []);
  }

  /** The account a command names; NOT_FOUND when there is none. */
  account(accountId: number): Account {
    return this.context.account(accountId);
  }
}

/** Sorts a few strings in place: Array.prototype.sort allocates scratch space even for two. */
function sortInPlace(items: string[]): void {
  for (let i = 1; i < items.length; i++) {
    const item = items[i];
    let j = i - 1;
    for (; j >= 0 && items[j] > item; j--) items[j + 1] = items[j];
    items[j + 1] = item;
  }
}
