/**
 * Merchant look-up (O31): the merchant, its accounts, balances (its ledger account M), limits and
 * their usage, its newest orders and funding records. An order opens the order look-up; a row
 * that carries decisions offers them here too.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { seg, type AdminApi, type Json } from './api.js';
import { valueText, type DeskCall, type MerchantLookup } from './payments-api.js';
import { Decisions } from './payments-decisions.js';
import { Facts, isRecord, listOf, LookUpPanel, RowsTable } from './payments-views.js';
import { Panel, useLoad } from './ui.js';

const PART_TITLES: Readonly<Record<string, string>> = {
  accounts: 'Merchant accounts',
  balances: 'Balances (M)',
  limits: 'Limits and usage',
  usage: 'Usage',
  orders: 'Newest orders',
  fundingRecords: 'Funding records',
  beneficiaries: 'Beneficiaries',
  modes: 'Simulator modes',
};

/** A row's decisions, when the server sent them with it. */
function rowDecisions(row: Readonly<Record<string, Json>>): { actions: string[]; calls: Record<string, DeskCall> } | undefined {
  const actions = row.actions;
  const calls = row.calls;
  if (!Array.isArray(actions) || !isRecord(calls)) return undefined;
  return { actions: actions.filter((a): a is string => typeof a === 'string'), calls: calls as unknown as Record<string, DeskCall> };
}

/** How a row of a part is named on its buttons (as the queues name it). */
function rowName(part: string, row: Readonly<Record<string, Json>>, merchantId: string): string {
  switch (part) {
    case 'orders':
      return `order ${valueText(row.orderId)}`;
    case 'fundingRecords':
      return `funding record ${valueText(row.txId)}`;
    case 'beneficiaries':
      return `beneficiary ${valueText(row.id ?? row.beneficiaryId)}`;
    case 'accounts':
      return `merchant ${merchantId} ${valueText(row.fiat)} account`;
    default:
      return `merchant ${merchantId}`;
  }
}

export function PaymentsMerchant({ api, merchantId, onLookUp, onOpenOrder }: { api: AdminApi; merchantId: string; onLookUp: (merchantId: string) => void; onOpenOrder: (orderId: string) => void }): JSX.Element {
  const [done, setDone] = useState<string | undefined>(undefined);
  const lookup = useLoad(() => (merchantId === '' ? Promise.resolve(undefined) : api.get<MerchantLookup>(`/payments/merchants/${seg(merchantId)}`)), [api, merchantId]);
  const decided = (message: string): void => {
    setDone(message);
    lookup.reload();
  };
  const answer = lookup.data;
  const scalars = answer === undefined ? {} : Object.fromEntries(Object.entries(answer).filter(([, v]) => !isRecord(v) && !Array.isArray(v)));
  // The merchant's own decisions stand beside it at the top of the answer.
  const own = answer === undefined ? undefined : rowDecisions(answer);
  return (
    <div class="section-grid">
      <LookUpPanel noun="merchant" article="a" shown={merchantId} placeholder="7" error={lookup.error} done={done} onLookUp={onLookUp} onRefresh={lookup.reload}>
        {Object.keys(scalars).length === 0 ? null : <Facts label="About the merchant" record={scalars} />}
      </LookUpPanel>
      {answer === undefined
        ? null
        : Object.entries(answer)
            .filter(([part, v]) => (isRecord(v) || Array.isArray(v)) && part !== 'actions' && part !== 'calls')
            .map(([part, value]) => {
              const title = part === 'merchant' ? `Merchant ${merchantId}` : `${PART_TITLES[part] ?? part} of merchant ${merchantId}`;
              // A page of a list comes as `{total, rows}`.
              const page = isRecord(value) && Array.isArray(value.rows) ? value : undefined;
              if (isRecord(value) && page === undefined) {
                const decisions = part === 'merchant' ? own : rowDecisions(value);
                return (
                  <Panel key={part} title={title}>
                    <Facts label={title} record={value} />
                    {decisions === undefined ? null : <Decisions api={api} what={rowName(part, value, merchantId)} actions={decisions.actions} calls={decisions.calls} onDone={decided} />}
                  </Panel>
                );
              }
              const rows = listOf(page === undefined ? value : page.rows);
              const withDecisions = rows.some((row) => rowDecisions(row) !== undefined);
              return (
                <Panel key={part} title={title}>
                  {page === undefined ? null : <p class="muted">{`The newest ${rows.length} of ${valueText(page.total)}.`}</p>}
                  <RowsTable
                    label={title}
                    rows={rows}
                    cell={(member, row) =>
                      member === 'orderId' && !['', '0'].includes(valueText(row.orderId)) ? (
                        <button type="button" class="link" onClick={() => onOpenOrder(String(row.orderId))} aria-label={`Open order ${String(row.orderId)}`}>
                          {String(row.orderId)}
                        </button>
                      ) : undefined
                    }
                    extra={
                      withDecisions
                        ? {
                            head: 'Decisions',
                            render: (row) => {
                              const decisions = rowDecisions(row);
                              return decisions === undefined ? null : <Decisions api={api} what={rowName(part, row, merchantId)} actions={decisions.actions} calls={decisions.calls} onDone={decided} />;
                            },
                          }
                        : undefined
                    }
                  />
                </Panel>
              );
            })}
    </div>
  );
}
