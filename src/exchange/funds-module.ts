import type { Command, CommandType, WithdrawalRow } from '../core/types.js';
import type { PostingContext } from '../ledger/ledger.js';
import { sortedEntries, type CoreContext, type CoreModule } from './core-module.js';
import { applyFundsCommand, type FundsCommand } from './funds-commands.js';
import { FundsState } from './funds-state.js';

export interface FundsImage {
  counters: { nextDepositId: number; nextWithdrawalId: number };
  withdrawals: { row: WithdrawalRow; amountAtoms: string; feeAtoms: string }[];
  withdrawalClientIds: [number, [string, number][]][];
  transferClientIds: [number, [string, string][]][];
}

const FUNDS_COMMANDS = ['deposit', 'withdraw', 'settleWithdrawal', 'transfer'] as const satisfies readonly CommandType[];

const byAccount = <V>(map: ReadonlyMap<number, ReadonlyMap<string, V>>): [number, [string, V][]][] =>
  sortedEntries(map).map(([accountId, ids]) => [accountId, sortedEntries(ids)]);

/** Area A funds: deposits, withdrawals with their review, transfers, and their idempotency keys. It needs nothing of another module. */
export class FundsModule extends FundsState implements CoreModule<FundsImage> {
  readonly name = 'funds';
  readonly commandTypes = FUNDS_COMMANDS;

  constructor(private readonly context: CoreContext) {
    super();
  }

  apply(command: Command, ctx: PostingContext): unknown {
    return applyFundsCommand(this, this.context, command as FundsCommand, ctx);
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
