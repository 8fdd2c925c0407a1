/** The symbol's filters, checked with exact decimals before an order is sent. */
import { cmpDec, isMultiple, mulDec, parseDec, type Dec } from '../shared/decimal.js';
import { filterOf, type SymbolInfo } from './state.js';

export interface Draft {
  side: 'BUY' | 'SELL';
  type: 'LIMIT' | 'MARKET' | 'LIMIT_MAKER';
  price: string;
  quantity: string;
}

function positive(text: string, name: string): Dec | string {
  if (text.trim() === '') return `Enter a ${name.toLowerCase()}.`;
  const value = parseDec(text);
  if (value === undefined) return `${name} must be a plain decimal number, like 0.5.`;
  if (value.units <= 0n) return `${name} must be more than zero.`;
  return value;
}

function bounds(value: Dec, name: string, min: string | undefined, max: string | undefined, step: string | undefined, unit: string): string | undefined {
  const lo = min === undefined ? undefined : parseDec(min);
  const hi = max === undefined ? undefined : parseDec(max);
  const inc = step === undefined ? undefined : parseDec(step);
  if (lo !== undefined && lo.units > 0n && cmpDec(value, lo) < 0) return `${name} must be at least ${min} ${unit}.`;
  if (hi !== undefined && hi.units > 0n && cmpDec(value, hi) > 0) return `${name} must be at most ${max} ${unit}.`;
  if (inc !== undefined && !isMultiple(value, inc)) return `${name} must be a multiple of ${step} ${unit}.`;
  return undefined;
}

/** A message saying what is wrong with the draft, or undefined when it passes every filter. */
export function checkDraft(info: SymbolInfo, draft: Draft): string | undefined {
  const priceFilter = filterOf(info, 'PRICE_FILTER');
  const lot = filterOf(info, 'LOT_SIZE');
  const notional = filterOf(info, 'MIN_NOTIONAL') ?? filterOf(info, 'NOTIONAL');
  const minNotional = notional?.minNotional === undefined ? undefined : parseDec(notional.minNotional);
  if (draft.type === 'MARKET' && draft.side === 'BUY') {
    // A MARKET BUY's quantity is the quote amount to spend.
    const amount = positive(draft.quantity, 'Quantity');
    if (typeof amount === 'string') return amount;
    const step = parseDec(info.quotePrecision);
    if (step !== undefined && !isMultiple(amount, step)) return `Quantity (the ${info.quoteAsset} to spend) must be a multiple of ${info.quotePrecision}.`;
    if (minNotional !== undefined && cmpDec(amount, minNotional) < 0) return `Quantity (the ${info.quoteAsset} to spend) must be at least ${notional?.minNotional} ${info.quoteAsset}.`;
    return undefined;
  }
  const quantity = positive(draft.quantity, 'Quantity');
  if (typeof quantity === 'string') return quantity;
  const lotProblem = bounds(quantity, 'Quantity', lot?.minQty, lot?.maxQty, lot?.stepSize, info.baseAsset);
  if (lotProblem !== undefined) return lotProblem;
  if (draft.type === 'MARKET') return undefined;
  const price = positive(draft.price, 'Price');
  if (typeof price === 'string') return price;
  const priceProblem = bounds(price, 'Price', priceFilter?.minPrice, priceFilter?.maxPrice, priceFilter?.tickSize, info.quoteAsset);
  if (priceProblem !== undefined) return priceProblem;
  if (minNotional !== undefined && cmpDec(mulDec(price, quantity), minNotional) < 0) {
    return `The order's value (price × quantity) must be at least ${notional?.minNotional} ${info.quoteAsset}.`;
  }
  return undefined;
}
