import { refuse } from '../../core/payment-errors.js';
import type { Command } from '../../core/types.js';
import type { Account, User } from '../../ledger/account.js';
import type { Ledger, PostingContext } from '../../ledger/ledger.js';
import { fiatSpec } from '../../payments/config.js';
import { rescale } from '../../payments/money.js';
import { defaultModes, type Merchant, type SandboxModes } from '../../payments/model.js';
import type { PaymentOrder } from '../../payments/orders.js';
import type { PaymentsPorts } from './payments-ports.js';
import type { PaymentsState } from './payments-state.js';

/** What a payments command works with: the module's state, the shared ledger, its ports, the posting context. */
export interface PaymentsContext {
  state: PaymentsState;
  ledger: Ledger;
  ports: PaymentsPorts;
  ctx: PostingContext;
  /** Orders the command changed, each written once when it ends (order-rows.ts). */
  changedOrders: Set<PaymentOrder>;
}

/**
 * An existing merchant-type user (-5033), e.g. the one a create that names no merchant acts for,
 * whoever calls: user 0, the operator's "any object", owns nothing, so it creates nothing.
 */
export function merchantUserOf(p: PaymentsContext, userId: number): User {
  const user = p.ledger.users.get(userId);
  if (user === undefined || user.userType !== 'merchant') refuse('NOT_API_USER', `User ${userId} is not a merchant user`);
  return user;
}

/** The caller's merchant; another user's is nonexistent (docs/merchant-payments.md "Getting a token" scope). `userId` 0: any (operator). */
export function merchantOf(p: PaymentsContext, userId: number, merchantId: number): Merchant {
  if (userId !== 0) return ownMerchant(p, userId, merchantId);
  return p.state.merchants.get(merchantId) ?? refuse('MC_NOT_EXIST', `Merchant ${merchantId} does not exist`);
}

/**
 * The merchant a create names: the user's own, whoever calls (-5006). A create makes an object of
 * the user's, so user 0 (the operator's "any object") and a user that does not exist own none.
 */
export function ownMerchant(p: PaymentsContext, userId: number, merchantId: number): Merchant {
  const merchant = p.state.merchants.get(merchantId);
  if (merchant === undefined || merchant.userId !== userId) refuse('MC_NOT_EXIST', `Merchant ${merchantId} does not exist`);
  return merchant;
}

export function modesOf(state: PaymentsState, userId: number): SandboxModes {
  return { ...defaultModes(state.sandbox), ...state.modes.get(userId) };
}

/**
 * Records an automatic decision on an object and makes it due at once: the sequencer applies it
 * right after this command; if it is not applied, the deadline scheduler submits it.
 */
export function decideLater(p: PaymentsContext, key: string, command: Command & { due?: string }): void {
  const due = { ...command, due: key };
  p.state.decisions.set(key, { at: p.ctx.ts, command: due });
  if (p.ctx.recordRows) p.ctx.rows.followUps.push(due);
}

/** What a stale automatic decision answers: it is dropped, and with it its entry. */
export interface Dropped {
  dropped: string;
}

/**
 * Ends a decision that found its object in another status: a docs/merchant-payments.md "The simulator and the sandbox API" call is refused (-5104), a
 * follow-up or deadline is dropped (its key removed), so that it is never submitted again.
 */
export function staleDecision(p: PaymentsContext, due: string | undefined, detail: string): Dropped {
  if (due === undefined) refuse('INVALID_STATE', detail);
  p.state.decisions.delete(due);
  return { dropped: due };
}

/** Ledger atoms of `units` of a fiat or crypto at area B accuracy. */
export function atomsOf(p: { ledger: Ledger }, asset: string, units: bigint, accuracy: number): bigint {
  const atoms = rescale(units, accuracy, p.ledger.asset(asset).precision);
  if (atoms === undefined) throw new Error(`${asset}: ledger precision below area B accuracy ${accuracy}`);
  return atoms;
}

/** Area B units (at `accuracy`) of ledger atoms, rounded down: what may be spent. */
export function unitsOfAtoms(p: PaymentsContext, asset: string, atoms: bigint, accuracy: number): bigint {
  const precision = p.ledger.asset(asset).precision;
  return precision >= accuracy ? atoms / 10n ** BigInt(precision - accuracy) : atoms * 10n ** BigInt(accuracy - precision);
}

export function fiatAccuracy(p: PaymentsContext, fiat: string): number {
  const spec = fiatSpec(p.state.config, fiat);
  if (spec === undefined) refuse('FIAT_INVALID', `Fiat ${fiat} is not supported`);
  return spec.accuracy;
}

/** Money from outside (a bank arrival): a ledger DEPOSIT that raises the asset's deposits total. */
export function bankIn(p: PaymentsContext, account: Account, asset: string, atoms: bigint): void {
  p.ledger.post(p.ctx, account, asset, atoms, 'DEPOSIT');
  totalsOf(p, asset).deposits += atoms;
}

/** Money leaving to a bank (a payout): a ledger WITHDRAW from locked funds. */
export function bankOut(p: PaymentsContext, account: Account, asset: string, atoms: bigint): void {
  p.ledger.post(p.ctx, account, asset, -atoms, 'WITHDRAW', true);
  totalsOf(p, asset).withdrawals += atoms;
}

function totalsOf(p: PaymentsContext, asset: string): { deposits: bigint; withdrawals: bigint } {
  const totals = p.ledger.totals.get(asset);
  if (totals === undefined) throw new Error(`no totals for ${asset}`);
  return totals;
}
