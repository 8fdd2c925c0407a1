/**
 * Order look-up (O32): the order, its statuses with their times, its ledger postings, its webhook
 * events with their attempts (each can be sent again, O21), and the documents uploaded for it,
 * shown inline (read with the admin token, then drawn from a blob URL).
 */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { seg, type AdminApi } from './api.js';
import type { WebhookEventRow } from '../shared/webhook-event.js';
import { documentUrl, timeText, valueText, type DocumentRef, type OrderLookup } from './payments-api.js';
import { Decisions } from './payments-decisions.js';
import { Facts, isRecord, LookUpPanel, RowsTable } from './payments-views.js';
import { ErrorLine, Panel, RunButton, Table, useAction, useLoad } from './ui.js';

export function PaymentsOrder({ api, orderId, onLookUp, onOpenMerchant }: { api: AdminApi; orderId: string; onLookUp: (orderId: string) => void; onOpenMerchant: (merchantId: string) => void }): JSX.Element {
  const [done, setDone] = useState<string | undefined>(undefined);
  const lookup = useLoad(() => (orderId === '' ? Promise.resolve(undefined) : api.get<OrderLookup>(`/payments/orders/${seg(orderId)}`)), [api, orderId]);
  const answer = lookup.data;
  const decided = (message: string): void => {
    setDone(message);
    lookup.reload();
  };
  const merchantId = answer === undefined ? undefined : valueText(answer.order.merchantId ?? (isRecord(answer.order.onRamp) ? answer.order.onRamp.merchantId : undefined));
  return (
    <div class="section-grid">
      <LookUpPanel noun="order" article="an" shown={orderId} placeholder="10000042" error={lookup.error} done={done} onLookUp={onLookUp} onRefresh={lookup.reload} />
      {answer === undefined ? null : (
        <>
          <Panel title={`Order ${orderId}`} actions={merchantId === undefined || merchantId === '' ? undefined : <button type="button" onClick={() => onOpenMerchant(merchantId)}>{`Open merchant ${merchantId}`}</button>}>
            <Facts label={`Order ${orderId}`} record={answer.order} />
            {answer.actions === undefined || answer.calls === undefined ? null : <Decisions api={api} what={`order ${orderId}`} actions={answer.actions} calls={answer.calls} onDone={decided} />}
          </Panel>
          <Panel title={`Status history of order ${orderId}`}>
            {answer.historyComplete === false ? <p class="muted">Earlier statuses are not known: this order was restored from a snapshot taken before status logs were kept, and no order webhook recorded them.</p> : null}
            <Table label={`Status history of order ${orderId}`} head={['Status', 'Time']} empty={answer.history.length === 0}>
              {answer.history.map((step, i) => (
                <tr key={i}>
                  <td class="num">{valueText(step.status)}</td>
                  <td class="time">{timeText(step.time)}</td>
                </tr>
              ))}
            </Table>
          </Panel>
          <Panel title={`Ledger postings of order ${orderId}`}>
            <RowsTable label={`Ledger postings of order ${orderId}`} rows={answer.postings} />
          </Panel>
          <WebhookEvents api={api} orderId={orderId} events={answer.webhookEvents} onResent={decided} />
          <Documents api={api} orderId={orderId} documents={answer.documents} />
        </>
      )}
    </div>
  );
}

