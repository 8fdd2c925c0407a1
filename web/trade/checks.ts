/** The symbol's filters, checked with exact decimals before an order is sent. */
import { cmpDec, isMultiple, mulDec, parseDec, type Dec } from '../shared/decimal.js';
import { isStop, worksAs, type OrderType } from './order-types.js';
import { filterOf, type SymbolInfo } from './state.js';

export interface Draft {
  side: 'BUY' | 'SELL';
  type: OrderType;
  price: string;
  quantity: string;
  /** '' unless a stop type. */
  stopPrice: string;
  /** '' when not an iceberg. */
  icebergQty: string;
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
  const priceBounds = (value: Dec, name: string) => bounds(value, name, priceFilter?.minPrice, priceFilter?.maxPrice, priceFilter?.tickSize, info.quoteAsset);
  const market = worksAs(draft.type) === 'MARKET';
  if (market && draft.side === 'BUY') {
    // A MARKET BUY's quantity, and a stop-market BUY's, is the quote amount to spend.
    const amount = positive(draft.quantity, 'Quantity');
    if (typeof amount === 'string') return amount;
    const step = parseDec(info.quotePrecision);
    if (step !== undefined && !isMultiple(amount, step)) return `Quantity (the ${info.quoteAsset} to spend) must be a multiple of ${info.quotePrecision}.`;
    if (minNotional !== undefined && cmpDec(amount, minNotional) < 0) return `Quantity (the ${info.quoteAsset} to spend) must be at least ${notional?.minNotional} ${info.quoteAsset}.`;
    const stopPrice = isStop(draft.type) ? stopPriceOf(draft, priceBounds) : undefined;
    return typeof stopPrice === 'string' ? stopPrice : undefined;
  }
  const quantity = positive(draft.quantity, 'Quantity');
  if (typeof quantity === 'string') return quantity;
  const lotProblem = bounds(quantity, 'Quantity', lot?.minQty, lot?.maxQty, lot?.stepSize, info.baseAsset);
  if (lotProblem !== undefined) return lotProblem;
  if (draft.type === 'MARKET') return undefined;
  let price: Dec | undefined;
  if (!market) {
    const given = positive(draft.price, 'Price');
    if (typeof given === 'string') return given;
    const priceProblem = priceBounds(given, 'Price');
    if (priceProblem !== undefined) return priceProblem;
    price = given;
  }
  const stopPrice = isStop(draft.type) ? stopPriceOf(draft, priceBounds) : undefined;
  if (typeof stopPrice === 'string') return stopPrice;
  const icebergProblem = draft.icebergQty === '' ? undefined : checkIceberg(info, draft.icebergQty, quantity);
  if (icebergProblem !== undefined) return icebergProblem;
  // A stop-market SELL's value is taken at its stop price.
  const valuedAt = price ?? stopPrice;
  if (minNotional !== undefined && valuedAt !== undefined && cmpDec(mulDec(valuedAt, quantity), minNotional) < 0) {
    return `The order's value (${price === undefined ? 'stop price' : 'price'} × quantity) must be at least ${notional?.minNotional} ${info.quoteAsset}.`;
  }
  return undefined;
}

/** The stop price as a decimal, or what is wrong with it (PRICE_FILTER binds it as it binds the price). */
function stopPriceOf(draft: Draft, priceBounds: (value: Dec, name: string) => string | undefined): Dec | string {
  const stopPrice = positive(draft.stopPrice, 'Stop price');
  if (typeof stopPrice === 'string') return stopPrice;
  return priceBounds(stopPrice, 'Stop price') ?? stopPrice;
}

/** LOT_SIZE, less than the quantity, and at most ICEBERG_PARTS parts. */
function checkIceberg(info: SymbolInfo, text: string, quantity: Dec): string | undefined {
  const lot = filterOf(info, 'LOT_SIZE');
  const iceberg = positive(text, 'Iceberg quantity');
  if (typeof iceberg === 'string') return iceberg;
  const lotProblem = bounds(iceberg, 'Iceberg quantity', lot?.minQty, lot?.maxQty, lot?.stepSize, info.baseAsset);
  if (lotProblem !== undefined) return lotProblem;
  if (cmpDec(iceberg, quantity) >= 0) return 'Iceberg quantity must be less than the quantity.';
  const parts = filterOf(info, 'ICEBERG_PARTS')?.limit;
  if (parts !== undefined && cmpDec(quantity, mulDec(iceberg, { units: BigInt(parts), scale: 0 })) > 0) {
    return `An iceberg order may have at most ${parts} parts: the iceberg quantity must be at least the quantity / ${parts}.`;
  }
  return undefined;
}
