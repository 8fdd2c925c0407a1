import type { UserType } from '../core/types.js';

/** Free and locked atoms of one asset in one account; both never negative. */
export interface Balance {
  free: bigint;
  locked: bigint;
}

/** Fee rates are fixed-point with 8 decimals (docs/spot-api.md "Locks, fees and rounding": at most 8 decimals, 0 to 0.1). */
export const FEE_RATE_SCALE = 8;
export const FEE_RATE_ONE = 100_000_000n;

export interface Account {
  accountId: number;
  userId: number;
  /** 0 for the main account, 1..n for sub-accounts. */
  accountIndex: number;
  name: string;
  makerFeeRate: bigint;
  takerFeeRate: bigint;
  balances: Map<string, Balance>;
  /** Time of the last balance change, 0 if none. */
  updateTime: number;
  openOrderCount: number;
  openOrdersBySymbol: Map<string, number>;
  /**
   * A merchant's ledger account M (area B): its fiat changes only through area B, so area A trades
   * no order from it and moves no fiat in or out. Set by the payments module, which owns the fact.
   */
  merchantLedger?: true;
}

export interface User {
  userId: number;
  email: string;
  userType: UserType;
  /** Account ids by account index: [main, sub1, sub2, …]. */
  accountIds: number[];
}
