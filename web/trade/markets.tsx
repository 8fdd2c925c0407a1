import { fractionToPercent, signOf } from '../shared/decimal.js';
import { useStore } from '../shared/store.js';
import { TableHead } from '../shared/table-head.js';
import { Panel } from './panel.js';
import { selected, selectSymbol, symbols, tickers } from './state.js';

/** Every symbol with its last price and 24 h change; a button each. */
export function Markets() {
  const list = useStore(symbols);
  const prices = useStore(tickers);
  const current = useStore(selected);
  return (
    <Panel class="markets" titleId="markets-title" title="Markets">
      <table class="data market-table">
        <TableHead columns={['Symbol', 'Last', '24h']} />
        <tbody>
          {list.map((s) => {
            const ticker = prices.get(s.symbol);
            const change = ticker?.change ?? '0';
            const direction = signOf(change);
            return (
              <tr key={s.symbol} class={s.symbol === current ? 'current' : ''} data-symbol={s.symbol}>
                <td>
                  <button type="button" class="link-button" aria-current={s.symbol === current ? 'true' : undefined} onClick={() => selectSymbol(s.symbol)}>
                    {s.baseAsset}
                    <span class="muted">/{s.quoteAsset}</span>
                  </button>
                </td>
                <td class="num">{ticker === undefined || ticker.last === '0' ? '—' : ticker.last}</td>
                <td class={`num ${direction > 0 ? 'up' : direction < 0 ? 'down' : 'muted'}`}>{ticker === undefined ? '—' : fractionToPercent(change)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Panel>
  );
}

/** The symbol picker of the header (handy on a phone, where the market list is further down). */
export function SymbolSelect() {
  const list = useStore(symbols);
  const current = useStore(selected);
  return (
    <select aria-label="Symbol" class="symbol-select" value={current} onChange={(event) => selectSymbol((event.target as HTMLSelectElement).value)}>
      {list.map((s) => (
        <option key={s.symbol} value={s.symbol}>
          {s.symbol}
        </option>
      ))}
    </select>
  );
}
