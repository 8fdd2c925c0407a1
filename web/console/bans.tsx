/** Bans: the IP addresses the rate limiter has banned, and lifting a ban early. */
import type { JSX } from 'preact';
import { isoTime, seg, type AdminApi, type BanRow } from './api.js';
import { DoneLine, ErrorLine, Panel, RunButton, Table, useAction, useLoad } from './ui.js';

export function BansSection({ api }: { api: AdminApi }): JSX.Element {
  const bans = useLoad(() => api.get<BanRow[]>('/bans'), [api]);
  const action = useAction();
  return (
    <div class="section-grid">
      <Panel title="Banned IP addresses" actions={<button type="button" onClick={bans.reload}>Refresh bans</button>}>
        <p class="muted">Bans in force. They are run-time state: a restart clears them too.</p>
        <ErrorLine error={bans.error} />
        <ErrorLine error={action.error} />
        <DoneLine done={action.done} />
        {bans.data === undefined ? null : (
          <Table label="Banned IP addresses" head={['IP address', 'Banned until', 'Bans so far', '']} empty={bans.data.length === 0}>
            {bans.data.map((b) => (
              <tr key={b.ip}>
                <td>
                  <code>{b.ip}</code>
                </td>
                <td class="time">{isoTime(b.bannedUntil)}</td>
                <td class="num">{b.banCount}</td>
                <td class="row-actions">
                  <RunButton
                    action={action}
                    run={async () => {
                      const answer = await api.call<{ ip: string; lifted: boolean }>('DELETE', `/bans/${seg(b.ip)}`);
                      bans.reload();
                      return answer.lifted ? `Lifted the ban of ${answer.ip}.` : `${answer.ip} had no ban in force.`;
                    }}
                  >
                    Lift ban {b.ip}
                  </RunButton>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Panel>
    </div>
  );
}
