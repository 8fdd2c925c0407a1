import type { AssetKind } from '../core/types.js';

/** An asset of the catalogue; amounts of it live in the ledger as atoms (value × 10^precision). */
export interface AssetSpec {
  asset: string;
  precision: number;
  kind: AssetKind;
  fullName: string;
  chains: string[];
  withdrawFeeAtoms: bigint;
  minWithdrawAtoms: bigint;
  allowDeposit: boolean;
  allowWithdraw: boolean;
}
