import { useState } from 'preact/hooks';
import { useStore } from '../shared/store.js';
import { TableHead } from '../shared/table-head.js';
import { dateTime, words } from './format.js';
import { worksAs, type OrderType } from './order-types.js';
import { Panel } from './panel.js';
import {
  accountError,
  balances,
  cancelOrder,
  credentials,
  isOpen,
  messageOf,
  myTrades,
  openOrders,
  orderHistory,
  selected,
  signIn,
  signOut,
  userConnected,
  type Order,
} from './state.js';

/** API key + secret; the secret is used here to sign and is kept in this tab only. */
export function SignIn() {
  const [apiKey, setApiKey] = useState('');
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const stored = useStore(accountError);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (apiKey.trim() === '' || secret.trim() === '') {
      setProblem('Enter both the API key and its secret.');
      return;
    }
    setBusy(true);
    setProblem('');
    try {
      await signIn({ apiKey: apiKey.trim(), secret: secret.trim() });
      setSecret('');
    } catch (error) {
      setProblem(`Sign-in failed: ${messageOf(error)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel class="sign-in" titleId="sign-in-title" title="Sign in">
      <form onSubmit={(event) => void submit(event)}>
        <label class="field">
          API key
          <input autoComplete="username" spellcheck={false} value={apiKey} onInput={(event) => setApiKey((event.target as HTMLInputElement).value)} />
        </label>
        <label class="field">
          Secret
          <input type="password" autoComplete="current-password" value={secret} onInput={(event) => setSecret((event.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" class="btn btn-primary" disabled={busy}>
          Sign in
        </button>
        <p class="muted small">Requests are signed in this browser. The secret is never sent and is forgotten when this tab closes.</p>
        <p role="alert" class="error">
          {problem || stored}
        </p>
      </form>
    </Panel>
  );
}

export function Balances() {
  const funds = useStore(balances);
  const live = useStore(userConnected);
  const rows = [...funds.values()].sort((a, b) => a.asset.localeCompare(b.asset));
  return (
    <Panel
      class="balances"
      titleId="balances-title"
      title={
        <>
          Balances <span class={`dot ${live ? 'on' : ''}`} title={live ? 'Live' : 'Not connected'} aria-label={live ? 'live' : 'not connected'} />
        </>
      }
    >
      <table class="data balances-table">
        <TableHead columns={['Asset', 'Free', 'Locked']} />
        <tbody>
          {rows.map((b) => (
            <tr key={b.asset} data-asset={b.asset}>
              <td>{b.asset}</td>
              <td class="num">{b.free}</td>
              <td class="num">{b.locked}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}

/** A stop order not yet triggered is NEW but not working: say that it waits. */
function statusText(order: Order): string {
  return isOpen(order) && !order.isWorking ? 'Waiting for trigger' : words(order.status);
}

function OrderRow({ order, withStop, cancellable, onError }: { order: Order; withStop: boolean; cancellable: boolean; onError: (text: string) => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <tr data-order-id={order.orderId}>
      <td class="num">{dateTime(order.time)}</td>
      <td>{order.symbol}</td>
      <td>{words(order.type)}</td>
      <td class={order.side === 'BUY' ? 'buy' : 'sell'}>{words(order.side)}</td>
      <td class="num">{worksAs(order.type as OrderType) === 'MARKET' ? 'Market' : order.price}</td>
      {withStop ? <td class="num">{order.stopPrice === '0' ? '—' : order.stopPrice}</td> : null}
      <td class="num">{order.origQty}</td>
      <td class="num">{order.executedQty}</td>
      <td>{statusText(order)}</td>
      {cancellable ? (
        <td>
          <button
            type="button"
            class="btn btn-ghost small"
            disabled={busy}
            aria-label={`Cancel order ${order.orderId}`}
            onClick={() => {
              setBusy(true);
              cancelOrder(order.orderId)
                .catch((error: unknown) => onError(`Cancel of order ${order.orderId} refused: ${messageOf(error)}`))
                .finally(() => setBusy(false));
            }}
          >
            Cancel
          </button>
        </td>
      ) : null}
    </tr>
  );
}

/** The columns of an order table; Stop only when one of its orders has a stop price (stop orders are an option). */
function orderColumns(withStop: boolean, cancellable: boolean): string[] {
  return ['Time', 'Symbol', 'Type', 'Side', 'Price', ...(withStop ? ['Stop'] : []), 'Quantity', 'Filled', 'Status', ...(cancellable ? ['Action'] : [])];
}

function OrderTable({ orders, cancellable, empty, onError }: { orders: Order[]; cancellable: boolean; empty: string; onError: (text: string) => void }) {
  if (orders.length === 0) return <p class="muted">{empty}</p>;
  const withStop = orders.some((order) => order.stopPrice !== '0');
  return (
    <div class="scroll-x">
      <table class="data orders-table">
        <TableHead columns={orderColumns(withStop, cancellable)} />
        <tbody>
          {orders.map((order) => (
            <OrderRow key={order.orderId} order={order} withStop={withStop} cancellable={cancellable} onError={onError} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function TradesTable() {
  const fills = useStore(myTrades);
  if (fills.length === 0) return <p class="muted">No trades in this symbol yet.</p>;
  return (
    <div class="scroll-x">
      <table class="data my-trades-table">
        <TableHead columns={['Time', 'Symbol', 'Side', 'Price', 'Quantity', 'Fee', 'Role']} />
        <tbody>
          {fills.map((t) => (
            <tr key={t.id} data-trade-id={t.id}>
              <td class="num">{dateTime(t.time)}</td>
              <td>{t.symbol}</td>
              <td class={t.side === 'BUY' ? 'buy' : 'sell'}>{words(t.side)}</td>
              <td class="num">{t.price}</td>
              <td class="num">{t.qty}</td>
              <td class="num">
                {t.commission} {t.commissionAsset}
              </td>
              <td>{t.isMaker ? 'Maker' : 'Taker'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const TABS = [
  ['open', 'Open orders'],
  ['history', 'Order history'],
  ['trades', 'My trades'],
] as const;
type Tab = (typeof TABS)[number][0];

/** Open orders (every symbol), and this symbol's order history and trades. */
export function AccountTabs() {
  const [tab, setTab] = useState<Tab>('open');
  const [problem, setProblem] = useState('');
  const open = useStore(openOrders);
  const done = useStore(orderHistory);
  const symbol = useStore(selected);
  useStore(myTrades);
  const onKey = (event: KeyboardEvent) => {
    const index = TABS.findIndex(([id]) => id === tab);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    const next = TABS[(index + step + TABS.length) % TABS.length]![0];
    setTab(next);
    document.getElementById(`tab-${next}`)?.focus();
  };
  return (
    <section class="panel account" aria-label="Your orders and trades">
      <div role="tablist" class="tabs" aria-label="Your orders and trades" onKeyDown={onKey}>
        {TABS.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`tab-${id}`}
            aria-selected={tab === id}
            aria-controls={`panel-${id}`}
            tabIndex={tab === id ? 0 : -1}
            class={`tab ${tab === id ? 'active' : ''}`}
            onClick={() => setTab(id)}
          >
            {label}
            {id === 'open' && open.length > 0 ? ` (${open.length})` : ''}
            {id !== 'open' ? <span class="muted"> · {symbol}</span> : null}
          </button>
        ))}
      </div>
      {problem === '' ? null : (
        <p role="alert" class="error">
          {problem}{' '}
          <button type="button" class="btn btn-ghost small" onClick={() => setProblem('')}>
            Dismiss
          </button>
        </p>
      )}
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'open' ? <OrderTable orders={open} cancellable empty="No open orders." onError={setProblem} /> : null}
        {tab === 'history' ? <OrderTable orders={done} cancellable={false} empty="No finished orders in this symbol yet." onError={setProblem} /> : null}
        {tab === 'trades' ? <TradesTable /> : null}
      </div>
    </section>
  );
}

export function SignOutButton() {
  const creds = useStore(credentials);
  if (creds === undefined) return null;
  return (
    <button type="button" class="btn" onClick={signOut}>
      Sign out
    </button>
  );
}
