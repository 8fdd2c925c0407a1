import { reject } from '../../core/errors.js';
import { refuse } from '../../core/payment-errors.js';
import type { IssueTokenCommand, PaymentCommand, PaymentsSetUpCommand, SetSandboxModesCommand } from '../../core/payment-commands.js';
import type { Command, CommandType } from '../../core/types.js';
import type { PostingContext } from '../../ledger/ledger.js';
import type { PaymentsConfig, WebhookSettings } from '../../payments/config.js';
import { formatFixed } from '../../payments/money.js';
import { MODE_VALUES, type SandboxModes, type TokenRecord } from '../../payments/model.js';
import type { CoreContext, CoreModule, Deadline, ModuleCheck } from '../core-module.js';
import { addBeneficiary, deleteBeneficiary, reviewBeneficiary, setRefundAccount } from './beneficiary-commands.js';
import { mergePaymentsConfig } from './config-commands.js';
import { bankArrival, claimFunds, settleFunding, transferFunds } from './funding-commands.js';
import { activateMerchantAccount, createMerchant, merchantKyc, relinkMerchant, reviewMerchantAccount, setMerchantLimits, setUserLimit } from './merchant-commands.js';
import { attachDocuments, confirmOrder, expireOrder, orderPayout, releaseOrder, reviewOrder } from './order-commands.js';
import { createPaymentOrder } from './order-create.js';
import { reservations } from './order-ledger.js';
import { writeChangedOrders } from './order-rows.js';
import { atomsOf, modesOf, type PaymentsContext } from './payments-context.js';
import { paymentsImage, paymentsStateOf, type PaymentsImage } from './payments-image.js';
import type { PaymentsPorts } from './payments-ports.js';
import { PaymentsState } from './payments-state.js';
import { createQuote, expireQuote, setPriceOverride } from './quote-commands.js';

/** At most this many live tokens per API key (docs/merchant-payments.md "Getting a token"): the 21st revokes the oldest. */
export const MAX_TOKENS_PER_KEY = 20;
/** Precision of assets the payments module lists in the ledger itself (as area A's demo does). */
const LEDGER_PRECISION = 8;

const PAYMENT_COMMANDS = [
  'paymentsSetUp',
  'setPaymentsConfig',
  'issueToken',
  'createMerchant',
  'relinkMerchant',
  'merchantKyc',
  'activateMerchantAccount',
  'reviewMerchantAccount',
  'addBeneficiary',
  'reviewBeneficiary',
  'deleteBeneficiary',
  'setRefundAccount',
  'bankArrival',
  'claimFunds',
  'settleFunding',
  'transferFunds',
  'setSandboxModes',
  'setMerchantLimits',
  'setUserLimit',
  'createQuote',
  'expireQuote',
  'setPriceOverride',
  'createPaymentOrder',
  'reviewOrder',
  'confirmOrder',
  'orderPayout',
  'expireOrder',
  'releaseOrder',
  'attachDocuments',
] as const satisfies readonly CommandType[];

/**
 * Area B (docs/merchant-payments.md): merchants, merchant accounts, beneficiaries, funding records,
 * tokens, quotes and payment orders. Its ports (payments-ports.ts): the catalogue's key lookup,
 * the spot books prices walk, what the desk's spot orders lock, the webhooks' outbox. It offers
 * the desk's account (to the catalogue) and the webhook settings (to the webhooks module).
 */
export class PaymentsModule implements CoreModule<PaymentsImage> {
  readonly name = 'payments';
  readonly commandTypes = PAYMENT_COMMANDS;
  state = new PaymentsState();

  constructor(
    private readonly context: CoreContext,
    private readonly ports: PaymentsPorts,
  ) {}

  get config(): PaymentsConfig {
    return this.state.config;
  }

  get tokens(): ReadonlyMap<string, TokenRecord> {
    return this.state.tokens;
  }

  /** The desk D: takes the other side of every conversion; 0 until set up. */
  get deskAccountId(): number {
    return this.state.deskAccountId;
  }

  /** The webhooks' retry schedule and retention, part of the payments configuration. */
  get webhookSettings(): WebhookSettings {
    return this.state.config.webhook;
  }

  apply(command: Command, ctx: PostingContext): unknown {
    const p: PaymentsContext = { state: this.state, ledger: this.context.ledger, ports: this.ports, ctx, changedOrders: new Set() };
    const result = this.applyCommand(command as PaymentCommand, p);
    writeChangedOrders(p);
    return result;
  }

