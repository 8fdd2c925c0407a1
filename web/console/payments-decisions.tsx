/**
 * One object's decisions as buttons: each asks for a confirm (with a reason or a failure code where
 * the call's body has room for one), then sends the call the server named for it, unchanged. A
 * refusal shows here, with the server's message; a success goes to `onDone`.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { AdminApi, Json } from './api.js';
import { sendCall, valueText, type DeskCall } from './payments-api.js';
import { ErrorLine, Field, Select, useAction } from './ui.js';

/** What the operator reads on a decision's button; a name the server adds later shows as it is. */
const ACTION_LABELS: Readonly<Record<string, string>> = {
  submit: 'Submit KYC',
  verify: 'Accept terms',
  approve: 'Approve',
  reject: 'Reject',
  rfi: 'Ask for information',
  documents: 'Ask for documents',
  success: 'Mark payout sent',
  fail: 'Mark payout failed',
  release: 'Release',
  complete: 'Complete',
  cancel: 'Cancel',
  expire: 'Expire now',
};

/** Decisions that undo or refuse: drawn as danger buttons. */
const DANGER = new Set(['reject', 'fail', 'cancel', 'expire']);

/** The names of the payout failure codes (docs/merchant-payments.md failure codes), for the choice. */
const FAIL_NAMES: Readonly<Record<string, string>> = { '-7001': 'RECEIVING_ACCOUNT_NUMBER_INCORRECT', '-7000': 'BANK_ORDER_CREATE_FAILED' };

export const actionLabel = (action: string): string => ACTION_LABELS[action] ?? action;

/** The members of a call's body the operator fills in, as the call names them: a reason (typed) and a failure code (chosen). */
function fillIns(call: DeskCall | undefined): { reason?: string; failCodes: string[] } {
  const codes = call?.body?.failCode === undefined ? [] : (call.failCodes ?? [-7001, -7000]).map(String);
  return { reason: call?.reasonField, failCodes: codes };
}

/** The body to send: the call's own, with the reason as typed and the chosen code as a JSON number written from its digits. */
function bodyText(call: DeskCall, reason: string, failCode: string): string | undefined {
  if (call.body === undefined) return undefined;
  const parts = Object.entries(call.body).map(([member, value]): string => {
    if (member === call.reasonField) return `${JSON.stringify(member)}:${JSON.stringify(reason)}`;
    if (member === 'failCode') return `${JSON.stringify(member)}:${/^-?\d+$/u.test(failCode) ? failCode : JSON.stringify(failCode)}`;
    return `${JSON.stringify(member)}:${JSON.stringify(value)}`;
  });
  return `{${parts.join(',')}}`;
}

/** A short account of the answer: the object's new status when it names one. */
function outcome(answer: unknown): string {
  if (typeof answer !== 'object' || answer === null) return '';
  const record = answer as Record<string, Json>;
  for (const member of ['orderStatus', 'status']) if (record[member] !== undefined) return ` (status ${valueText(record[member])})`;
  return '';
}

export function Decisions({ api, what, actions, calls, onDone }: { api: AdminApi; what: string; actions: readonly string[]; calls: Readonly<Record<string, DeskCall>>; onDone: (message: string) => void }): JSX.Element {
  const [open, setOpen] = useState<string | undefined>(undefined);
  const [reason, setReason] = useState('');
  const [failCode, setFailCode] = useState('');
  const action = useAction();
  const usable = actions.filter((a) => calls[a] !== undefined);
  if (usable.length === 0) return <span class="muted">No decision now.</span>;
  const call = open === undefined ? undefined : calls[open];
  const fill = fillIns(call);
  return (
    <div class="decisions">
      {open === undefined || call === undefined ? (
        <div class="row-actions">
          {usable.map((a) => (
            <button
              key={a}
              type="button"
              class={DANGER.has(a) ? 'danger' : undefined}
              onClick={() => {
                action.clear();
                setReason('');
                const preset = calls[a]?.body?.failCode;
                setFailCode(preset === undefined ? '' : valueText(preset));
                setOpen(a);
              }}
            >
              {`${actionLabel(a)} ${what}`}
            </button>
          ))}
        </div>
      ) : (
        <div class="inline-confirm">
          {fill.reason === undefined ? null : <Field label={`Reason (${what})`} value={reason} onInput={setReason} placeholder="optional" />}
          {fill.failCodes.length === 0 ? null : (
            <Select label={`Failure code (${what})`} value={failCode} onChange={setFailCode} options={fill.failCodes.map((c) => [c, FAIL_NAMES[c] === undefined ? c : `${c} ${FAIL_NAMES[c]}`] as const)} />
          )}
          <button
            type="button"
            class={DANGER.has(open) ? 'danger' : 'primary'}
            disabled={action.busy}
            onClick={() =>
              void action.run(async () => {
                const answer = await sendCall<unknown>(api, call, bodyText(call, reason, failCode));
                const message = `${actionLabel(open)} ${what}: done${outcome(answer)}.`;
                setOpen(undefined);
                // The holder shows the message: after the decision this row may leave its queue.
                onDone(message);
                return undefined;
              })
            }
          >
            {`Confirm ${actionLabel(open).toLowerCase()} ${what}`}
          </button>
          <button type="button" onClick={() => setOpen(undefined)}>
            Back
          </button>
        </div>
      )}
      <ErrorLine error={action.error} />
    </div>
  );
}
