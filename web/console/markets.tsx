/** Assets & symbols: the catalogue, adding to it, and halting or resuming a symbol. */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { seg, type AdminApi, type AssetRow, type Json, type SymbolRow } from './api.js';
import { ActionForm, DoneLine, ErrorLine, Field, Panel, Select, Table, filled, splitList, useAction, useFields, useLoad } from './ui.js';

export function MarketsSection({ api }: { api: AdminApi }): JSX.Element {
  const assets = useLoad(() => api.get<AssetRow[]>('/assets'), [api]);
  const symbols = useLoad(() => api.get<SymbolRow[]>('/symbols'), [api]);
  return (
    <div class="section-grid">
      <SymbolsPanel api={api} symbols={symbols.data} error={symbols.error} reload={symbols.reload} />
      <AddSymbol api={api} assets={assets.data ?? []} onAdded={symbols.reload} />
      <Panel title="Assets" actions={<button type="button" onClick={assets.reload}>Refresh assets</button>}>
        <ErrorLine error={assets.error} />
        {assets.data === undefined ? null : (
          <Table label="Assets" head={['Asset', 'Name', 'Kind', 'Precision', 'Chains', 'Withdraw fee', 'Min withdraw', 'Deposit', 'Withdraw']} empty={assets.data.length === 0}>
            {assets.data.map((a) => (
              <tr key={a.asset}>
                <td>
                  <strong>{a.asset}</strong>
                </td>
                <td>{a.fullName}</td>
                <td>{a.kind}</td>
                <td class="num">{a.precision}</td>
                <td>{a.chains.join(', ')}</td>
                <td class="num">{a.withdrawFee}</td>
                <td class="num">{a.minWithdraw}</td>
                <td>{a.allowDeposit ? 'yes' : 'no'}</td>
                <td>{a.allowWithdraw ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </Table>
        )}
      </Panel>
      <AddAsset api={api} onAdded={assets.reload} />
    </div>
  );
}

function SymbolsPanel({ api, symbols, error, reload }: { api: AdminApi; symbols: SymbolRow[] | undefined; error: string | undefined; reload: () => void }): JSX.Element {
  const action = useAction();
  const setStatus = (symbol: string, status: string): void =>
    void action.run(async () => {
      const answer = await api.call<{ symbol: string; status: string }>('PATCH', `/symbols/${seg(symbol)}`, { status });
      reload();
      return `${answer.symbol} is now ${answer.status}.`;
    });
  return (
    <Panel title="Symbols" actions={<button type="button" onClick={reload}>Refresh symbols</button>}>
      <ErrorLine error={error} />
      <ErrorLine error={action.error} />
      <DoneLine done={action.done} />
      {symbols === undefined ? null : (
        <Table label="Symbols" head={['Symbol', 'Status', 'Base', 'Quote', 'Tick size', 'Step size', 'Min qty', 'Max qty', 'Min price', 'Max price', 'Min notional', '']} empty={symbols.length === 0}>
          {symbols.map((s) => (
            <tr key={s.symbol}>
              <td>
                <strong>{s.symbol}</strong>
              </td>
              <td>
                <span class={s.status === 'TRADING' ? 'badge good' : 'badge bad'} data-testid={`status-${s.symbol}`}>
                  {s.status}
                </span>
              </td>
              <td>{s.baseAsset}</td>
              <td>{s.quoteAsset}</td>
              <td class="num">{s.tickSize}</td>
              <td class="num">{s.stepSize}</td>
              <td class="num">{s.minQty}</td>
              <td class="num">{s.maxQty}</td>
              <td class="num">{s.minPrice}</td>
              <td class="num">{s.maxPrice}</td>
              <td class="num">{s.minNotional}</td>
              <td class="row-actions">
                {s.status === 'TRADING' ? (
                  <button type="button" class="danger" disabled={action.busy} onClick={() => setStatus(s.symbol, 'HALT')}>
                    Halt {s.symbol}
                  </button>
                ) : (
                  <button type="button" disabled={action.busy} onClick={() => setStatus(s.symbol, 'TRADING')}>
                    Resume {s.symbol}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Panel>
  );
}

const EMPTY_ASSET = { asset: '', precision: '', fullName: '', chains: '', withdrawFee: '', minWithdraw: '' };

function AddAsset({ api, onAdded }: { api: AdminApi; onAdded: () => void }): JSX.Element {
  const { form, set, setForm } = useFields(EMPTY_ASSET);
  const [kind, setKind] = useState('crypto');
  const [allowDeposit, setAllowDeposit] = useState('');
  const [allowWithdraw, setAllowWithdraw] = useState('');
  const yesNo = [
    ['', 'default for the kind'],
    ['true', 'yes'],
    ['false', 'no'],
  ] as const;
  return (
    <ActionForm
      title="Add an asset"
      submit="Add asset"
      onSubmit={async () => {
        const { chains, ...rest } = form;
        const body: Record<string, Json> = { ...filled(rest), kind };
        if (chains !== '') body.chains = splitList(chains);
        if (allowDeposit !== '') body.allowDeposit = allowDeposit === 'true';
        if (allowWithdraw !== '') body.allowWithdraw = allowWithdraw === 'true';
        const added = await api.call<{ asset: string; precision: number }>('POST', '/assets', body);
        setForm(EMPTY_ASSET);
        onAdded();
        return `Added ${added.asset} (precision ${added.precision}).`;
      }}
    >
      <Field label="Asset" value={form.asset} onInput={set('asset')} placeholder="SOL" required />
      <Field label="Precision" value={form.precision} onInput={set('precision')} placeholder="8" required hint="Decimals of an amount." />
      <Select label="Kind" value={kind} onChange={setKind} options={['crypto', 'fiat']} />
      <Field label="Full name" value={form.fullName} onInput={set('fullName')} placeholder="Solana" />
      <Field label="Chains" value={form.chains} onInput={set('chains')} placeholder="SOL" hint="Comma separated; empty = the asset (crypto) or none (fiat)." />
      <Field label="Withdraw fee" value={form.withdrawFee} onInput={set('withdrawFee')} placeholder="0" />
      <Field label="Min withdraw" value={form.minWithdraw} onInput={set('minWithdraw')} placeholder="0" />
      <Select label="Allow deposit" value={allowDeposit} onChange={setAllowDeposit} options={yesNo} />
      <Select label="Allow withdraw" value={allowWithdraw} onChange={setAllowWithdraw} options={yesNo} />
    </ActionForm>
  );
}

const EMPTY_SYMBOL = { symbol: '', baseAsset: '', quoteAsset: '', tickSize: '', stepSize: '', minNotional: '', minPrice: '', maxPrice: '', minQty: '', maxQty: '' };

function AddSymbol({ api, assets, onAdded }: { api: AdminApi; assets: AssetRow[]; onAdded: () => void }): JSX.Element {
  const { form, set, setForm } = useFields(EMPTY_SYMBOL);
  return (
    <ActionForm
      title="Add a symbol"
      submit="Add symbol"
      before={
        <datalist id="console-assets">
          {assets.map((a) => (
            <option key={a.asset} value={a.asset} />
          ))}
        </datalist>
      }
      onSubmit={async () => {
        const added = await api.call<{ symbol: string; status: string }>('POST', '/symbols', filled(form));
        setForm(EMPTY_SYMBOL);
        onAdded();
        return `Listed ${added.symbol} (${added.status}).`;
      }}
    >
      <Field label="Symbol" value={form.symbol} onInput={set('symbol')} placeholder="SOLUSDT" required />
      <Field label="Base asset" value={form.baseAsset} onInput={set('baseAsset')} placeholder="SOL" list="console-assets" required />
      <Field label="Quote asset" value={form.quoteAsset} onInput={set('quoteAsset')} placeholder="USDT" list="console-assets" required />
      <Field label="Tick size" value={form.tickSize} onInput={set('tickSize')} placeholder="0.01" required />
      <Field label="Step size" value={form.stepSize} onInput={set('stepSize')} placeholder="0.001" required />
      <Field label="Min notional" value={form.minNotional} onInput={set('minNotional')} placeholder="1" required />
      <Field label="Min price" value={form.minPrice} onInput={set('minPrice')} placeholder="default: tick size" />
      <Field label="Max price" value={form.maxPrice} onInput={set('maxPrice')} placeholder="default: 10000000" />
      <Field label="Min quantity" value={form.minQty} onInput={set('minQty')} placeholder="default: step size" />
      <Field label="Max quantity" value={form.maxQty} onInput={set('maxQty')} placeholder="default: 1000000" />
    </ActionForm>
  );
}
