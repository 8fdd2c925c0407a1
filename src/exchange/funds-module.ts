import type { Command, CommandType, DepositCommand, SettleWithdrawalCommand, TransferCommand, WithdrawCommand, WithdrawalRow } from '../core/types.js';
import type { PostingContext } from '../ledger/ledger.js';
import { sortedEntries, type CoreModule } from './core-module.js';
import type { ExchangeCore } from './exchange-core.js';
import { applyFundsCommand, type Withdrawal } from './funds-commands.js';

export interface FundsImage {
  counters: { nextDepositId: number; nextWithdrawalId: number };
  withdrawals: { row: WithdrawalRow; amountAtoms: string; feeAtoms: string }[];
  withdrawalClientIds: [number, [string, number][]][];
  transferClientIds: [number, [string, string][]][];
}

const FUNDS_COMMANDS = ['deposit', 'withdraw', 'settleWithdrawal', 'transfer'] as const satisfies readonly CommandType[];

const byAccount = <V>(map: ReadonlyMap<number, ReadonlyMap<string, V>>): [number, [string, V][]][] =>
  sortedEntries(map).map(([accountId, ids]) => [accountId, sortedEntries(ids)]);

/** Area A funds: deposits, withdrawals with their review, transfers, and their idempotency keys. */
export class FundsModule implements CoreModule<FundsImage> {
  readonly name = 'funds';
  readonly commandTypes = FUNDS_COMMANDS;
  readonly withdrawals = new Map<number, Withdrawal>();
  /** Client ids of withdrawals per account (A23 idempotency), → withdrawal id. */
  readonly withdrawalClientIds = new Map<number, Map<string, number>>();
  /** Client ids of A32 transfers per source account, → what the transfer moved (idempotency). */
  readonly transferClientIds = new Map<number, Map<string, string>>();
  nextDepositId = 1;
  nextWithdrawalId = 1;

  constructor(private readonly core: ExchangeCore) {}

  apply(command: Command, ctx: PostingContext): unknown {
    return applyFundsCommand(this.core, command as DepositCommand | WithdrawCommand | SettleWithdrawalCommand | TransferCommand, ctx);
  }

  image(): FundsImage {
    return {
      counters: { nextDepositId: this.nextDepositId, nextWithdrawalId: this.nextWithdrawalId },
      withdrawals: sortedEntries(this.withdrawals).map(([, w]) => ({ row: { ...w.row }, amountAtoms: w.amountAtoms.toString(), feeAtoms: w.feeAtoms.toString() })),
      withdrawalClientIds: byAccount(this.withdrawalClientIds),
      transferClientIds: byAccount(this.transferClientIds),
    };
  }

  restore(image: FundsImage): void {
    this.nextDepositId = image.counters.nextDepositId;
    this.nextWithdrawalId = image.counters.nextWithdrawalId;
    for (const w of image.withdrawals) {
      this.withdrawals.set(w.row.withdrawalId, { row: { ...w.row }, amountAtoms: BigInt(w.amountAtoms), feeAtoms: BigInt(w.feeAtoms) });
    }
    for (const [accountId, ids] of image.withdrawalClientIds) this.withdrawalClientIds.set(accountId, new Map(ids));
    for (const [accountId, ids] of image.transferClientIds) this.transferClientIds.set(accountId, new Map(ids));
  }
}
