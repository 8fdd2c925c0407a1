import { reject } from '../../core/errors.js';
import { refuse } from '../../core/payment-errors.js';
import type { IssueTokenCommand, PaymentCommand, PaymentsSetUpCommand, SetSandboxModesCommand } from '../../core/payment-commands.js';
import type { Command, CommandType } from '../../core/types.js';
import type { PostingContext } from '../../ledger/ledger.js';
import type { PaymentsConfig } from '../../payments/config.js';
import { formatFixed } from '../../payments/money.js';
import { TERMINAL_STATUSES, type Money, type OrderLeg, type PaymentOrder, type Quote } from '../../payments/orders.js';
import { MODE_VALUES, type Beneficiary, type FundingRecord, type Merchant, type MerchantAccount, type SandboxModes, type TokenRecord } from '../../payments/model.js';
import { sortedEntries, type CoreModule, type Deadline, type ModuleCheck } from '../core-module.js';
import type { ExchangeCore } from '../exchange-core.js';
import { addBeneficiary, deleteBeneficiary, reviewBeneficiary, setRefundAccount } from './beneficiary-commands.js';
import { mergePaymentsConfig } from './config-commands.js';
import { bankArrival, claimFunds, settleFunding, transferFunds } from './funding-commands.js';
import { attachDocuments, confirmOrder, createQuote, expireOrder, expireQuote, orderPayout, releaseOrder, reviewOrder, setPriceOverride } from './order-commands.js';
import { createPaymentOrder } from './order-create.js';
import { reservations } from './order-transitions.js';
import { activateMerchantAccount, createMerchant, merchantKyc, relinkMerchant, reviewMerchantAccount, setMerchantLimits, setUserLimit } from './merchant-commands.js';
import { atomsOf, modesOf, type PaymentsContext } from './payments-context.js';
import { PaymentsState } from './payments-state.js';

/** At most this many live tokens per API key (docs/merchant-payments.md "Getting a token"): the 21st revokes the oldest. */
export const MAX_TOKENS_PER_KEY = 20;
/** Precision of assets the payments module lists in the ledger itself (as area A's demo does). */
const LEDGER_PRECISION = 8;

type FundingImage = Omit<FundingRecord, 'totalAmount' | 'amount' | 'fee'> & { totalAmount: string; amount: string; fee: string };
/** Money as `[units, accuracy]` with units as decimal text (JSON has no bigint). */
type MoneyImage = [string, number];
type OrderImage = Omit<PaymentOrder, 'orderPrice' | 'fiatAmount' | 'fiatFee' | 'cryptoAmount' | 'gross' | 'onRamp' | 'offRamp' | 'usage'> & {
  money: MoneyImage[];
  onRamp: (Omit<OrderLeg, 'amount' | 'fee'> & { amount: MoneyImage; fee: MoneyImage }) | null;
  offRamp: (Omit<OrderLeg, 'amount' | 'fee'> & { amount: MoneyImage; fee: MoneyImage; arrive: MoneyImage }) | null;
  usage: [string, string][];
};
type QuoteImage = Omit<Quote, 'amount' | 'price'> & { amount: MoneyImage; price: MoneyImage };

const moneyImage = (m: Money): MoneyImage => [m.units.toString(), m.accuracy];
const moneyOf = (m: MoneyImage): Money => ({ units: BigInt(m[0]), accuracy: m[1] });

function orderImage(o: PaymentOrder): OrderImage {
  const { orderPrice, fiatAmount, fiatFee, cryptoAmount, gross, onRamp, offRamp, usage, ...rest } = o;
  return {
    ...rest,
    deadline: o.deadline === undefined ? undefined : { ...o.deadline },
    money: [orderPrice, fiatAmount, fiatFee, cryptoAmount, gross].map(moneyImage),
    onRamp: onRamp === undefined ? null : { ...onRamp, amount: moneyImage(onRamp.amount), fee: moneyImage(onRamp.fee) },
    offRamp: offRamp === undefined ? null : { ...offRamp, amount: moneyImage(offRamp.amount), fee: moneyImage(offRamp.fee), arrive: moneyImage(offRamp.arrive) },
    usage: usage.map((u) => [u.key, u.amount.toString()]),
  };
}

