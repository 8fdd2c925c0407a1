import { BourseError } from '../core/errors.js';
import { FLOW_TYPES, type DerivedRows, type FlowTypeName, type UserType } from '../core/types.js';
import { FEE_RATE_ONE, type Account, type Balance, type User } from './account.js';
import type { AssetSpec } from './asset.js';

/** Where the postings of one command write their rows, and when. */
export interface PostingContext {
  seq: number;
  ts: number;
  rows: DerivedRows;
  /** False while replaying the journal: the rows are in the store already, only state is rebuilt. */
  recordRows: boolean;
  /** False where nothing reads flow rows (a replica of the core): only the store needs them. */
  recordFlows: boolean;
  /** Accounts whose balances (free or locked) this command changed, with the assets changed (each once). */
  touched: Map<number, string[]>;
  /**
   * Accounts whose order and balance events are recorded (a user data stream watches them); every
   * account when absent. Events are output for streams only: no state depends on them.
   */
  streamedAccounts?: AccountSet;
}

/** Membership of account ids (a Set, or a Map keyed by account id). */
export interface AccountSet {
  has(accountId: number): boolean;
}

/** True when the command records the order and balance events of this account. */
export function recordsEventsOf(ctx: PostingContext, accountId: number): boolean {
  return ctx.recordRows && (ctx.streamedAccounts === undefined || ctx.streamedAccounts.has(accountId));
}

export interface AssetTotals {
  deposits: bigint;
  withdrawals: bigint;
}

/** Notes that a command changed an account's balance of an asset. */
export function touch(ctx: PostingContext, accountId: number, asset: string): void {
  // Only balance events read it, and a replay records none.
  if (!recordsEventsOf(ctx, accountId)) return;
  const assets = ctx.touched.get(accountId);
  // An account's few assets: a scan of a short array costs less than a Set per account and command.
  if (assets === undefined) ctx.touched.set(accountId, [asset]);
  else if (!assets.includes(asset)) assets.push(asset);
}

/**
 * Balances of every account. Every change of free + locked goes through `post`, which writes its
 * balance-flow row; free↔locked moves write none. Per asset, the sum over all accounts equals
 * deposits minus withdrawals after every command (checked by `verifyTotals`).
 */
export class Ledger {
  readonly assets = new Map<string, AssetSpec>();
  readonly users = new Map<number, User>();
  readonly accounts = new Map<number, Account>();
  readonly totals = new Map<string, AssetTotals>();
  nextUserId = 1;
  nextAccountId = 1;
  nextFlowId = 1;
  /** The system account receiving every fee (docs/spot-api.md "Accounts and balances"). */
  readonly feeAccountId: number;
  defaultMakerFeeRate = 100_000n;
  defaultTakerFeeRate = 100_000n;

  constructor() {
    const system = this.createUser('', 'system');
    this.feeAccountId = system.accountIds[0];
  }

  createUser(email: string, userType: UserType): User {
    const user: User = { userId: this.nextUserId++, email, userType, accountIds: [] };
    this.users.set(user.userId, user);
    this.createAccount(user, '');
    return user;
  }

  /** Adds the next account of a user; a sub-account starts with its main account's fee rates. */
  createAccount(user: User, name: string): Account {
    const main = user.accountIds.length > 0 ? this.accounts.get(user.accountIds[0]) : undefined;
    const account: Account = {
      accountId: this.nextAccountId++,
      userId: user.userId,
      accountIndex: user.accountIds.length,
      name,
      makerFeeRate: main?.makerFeeRate ?? this.defaultMakerFeeRate,
      takerFeeRate: main?.takerFeeRate ?? this.defaultTakerFeeRate,
      balances: new Map(),
      updateTime: 0,
      openOrderCount: 0,
      openOrdersBySymbol: new Map(),
    };
    user.accountIds.push(account.accountId);
    this.accounts.set(account.accountId, account);
    return account;
  }

  addAsset(spec: AssetSpec): void {
    this.assets.set(spec.asset, spec);
    this.totals.set(spec.asset, { deposits: 0n, withdrawals: 0n });
  }

  asset(asset: string): AssetSpec {
    const spec = this.assets.get(asset);
    if (spec === undefined) throw new Error(`unknown asset ${asset}`);
    return spec;
  }

  account(accountId: number): Account {
    const account = this.accounts.get(accountId);
    if (account === undefined) throw new Error(`unknown account ${accountId}`);
    return account;
  }

