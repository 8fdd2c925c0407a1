import type { OrderRequest } from '../../src/core/payment-commands.js';
import { PaymentError } from '../../src/core/payment-errors.js';
import type { Command } from '../../src/core/types.js';
import { ExchangeCore } from '../../src/exchange/exchange-core.js';
import { recover } from '../../src/exchange/recovery.js';
import { Sequencer } from '../../src/exchange/sequencer.js';
import { stateHash } from '../../src/exchange/snapshot.js';
import { verifyLedger } from '../../src/exchange/verify.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { demoCatalogue, T0 } from './core-harness.js';

/**
 * The payments module driven through the real sequencer and an in-memory store: follow-up
 * decisions, journal and funding rows as in a server, without HTTP.
 */
export class PaymentsCore {
  readonly store: SqliteStore = openSqliteStore({ path: ':memory:', synchronous: 'NORMAL' });
  readonly core = new ExchangeCore();
  now = T0;
  /**
   * The first error the sequencer met that is not a refusal (a bug in the core). The sequencer
   * stops there; `submit` then rejects with this error rather than the INTERNAL refusal it answers.
   */
  fatal: unknown = undefined;
  readonly sequencer = new Sequencer({
    store: this.store,
    applier: this.core,
    clock: () => this.now,
    onFatal: (error) => {
      this.fatal ??= error;
    },
  });

  submit<T = unknown>(command: Command): Promise<T> {
    this.now += 1;
    return (this.sequencer.submit(command) as Promise<T>).catch((error: unknown) => {
      throw this.fatal ?? error;
    });
  }

  /** The area B code a refused command answers with. */
  async refusal(command: Command): Promise<number> {
    try {
      await this.submit(command);
    } catch (error) {
      if (error instanceof PaymentError) return error.code;
      throw error;
    }
    throw new Error(`${command.type} was accepted`);
  }

  /** Demo assets and symbols, the desk, one merchant user: its userId and main accountId. */
  setUp(sandbox = true): Promise<{ userId: number; accountId: number }> {
    return setUpPayments((command) => this.submit(command), sandbox);
  }

  /** A merchant through KYC, with active accounts in `fiats` (automatic modes). */
  async merchant(userId: number, name: string, fiats: string[] = ['MXN']): Promise<number> {
    const { merchantId } = await this.submit<{ merchantId: number }>({
      type: 'createMerchant',
      userId,
      merchantName: name,
      email: `${name.toLowerCase().replaceAll(' ', '.')}@example.mx`,
      merchantType: 'BUSINESS',
      callbackUrl: 'https://acme.example/kyc-done',
      languageCode: 'en',
      remark: '',
      kycToken: `kyc-${name}`,
    });
    for (const fiat of fiats) {
      await this.submit({ type: 'activateMerchantAccount', userId, merchantId, fiat, fieldList: {}, verifyToken: `verify-${name}-${fiat}` });
    }
    return merchantId;
  }

  /** A payment order the merchant user places himself, with no client id, remark or quote. */
  createOrder(userId: number, order: OrderRequest): Promise<{ orderId: number }> {
    return this.submit<{ orderId: number }>({ type: 'createPaymentOrder', userId, onBehalf: false, clientId: '', remark: '', quoteId: '', order });
  }

  free(accountId: number, asset: string): bigint {
    return this.core.ledger.account(accountId).balances.get(asset)?.free ?? 0n;
  }

  locked(accountId: number, asset: string): bigint {
    return this.core.ledger.account(accountId).balances.get(asset)?.locked ?? 0n;
  }

  verify(): ReturnType<typeof verifyLedger> {
    return verifyLedger(this.core, this.store, this.now, { replay: true });
  }

  /** The state a fresh replay of the journal reaches. */
  replayHash(): string {
    return stateHash(recover(this.store, { ignoreSnapshots: true }).core);
  }
}

/** Submits a command and resolves with its result once committed (rejects with its refusal). */
export type Submit = <T = unknown>(command: Command) => Promise<T>;

/** `PaymentsCore.setUp` through any submitter (one command per batch): the merchant user's userId and main accountId. */
export async function setUpPayments(submit: Submit, sandbox = true): Promise<{ userId: number; accountId: number }> {
  for (const command of demoCatalogue()) await submit(command);
  await submit({ type: 'paymentsSetUp', sandbox });
  return submit({ type: 'createUser', email: 'ops@acme.mx', userType: 'merchant' });
}

/**
 * What every step of a property run must leave: per asset, balances equal deposits minus
 * withdrawals; no balance negative; every module invariant (locks = reservations) holds.
 */
export function checkLedgerWhole(h: PaymentsCore, step: number): void {
  const core = h.core;
  for (const row of core.ledger.verifyTotals()) {
    if (row.total !== row.deposits - row.withdrawals) throw new Error(`after step ${step}, ${row.asset}: balances ${row.total} != deposits ${row.deposits} - withdrawals ${row.withdrawals}`);
  }
  for (const account of core.ledger.accounts.values()) {
    for (const [asset, balance] of account.balances) {
      if (balance.free < 0n || balance.locked < 0n) throw new Error(`after step ${step}, account ${account.accountId} holds ${balance.free}/${balance.locked} atoms of ${asset}`);
    }
  }
  const broken = core.moduleChecks().filter((c) => !c.ok);
  if (broken.length > 0) throw new Error(`after step ${step}, module checks failed: ${JSON.stringify(broken)}`);
}