function orderOfImage(i: OrderImage): PaymentOrder {
  const { money, onRamp, offRamp, usage, ...rest } = i;
  const [orderPrice, fiatAmount, fiatFee, cryptoAmount, gross] = money.map(moneyOf);
  return {
    ...rest,
    deadline: i.deadline === undefined ? undefined : { ...i.deadline },
    orderPrice,
    fiatAmount,
    fiatFee,
    cryptoAmount,
    gross,
    onRamp: onRamp === null ? undefined : { ...onRamp, amount: moneyOf(onRamp.amount), fee: moneyOf(onRamp.fee) },
    offRamp: offRamp === null ? undefined : { ...offRamp, amount: moneyOf(offRamp.amount), fee: moneyOf(offRamp.fee), arrive: moneyOf(offRamp.arrive) },
    usage: usage.map(([key, amount]) => ({ key, amount: BigInt(amount) })),
  };
}

export interface PaymentsImage {
  config: PaymentsConfig;
  sandbox: boolean;
  deskAccountId: number;
  counters: { nextMerchantId: number; nextBeneficiaryId: number; nextTxId: number };
  tokens: TokenRecord[];
  merchants: Merchant[];
  merchantAccounts: MerchantAccount[];
  beneficiaries: Beneficiary[];
  refundAccounts: [string, number][];
  pendingFunding: FundingImage[];
  claimClientIds: [number, [string, number][]][];
  transferClientIds: [number, [string, [number, number]][]][];
  traceNumbers: [number, [string, string][]][];
  nextOrderId: number;
  orders: OrderImage[];
  orderClientIds: [number, [string, number][]][];
  quotes: QuoteImage[];
  priceOverrides: [number, [string, string][]][];
  usage: [string, string][];
  modes: [number, Partial<SandboxModes>][];
  userLimits: [number, string][];
  decisions: [string, Deadline][];
}

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

const nested = <V>(map: ReadonlyMap<number, ReadonlyMap<string, V>>): [number, [string, V][]][] => sortedEntries(map).map(([id, inner]) => [id, sortedEntries(inner)]);

/** Area B (docs/merchant-payments.md): merchants, merchant accounts, beneficiaries, funding records, tokens. */
export class PaymentsModule implements CoreModule<PaymentsImage> {
  readonly name = 'payments';
  readonly commandTypes = PAYMENT_COMMANDS;
  state = new PaymentsState();

  constructor(private readonly core: ExchangeCore) {}

  get config(): PaymentsConfig {
    return this.state.config;
  }

  get tokens(): ReadonlyMap<string, TokenRecord> {
    return this.state.tokens;
  }

