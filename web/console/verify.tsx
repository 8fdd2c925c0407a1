/** Verify: the ledger check (GET /admin/v1/verify), optionally with a replay of the whole journal. */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { isoTime, type AdminApi, type VerifyReport } from './api.js';
import { ErrorLine, Panel, Table, useAction } from './ui.js';

export function VerifySection({ api }: { api: AdminApi }): JSX.Element {
  const [replay, setReplay] = useState(false);
  const [report, setReport] = useState<{ report: VerifyReport; replay: boolean } | undefined>(undefined);
  const action = useAction();
  return (
    <div class="section-grid">
      <Panel title="Verify the ledger">
        <p class="muted">
          Checks that every asset's balances add up to its deposits minus withdrawals, that every account's balance matches its flows, and that locked
          funds match what open orders and payouts reserve. Replay also replays the whole journal and compares state hashes (slower).
        </p>
        <form
          class="form"
          aria-label="Verify the ledger"
          onSubmit={(event) => {
            event.preventDefault();
            void action.run(async () => {
              const answer = await api.get<VerifyReport>(`/verify${replay ? '?replay=1' : ''}`);
              setReport({ report: answer, replay });
              return undefined;
            });
          }}
        >
          <label class="check">
            <input type="checkbox" checked={replay} onChange={(e) => setReplay((e.currentTarget as HTMLInputElement).checked)} />
            Replay
          </label>
          <div class="buttons">
            <button type="submit" class="primary" disabled={action.busy}>
              Run verify
            </button>
            {action.busy ? (
              <span class="muted" role="status">
                Checking…
              </span>
            ) : null}
          </div>
        </form>
        <ErrorLine error={action.error} />
      </Panel>
      {report === undefined ? null : <Report report={report.report} replayAsked={report.replay} />}
    </div>
  );
}

function Report({ report, replayAsked }: { report: VerifyReport; replayAsked: boolean }): JSX.Element {
  const totals = report.details.filter((d) => d.accountId === undefined);
  const mismatches = report.details.filter((d) => d.mismatch !== undefined);
  const replay = report.replay;
  const ok = report.ok && (replay === undefined || replay.ok);
  return (
    <Panel title="Verify report">
      <div class={ok ? 'verdict good' : 'verdict bad'} role="status" aria-label="Verify result">
        <strong>{ok ? 'OK' : 'MISMATCH'}</strong>
        <span>
          {ok ? 'The ledger balances' : 'The ledger does not balance'}
          {replay === undefined ? '' : replay.ok ? '; the replay reached the same state' : '; the replay reached another state'}. Checked at {isoTime(report.checkedAt)}
          {replayAsked ? ' with replay' : ''}.
        </span>
      </div>
      {mismatches.length === 0 ? (
        <p>No mismatches.</p>
      ) : (
        <>
          <h3>Mismatches ({mismatches.length})</h3>
          <Table label="Mismatches" head={['Account', 'Asset', 'Found', 'Expected', 'Mismatch']}>
            {mismatches.map((d, i) => (
              <tr key={i} class="bad-row">
                <td class="num">{d.accountId ?? 'all'}</td>
                <td>{d.asset}</td>
                <td class="num">{d.balance ?? d.locked ?? d.total}</td>
                <td class="num">{d.flows ?? d.reserved ?? (d.deposits === undefined ? '' : `${d.deposits} − ${d.withdrawals ?? ''}`)}</td>
                <td>{d.mismatch}</td>
              </tr>
            ))}
          </Table>
        </>
      )}
      {replay === undefined ? null : (
        <dl class="hashes">
          <dt>State hash</dt>
          <dd>
            <code>{replay.stateHash}</code>
          </dd>
          <dt>Replay hash</dt>
          <dd>
            <code>{replay.replayHash}</code>
          </dd>
          {replay.replicaHash === undefined ? null : (
            <>
              <dt>Replica hash</dt>
              <dd>
                <code>{replay.replicaHash}</code>
              </dd>
            </>
          )}
        </dl>
      )}
      <h3>Totals by asset</h3>
      <Table label="Totals by asset" head={['Asset', 'Total held', 'Deposits', 'Withdrawals']}>
        {totals.map((d) => (
          <tr key={d.asset} class={d.mismatch === undefined ? undefined : 'bad-row'}>
            <td>{d.asset}</td>
            <td class="num">{d.total}</td>
            <td class="num">{d.deposits}</td>
            <td class="num">{d.withdrawals}</td>
          </tr>
        ))}
      </Table>
    </Panel>
  );
}
