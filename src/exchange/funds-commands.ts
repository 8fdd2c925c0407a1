import { formatUnits, parseDecimal } from '../core/decimal.js';
import { BourseError, reject } from '../core/errors.js';
import type { DepositCommand, SettleWithdrawalCommand, TransferCommand, WithdrawCommand, WithdrawalRow } from '../core/types.js';
import type { AssetSpec } from '../ledger/asset.js';
import type { PostingContext } from '../ledger/ledger.js';
import { positiveAtoms } from './amounts.js';
import type { ExchangeCore } from './exchange-core.js';

/** A withdrawal request (A23) and its settlement (docs/spot-api.md "Deposits and withdrawals"). */
export interface Withdrawal {
  row: WithdrawalRow;
  amountAtoms: bigint;
  feeAtoms: bigint;
}

export const WITHDRAWAL_AUDITING = 1;
export const WITHDRAWAL_REJECTED = 2;
export const WITHDRAWAL_SENT = 6;

export function applyFundsCommand(
  core: ExchangeCore,
  command: DepositCommand | WithdrawCommand | SettleWithdrawalCommand | TransferCommand,
  ctx: PostingContext,
): unknown {
  switch (command.type) {
    case 'deposit':
      return deposit(core, command, ctx);
    case 'withdraw':
      return withdraw(core, command, ctx);
    case 'settleWithdrawal':
      return settleWithdrawal(core, command, ctx);
    case 'transfer':
      return transfer(core, command, ctx);
  }
}

function assetOf(core: ExchangeCore, asset: string): AssetSpec {
  const spec = core.ledger.assets.get(asset);
  if (spec === undefined) throw new BourseError('NOT_FOUND', [`asset ${asset}`]);
  return spec;
}

function deposit(core: ExchangeCore, cmd: DepositCommand, ctx: PostingContext): { depositId: number } {
  const account = core.account(cmd.accountId);
  const asset = assetOf(core, cmd.asset);
  // A merchant's fiat arrives as a bank arrival of area B (a funding record), never as a plain deposit.
  if (asset.kind === 'fiat' && account.merchantLedger === true) reject('INVALID_PARAM_VALUE', ['accountId'], 'Fiat reaches a merchant ledger account only as an area B bank arrival.');
  const atoms = positiveAtoms(cmd.amount, asset, 'amount');
  core.ledger.post(ctx, account, asset.asset, atoms, 'DEPOSIT');
  const totals = core.ledger.totals.get(asset.asset);
  if (totals === undefined) throw new Error(`no totals for ${asset.asset}`);
  totals.deposits += atoms;
  const depositId = core.funds.nextDepositId++;
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

function withdraw(core: ExchangeCore, cmd: WithdrawCommand, ctx: PostingContext): { withdrawalId: number } {
  const account = core.account(cmd.accountId);
  const earlierId = core.funds.withdrawalClientIds.get(account.accountId)?.get(cmd.clientOrderId);
  if (earlierId !== undefined) {
    // A retry with the same values gets the first reply again; other values are a reuse (A23).
    const earlier = core.funds.withdrawals.get(earlierId);
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
  const asset = core.ledger.assets.get(cmd.asset);
  if (asset === undefined || asset.kind !== 'crypto' || !asset.allowWithdraw) reject('INVALID_PARAM_VALUE', ['tokenId']);
  const amountAtoms = positiveAtoms(cmd.amount, asset, 'withdrawQuantity');
  if (amountAtoms < asset.minWithdrawAtoms) reject('INVALID_PARAM_VALUE', ['withdrawQuantity']);
  const feeAtoms = asset.withdrawFeeAtoms;
  if (core.ledger.free(account, asset.asset) < amountAtoms + feeAtoms) reject('INSUFFICIENT_BALANCE');
  core.ledger.lock(ctx, account, asset.asset, amountAtoms + feeAtoms);
  const withdrawalId = core.funds.nextWithdrawalId++;
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
  core.funds.withdrawals.set(withdrawalId, { row, amountAtoms, feeAtoms });
  let clientIds = core.funds.withdrawalClientIds.get(account.accountId);
  if (clientIds === undefined) {
    clientIds = new Map();
    core.funds.withdrawalClientIds.set(account.accountId, clientIds);
  }
  clientIds.set(cmd.clientOrderId, withdrawalId);
  ctx.rows.withdrawals.push({ ...row });
  return { withdrawalId };
}

function settleWithdrawal(core: ExchangeCore, cmd: SettleWithdrawalCommand, ctx: PostingContext): WithdrawalRow {
  const withdrawal = core.funds.withdrawals.get(cmd.withdrawalId);
  if (withdrawal === undefined) throw new BourseError('NOT_FOUND', [`withdrawal ${cmd.withdrawalId}`]);
  if (withdrawal.row.status !== WITHDRAWAL_AUDITING) reject('INVALID_PARAM_VALUE', ['status']);
  const ledger = core.ledger;
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

function transfer(core: ExchangeCore, cmd: TransferCommand, ctx: PostingContext): { success: true } {
  const from = core.account(cmd.fromAccountId);
  const to = core.account(cmd.toAccountId);
  const asset = core.ledger.assets.get(cmd.asset);
  if (asset === undefined) reject('INVALID_PARAM_VALUE', ['tokenId']);
  const atoms = positiveAtoms(cmd.amount, asset, 'amount');
  if (cmd.clientOrderId !== undefined) {
    const earlier = core.funds.transferClientIds.get(from.accountId)?.get(cmd.clientOrderId);
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
  if (core.ledger.free(from, asset.asset) < atoms) reject('INSUFFICIENT_BALANCE');
  core.ledger.post(ctx, from, asset.asset, -atoms, cmd.flowType);
  core.ledger.post(ctx, to, asset.asset, atoms, cmd.flowType);
  if (cmd.clientOrderId !== undefined) {
    let ids = core.funds.transferClientIds.get(from.accountId);
    if (ids === undefined) {
      ids = new Map();
      core.funds.transferClientIds.set(from.accountId, ids);
    }
    ids.set(cmd.clientOrderId, transferFingerprint(cmd, atoms));
  }
  return { success: true };
}