  apply(command: Command, ctx: PostingContext): unknown {
    const cmd = command as PaymentCommand;
    const p: PaymentsContext = { state: this.state, core: this.core, ctx };
    switch (cmd.type) {
      case 'paymentsSetUp':
        return this.setUp(cmd);
      case 'setPaymentsConfig':
        this.state.config = mergePaymentsConfig(this.state.config, cmd.patch);
        this.listAssets();
        return this.state.config;
      case 'issueToken':
        return this.issueToken(cmd, ctx);
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
    if (this.state.deskAccountId === 0) this.state.deskAccountId = this.core.ledger.createUser('desk', 'system').accountIds[0];
    this.state.sandbox = cmd.sandbox;
    this.listAssets();
    return { deskAccountId: this.state.deskAccountId, sandbox: this.state.sandbox };
  }

  /** Every configured currency is an asset of the ledger (fiat or crypto), so M and D can hold it. */
  private listAssets(): void {
    const ledger = this.core.ledger;
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
    const key = this.core.catalogue.apiKeys.get(cmd.apiKey);
    if (key === undefined || key.revoked) refuse('REJECTED_MBX_KEY', 'API key unknown or revoked');
    if (this.core.ledger.users.get(key.userId)?.userType !== 'merchant') refuse('NOT_API_USER', `User ${key.userId} is not a merchant user`);
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
    const reserved = new Map<string, bigint>();
    const add = (accountId: number, asset: string, atoms: bigint): void => {
      const key = `${accountId}:${asset}`;
      reserved.set(key, (reserved.get(key) ?? 0n) + atoms);
    };
    const atoms = (asset: string, units: bigint, accuracy: number): bigint => atomsOf({ core: this.core }, asset, units, accuracy);
    const accountIdOf = (merchantId: number): number => this.state.merchants.get(merchantId)?.accountId ?? -1;
    for (const record of this.state.pendingFunding.values()) {
      if (record.type === 'WITHDRAW') add(accountIdOf(record.merchantId), record.fiat, atoms(record.fiat, record.totalAmount, record.accuracy));
    }
    const feeAccountId = this.core.ledger.feeAccountId;
    for (const orderId of this.state.openOrders) {
      const order = this.state.orders.get(orderId);
      if (order === undefined) continue;
      for (const r of reservations(order, this.state.deskAccountId, feeAccountId, accountIdOf)) add(r.accountId, r.asset, atoms(r.asset, r.amount.units, r.amount.accuracy));
    }
    // The desk may trade through area A (docs/merchant-payments.md): its open spot orders hold their locks too.
    for (const orderId of this.core.spot.openOrdersByAccount.get(this.state.deskAccountId) ?? []) {
      const order = this.core.spot.liveOrders.get(orderId);
      if (order === undefined) continue;
      const spec = this.core.spot.symbol(order.symbol).spec;
      add(this.state.deskAccountId, order.side === 'BUY' ? spec.quoteAsset : spec.baseAsset, order.lockedAtoms);
    }
    // Every merchant account M, the desk D and FEE: what is locked is exactly what is reserved.
    const accounts = [...this.state.merchants.values()].map((m) => m.accountId);
    if (this.state.deskAccountId !== 0) accounts.push(this.state.deskAccountId, feeAccountId);
    const checks: ModuleCheck[] = [];
    for (const accountId of accounts) {
      const account = this.core.ledger.account(accountId);
      const assets = new Set([...account.balances.keys(), ...[...reserved.keys()].filter((k) => k.startsWith(`${accountId}:`)).map((k) => k.slice(String(accountId).length + 1))]);
      for (const asset of assets) {
        const locked = account.balances.get(asset)?.locked ?? 0n;
        const expected = reserved.get(`${accountId}:${asset}`) ?? 0n;
        if (locked === 0n && expected === 0n) continue;
        const precision = this.core.ledger.asset(asset).precision;
        checks.push({ ok: locked === expected, detail: { accountId: String(accountId), asset, locked: formatFixed(locked, precision), reserved: formatFixed(expected, precision) } });
      }
    }
    return checks;
  }

  image(): PaymentsImage {
    const s = this.state;
    return {
      config: structuredClone(s.config),
      sandbox: s.sandbox,
      deskAccountId: s.deskAccountId,
      counters: { nextMerchantId: s.nextMerchantId, nextBeneficiaryId: s.nextBeneficiaryId, nextTxId: s.nextTxId },
      tokens: sortedEntries(s.tokens).map(([, t]) => ({ ...t })),
      merchants: sortedEntries(s.merchants).map(([, m]) => ({ ...m, limits: { ...m.limits } })),
      merchantAccounts: sortedEntries(s.merchantAccounts).map(([, a]) => ({ ...a, fieldList: { ...a.fieldList } })),
      beneficiaries: sortedEntries(s.beneficiaries).map(([, b]) => ({ ...b, fieldList: { ...b.fieldList } })),
      refundAccounts: sortedEntries(s.refundAccounts),
      pendingFunding: sortedEntries(s.pendingFunding).map(([, r]) => ({
        ...r,
        payer: r.payer === undefined ? undefined : { ...r.payer },
        totalAmount: r.totalAmount.toString(),
        amount: r.amount.toString(),
        fee: r.fee.toString(),
      })),
      claimClientIds: nested(s.claimClientIds),
      transferClientIds: nested(s.transferClientIds),
      traceNumbers: nested(s.traceNumbers),
      modes: sortedEntries(s.modes).map(([userId, modes]) => [userId, { ...modes }]),
      userLimits: sortedEntries(s.userLimits),
      decisions: sortedEntries(s.decisions).map(([key, d]) => [key, { at: d.at, command: structuredClone(d.command) }]),
      nextOrderId: s.nextOrderId,
      orders: sortedEntries(s.orders).map(([, o]) => orderImage(o)),
      orderClientIds: nested(s.orderClientIds),
      quotes: sortedEntries(s.quotes).map(([, q]) => ({ ...q, amount: moneyImage(q.amount), price: moneyImage(q.price) })),
      priceOverrides: sortedEntries(s.priceOverrides).map(([userId, prices]) => [userId, sortedEntries(prices).map(([key, units]): [string, string] => [key, units.toString()])]),
      usage: sortedEntries(s.usage).map(([key, units]): [string, string] => [key, units.toString()]),
    };
  }

  restore(image: PaymentsImage): void {
    const s = new PaymentsState();
    s.config = structuredClone(image.config);
    s.sandbox = image.sandbox;
    s.deskAccountId = image.deskAccountId;
    s.nextMerchantId = image.counters.nextMerchantId;
    s.nextBeneficiaryId = image.counters.nextBeneficiaryId;
    s.nextTxId = image.counters.nextTxId;
    for (const t of image.tokens) s.tokens.set(t.tokenHash, { ...t });
    for (const m of image.merchants) {
      s.merchants.set(m.merchantId, { ...m, limits: { ...m.limits } });
      this.core.ledger.account(m.accountId).merchantLedger = true;
    }
    for (const a of image.merchantAccounts) s.merchantAccounts.set(`${a.merchantId}:${a.fiat}`, { ...a, fieldList: { ...a.fieldList } });
    for (const b of image.beneficiaries) s.beneficiaries.set(b.userPaymentId, { ...b, fieldList: { ...b.fieldList } });
    for (const [key, id] of image.refundAccounts) s.refundAccounts.set(key, id);
    for (const r of image.pendingFunding) {
      s.pendingFunding.set(r.txId, { ...r, payer: r.payer === undefined ? undefined : { ...r.payer }, totalAmount: BigInt(r.totalAmount), amount: BigInt(r.amount), fee: BigInt(r.fee) });
    }
    for (const [userId, ids] of image.claimClientIds) s.claimClientIds.set(userId, new Map(ids));
    for (const [userId, ids] of image.transferClientIds) s.transferClientIds.set(userId, new Map(ids));
    for (const [merchantId, ids] of image.traceNumbers) s.traceNumbers.set(merchantId, new Map(ids));
    for (const [userId, modes] of image.modes) s.modes.set(userId, { ...modes });
    for (const [userId, limit] of image.userLimits) s.userLimits.set(userId, limit);
    for (const [key, d] of image.decisions) s.decisions.set(key, { at: d.at, command: structuredClone(d.command) });
    s.nextOrderId = image.nextOrderId;
    for (const o of image.orders) {
      const order = orderOfImage(o);
      s.orders.set(order.orderId, order);
      if (!TERMINAL_STATUSES.has(order.status)) s.openOrders.add(order.orderId);
    }
    for (const [userId, ids] of image.orderClientIds) s.orderClientIds.set(userId, new Map(ids));
    for (const q of image.quotes) s.quotes.set(q.quoteId, { ...q, amount: moneyOf(q.amount), price: moneyOf(q.price) });
    for (const [userId, prices] of image.priceOverrides) s.priceOverrides.set(userId, new Map(prices.map(([key, units]) => [key, BigInt(units)])));
    for (const [key, units] of image.usage) s.usage.set(key, BigInt(units));
    this.state = s;
  }
}
