import { reject } from '../../core/errors.js';
import { refuse } from '../../core/payment-errors.js';
import type { IssueTokenCommand, PaymentCommand, PaymentsSetUpCommand, SetSandboxModesCommand } from '../../core/payment-commands.js';
import type { Command, CommandType } from '../../core/types.js';
import type { PostingContext } from '../../ledger/ledger.js';
import type { PaymentsConfig } from '../../payments/config.js';
import { formatFixed } from '../../payments/money.js';
import { MODE_VALUES, type Beneficiary, type FundingRecord, type Merchant, type MerchantAccount, type SandboxModes, type TokenRecord } from '../../payments/model.js';
import { sortedEntries, type CoreModule, type Deadline, type ModuleCheck } from '../core-module.js';
import type { ExchangeCore } from '../exchange-core.js';
import { addBeneficiary, deleteBeneficiary, reviewBeneficiary, setRefundAccount } from './beneficiary-commands.js';
import { mergePaymentsConfig } from './config-commands.js';
import { bankArrival, claimFunds, settleFunding, transferFunds } from './funding-commands.js';
import { activateMerchantAccount, createMerchant, merchantKyc, relinkMerchant, reviewMerchantAccount, setMerchantLimits, setUserLimit } from './merchant-commands.js';
import { atomsOf, modesOf, type PaymentsContext } from './payments-context.js';
import { PaymentsState } from './payments-state.js';

/** At most this many live tokens per API key (§1.2): the 21st revokes the oldest. */
export const MAX_TOKENS_PER_KEY = 20;
/** Precision of assets the payments module lists in the ledger itself (as area A's demo does). */
const LEDGER_PRECISION = 8;

type FundingImage = Omit<FundingRecord, 'totalAmount' | 'amount' | 'fee'> & { totalAmount: string; amount: string; fee: string };

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
  traceNumbers: [number, [string, number][]][];
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
] as const satisfies readonly CommandType[];

const nested = <V>(map: ReadonlyMap<number, ReadonlyMap<string, V>>): [number, [string, V][]][] => sortedEntries(map).map(([id, inner]) => [id, sortedEntries(inner)]);

/** Area B (spec/area-b.md): merchants, merchant accounts, beneficiaries, funding records, tokens. */
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
    }
  }

  /** The simulator's modes of a user now (§7.1). */
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
    return [...this.state.decisions.values()];
  }

  /** §5.7: the locked fiat of each M equals what its pending claims reserve. */
  verify(): ModuleCheck[] {
    const reserved = new Map<string, bigint>();
    for (const record of this.state.pendingFunding.values()) {
      if (record.type !== 'WITHDRAW') continue;
      const key = `${record.merchantId}:${record.fiat}`;
      reserved.set(key, (reserved.get(key) ?? 0n) + atomsOf({ core: this.core }, record.fiat, record.totalAmount, record.accuracy));
    }
    const checks: ModuleCheck[] = [];
    for (const merchant of this.state.merchants.values()) {
      const account = this.core.ledger.account(merchant.accountId);
      for (const fiat of this.state.config.fiats.map((f) => f.fiat)) {
        const locked = account.balances.get(fiat)?.locked ?? 0n;
        const expected = reserved.get(`${merchant.merchantId}:${fiat}`) ?? 0n;
        if (locked === 0n && expected === 0n) continue;
        const precision = this.core.ledger.asset(fiat).precision;
        checks.push({
          ok: locked === expected,
          detail: { accountId: String(merchant.accountId), asset: fiat, locked: formatFixed(locked, precision), reserved: formatFixed(expected, precision) },
        });
      }
    }
    if (this.state.deskAccountId !== 0) {
      const desk = this.core.ledger.account(this.state.deskAccountId);
      for (const [asset, balance] of desk.balances) {
        if (balance.locked !== 0n) checks.push({ ok: false, detail: { accountId: String(desk.accountId), asset, locked: String(balance.locked), reserved: '0' } });
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
    this.state = s;
  }
}
