import { useEffect, useState } from 'preact/hooks';
import { product } from '../shared/decimal.js';
import { useStore } from '../shared/store.js';
import { checkDraft, type Draft } from './checks.js';
import { BASIC_ORDER_TYPES, firesOnRise, isStop, STOP_ORDER_TYPES, TYPE_LABELS, worksAs, type OrderType } from './order-types.js';
import { Panel } from './panel.js';
import { balances, credentials, messageOf, placeOrder, selected, symbolInfo, symbols } from './state.js';

/**
 * LIMIT, MARKET and LIMIT_MAKER orders, and, while the operator offers them (`icebergAllowed`), the
 * four stop types and iceberg quantities; the symbol's filters are checked before sending.
 */
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
  const [stopPrice, setStopPrice] = useState('');
  const [quantity, setQuantity] = useState('');
  const [icebergQty, setIcebergQty] = useState('');
  const [problem, setProblem] = useState('');
  const [result, setResult] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setProblem('');
    setResult('');
  }, [symbol]);

  if (info === undefined) return <section class="panel order-form" aria-label="Order form" />;
  const types: readonly OrderType[] = info.icebergAllowed ? [...BASIC_ORDER_TYPES, ...STOP_ORDER_TYPES] : BASIC_ORDER_TYPES;
  // A stop type chosen while the option was on is not kept for a symbol (or a page) without it.
  const kind = types.includes(type) ? type : 'LIMIT';
  const working = worksAs(kind);
  const stop = isStop(kind);
  const priced = working !== 'MARKET';
  const choosesTimeInForce = working === 'LIMIT';
  const goodTillCancel = working === 'LIMIT_MAKER' || (choosesTimeInForce && timeInForce === 'GTC');
  const iceberg = info.icebergAllowed && priced && goodTillCancel;
  const quoteAmount = working === 'MARKET' && side === 'BUY';
  const spendAsset = side === 'BUY' ? info.quoteAsset : info.baseAsset;
  const available = funds.get(spendAsset)?.free;
  const total = priced ? product(price, quantity) : undefined;

  const submit = async (event: Event) => {
    event.preventDefault();
    setResult('');
    const draft: Draft = {
      side,
      type: kind,
      price: price.trim(),
      quantity: quantity.trim(),
      stopPrice: stop ? stopPrice.trim() : '',
      icebergQty: iceberg ? icebergQty.trim() : '',
    };
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
        type: kind,
        quantity: draft.quantity,
        price: priced ? draft.price : undefined,
        timeInForce: choosesTimeInForce ? timeInForce : undefined,
        stopPrice: draft.stopPrice,
        icebergQty: draft.icebergQty,
      });
      const waiting = order.status === 'NEW' && !order.isWorking ? ', waiting for its stop price' : '';
      setResult(`Order ${order.orderId}: ${order.status.toLowerCase().replace(/_/g, ' ')}${waiting}.`);
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
            <select value={kind} onChange={(event) => setType((event.target as HTMLSelectElement).value as OrderType)}>
              {types.map((value) => (
                <option key={value} value={value}>
                  {TYPE_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
          <label class="field">
            Time in force
            <select
              value={choosesTimeInForce ? timeInForce : working === 'MARKET' ? 'IOC' : 'GTC'}
              disabled={!choosesTimeInForce}
              onChange={(event) => setTimeInForce((event.target as HTMLSelectElement).value)}
            >
              <option value="GTC" title="Good till cancelled">GTC</option>
              <option value="IOC" title="Immediate or cancel">IOC</option>
              <option value="FOK" title="Fill or kill">FOK</option>
            </select>
          </label>
        </div>
        {stop ? (
          <label class="field">
            <span>
              Stop price <span class="unit">({info.quoteAsset})</span>
            </span>
            <input inputMode="decimal" autoComplete="off" value={stopPrice} onInput={(event) => setStopPrice((event.target as HTMLInputElement).value)} />
          </label>
        ) : null}
        {stop ? (
          <p class="muted small">
            Waits until the last price {firesOnRise(kind, side) ? 'rises to the stop price or above' : 'falls to the stop price or below'}, then
            becomes a {working === 'MARKET' ? 'market' : 'limit'} order.
          </p>
        ) : null}
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
        {iceberg ? (
          <label class="field">
            <span>
              Iceberg quantity <span class="unit">({info.baseAsset}, optional: the part shown in the book)</span>
            </span>
            <input inputMode="decimal" autoComplete="off" value={icebergQty} onInput={(event) => setIcebergQty((event.target as HTMLInputElement).value)} />
          </label>
        ) : null}
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
