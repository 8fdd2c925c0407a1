/** Deposits & withdrawals: credit a simulated arrival; list withdrawals; approve or reject the pending ones. */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { allUsers, isoTime, seg, type AdminApi, type AssetRow, type WithdrawalRow } from './api.js';
import { ActionForm, DoneLine, ErrorLine, Field, Form, Panel, Select, Table, filled, useAction, useFields, useLoad } from './ui.js';

export function FundsSection({ api }: { api: AdminApi }): JSX.Element {
  return (
    <div class="section-grid">
      <CreditDeposit api={api} />
      <Withdrawals api={api} />
    </div>
  );
}

function CreditDeposit({ api }: { api: AdminApi }): JSX.Element {
  const users = useLoad(() => allUsers(api), [api]);
  const assets = useLoad(() => api.get<AssetRow[]>('/assets'), [api]);
  const { form, set, setForm } = useFields({ accountId: '', asset: '', amount: '', txId: '' });
  return (
    <ActionForm
      title="Credit a deposit"
      submit="Credit deposit"
      before={
        <>
          <p class="muted">A simulated chain or bank arrival: the amount is added to the account's free balance.</p>
          <datalist id="console-accounts">
            {(users.data ?? []).flatMap((u) =>
              u.accounts.map((a) => (
                <option key={a.accountId} value={a.accountId}>
                  {`${u.email === '' ? `user ${u.userId}` : u.email}${a.accountIndex === 0 ? '' : ` · ${a.name}`}`}
                </option>
              )),
            )}
          </datalist>
          <datalist id="console-deposit-assets">
            {(assets.data ?? []).map((a) => (
              <option key={a.asset} value={a.asset} />
            ))}
          </datalist>
        </>
      }
      onSubmit={async () => {
        const answer = await api.call<{ depositId: string }>('POST', '/deposits', filled(form));
        const done = `Deposit ${answer.depositId}: ${form.amount} ${form.asset} credited to account ${form.accountId}.`;
        setForm((f) => ({ ...f, amount: '', txId: '' }));
        return done;
      }}
    >
      <Field label="Account ID" value={form.accountId} onInput={set('accountId')} list="console-accounts" placeholder="12" required hint="A user's account (Users & keys lists them)." />
      <Field label="Asset" value={form.asset} onInput={set('asset')} list="console-deposit-assets" placeholder="USDT" required />
      <Field label="Amount" value={form.amount} onInput={set('amount')} placeholder="1000" required />
      <Field label="Transaction id" value={form.txId} onInput={set('txId')} placeholder="default: a random id" />
    </ActionForm>
  );
}

function Withdrawals({ api }: { api: AdminApi }): JSX.Element {
  const [status, setStatus] = useState('PENDING');
  const [limit, setLimit] = useState('100');
  const [query, setQuery] = useState({ status: 'PENDING', limit: '100' });
  const list = useLoad(() => {
    const params = new URLSearchParams();
    if (query.status !== '') params.set('status', query.status);
    if (query.limit !== '') params.set('limit', query.limit);
    return api.get<WithdrawalRow[]>(`/withdrawals?${params.toString()}`);
  }, [api, query]);
  const [open, setOpen] = useState<{ id: string; verb: 'approve' | 'reject' } | undefined>(undefined);
  const [note, setNote] = useState('');
  const action = useAction();
  const settle = (id: string, verb: 'approve' | 'reject'): void =>
    void action.run(async () => {
      const body = verb === 'approve' ? filled({ txId: note }) : filled({ reason: note });
      const answer = await api.call<{ withdrawalId: string; txId: string }>('POST', `/withdrawals/${seg(id)}/${verb}`, body);
      setOpen(undefined);
      setNote('');
      list.reload();
      return verb === 'approve' ? `Withdrawal ${answer.withdrawalId} approved and sent (tx ${answer.txId}).` : `Withdrawal ${answer.withdrawalId} rejected; the funds are back with the user.`;
    });
  return (
    <Panel title="Withdrawals" actions={<button type="button" onClick={list.reload}>Refresh withdrawals</button>}>
      <Form label="Filter withdrawals" onSubmit={() => setQuery({ status, limit })}>
        <Select
          label="Withdrawal status"
          value={status}
          onChange={(value) => {
            setStatus(value);
            setQuery({ status: value, limit });
          }}
          options={[
            ['PENDING', 'Pending'],
            ['SENT', 'Sent'],
            ['REJECTED', 'Rejected'],
            ['', 'Every status'],
          ]}
        />
        <Field label="At most" value={limit} onInput={setLimit} hint="1 to 1000, newest first." />
        <div class="buttons">
          <button type="submit">Show withdrawals</button>
        </div>
      </Form>
      <ErrorLine error={list.error} />
      <ErrorLine error={action.error} />
      <DoneLine done={action.done} />
      {list.data === undefined ? null : (
        <Table label="Withdrawals" head={['Id', 'User', 'Account', 'Status', 'Asset', 'Amount', 'Fee', 'Chain', 'Address', 'Tx id', 'Requested', '']} empty={list.data.length === 0}>
          {list.data.map((w) => (
            <tr key={w.withdrawalId}>
              <td class="num">{w.withdrawalId}</td>
              <td class="num">{w.userId}</td>
              <td class="num">{w.accountId}</td>
              <td>
                <span class={w.status === 'SENT' ? 'badge good' : w.status === 'REJECTED' ? 'badge bad' : 'badge warn'}>{w.status}</span>
              </td>
              <td>{w.asset}</td>
              <td class="num">{w.amount}</td>
              <td class="num">{w.fee}</td>
              <td>{w.chainType}</td>
              <td class="addr">{w.address}</td>
              <td class="addr">{w.txId}</td>
              <td class="time">{isoTime(w.time)}</td>
              <td class="row-actions">
                {w.status !== 'PENDING' ? null : open?.id === w.withdrawalId ? (
                  <div class="inline-confirm">
                    <Field
                      label={open.verb === 'approve' ? `Tx id for withdrawal ${w.withdrawalId}` : `Reason for rejecting withdrawal ${w.withdrawalId}`}
                      value={note}
                      onInput={setNote}
                      placeholder={open.verb === 'approve' ? 'default: a random id' : 'address check'}
                    />
                    <button type="button" class={open.verb === 'approve' ? 'primary' : 'danger'} disabled={action.busy} onClick={() => settle(w.withdrawalId, open.verb)}>
                      {open.verb === 'approve' ? `Confirm approve withdrawal ${w.withdrawalId}` : `Confirm reject withdrawal ${w.withdrawalId}`}
                    </button>
                    <button type="button" onClick={() => setOpen(undefined)}>
                      Cancel
                    </button>
                  </div>
                ) : (
                  <>
                    <button
                      type="button"
                      onClick={() => {
                        setNote('');
                        setOpen({ id: w.withdrawalId, verb: 'approve' });
                      }}
                    >
                      Approve withdrawal {w.withdrawalId}
                    </button>
                    <button
                      type="button"
                      class="danger"
                      onClick={() => {
                        setNote('');
                        setOpen({ id: w.withdrawalId, verb: 'reject' });
                      }}
                    >
                      Reject withdrawal {w.withdrawalId}
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Panel>
  );
}