  balance(account: Account, asset: string): Balance {
    let balance = account.balances.get(asset);
    if (balance === undefined) {
      balance = { free: 0n, locked: 0n };
      account.balances.set(asset, balance);
    }
    return balance;
  }

  free(account: Account, asset: string): bigint {
    return account.balances.get(asset)?.free ?? 0n;
  }

  /**
   * Moves free → locked; the caller checked the free balance. No flow row (the total stays), but a
   * balance change all the same: the account's update time and its stream hear of it.
   */
  lock(ctx: PostingContext, account: Account, asset: string, atoms: bigint): void {
    const balance = this.balance(account, asset);
    if (atoms < 0n || balance.free < atoms) throw new BourseError('INSUFFICIENT_BALANCE');
    balance.free -= atoms;
    balance.locked += atoms;
    account.updateTime = ctx.ts;
    touch(ctx, account.accountId, asset);
  }

  /** Moves locked → free; as `lock`, a balance change without a flow row. */
  unlock(ctx: PostingContext, account: Account, asset: string, atoms: bigint): void {
    if (atoms === 0n) return;
    const balance = this.balance(account, asset);
    if (atoms < 0n || balance.locked < atoms) throw new Error(`unlock ${atoms} > locked ${balance.locked} of ${asset}`);
    balance.locked -= atoms;
    balance.free += atoms;
    account.updateTime = ctx.ts;
    touch(ctx, account.accountId, asset);
  }

  /**
   * Changes an account's balance by `delta` atoms (from locked when `fromLocked`, which must cover a
   * negative delta) and writes the flow row. A zero delta writes nothing.
   */
  post(ctx: PostingContext, account: Account, asset: string, delta: bigint, flowType: FlowTypeName, fromLocked = false): void {
    if (delta === 0n) return;
    this.postTo(ctx, account, this.asset(asset), this.balance(account, asset), delta, FLOW_TYPES[flowType], fromLocked);
  }

  /**
   * `post` to a balance the caller already holds (`balance(account, asset.asset)`): settlement
   * posts eight times per fill to six balances, and looks each up once.
   */
  postTo(ctx: PostingContext, account: Account, asset: AssetSpec, balance: Balance, delta: bigint, flowType: number, fromLocked = false): void {
    if (delta === 0n) return;
    if (fromLocked) {
      const locked = balance.locked + delta;
      if (locked < 0n) throw new Error(`locked ${asset.asset} of account ${account.accountId} would go negative`);
      balance.locked = locked;
    } else {
      const free = balance.free + delta;
      if (free < 0n) throw new Error(`free ${asset.asset} of account ${account.accountId} would go negative`);
      balance.free = free;
    }
    account.updateTime = ctx.ts;
    touch(ctx, account.accountId, asset.asset);
    const flowId = this.nextFlowId++;
    if (!ctx.recordFlows) return;
    ctx.rows.flows.push({
      flowId,
      accountId: account.accountId,
      asset: asset.asset,
      flowType,
      changeAtoms: delta,
      totalAtoms: balance.free + balance.locked,
      precision: asset.precision,
      created: ctx.ts,
      seq: ctx.seq,
    });
  }

  /** A fee in atoms on `received` atoms: rounded up to the asset's atom, capped at what was received. */
  fee(received: bigint, rate: bigint): bigint {
    if (rate === 0n || received === 0n) return 0n;
    const fee = (received * rate + FEE_RATE_ONE - 1n) / FEE_RATE_ONE;
    return fee > received ? received : fee;
  }

  /** Per asset: the sum of all balances and the deposits minus withdrawals it must equal. */
  verifyTotals(): { asset: string; total: bigint; deposits: bigint; withdrawals: bigint }[] {
    const sums = new Map<string, bigint>();
    for (const account of this.accounts.values()) {
      for (const [asset, balance] of account.balances) {
        if (balance.free < 0n || balance.locked < 0n) throw new Error(`negative balance ${asset} in ${account.accountId}`);
        sums.set(asset, (sums.get(asset) ?? 0n) + balance.free + balance.locked);
      }
    }
    return [...this.assets.keys()].sort().map((asset) => {
      const totals = this.totals.get(asset) ?? { deposits: 0n, withdrawals: 0n };
      return { asset, total: sums.get(asset) ?? 0n, deposits: totals.deposits, withdrawals: totals.withdrawals };
    });
  }
}
