import { attoToUnits, formatUnits, parseSignedDecimal } from '../core/decimal.js';
import type { FlowSum, SyncJournal } from '../store/store.js';
import type { ExchangeCore } from './exchange-core.js';
import { recover } from './recovery.js';
import { stateHash } from './snapshot.js';

export interface VerifyDetail {
  asset?: string;
  accountId?: string;
  total?: string;
  deposits?: string;
  withdrawals?: string;
  balance?: string;
  flows?: string;
  mismatch?: string;
  locked?: string;
  reserved?: string;
}

export interface VerifyReport {
  ok: boolean;
  checkedAt: number;
  details: VerifyDetail[];
  /** With `replay`: the writer's state hash, a fresh replay's and, with a core worker, its replica's. */
  replay?: { ok: boolean; stateHash: string; replayHash: string; replicaHash?: string };
}

/**
 * The operator's check (docs/operating.md "Checking the ledger"): per asset, all balances sum to deposits minus
 * withdrawals; every account's balance equals the sum of its flow rows. With `replay`, also a
 * fresh replay of the whole journal must reach the current state hash.
 */
export function verifyLedger(core: ExchangeCore, history: SyncJournal & { flowSums(): FlowSum[] }, now: number, options: { replay?: boolean } = {}): VerifyReport {
  const replayed = options.replay === true ? recover(history, { ignoreSnapshots: true, deriveRows: false }).core : undefined;
  return checkLedger(core, history.flowSums(), now, replayed);
}

/**
 * `verifyLedger` on inputs gathered by the caller: `flowSums` read at the state `core` holds and,
 * for the replay check, `replayed`, the state a fresh replay of the whole journal reached at the same seq.
 */
export function checkLedger(core: ExchangeCore, flowSums: readonly FlowSum[], now: number, replayed?: ExchangeCore): VerifyReport {
  const ledger = core.ledger;
  const details: VerifyDetail[] = [];
  let ok = true;
  for (const t of ledger.verifyTotals()) {
    const precision = ledger.asset(t.asset).precision;
    const expected = t.deposits - t.withdrawals;
    const detail: VerifyDetail = {
      asset: t.asset,
      total: formatUnits(t.total, precision),
      deposits: formatUnits(t.deposits, precision),
      withdrawals: formatUnits(t.withdrawals, precision),
    };
    if (t.total !== expected) {
      ok = false;
      detail.mismatch = formatUnits(t.total - expected, precision);
    }
    details.push(detail);
  }
  const sums = new Map<string, bigint>();
  for (const sum of flowSums) {
    const precision = ledger.assets.get(sum.asset)?.precision ?? 18;
    const atto = parseSignedDecimal(sum.sum);
    if (atto === null) throw new Error(`flow sum ${sum.sum} is not a decimal`);
    const atoms = attoToUnits(atto, precision);
    if (atoms === null) throw new Error(`flow sum ${sum.sum} has more decimals than ${sum.asset} holds`);
    sums.set(`${sum.accountId}:${sum.asset}`, atoms);
  }
  for (const account of ledger.accounts.values()) {
    for (const [asset, balance] of account.balances) {
      const key = `${account.accountId}:${asset}`;
      const flows = sums.get(key) ?? 0n;
      sums.delete(key);
      const total = balance.free + balance.locked;
      if (flows !== total) {
        ok = false;
        const precision = ledger.asset(asset).precision;
        details.push({
          accountId: String(account.accountId),
          asset,
          balance: formatUnits(total, precision),
          flows: formatUnits(flows, precision),
          mismatch: formatUnits(total - flows, precision),
        });
      }
    }
  }
  for (const [key, flows] of sums) {
    if (flows === 0n) continue;
    ok = false;
    const [accountId, asset] = key.split(':');
    details.push({ accountId, asset, balance: '0', flows: flows.toString(), mismatch: 'flows without a balance' });
  }
  // The modules' own invariants: e.g. locked balances equal what open objects reserve (docs/merchant-payments.md "Exactly-once settlement").
  for (const check of core.moduleChecks()) {
    if (check.ok) continue;
    ok = false;
    details.push({ ...check.detail, mismatch: 'locked balance differs from what is reserved' });
  }
  const report: VerifyReport = { ok, checkedAt: now, details };
  if (replayed !== undefined) {
    const current = stateHash(core);
    const replayHash = stateHash(replayed);
    report.replay = { ok: current === replayHash, stateHash: current, replayHash };
    if (!report.replay.ok) report.ok = false;
  }
  return report;
}
