import { attoToUnits, formatUnits, parseSignedDecimal } from '../core/decimal.js';
import type { Command } from '../core/types.js';
import type { MarketData } from '../market/market-data.js';
import type { Store } from '../store/store.js';
import type { ExchangeCore } from './exchange-core.js';
import { recover } from './recovery.js';
import type { Sequencer } from './sequencer.js';
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
}

export interface VerifyReport {
  ok: boolean;
  checkedAt: number;
  details: VerifyDetail[];
  replay?: { ok: boolean; stateHash: string; replayHash: string };
}

/**
 * What the edges see of the exchange: commands go through the sequencer (durable before
 * answered), current state is read from the core, history from the store's read models.
 */
export class Exchange {
  constructor(
    readonly core: ExchangeCore,
    readonly history: Store,
    private readonly sequencer: Sequencer,
    readonly clock: () => number,
    readonly market: MarketData,
  ) {}

  submit<T = unknown>(command: Command): Promise<T> {
    return this.sequencer.submit(command) as Promise<T>;
  }

  /**
   * The operator's check (operator.md `verify`): per asset, all balances sum to deposits minus
   * withdrawals; every account's balance equals the sum of its flow rows. With `replay`, also a
   * fresh replay of the whole journal must reach the current state hash.
   */
  verify(options: { replay?: boolean } = {}): VerifyReport {
    const ledger = this.core.ledger;
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
    const flowSums = new Map<string, bigint>();
    for (const sum of this.history.flowSums()) {
      const precision = ledger.assets.get(sum.asset)?.precision ?? 18;
      const atto = parseSignedDecimal(sum.sum);
      if (atto === null) throw new Error(`flow sum ${sum.sum} is not a decimal`);
      const atoms = attoToUnits(atto, precision);
      if (atoms === null) throw new Error(`flow sum ${sum.sum} has more decimals than ${sum.asset} holds`);
      flowSums.set(`${sum.accountId}:${sum.asset}`, atoms);
    }
    for (const account of ledger.accounts.values()) {
      for (const [asset, balance] of account.balances) {
        const key = `${account.accountId}:${asset}`;
        const flows = flowSums.get(key) ?? 0n;
        flowSums.delete(key);
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
    for (const [key, flows] of flowSums) {
      if (flows === 0n) continue;
      ok = false;
      const [accountId, asset] = key.split(':');
      details.push({ accountId, asset, balance: '0', flows: flows.toString(), mismatch: 'flows without a balance' });
    }
    const report: VerifyReport = { ok, checkedAt: this.clock(), details };
    if (options.replay === true) {
      const current = stateHash(this.core);
      const replayHash = stateHash(recover(this.history, { ignoreSnapshots: true }).core);
      report.replay = { ok: current === replayHash, stateHash: current, replayHash };
      if (!report.replay.ok) report.ok = false;
    }
    return report;
  }
}
