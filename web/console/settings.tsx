/** Settings: the trading configuration (rate limits, bans, open-order limits, default fees, algo orders) and an account's fee rates. */
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { seg, type AdminApi, type TradingConfig } from './api.js';
import { membersOf, patchText, textsOf, type Member } from './config-members.js';
import { ActionForm, DoneLine, ErrorLine, Field, Form, Panel, SaveButtons, Toggle, filled, useAction, useFields, useLoad } from './ui.js';

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
  algoOrders: ['Stop and iceberg orders', 'STOP_LOSS, TAKE_PROFIT (and their _LIMIT types) and icebergQty; off refuses new ones, placed ones stay.'],
  maxAlgoOrdersPerSymbol: ['Max stop orders per symbol', 'Untriggered, per account (MAX_NUM_ALGO_ORDERS); at least 1.'],
  maxAlgoOrdersPerAccount: ['Max stop orders per account', 'Untriggered, every symbol together (BROKER_MAX_NUM_ALGO_ORDERS); at least 1.'],
  maxIcebergParts: ['Max iceberg parts', 'Most parts an iceberg order is cut into (ICEBERG_PARTS); at least 1.'],
};

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
  const [members, setMembers] = useState<Member[]>([]);
  const [edit, setEdit] = useState<Record<string, string>>({});
  const action = useAction();
  const show = (answer: TradingConfig): Member[] => {
    const next = membersOf(answer);
    setMembers(next);
    setEdit(textsOf(next));
    return next;
  };
  useEffect(() => {
    if (config.data !== undefined) show(config.data);
  }, [config.data]);
  const changed = members.filter((m) => edit[m.path] !== m.text);
  const setText = (path: string) => (value: string) => setEdit((e) => ({ ...e, [path]: value }));
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
              const next = show(await api.send<TradingConfig>('PATCH', '/trading/config', patchText(changed, edit)));
              return `Saved: ${changed.map((m) => `${m.path} = ${next.find((n) => n.path === m.path)?.text ?? ''}`).join(', ')}.`;
            })
          }
        >
          {members.map(({ path, kind, text }) => {
            const [label, hint] = MEANING[path] ?? [path, ''];
            const described = hint === '' ? path : `${hint} (${path})`;
            const value = edit[path] ?? '';
            return (
              <div key={path} class={value !== text ? 'changed' : undefined}>
                {kind === 'flag' ? (
                  <Toggle label={label} checked={value === 'true'} onChange={(on) => setText(path)(String(on))} hint={described} />
                ) : (
                  <Field label={label} value={value} onInput={setText(path)} inputMode={kind === 'count' ? 'numeric' : 'decimal'} hint={described} />
                )}
              </div>
            );
          })}
          <SaveButtons busy={action.busy} changed={changed.length} save="Save settings" undo={{ label: 'Undo changes', onClick: () => setEdit(textsOf(members)) }} />
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
