/**
 * Payments queues: what waits for a person (O30), newest first with counts. Each row opens its
 * object and offers the decisions that apply now; after one, the queues are read again.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { AdminApi, Json } from './api.js';
import { timeText, valueText, type QueueRow, type QueuesAnswer } from './payments-api.js';
import { Decisions } from './payments-decisions.js';
import { DoneLine, ErrorLine, Panel, Table, useLoad } from './ui.js';

/** Rows read per queue; the count says how many wait in all. */
const ROWS_PER_QUEUE = 100;

const QUEUE_TITLES: Readonly<Record<string, string>> = {
  merchantsKyc: 'Merchants in KYC review',
  merchantAccounts: 'Merchant accounts in review',
  beneficiaries: 'Beneficiaries in review',
  ordersReview: 'Orders in review (10, 12)',
  ordersDocuments: 'Orders awaiting documents (11, 31)',
  payouts: 'Payouts waiting (off-ramp 40, global payment 51)',
  fundingRecords: 'Funding records pending (1)',
};

/** Members a row's other columns already show (or that steer the page). */
const SHOWN = new Set(['userId', 'createTime', 'updateTime', 'actions', 'calls']);

/** What a row of `queue` is, in words that also name its buttons ("Approve order 10000003"), and what it opens. */
export function rowObject(queue: string, row: QueueRow): { what: string; open: { kind: 'order'; id: string } | { kind: 'merchant'; id: string } } {
  const merchant = { kind: 'merchant', id: row.merchantId } as const;
  const has = (id: string | undefined): id is string => id !== undefined && id !== '' && id !== '0';
  switch (queue) {
    case 'merchantsKyc':
      return { what: `merchant ${row.merchantId}`, open: merchant };
    case 'merchantAccounts':
      return { what: `merchant ${row.merchantId} ${row.fiat ?? ''} account`, open: merchant };
    case 'beneficiaries':
      return { what: `beneficiary ${row.beneficiaryId ?? ''}`, open: merchant };
    case 'fundingRecords':
      return { what: `funding record ${row.txId ?? ''}`, open: merchant };
    default:
      // The order queues, and any the server adds later: named by the most specific id the row has.
      if (has(row.orderId)) return { what: `order ${row.orderId}`, open: { kind: 'order', id: row.orderId } };
      if (has(row.txId)) return { what: `funding record ${row.txId}`, open: merchant };
      return { what: `merchant ${row.merchantId}`, open: merchant };
  }
}

export type OpenObject = ReturnType<typeof rowObject>['open'];

export function PaymentsQueues({ api, onOpen }: { api: AdminApi; onOpen: (object: OpenObject) => void }): JSX.Element {
  const queues = useLoad(() => api.get<QueuesAnswer>(`/payments/queues?limit=${ROWS_PER_QUEUE}`), [api]);
  const [done, setDone] = useState<string | undefined>(undefined);
  const total = queues.data?.queues.reduce((sum, q) => sum + q.count, 0);
  return (
    <div class="section-grid">
      <Panel title="Waiting for a decision" actions={<button type="button" onClick={queues.reload}>Refresh queues</button>}>
        <ErrorLine error={queues.error} />
        <DoneLine done={done} />
        {queues.data === undefined ? (
          <p class="muted">{queues.loading ? 'Loading…' : ''}</p>
        ) : (
          <>
            <p class="muted">{total === 0 ? 'Nothing waits.' : `${total} waiting in all.`}</p>
            <ul class="tiles queue-counts" aria-label="Queue counts">
              {queues.data.queues.map((q) => (
                <li key={q.queue} class="tile" data-queue={q.queue}>
                  <span class="tile-label">{QUEUE_TITLES[q.queue] ?? q.queue}</span>
                  <span class="tile-value">{q.count}</span>
                </li>
              ))}
            </ul>
          </>
        )}
      </Panel>
      {(queues.data?.queues ?? [])
        .filter((q) => q.count > 0)
        .map((q) => {
          const title = QUEUE_TITLES[q.queue] ?? q.queue;
          return (
            <Panel key={q.queue} title={title} actions={<span class="badge warn">{q.count} waiting</span>}>
              {q.rows.length < q.count ? <p class="muted">{`The newest ${q.rows.length} of ${q.count}.`}</p> : null}
              <Table label={title} head={['Time', 'Object', 'User', 'Details', 'Decisions']}>
                {q.rows.map((row) => {
                  const { what, open } = rowObject(q.queue, row);
                  const details = Object.entries(row).filter(([member, value]) => !SHOWN.has(member) && value !== '' && value !== undefined);
                  return (
                    <tr key={what}>
                      <td class="time">{timeText(row.updateTime ?? row.createTime)}</td>
                      <td>
                        <button type="button" class="link" onClick={() => onOpen(open)} aria-label={`Open ${what}`}>
                          {what}
                        </button>
                      </td>
                      <td class="num">{row.userId}</td>
                      <td class="details">
                        {details.map(([member, value]) => (
                          <span key={member} class="detail">
                            <span class="muted">{member}</span> {/Time$/u.test(member) && timeText(value as Json) !== '' ? timeText(value as Json) : valueText(value)}
                          </span>
                        ))}
                      </td>
                      <td>
                        <Decisions
                          api={api}
                          what={what}
                          actions={row.actions}
                          calls={row.calls}
                          onDone={(message) => {
                            setDone(message);
                            queues.reload();
                          }}
                        />
                      </td>
                    </tr>
                  );
                })}
              </Table>
            </Panel>
          );
        })}
    </div>
  );
}
