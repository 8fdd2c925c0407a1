import { formatUnits, parseDecimal } from '../core/decimal.js';
import { BourseError, reject } from '../core/errors.js';
import type { DepositCommand, SettleWithdrawalCommand, TransferCommand, WithdrawCommand, WithdrawalRow } from '../core/types.js';
import type { AssetSpec } from '../ledger/asset.js';
import type { Ledger, PostingContext } from '../ledger/ledger.js';
import { positiveAtoms } from './amounts.js';
import type { CoreContext } from './core-module.js';
import type { FundsState } from './funds-state.js';

export const WITHDRAWAL_AUDITING = 1;
export const WITHDRAWAL_REJECTED = 2;
export const WITHDRAWAL_SENT = 6;

export type FundsCommand = DepositCommand | WithdrawCommand | SettleWithdrawalCommand | TransferCommand;

export function applyFundsCommand(funds: FundsState, context: CoreContext, command: FundsCommand, ctx: PostingContext): unknown {
  switch (command.type) {
    case 'deposit':
      return deposit(funds, context, command, ctx);
    case 'withdraw':
      return withdraw(funds, context, command, ctx);
    case 'settleWithdrawal':
      return settleWithdrawal(funds, context.ledger, command, ctx);
    case 'transfer':
      return transfer(funds, context, command, ctx);
  }
}

function assetOf(ledger: Ledger, asset: string): AssetSpec {
  const spec = ledger.assets.get(asset);
  if (spec === undefined) throw new BourseError('NOT_FOUND', [`asset ${asset}`]);
  return spec;
}

function deposit(funds: FundsState, context: CoreContext, cmd: DepositCommand, ctx: PostingContext): { depositId: number } {
  const ledger = context.ledger;
  const account = context.account(cmd.accountId);
  const asset = assetOf(ledger, cmd.asset);
  // A merchant's fiat arrives as a bank arrival of area B (a funding record), never as a plain deposit.
  if (asset.kind === 'fiat' && account.merchantLedger === true) reject('INVALID_PARAM_VALUE', ['accountId'], 'Fiat reaches a merchant ledger account only as an area B bank arrival.');
  const atoms = positiveAtoms(cmd.amount, asset, 'amount');
  ledger.post(ctx, account, asset.asset, atoms, 'DEPOSIT');
  const totals = ledger.totals.get(asset.asset);
  if (totals === undefined) throw new Error(`no totals for ${asset.asset}`);
  totals.deposits += atoms;
  const depositId = funds.nextDepositId++;
  ctx.rows.deposits.push({
    depositId,
    accountId: account.accountId,
    asset: asset.asset,
    amount: formatUnits(atoms, asset.precision),
    txId: cmd.txId,
    time: ctx.ts,
  });
  return { depositId };
}

function withdraw(funds: FundsState, context: CoreContext, cmd: WithdrawCommand, ctx: PostingContext): { withdrawalId: number } {
  const ledger = context.ledger;
  const account = context.account(cmd.accountId);
  const earlierId = funds.withdrawalClientIds.get(account.accountId)?.get(cmd.clientOrderId);
  if (earlierId !== undefined) {
    // A retry with the same values gets the first reply again; other values are a reuse (A23).
    const earlier = funds.withdrawals.get(earlierId);
    const same =
      earlier !== undefined &&
      earlier.row.asset === cmd.asset &&
      earlier.row.address === cmd.address &&
      earlier.row.addressExt === cmd.addressExt &&
      earlier.row.chainType === cmd.chainType &&
      parseDecimal(earlier.row.amount) === parseDecimal(cmd.amount);
    if (!same) reject('REPEATED_SUBMIT');
    return { withdrawalId: earlierId };
  }
  const asset = ledger.assets.get(cmd.asset);
  if (asset === undefined || asset.kind !== 'crypto' || !asset.allowWithdraw) reject('INVALID_PARAM_VALUE', ['tokenId']);
  const amountAtoms = positiveAtoms(cmd.amount, asset, 'withdrawQuantity');
  if (amountAtoms < asset.minWithdrawAtoms) reject('INVALID_PARAM_VALUE', ['withdrawQuantity']);
  const feeAtoms = asset.withdrawFeeAtoms;
  if (ledger.free(account, asset.asset) < amountAtoms + feeAtoms) reject('INSUFFICIENT_BALANCE');
  ledger.lock(ctx, account, asset.asset, amountAtoms + feeAtoms);
  const withdrawalId = funds.nextWithdrawalId++;
  const row: WithdrawalRow = {
    withdrawalId,
    accountId: account.accountId,
    clientOrderId: cmd.clientOrderId,
    asset: asset.asset,
    chainType: cmd.chainType,
    address: cmd.address,
    addressExt: cmd.addressExt,
    amount: formatUnits(amountAtoms, asset.precision),
    fee: formatUnits(feeAtoms, asset.precision),
    status: WITHDRAWAL_AUDITING,
    txId: '',
    time: ctx.ts,
    updateTime: ctx.ts,
  };
  funds.withdrawals.set(withdrawalId, { row, amountAtoms, feeAtoms });
  let clientIds = funds.withdrawalClientIds.get(account.accountId);
  if (clientIds === undefined) {
    clientIds = new Map();
    funds.withdrawalClientIds.set(account.accountId, clientIds);
  }
  clientIds.set(cmd.clientOrderId, withdrawalId);
  ctx.rows.withdrawals.push({ ...row });
  return { withdrawalId };
}

