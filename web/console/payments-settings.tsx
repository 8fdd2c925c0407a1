/**
 * Payments settings: the payments configuration (O15/O16) and a merchant user's simulator modes
 * (the sandbox API's modes, with the admin token and `userId`). As on the trading settings, only
 * the changed members are sent, and each exactly as typed: a count goes out as the digits typed, a
 * list as the JSON text typed; the server judges, and its message shows when it refuses.
 */
import type { JSX } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import type { AdminApi, Json } from './api.js';
import { membersOf, patchText, textsOf, type Member } from './config-members.js';
import { sendCall } from './payments-api.js';
import { DoneLine, ErrorLine, Field, Form, Panel, SaveButtons, Select, useAction, useLoad } from './ui.js';

/** What a member means, for its hint (docs/operating.md "Merchant payments settings"). */
const MEANING: Readonly<Record<string, string>> = {
  tokenTtlMs: 'Token lifetime (ms).',
  quoteTtlMs: 'Quote lifetime (ms).',
  acceptWindowMs: 'An order in 30 waits this long for its confirm (ms).',
  documentsWindowMs: 'An order in 11 or 31 waits this long for an upload (ms).',
  paymentWindowMs: 'An on-ramp in 40 (or a global payment in 41) waits this long for its pay-in (ms).',
  releaseHoldMs: 'An off-ramp is held in 50 this long before release (ms).',
  'webhook.timeoutMs': 'Per delivery attempt (ms).',
  'webhook.retryGapsMs': 'Gaps after attempts 1 to 7 (ms), a JSON list.',
  'webhook.jitterPct': 'Random spread of each gap (%).',
  'webhook.retentionDays': 'Days events are kept.',
  'webhook.maxInFlightPerUrl': 'Concurrent deliveries per URL.',
  maxMerchantsPerUser: 'Merchants one user may create.',
  maxOpenOrdersPerMerchant: 'Open orders per merchant.',
  defaultCountry: 'Country of new merchants.',
  publicBaseUrl: 'Base of the KYC and verify links; empty = this server.',
  spreadBps: 'Spread on quotes (basis points).',
};

export function PaymentsSettings({ api }: { api: AdminApi }): JSX.Element {
  return (
    <div class="section-grid">
      <PaymentsConfig api={api} />
      <SandboxModes api={api} />
    </div>
  );
}

const CONFIG_CALL = { method: 'PATCH', path: '/admin/v1/payments/config' } as const;

function PaymentsConfig({ api }: { api: AdminApi }): JSX.Element {
  const config = useLoad(() => api.get<Record<string, Json>>('/payments/config'), [api]);
  const [members, setMembers] = useState<Member[]>([]);
  const [edit, setEdit] = useState<Record<string, string>>({});
  const action = useAction();
  const show = (document: Record<string, Json>): void => {
    const next = membersOf(document);
    setMembers(next);
    setEdit(textsOf(next));
  };
  useEffect(() => {
    if (config.data !== undefined) show(config.data);
  }, [config.data]);
  const changed = members.filter((m) => edit[m.path] !== m.text);
  return (
    <Panel title="Payments configuration" actions={<button type="button" onClick={config.reload}>Reload payments configuration</button>}>
      <p class="muted">One journaled change; new values apply to objects created afterwards (deadlines already set stay). Only the changed members are sent.</p>
      <ErrorLine error={config.error} />
      {config.data === undefined ? null : (
        <Form
          label="Payments configuration"
          onSubmit={() =>
            void action.run(async () => {
              if (changed.length === 0) return 'Nothing changed.';
              const answer = await sendCall<Record<string, Json>>(api, CONFIG_CALL, patchText(changed, edit));
              const next = membersOf(answer);
              show(answer);
              return `Saved: ${changed.map((m) => `${m.path} = ${next.find((n) => n.path === m.path)?.text ?? ''}`).join(', ')}.`;
            })
          }
        >
          {members.map((m) => (
            <div key={m.path} class={`${edit[m.path] !== m.text ? 'changed' : ''} ${m.kind === 'json' ? 'wide' : ''}`.trim() || undefined}>
              {m.kind === 'json' ? (
                <JsonField label={m.path} value={edit[m.path] ?? ''} hint={MEANING[m.path]} onInput={(value) => setEdit((e) => ({ ...e, [m.path]: value }))} />
              ) : (
                <Field label={m.path} value={edit[m.path] ?? ''} hint={MEANING[m.path]} onInput={(value) => setEdit((e) => ({ ...e, [m.path]: value }))} />
              )}
            </div>
          ))}
          <SaveButtons
            busy={action.busy}
            changed={changed.length}
            save="Save payments configuration"
            undo={{ label: 'Undo payments changes', onClick: () => setEdit(textsOf(members)) }}
          />
        </Form>
      )}
      <ErrorLine error={action.error} />
      <DoneLine done={action.done} />
    </Panel>
  );
}