  private applyCommand(cmd: PaymentCommand, p: PaymentsContext): unknown {
    switch (cmd.type) {
      case 'paymentsSetUp':
        return this.setUp(cmd);
      case 'setPaymentsConfig':
        this.state.config = mergePaymentsConfig(this.state.config, cmd.patch);
        this.listAssets();
        return this.state.config;
      case 'issueToken':
        return this.issueToken(cmd, p.ctx);
      case 'createMerchant':
        return createMerchant(p, cmd);
      case 'relinkMerchant':
        return relinkMerchant(p, cmd);
      case 'merchantKyc':
        return merchantKyc(p, cmd);
      case 'activateMerchantAccount':
        return activateMerchantAccount(p, cmd);
      case 'reviewMerchantAccount':
        return reviewMerchantAccount(p, cmd);
      case 'addBeneficiary':
        return addBeneficiary(p, cmd);
      case 'reviewBeneficiary':
        return reviewBeneficiary(p, cmd);
      case 'deleteBeneficiary':
        return deleteBeneficiary(p, cmd);
      case 'setRefundAccount':
        return setRefundAccount(p, cmd);
      case 'bankArrival':
        return bankArrival(p, cmd);
      case 'claimFunds':
        return claimFunds(p, cmd);
      case 'settleFunding':
        return settleFunding(p, cmd);
      case 'transferFunds':
        return transferFunds(p, cmd);
      case 'setSandboxModes':
        return this.setModes(cmd);
      case 'setMerchantLimits':
        return setMerchantLimits(p, cmd);
      case 'setUserLimit':
        return setUserLimit(p, cmd);
      case 'createQuote':
        return createQuote(p, cmd);
      case 'expireQuote':
        return expireQuote(p, cmd);
      case 'setPriceOverride':
        return setPriceOverride(p, cmd);
      case 'createPaymentOrder':
        return createPaymentOrder(p, cmd);
      case 'reviewOrder':
        return reviewOrder(p, cmd);
      case 'confirmOrder':
        return confirmOrder(p, cmd);
      case 'orderPayout':
        return orderPayout(p, cmd);
      case 'expireOrder':
        return expireOrder(p, cmd);
      case 'releaseOrder':
        return releaseOrder(p, cmd);
      case 'attachDocuments':
        return attachDocuments(p, cmd);
    }
  }

  /** The simulator's modes of a user now (docs/merchant-payments.md "The simulator and the sandbox API"). */
  modesOf(userId: number): SandboxModes {
    return modesOf(this.state, userId);
  }

  /** First start: the desk's system user and the catalogue's assets; every start: the sandbox flag. */
  private setUp(cmd: PaymentsSetUpCommand): { deskAccountId: number; sandbox: boolean } {
    if (this.state.deskAccountId === 0) this.state.deskAccountId = this.context.ledger.createUser('desk', 'system').accountIds[0];
    this.state.sandbox = cmd.sandbox;
    this.listAssets();
    return { deskAccountId: this.state.deskAccountId, sandbox: this.state.sandbox };
  }

  /** Every configured currency is an asset of the ledger (fiat or crypto), so M and D can hold it. */
  private listAssets(): void {
    const ledger = this.context.ledger;
    const wanted = [...this.state.config.fiats.map((f) => ({ asset: f.fiat, kind: 'fiat' as const, accuracy: f.accuracy })), ...this.state.config.cryptos.map((c) => ({ asset: c.crypto, kind: 'crypto' as const, accuracy: c.accuracy }))];
    for (const { asset, kind, accuracy } of wanted) {
      const spec = ledger.assets.get(asset);
      if (spec !== undefined) {
        if (spec.precision < accuracy) reject('INVALID_PARAM_VALUE', [asset], `The ledger holds ${asset} with ${spec.precision} decimals, fewer than its accuracy ${accuracy}.`);
        continue;
      }
      ledger.addAsset({ asset, precision: Math.max(LEDGER_PRECISION, accuracy), kind, fullName: asset, chains: [], withdrawFeeAtoms: 0n, minWithdrawAtoms: 0n, allowDeposit: kind === 'crypto', allowWithdraw: false });
    }
  }

  private issueToken(cmd: IssueTokenCommand, ctx: PostingContext): { expireTime: number } {
    const ts = ctx.ts;
    const key = this.ports.keys.apiKey(cmd.apiKey);
    if (key === undefined || key.revoked) refuse('REJECTED_MBX_KEY', 'API key unknown or revoked');
    if (this.context.ledger.users.get(key.userId)?.userType !== 'merchant') refuse('NOT_API_USER', `User ${key.userId} is not a merchant user`);
    const tokens = this.state.tokens;
    const live = [...tokens.values()].filter((t) => t.apiKey === cmd.apiKey).sort((a, b) => a.issuedSeq - b.issuedSeq);
    for (const token of live) if (token.expireTime <= ts) tokens.delete(token.tokenHash);
    const stillLive = live.filter((t) => t.expireTime > ts);
    for (const token of stillLive.slice(0, Math.max(0, stillLive.length - MAX_TOKENS_PER_KEY + 1))) tokens.delete(token.tokenHash);
    const expireTime = ts + this.state.config.tokenTtlMs;
    tokens.set(cmd.tokenHash, { tokenHash: cmd.tokenHash, apiKey: cmd.apiKey, userId: key.userId, expireTime, issuedAt: ts, issuedSeq: ctx.seq });
    return { expireTime };
  }

