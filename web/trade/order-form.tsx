import { useEffect, useState } from 'preact/hooks';
import { product } from '../shared/decimal.js';
import { useStore } from '../shared/store.js';
import { checkDraft, type Draft } from './checks.js';
import { Panel } from './panel.js';
import { balances, credentials, messageOf, placeOrder, selected, symbolInfo, symbols } from './state.js';

type OrderType = Draft['type'];
const TYPES: readonly [OrderType, string][] = [
  ['LIMIT', 'Limit'],
  ['MARKET', 'Market'],
  ['LIMIT_MAKER', 'Limit maker (post only)'],
];

/** LIMIT, MARKET and LIMIT_MAKER orders; the symbol's filters are checked before sending. */
export function OrderForm() {
  const symbol = useStore(selected);
  useStore(symbols);
  const creds = useStore(credentials);
  const funds = useStore(balances);
  const info = symbolInfo(symbol);
  const [side, setSide] = useState<'BUY' | 'SELL'>('BUY');
  const [type, setType] = useState<OrderType>('LIMIT');
  const [timeInForce, setTimeInForce] = useState('GTC');
  const [price, setPrice] = useState('');
  const [quantity, setQuantity] = useState('');
  const [problem, setProblem] = useState('');
  const [result, setResult] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setProblem('');
    setResult('');
  }, [symbol]);

  if (info === undefined) return <section class="panel order-form" aria-label="Order form" />;
  const priced = type !== 'MARKET';
  const quoteAmount = type === 'MARKET' && side === 'BUY';
  const spendAsset = side === 'BUY' ? info.quoteAsset : info.baseAsset;
  const available = funds.get(spendAsset)?.free;
  const total = priced ? product(price, quantity) : undefined;

  const submit = async (event: Event) => {
    event.preventDefault();
    setResult('');
    const draft: Draft = { side, type, price: price.trim(), quantity: quantity.trim() };
    const refusal = checkDraft(info, draft);
    if (refusal !== undefined) {
      setProblem(refusal);
      return;
    }
    setProblem('');
    setBusy(true);
    try {
      const order = await placeOrder({
        symbol,
        side,
        type,
        quantity: draft.quantity,
        price: priced ? draft.price : undefined,
        timeInForce: type === 'LIMIT' ? timeInForce : undefined,
      });
      setResult(`Order ${order.orderId}: ${order.status.toLowerCase().replace(/_/g, ' ')}.`);
    } catch (error) {
      setProblem(`The exchange refused the order: ${messageOf(error)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel class="order-form" titleId="order-title" title={`Place an order · ${symbol}`}>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <div class="side-switch" role="group" aria-label="Side">
          <button type="button" class={`btn ${side === 'BUY' ? 'btn-buy' : ''}`} aria-pressed={side === 'BUY'} onClick={() => setSide('BUY')}>
            Buy
          </button>
          <button type="button" class={`btn ${side === 'SELL' ? 'btn-sell' : ''}`} aria-pressed={side === 'SELL'} onClick={() => setSide('SELL')}>
            Sell
          </button>
        </div>
        <div class="form-row">
          <label class="field">
            Order type
            <select value={type} onChange={(event) => setType((event.target as HTMLSelectElement).value as OrderType)}>
              {TYPES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label class="field">
            Time in force
            <select value={type === 'LIMIT' ? timeInForce : type === 'MARKET' ? 'IOC' : 'GTC'} disabled={type !== 'LIMIT'} onChange={(event) => setTimeInForce((event.target as HTMLSelectElement).value)}>
              <option value="GTC" title="Good till cancelled">GTC</option>
              <option value="IOC" title="Immediate or cancel">IOC</option>
              <option value="FOK" title="Fill or kill">FOK</option>
            </select>
          </label>
        </div>
        {priced ? (
          <label class="field">
            <span>
              Price <span class="unit">({info.quoteAsset})</span>
            </span>
            <input inputMode="decimal" autoComplete="off" value={price} onInput={(event) => setPrice((event.target as HTMLInputElement).value)} />
          </label>
        ) : null}
        <label class="field">
          <span>
            Quantity <span class="unit">{quoteAmount ? `(${info.quoteAsset} to spend)` : `(${info.baseAsset})`}</span>
          </span>
          <input inputMode="decimal" autoComplete="off" value={quantity} onInput={(event) => setQuantity((event.target as HTMLInputElement).value)} />
        </label>
        <p class="form-facts muted">
          {total === undefined ? null : (
            <span>
              Total <span class="num">{total}</span> {info.quoteAsset}
              <br />
            </span>
          )}
          {creds === undefined ? null : (
            <span>
              Available <span class="num">{available ?? '0'}</span> {spendAsset}
            </span>
          )}
        </p>
        <button type="submit" class={`btn place ${side === 'BUY' ? 'btn-buy' : 'btn-sell'}`} disabled={busy || creds === undefined}>
          Place order
        </button>
        {creds === undefined ? <p class="muted">Sign in to trade.</p> : null}
        <p class="form-message" role="alert">
          {problem === '' ? null : <span class="error">{problem}</span>}
        </p>
        <p class="form-message" role="status">
          {result}
        </p>
      </form>
    </Panel>
  );
}