function WebhookEvents({ api, orderId, events, onResent }: { api: AdminApi; orderId: string; events: WebhookEventRow[]; onResent: (message: string) => void }): JSX.Element {
  const action = useAction();
  const title = `Webhook events of order ${orderId}`;
  return (
    <Panel title={title}>
      <ErrorLine error={action.error} />
      <Table label={title} head={['Event', 'Type', 'Object status', 'Delivery', 'Attempts', 'Made', 'Delivered', 'Next attempt', 'Last attempt', '']} empty={events.length === 0}>
        {events.map((e) => {
          const last = e.deliveries[0];
          const short = e.eventId.slice(0, 8);
          return (
            <tr key={e.eventId}>
              <td>
                <code title={e.eventId}>{short}</code>
              </td>
              <td>{e.eventType}</td>
              <td class="num">{e.objectStatus}</td>
              <td>
                <span class={e.status === 'DELIVERED' ? 'badge good' : e.status === 'FAILED' ? 'badge bad' : 'badge warn'}>{e.status}</span>
              </td>
              <td class="num">{e.attempts}</td>
              <td class="time">{timeText(e.createTime)}</td>
              <td class="time">{timeText(e.deliveredTime)}</td>
              <td class="time">{timeText(e.nextAttemptTime)}</td>
              <td class="addr" title={last === undefined ? undefined : `${last.url} ${last.error}`}>
                {last === undefined ? '' : `#${last.attempt} ${last.result}${last.httpStatus === 0 ? '' : ` HTTP ${last.httpStatus}`}${last.error === '' ? '' : ` ${last.error}`}`}
              </td>
              <td class="row-actions">
                <RunButton
                  action={action}
                  run={async () => {
                    await api.call('POST', `/webhooks/events/${seg(e.eventId)}/resend`);
                    onResent(`Event ${short} sent again.`);
                    return undefined;
                  }}
                >
                  {`Resend event ${short}`}
                </RunButton>
              </td>
            </tr>
          );
        })}
      </Table>
      {events.length === 0 ? null : (
        <details class="attempts">
          <summary>Every attempt</summary>
          {events.map((e) => (
            <RowsTable key={e.eventId} label={`Attempts of event ${e.eventId.slice(0, 8)}`} rows={e.deliveries.map((d) => ({ event: e.eventId.slice(0, 8), ...d }))} />
          ))}
        </details>
      )}
    </Panel>
  );
}

/** A document's short name: B35 names a file by its SHA-256, too long for a button. */
const shortName = (doc: DocumentRef): string => (/^[0-9a-f]{64}\./u.test(doc.name) ? `${doc.name.slice(0, 12)}…${doc.name.slice(doc.name.lastIndexOf('.'))}` : doc.name);

function Documents({ api, orderId, documents }: { api: AdminApi; orderId: string; documents: DocumentRef[] }): JSX.Element {
  const [shown, setShown] = useState<{ doc: DocumentRef; url: string } | undefined>(undefined);
  const action = useAction();
  // A blob URL holds the bytes until revoked: revoke the one shown when it changes or the view goes.
  useEffect(() => () => (shown === undefined ? undefined : URL.revokeObjectURL(shown.url)), [shown]);
  const title = `Documents of order ${orderId}`;
  return (
    <Panel title={title}>
      <ErrorLine error={action.error} />
      <Table label={title} head={['Name', 'Type', 'Bytes', '']} empty={documents.length === 0}>
        {documents.map((doc) => (
          <tr key={doc.documentId}>
            <td class="addr" title={doc.name}>
              {doc.name}
            </td>
            <td>{doc.contentType}</td>
            <td class="num">{doc.size}</td>
            <td class="row-actions">
              <RunButton
                action={action}
                pressed={shown?.doc.documentId === doc.documentId}
                run={async () => {
                  setShown({ doc, url: await documentUrl(api, doc.url) });
                  return undefined;
                }}
              >
                {`View document ${shortName(doc)}`}
              </RunButton>
            </td>
          </tr>
        ))}
      </Table>
      {shown === undefined ? null : (
        <figure class="document-view">
          <figcaption>
            <span class="addr">{shown.doc.name}</span>
            <button type="button" onClick={() => setShown(undefined)}>{`Close document ${shortName(shown.doc)}`}</button>
          </figcaption>
          {shown.doc.contentType.startsWith('image/') ? <img src={shown.url} alt={shown.doc.name} /> : <iframe src={shown.url} title={shown.doc.name} />}
        </figure>
      )}
    </Panel>
  );
}
