import type { WithdrawalRow } from '../core/types.js';

/** A withdrawal request (A23) and its settlement (docs/spot-api.md "Deposits and withdrawals"). */
export interface Withdrawal {
  row: WithdrawalRow;
  amountAtoms: bigint;
  feeAtoms: bigint;
}

/** What area A funds hold beside the ledger: withdrawals under review or settled, idempotency keys, id counters. */
export class FundsState {
  readonly withdrawals = new Map<number, Withdrawal>();
  /** Client ids of withdrawals per account (A23 idempotency), → withdrawal id. */
  readonly withdrawalClientIds = new Map<number, Map<string, number>>();
  /** Client ids of A32 transfers per source account, → what the transfer moved (idempotency). */
  readonly transferClientIds = new Map<number, Map<string, string>>();
  nextDepositId = 1;
  nextWithdrawalId = 1;
}