function settleWithdrawal(funds: FundsState, ledger: Ledger, cmd: SettleWithdrawalCommand, ctx: PostingContext): WithdrawalRow {
  const withdrawal = funds.withdrawals.get(cmd.withdrawalId);
  if (withdrawal === undefined) throw new BourseError('NOT_FOUND', [`withdrawal ${cmd.withdrawalId}`]);
  if (withdrawal.row.status !== WITHDRAWAL_AUDITING) reject('INVALID_PARAM_VALUE', ['status']);
  const account = ledger.account(withdrawal.row.accountId);
  const asset = withdrawal.row.asset;
  if (cmd.approve) {
    ledger.post(ctx, account, asset, -withdrawal.amountAtoms, 'WITHDRAW', true);
    ledger.post(ctx, account, asset, -withdrawal.feeAtoms, 'WITHDRAWAL_FEE', true);
    ledger.post(ctx, ledger.account(ledger.feeAccountId), asset, withdrawal.feeAtoms, 'WITHDRAWAL_FEE');
    const totals = ledger.totals.get(asset);
    if (totals === undefined) throw new Error(`no totals for ${asset}`);
    totals.withdrawals += withdrawal.amountAtoms;
    withdrawal.row.status = WITHDRAWAL_SENT;
    withdrawal.row.txId = cmd.txId;
  } else {
    ledger.unlock(ctx, account, asset, withdrawal.amountAtoms + withdrawal.feeAtoms);
    withdrawal.row.status = WITHDRAWAL_REJECTED;
  }
  withdrawal.row.updateTime = ctx.ts;
  const row = { ...withdrawal.row };
  ctx.rows.withdrawals.push(row);
  return row;
}

/** What must be equal for a retried A32 to be the same request. */
function transferFingerprint(cmd: TransferCommand, atoms: bigint): string {
  return `${cmd.toAccountId}:${cmd.asset}:${atoms}:${cmd.flowType}`;
}

function transfer(funds: FundsState, context: CoreContext, cmd: TransferCommand, ctx: PostingContext): { success: true } {
  const ledger = context.ledger;
  const from = context.account(cmd.fromAccountId);
  const to = context.account(cmd.toAccountId);
  const asset = ledger.assets.get(cmd.asset);
  if (asset === undefined) reject('INVALID_PARAM_VALUE', ['tokenId']);
  const atoms = positiveAtoms(cmd.amount, asset, 'amount');
  if (cmd.clientOrderId !== undefined) {
    const earlier = funds.transferClientIds.get(from.accountId)?.get(cmd.clientOrderId);
    if (earlier !== undefined) {
      if (earlier !== transferFingerprint(cmd, atoms)) reject('REPEATED_SUBMIT');
      return { success: true };
    }
  }
  if (from.accountId === to.accountId) reject('TRANSFER_FAILED', ['the source and the target are the same account']);
  // A merchant's pending fund changes only through area B operations (A30 refuses fiat, docs/merchant-payments.md "Lifecycles").
  if (asset.kind === 'fiat' && (from.merchantLedger === true || to.merchantLedger === true)) {
    reject('TRANSFER_FAILED', ['fiat moves into or out of a merchant ledger account only through area B']);
  }
  if (ledger.free(from, asset.asset) < atoms) reject('INSUFFICIENT_BALANCE');
  ledger.post(ctx, from, asset.asset, -atoms, cmd.flowType);
  ledger.post(ctx, to, asset.asset, atoms, cmd.flowType);
  if (cmd.clientOrderId !== undefined) {
    let ids = funds.transferClientIds.get(from.accountId);
    if (ids === undefined) {
      ids = new Map();
      funds.transferClientIds.set(from.accountId, ids);
    }
    ids.set(cmd.clientOrderId, transferFingerprint(cmd, atoms));
  }
  return { success: true };
}