  private setModes(cmd: SetSandboxModesCommand): SandboxModes {
    const merged: Partial<SandboxModes> = { ...this.state.modes.get(cmd.userId) };
    for (const [name, value] of Object.entries(cmd.modes)) {
      const allowed = MODE_VALUES[name as keyof SandboxModes] as readonly unknown[] | undefined;
      if (allowed === undefined || !allowed.includes(value)) refuse('PARAM_IS_INVALID', `${name} must be one of ${allowed === undefined ? 'the mode names' : allowed.join(', ')}`);
      (merged as Record<string, unknown>)[name] = value;
    }
    this.state.modes.set(cmd.userId, merged);
    return modesOf(this.state, cmd.userId);
  }

  deadlines(): Deadline[] {
    const due: Deadline[] = [...this.state.decisions.values()];
    for (const orderId of this.state.openOrders) {
      const deadline = this.state.orders.get(orderId)?.deadline;
      if (deadline === undefined) continue;
      const command = { userId: 0, orderId, due: `deadline:${orderId}` };
      due.push({ at: deadline.at, command: deadline.action === 'expire' ? { type: 'expireOrder', ...command } : { type: 'releaseOrder', ...command } });
    }
    for (const quote of this.state.quotes.values()) due.push({ at: quote.expireTime, command: { type: 'expireQuote', userId: 0, quoteId: quote.quoteId, due: `quote:${quote.quoteId}` } });
    return due;
  }

  /** docs/merchant-payments.md "Exactly-once settlement": the locked fiat of each M equals what its pending claims reserve. */
  verify(): ModuleCheck[] {
    const ledger = this.context.ledger;
    const reserved = new Map<string, bigint>();
    const add = (accountId: number, asset: string, atoms: bigint): void => {
      const key = `${accountId}:${asset}`;
      reserved.set(key, (reserved.get(key) ?? 0n) + atoms);
    };
    const atoms = (asset: string, units: bigint, accuracy: number): bigint => atomsOf(this.context, asset, units, accuracy);
    const accountIdOf = (merchantId: number): number => this.state.merchants.get(merchantId)?.accountId ?? -1;
    for (const record of this.state.pendingFunding.values()) {
      if (record.type === 'WITHDRAW') add(accountIdOf(record.merchantId), record.fiat, atoms(record.fiat, record.totalAmount, record.accuracy));
    }
    const feeAccountId = ledger.feeAccountId;
    for (const orderId of this.state.openOrders) {
      const order = this.state.orders.get(orderId);
      if (order === undefined) continue;
      for (const r of reservations(order, this.state.deskAccountId, feeAccountId, accountIdOf)) add(r.accountId, r.asset, atoms(r.asset, r.amount.units, r.amount.accuracy));
    }
    // The desk may trade through area A (docs/merchant-payments.md): its open spot orders hold their locks too.
    for (const lock of this.ports.spotLocks.locksOf(this.state.deskAccountId)) add(this.state.deskAccountId, lock.asset, lock.atoms);
    // Every merchant account M, the desk D and FEE: what is locked is exactly what is reserved.
    const accounts = [...this.state.merchants.values()].map((m) => m.accountId);
    if (this.state.deskAccountId !== 0) accounts.push(this.state.deskAccountId, feeAccountId);
    const checks: ModuleCheck[] = [];
    for (const accountId of accounts) {
      const account = ledger.account(accountId);
      const assets = new Set([...account.balances.keys(), ...[...reserved.keys()].filter((k) => k.startsWith(`${accountId}:`)).map((k) => k.slice(String(accountId).length + 1))]);
      for (const asset of assets) {
        const locked = account.balances.get(asset)?.locked ?? 0n;
        const expected = reserved.get(`${accountId}:${asset}`) ?? 0n;
        if (locked === 0n && expected === 0n) continue;
        const precision = ledger.asset(asset).precision;
        checks.push({ ok: locked === expected, detail: { accountId: String(accountId), asset, locked: formatFixed(locked, precision), reserved: formatFixed(expected, precision) } });
      }
    }
    return checks;
  }

  image(): PaymentsImage {
    return paymentsImage(this.state);
  }

  restore(image: PaymentsImage): void {
    this.state = paymentsStateOf(image);
    for (const m of this.state.merchants.values()) this.context.ledger.account(m.accountId).merchantLedger = true;
  }
}
