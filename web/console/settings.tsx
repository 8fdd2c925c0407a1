/** Settings: the trading configuration (rate limits, bans, open-order limits, default fees) and an account's fee rates. */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { seg, type AdminApi, type TradingConfig } from './api.js';
import { ActionForm, DoneLine, ErrorLine, Field, Form, Panel, SaveButtons, filled, useAction, useFields, useLoad } from './ui.js';

/** What each member means, for its hint; members the server adds later still show, without a hint. */
const MEANING: Readonly<Record<string, [string, string]>> = {
  requestWeightPerMinute: ['Request weight per minute', 'Per IP address; at least 1.'],
  ordersPerSecond: ['Orders per second', 'Per account; at least 1.'],
  ordersPerDay: ['Orders per day', 'Per account; at least 1.'],
  banStrikes: ['Ban strikes', 'Over-limit requests before an IP is banned.'],
  banBaseMs: ['Ban base (ms)', 'First ban length; each next ban lasts longer.'],
  banMaxMs: ['Ban max (ms)', 'Longest ban.'],
  listenKeyTtlMs: ['Listen key validity (ms)', 'User-stream listenKey lifetime.'],
  maxOpenOrdersPerSymbol: ['Max open orders per symbol', 'Per account.'],
  maxOpenOrdersPerAccount: ['Max open orders per account', 'Every symbol together.'],
  defaultMakerFeeRate: ['Default maker fee rate', '0 to 0.1, at most 8 decimals.'],
  defaultTakerFeeRate: ['Default taker fee rate', '0 to 0.1, at most 8 decimals.'],
};

const asText = (config: TradingConfig): Record<string, string> => Object.fromEntries(Object.entries(config).map(([k, v]) => [k, String(v)]));

export function SettingsSection({ api }: { api: AdminApi }): JSX.Element {
  return (
    <div class="section-grid">
      <TradingSettings api={api} />
      <AccountFees api={api} />
    </div>
  );
}

function TradingSettings({ api }: { api: AdminApi }): JSX.Element {
  const config = useLoad(() => api.get<TradingConfig>('/trading/config'), [api]);
  const [saved, setSaved] = useState<Record<string, string>>({});
  const [edit, setEdit] = useState<Record<string, string>>({});
  const action = useAction();
  useEffect(() => {
    if (config.data === undefined) return;
    setSaved(asText(config.data));
    setEdit(asText(config.data));
  }, [config.data]);
  const changed = Object.keys(edit).filter((k) => edit[k] !== saved[k]);
  return (
    <Panel title="Trading configuration" actions={<button type="button" onClick={config.reload}>Reload settings</button>}>
      <p class="muted">A change is one journaled command: it applies from the next request and survives restarts. Only the changed members are sent.</p>
      <ErrorLine error={config.error} />
      {config.data === undefined ? null : (
        <Form
          label="Trading configuration"
          onSubmit={() =>
            void action.run(async () => {
              if (changed.length === 0) return 'Nothing changed.';
              const patch = Object.fromEntries(changed.map((k) => [k, edit[k] ?? '']));
              const answer = await api.call<TradingConfig>('PATCH', '/trading/config', patch);
              setSaved(asText(answer));
              setEdit(asText(answer));
              return `Saved: ${changed.map((k) => `${k} = ${String(answer[k])}`).join(', ')}.`;
            })
          }
        >
          {Object.keys(edit).map((key) => {
            const [label, hint] = MEANING[key] ?? [key, ''];
            return (
              <div key={key} class={edit[key] !== saved[key] ? 'changed' : undefined}>
                <Field label={label} value={edit[key] ?? ''} onInput={(value) => setEdit((e) => ({ ...e, [key]: value }))} hint={hint === '' ? key : `${hint} (${key})`} />
              </div>
            );
          })}
          <SaveButtons busy={action.busy} changed={changed.length} save="Save settings" undo={{ label: 'Undo changes', onClick: () => setEdit(saved) }} />
        </Form>
      )}
      <ErrorLine error={action.error} />
      <DoneLine done={action.done} />
    </Panel>
  );
}

function AccountFees({ api }: { api: AdminApi }): JSX.Element {
  const { form, set } = useFields({ accountId: '', makerFeeRate: '', takerFeeRate: '' });
  return (
    <ActionForm
      title="Account fee rates"
      submit="Set account fees"
      primary={false}
      before={<p class="muted">Rates for one account instead of the defaults; leave a rate empty to keep it.</p>}
      onSubmit={async () => {
        const { accountId, ...rates } = form;
        const answer = await api.call<{ accountId: number; makerFeeRate: string; takerFeeRate: string }>('PATCH', `/accounts/${seg(accountId)}`, filled(rates));
        return `Account ${answer.accountId}: maker ${answer.makerFeeRate}, taker ${answer.takerFeeRate}.`;
      }}
    >
      <Field label="Fee account ID" value={form.accountId} onInput={set('accountId')} placeholder="12" required />
      <Field label="Maker fee rate" value={form.makerFeeRate} onInput={set('makerFeeRate')} placeholder="0.0005" />
      <Field label="Taker fee rate" value={form.takerFeeRate} onInput={set('takerFeeRate')} placeholder="0.0008" />
    </ActionForm>
  );
}
