import type { AssetKind, UserType } from '../core/types.js';

/**
 * The layout of a snapshot image: the whole core state as canonical JSON, the shared ledger, then
 * each module's part under its name. Maps become arrays sorted by key, bigints decimal strings,
 * books their orders in priority order. Equal states give equal text, hence equal hashes.
 *
 * 8: the spot part holds the algo order settings, each symbol's last trade price and resting
 * icebergs' visible parts, and orders their stop and iceberg members. 7: each payment order holds its status log (`statusLog`). 6: an `ipBans` part (IP bans became journaled state). 5: a `listenKeys` part (listenKeys
 * became journaled state). 4: the spot part holds the rate-limit settings of the trading config.
 * 3: one part per module, without them. 1 and 2 were flat. All are still read, see
 * snapshot-upgrade.ts.
 */
export const IMAGE_VERSION = 8;

export interface LedgerImage {
  counters: { nextUserId: number; nextAccountId: number; nextFlowId: number };
  defaultFeeRates: [string, string];
  assets: {
    asset: string;
    precision: number;
    kind: AssetKind;
    fullName: string;
    chains: string[];
    withdrawFeeAtoms: string;
    minWithdrawAtoms: string;
    allowDeposit: boolean;
    allowWithdraw: boolean;
    deposits: string;
    withdrawals: string;
  }[];
  users: { userId: number; email: string; userType: UserType; accountIds: number[] }[];
  accounts: {
    accountId: number;
    userId: number;
    accountIndex: number;
    name: string;
    makerFeeRate: string;
    takerFeeRate: string;
    updateTime: number;
    balances: [string, string, string][];
  }[];
}

export interface CoreImage {
  version: typeof IMAGE_VERSION;
  lastSeq: number;
  lastTs: number;
  ledger: LedgerImage;
  /** Each module's `image()`, by module name. */
  modules: Record<string, unknown>;
}