/** A JSON value (a list, a table) typed as text. */
function JsonField({ label, value, hint, onInput }: { label: string; value: string; hint?: string; onInput: (value: string) => void }): JSX.Element {
  const id = useId();
  return (
    <div class="field wide">
      <label class="label" for={id}>
        {label}
      </label>
      <textarea id={id} class="json" value={value} rows={Math.min(12, value.split('\n').length)} spellcheck={false} aria-describedby={hint === undefined ? undefined : `${id}-hint`} onInput={(e) => onInput((e.currentTarget as HTMLTextAreaElement).value)} />
      {hint === undefined ? null : (
        <span class="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
    </div>
  );
}

/** The simulator's modes and their values (docs/merchant-payments.md "The simulator and the sandbox API"). */
const MODES: readonly (readonly [string, string, readonly string[]])[] = [
  ['kyc', 'Merchant KYC', ['approve', 'reject', 'manual']],
  ['accountReview', 'Merchant account review', ['approve', 'reject', 'manual']],
  ['beneficiaryReview', 'Beneficiary review', ['approve', 'reject', 'manual']],
  ['orderReview', 'Order review', ['approve', 'rfi', 'documents', 'reject', 'manual']],
  ['payout', 'Payouts', ['success', 'fail', 'manual']],
  ['payoutFailCode', 'Payout failure code', ['-7001', '-7000']],
  ['deposit', 'Bank deposits', ['complete', 'manual']],
];

const asTexts = (modes: Record<string, Json>): Record<string, string> => Object.fromEntries(Object.entries(modes).map(([k, v]) => [k, String(v)]));

function SandboxModes({ api }: { api: AdminApi }): JSX.Element {
  const [typed, setTyped] = useState('');
  const [userId, setUserId] = useState('');
  const [saved, setSaved] = useState<Record<string, string>>({});
  const [edit, setEdit] = useState<Record<string, string>>({});
  const load = useAction();
  const save = useAction();
  const path = `/sandbox/v2/modes?userId=${encodeURIComponent(userId)}`;
  const changed = Object.keys(edit).filter((k) => edit[k] !== saved[k]);
  const showModes = (modes: Record<string, Json>): void => {
    setSaved(asTexts(modes));
    setEdit(asTexts(modes));
  };
  return (
    <Panel title="Simulator modes">
      <p class="muted">
        Per merchant user: how each review, payout and deposit is decided. <code>manual</code> leaves it to the queues; with <code>BOURSE_SANDBOX=0</code> every mode starts as manual.
      </p>
      <Form
        label="Show simulator modes"
        onSubmit={() =>
          void load.run(async () => {
            const who = typed.trim();
            const modes = await sendCall<Record<string, Json>>(api, { method: 'GET', path: `/sandbox/v2/modes?userId=${encodeURIComponent(who)}` });
            setUserId(who);
            showModes(modes);
            save.clear();
            return undefined;
          })
        }
      >
        <Field label="Merchant user ID" value={typed} onInput={setTyped} placeholder="7" required />
        <div class="buttons">
          <button type="submit" disabled={load.busy}>
            Show modes
          </button>
        </div>
      </Form>
      <ErrorLine error={load.error} />
      {userId === '' ? null : (
        <Form
          label={`Simulator modes of user ${userId}`}
          onSubmit={() =>
            void save.run(async () => {
              if (changed.length === 0) return 'Nothing changed.';
              const body = `{${changed.map((k) => `${JSON.stringify(k)}:${k === 'payoutFailCode' && /^-?\d+$/u.test(edit[k] ?? '') ? (edit[k] ?? '') : JSON.stringify(edit[k] ?? '')}`).join(',')}}`;
              const modes = await sendCall<Record<string, Json>>(api, { method: 'PUT', path }, body);
              showModes(modes);
              return `Modes of user ${userId}: ${changed.map((k) => `${k} = ${String(modes[k])}`).join(', ')}.`;
            })
          }
        >
          {[...MODES, ...Object.keys(edit).filter((k) => !MODES.some(([m]) => m === k)).map((k) => [k, k, []] as const)].map(([mode, label, values]) => {
            const current = edit[mode] ?? '';
            const options = values.includes(current) || current === '' ? values : [...values, current];
            return (
              <div key={mode} class={edit[mode] !== saved[mode] ? 'changed' : undefined}>
                <Select label={`${label} (${mode})`} value={current} onChange={(value) => setEdit((e) => ({ ...e, [mode]: value }))} options={options} />
              </div>
            );
          })}
          <SaveButtons busy={save.busy} changed={changed.length} save="Save modes" />
        </Form>
      )}
      <ErrorLine error={save.error} />
      <DoneLine done={save.done} />
    </Panel>
  );
}
