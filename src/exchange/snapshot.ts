import { createHash } from 'node:crypto';
import type { Account } from '../ledger/account.js';
import type { Ledger } from '../ledger/ledger.js';
import { sortedEntries } from './core-module.js';
import { ExchangeCore } from './exchange-core.js';
import { IMAGE_VERSION, type CoreImage, type LedgerImage } from './snapshot-image.js';
import { upgradeImage, type OlderImage, type Version3Image } from './snapshot-upgrade.js';

function ledgerImage(ledger: Ledger): LedgerImage {
  return {
    counters: { nextUserId: ledger.nextUserId, nextAccountId: ledger.nextAccountId, nextFlowId: ledger.nextFlowId },
    defaultFeeRates: [ledger.defaultMakerFeeRate.toString(), ledger.defaultTakerFeeRate.toString()],
    assets: sortedEntries(ledger.assets).map(([, a]) => {
      const totals = ledger.totals.get(a.asset) ?? { deposits: 0n, withdrawals: 0n };
      return {
        asset: a.asset,
        precision: a.precision,
        kind: a.kind,
        fullName: a.fullName,
        chains: [...a.chains],
        withdrawFeeAtoms: a.withdrawFeeAtoms.toString(),
        minWithdrawAtoms: a.minWithdrawAtoms.toString(),
        allowDeposit: a.allowDeposit,
        allowWithdraw: a.allowWithdraw,
        deposits: totals.deposits.toString(),
        withdrawals: totals.withdrawals.toString(),
      };
    }),
    users: sortedEntries(ledger.users).map(([, u]) => ({ userId: u.userId, email: u.email, userType: u.userType, accountIds: [...u.accountIds] })),
    accounts: sortedEntries(ledger.accounts).map(([, a]) => ({
      accountId: a.accountId,
      userId: a.userId,
      accountIndex: a.accountIndex,
      name: a.name,
      makerFeeRate: a.makerFeeRate.toString(),
      takerFeeRate: a.takerFeeRate.toString(),
      updateTime: a.updateTime,
      balances: sortedEntries(a.balances).map(([asset, b]): [string, string, string] => [asset, b.free.toString(), b.locked.toString()]),
    })),
  };
}

function restoreLedger(ledger: Ledger, image: LedgerImage): void {
  ledger.users.clear();
  ledger.accounts.clear();
  ledger.nextUserId = image.counters.nextUserId;
  ledger.nextAccountId = image.counters.nextAccountId;
  ledger.nextFlowId = image.counters.nextFlowId;
  ledger.defaultMakerFeeRate = BigInt(image.defaultFeeRates[0]);
  ledger.defaultTakerFeeRate = BigInt(image.defaultFeeRates[1]);
  for (const a of image.assets) {
    ledger.addAsset({
      asset: a.asset,
      precision: a.precision,
      kind: a.kind,
      fullName: a.fullName,
      chains: a.chains,
      withdrawFeeAtoms: BigInt(a.withdrawFeeAtoms),
      minWithdrawAtoms: BigInt(a.minWithdrawAtoms),
      allowDeposit: a.allowDeposit,
      allowWithdraw: a.allowWithdraw,
    });
    ledger.totals.set(a.asset, { deposits: BigInt(a.deposits), withdrawals: BigInt(a.withdrawals) });
  }
  for (const u of image.users) ledger.users.set(u.userId, { ...u, accountIds: [...u.accountIds] });
  for (const a of image.accounts) {
    const account: Account = {
      accountId: a.accountId,
      userId: a.userId,
      accountIndex: a.accountIndex,
      name: a.name,
      makerFeeRate: BigInt(a.makerFeeRate),
      takerFeeRate: BigInt(a.takerFeeRate),
      updateTime: a.updateTime,
      balances: new Map(a.balances.map(([asset, free, locked]) => [asset, { free: BigInt(free), locked: BigInt(locked) }])),
      openOrderCount: 0,
      openOrdersBySymbol: new Map(),
    };
    ledger.accounts.set(account.accountId, account);
  }
}

function imageOf(core: ExchangeCore): CoreImage {
  const modules: Record<string, unknown> = {};
  for (const module of core.modules) modules[module.name] = module.image();
  return { version: IMAGE_VERSION, lastSeq: core.lastSeq, lastTs: core.lastTs, ledger: ledgerImage(core.ledger), modules };
}

/** Canonical JSON text of the core state (its layout: snapshot-image.ts). */
export function serializeCore(core: ExchangeCore): string {
  return JSON.stringify(imageOf(core));
}

/** SHA-256 (hex) of the canonical state. */
export function hashState(stateJson: string): string {
  return createHash('sha256').update(stateJson).digest('hex');
}

export function stateHash(core: ExchangeCore): string {
  return hashState(serializeCore(core));
}

/** Rebuilds a core from `serializeCore` output. */
export function restoreCore(stateJson: string): ExchangeCore {
  return restoreSnapshot(stateJson).core;
}

/**
 * Rebuilds a core from a snapshot's text, also from an older version's; `current` says whether
 * that text is what `serializeCore` writes today (only then can the rebuilt state hash to it).
 * A module absent from an older image starts empty.
 */
export function restoreSnapshot(stateJson: string): { core: ExchangeCore; current: boolean } {
  const parsed = JSON.parse(stateJson) as CoreImage | OlderImage | Version3Image;
  const image = parsed.version === IMAGE_VERSION ? parsed : upgradeImage(parsed);
  const core = new ExchangeCore();
  core.lastSeq = image.lastSeq;
  core.lastTs = image.lastTs;
  restoreLedger(core.ledger, image.ledger);
  for (const module of core.modules) {
    const part = image.modules[module.name];
    if (part !== undefined) module.restore(part);
  }
  return { core, current: parsed.version === IMAGE_VERSION };
}
