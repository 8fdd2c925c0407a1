import { useStore } from '../shared/store.js';
import { TableHead } from '../shared/table-head.js';
import { clock } from './format.js';
import { Panel } from './panel.js';
import { book, openOrders, selected, tickers, trades, type Level } from './state.js';

function Side({ levels, side, mine, maxQty }: { levels: Level[]; side: 'bid' | 'ask'; mine: Set<string>; maxQty: number }) {
  return (
    <tbody class={`book-${side}`}>
      {levels.map(([price, qty]) => (
        // The bar's width is drawing, not money: Number() is fine for it.
        <tr key={price} style={{ '--depth': `${Math.min(100, (Number(qty) / maxQty) * 100).toFixed(1)}%` }}>
          <td class={`num ${side === 'bid' ? 'buy' : 'sell'}`}>
            {mine.has(price) ? <span class="mine" title="You have an order at this price" aria-label="your order">●</span> : null}
            {price}
          </td>
          <td class="num">{qty}</td>
        </tr>
      ))}
    </tbody>
  );
}

/** The selected symbol's book from the depth stream: asks above (best lowest), bids below. */
export function OrderBook() {
  const current = useStore(book);
  const symbol = useStore(selected);
  const orders = useStore(openOrders);
  const prices = useStore(tickers);
  // A stop order waiting for its trigger is not in the book.
  const mine = new Set(orders.filter((o) => o.symbol === symbol && o.isWorking).map((o) => o.price));
  const maxQty = Math.max(1e-18, ...current.bids.map((l) => Number(l[1])), ...current.asks.map((l) => Number(l[1])));
  const asks = current.asks.slice(0, 12).reverse();
  const bids = current.bids.slice(0, 12);
  return (
    <Panel class="book" titleId="book-title" title="Order book">
      <table class="data book-table" aria-label={`Order book ${symbol}`}>
        <TableHead columns={['Price', 'Quantity']} />
        <Side levels={asks} side="ask" mine={mine} maxQty={maxQty} />
        <tbody class="book-mid">
          <tr>
            <td colSpan={2} class="num">
              {prices.get(symbol)?.last ?? '—'} <span class="muted">last</span>
            </td>
          </tr>
        </tbody>
        <Side levels={bids} side="bid" mine={mine} maxQty={maxQty} />
      </table>
      {current.bids.length === 0 && current.asks.length === 0 ? <p class="muted">No orders in the book.</p> : null}
    </Panel>
  );
}

/** The newest trades from the trade stream. */
export function RecentTrades() {
  const list = useStore(trades);
  return (
    <Panel class="recent-trades" titleId="trades-title" title="Recent trades">
      <table class="data trades-table">
        <TableHead columns={['Price', 'Quantity', 'Time']} />
        <tbody>
          {list.map((t) => (
            <tr key={t.id}>
              <td class={`num ${t.takerBuy ? 'buy' : 'sell'}`}>{t.price}</td>
              <td class="num">{t.qty}</td>
              <td class="num muted">{clock(t.time)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.length === 0 ? <p class="muted">No trades yet.</p> : null}
    </Panel>
  );
}
