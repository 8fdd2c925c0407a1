import './style.css';
import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import { useStore } from '../shared/store.js';
import { initTheme } from '../shared/theme.js';
import { ThemeToggle } from '../shared/theme-toggle.js';
import { AccountTabs, Balances, SignIn, SignOutButton } from './account.js';
import { OrderBook, RecentTrades } from './book.js';
import { Chart } from './chart.js';
import { Markets, SymbolSelect } from './markets.js';
import { OrderForm } from './order-form.js';
import { credentials, loadError, marketConnected, messageOf, resumeSession, selected, startMarket, tickers } from './state.js';

function Header() {
  const symbol = useStore(selected);
  const prices = useStore(tickers);
  const connected = useStore(marketConnected);
  useEffect(() => {
    const last = prices.get(symbol)?.last;
    document.title = last === undefined ? 'Bourse · spot trading' : `${last} ${symbol} · Bourse`;
  }, [symbol, prices]);
  return (
    <header class="top">
      <a class="brand" href="/">
        Bourse
      </a>
      <SymbolSelect />
      <span class="num last-price">{prices.get(symbol)?.last ?? ''}</span>
      <span class={`dot ${connected ? 'on' : ''}`} role="status" aria-label={connected ? 'Market stream connected' : 'Market stream disconnected'} title={connected ? 'Live' : 'Reconnecting…'} />
      <span class="spacer" />
      <a href="/docs" class="muted small">
        API docs
      </a>
      <ThemeToggle />
      <SignOutButton />
    </header>
  );
}

function App() {
  const creds = useStore(credentials);
  const problem = useStore(loadError);
  return (
    <>
      <Header />
      {problem === '' ? null : (
        <p role="alert" class="error banner">
          {problem}
        </p>
      )}
      <main class="layout">
        <Markets />
        <Chart />
        <OrderBook />
        <RecentTrades />
        <div class="side-column">
          <OrderForm />
          {creds === undefined ? <SignIn /> : <Balances />}
        </div>
        {creds === undefined ? null : <AccountTabs />}
      </main>
    </>
  );
}

initTheme();
render(<App />, document.getElementById('app') as HTMLElement);
startMarket().catch((error: unknown) => loadError.set(`Could not load the market: ${messageOf(error)}`));
void resumeSession();
