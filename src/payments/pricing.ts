/**
 * Quote prices from Bourse's own books (docs/merchant-payments.md "Quotes and orders"), rounded once (docs/merchant-payments.md "Values and rounding"). Pure: the
 * caller reads the book sides and the configuration; nothing here touches I/O or a clock.
 *
 * Units: book prices and quantities are atto (value × 10^18); a walk's result is an exact atto
 * amount as a Ratio (a partial level can leave a fraction of an atto); a raw price is a plain
 * value as a Ratio (atto ÷ atto cancels); client prices are units at the price accuracy.
 */
import { ATTO_ONE, pow10 } from '../core/decimal.js';
import { ceilUnits, divRatio, floorDiv, floorUnits, mulRatio, ratio, ratioOfAtto, type Ratio } from './ratio.js';

export type { Ratio } from './ratio.js';
export { ceilUnits, compareRatio, divRatio, floorUnits, mulRatio, ratio, ratioOfAtto, ratioOfUnits } from './ratio.js';

/** One price level of a book side: `qtyAtto` of base (crypto) resting at `priceAtto` quote per base. */
export interface BookLevel {
  readonly priceAtto: bigint;
  readonly qtyAtto: bigint;
}

/**
 * The best level of a side, if any. A side is any re-iterable sequence, best first: a lazy one lets
 * a walk read only as deep as it needs, and each reading starts again at the best level.
 */
function first(side: Iterable<BookLevel>): BookLevel | undefined {
  for (const level of side) return level;
  return undefined;
}

/** Decimals of a fiat → crypto quote shown as its inverse (docs/merchant-payments.md "Values and rounding", B22). */
export const INVERSE_QUOTE_ACCURACY = 8;

const BPS_ONE = 10_000n;

function checkLevel(level: BookLevel): void {
  // A book never rests a zero price or a negative quantity; seeing one means the caller mapped it wrong.
  if (level.priceAtto <= 0n || level.qtyAtto < 0n) throw new RangeError('book level needs a positive price and a non-negative quantity');
}

/**
 * Spends exactly `quoteAtto` of the quote currency over `asks` (best first). Returns the base
 * obtained in atto, exact (the last level used may be partial: remaining ÷ price), or
 * `undefined` when the whole side cannot absorb the spend (depth short).
 */
export function walkAsksSpending(asks: Iterable<BookLevel>, quoteAtto: bigint): Ratio | undefined {
  if (quoteAtto < 0n) throw new RangeError('walkAsksSpending needs a non-negative spend');
  // Costs are qty × price, atto × atto = 10^36 scale; keep the spend at that scale so no level's
  // cost is ever rounded.
  let remainingScaled = quoteAtto * ATTO_ONE;
  let baseAtto = 0n;
  for (const level of asks) {
    if (remainingScaled === 0n) break;
    checkLevel(level);
    const costScaled = level.qtyAtto * level.priceAtto;
    if (costScaled <= remainingScaled) {
      baseAtto += level.qtyAtto;
      remainingScaled -= costScaled;
    } else {
      // Partial level: the rest buys remaining ÷ price of base, exactly.
      return ratio(baseAtto * level.priceAtto + remainingScaled, level.priceAtto);
    }
  }
  return remainingScaled === 0n ? ratio(baseAtto) : undefined;
}

/**
 * Sells exactly `baseAtto` (an exact, possibly fractional atto amount) into `bids` (best first).
 * Returns the quote obtained in atto, exact, or `undefined` when depth is short. The fiat → fiat
 * rate sells the USDT that a first walk bought, which is itself a Ratio.
 */
export function walkBidsSellingExact(bids: Iterable<BookLevel>, baseAtto: Ratio): Ratio | undefined {
  if (baseAtto.num < 0n) throw new RangeError('walkBidsSellingExact needs a non-negative quantity');
  const { den } = baseAtto;
  // Remaining base × den, an integer; proceeds at the atto × atto scale (10^36), integers too.
  let remainingTimesDen = baseAtto.num;
  let proceedsScaled = 0n;
  for (const level of bids) {
    if (remainingTimesDen === 0n) break;
    checkLevel(level);
    const levelTimesDen = level.qtyAtto * den;
    if (levelTimesDen <= remainingTimesDen) {
      proceedsScaled += level.qtyAtto * level.priceAtto;
      remainingTimesDen -= levelTimesDen;
    } else {
      // Partial level: the rest sells at this price; (proceeds + rest × price) ÷ 10^18, exactly.
      return ratio(proceedsScaled * den + remainingTimesDen * level.priceAtto, den * ATTO_ONE);
    }
  }
  return remainingTimesDen === 0n ? ratio(proceedsScaled, ATTO_ONE) : undefined;
}

/** Sells exactly `baseAtto` into `bids`; the quote obtained in atto (exact), or `undefined` when depth is short. */
export function walkBidsSelling(bids: Iterable<BookLevel>, baseAtto: bigint): Ratio | undefined {
  return walkBidsSellingExact(bids, ratio(baseAtto));
}

/**
 * A size ≤ 0 (or none) prices at the top of the book: that is the walk's limit as the size
 * shrinks, and it lets an order whose net amount (amount − fee) is ≤ 0 get a price and then fail
 * the amount check (-5050, docs/merchant-payments.md "Order creation checks" step 9) rather than be told there is no price (-5027, step 8).
 */
function hasSize(sizeAtto: bigint | undefined): sizeAtto is bigint {
  return sizeAtto !== undefined && sizeAtto > 0n;
}

/** Raw buy price, fiat per crypto (docs/merchant-payments.md "Quotes and orders"): `fiatAtto` ÷ crypto obtained on `asks`; no size → best ask. */
export function rawBuyPrice(asks: Iterable<BookLevel>, fiatAtto?: bigint): Ratio | undefined {
  const best = first(asks);
  if (best === undefined) return undefined;
  if (!hasSize(fiatAtto)) return ratioOfAtto(best.priceAtto);
  const cryptoAtto = walkAsksSpending(asks, fiatAtto);
  // Zero crypto for a positive spend means every level was empty: no price.
  if (cryptoAtto === undefined || cryptoAtto.num === 0n) return undefined;
  return divRatio(ratio(fiatAtto), cryptoAtto);
}

/** Raw sell price, fiat per crypto (docs/merchant-payments.md "Quotes and orders"): fiat obtained on `bids` ÷ `cryptoAtto`; no size → best bid. */
export function rawSellPrice(bids: Iterable<BookLevel>, cryptoAtto?: bigint): Ratio | undefined {
  const best = first(bids);
  if (best === undefined) return undefined;
  if (!hasSize(cryptoAtto)) return ratioOfAtto(best.priceAtto);
  const fiatAtto = walkBidsSelling(bids, cryptoAtto);
  if (fiatAtto === undefined) return undefined;
  return divRatio(fiatAtto, ratio(cryptoAtto));
}

/**
 * Raw fiat A → B rate, B per A (docs/merchant-payments.md "Quotes and orders"): spend `fiatAAtto` on the asks of USDT/A → u USDT (exact),
 * sell u on the bids of USDT/B → Y; raw = Y ÷ X. No size → best bid USDT/B ÷ best ask USDT/A.
 */
export function rawFiatRate(asksA: Iterable<BookLevel>, bidsB: Iterable<BookLevel>, fiatAAtto?: bigint): Ratio | undefined {
  const bestAsk = first(asksA);
  const bestBid = first(bidsB);
  if (bestAsk === undefined || bestBid === undefined) return undefined;
  if (!hasSize(fiatAAtto)) return ratio(bestBid.priceAtto, bestAsk.priceAtto);
  const usdtAtto = walkAsksSpending(asksA, fiatAAtto);
  if (usdtAtto === undefined) return undefined;
  const fiatBAtto = walkBidsSellingExact(bidsB, usdtAtto);
  if (fiatBAtto === undefined) return undefined;
  return divRatio(fiatBAtto, ratio(fiatAAtto));
}

function checkSpread(spreadBps: number): bigint {
  if (!Number.isSafeInteger(spreadBps) || spreadBps < 0 || spreadBps > 10_000) throw new RangeError(`spreadBps must be an integer in 0..10000: ${spreadBps}`);
  return BigInt(spreadBps);
}

/** Client buy price: raw × (1 + bps/10^4), rounded UP to `accuracy` decimals (the client pays more); units. */
export function clientBuyPrice(raw: Ratio, spreadBps: number, accuracy: number): bigint {
  return ceilUnits(mulRatio(raw, ratio(BPS_ONE + checkSpread(spreadBps), BPS_ONE)), accuracy);
}

/** Client sell price: raw × (1 − bps/10^4), rounded DOWN to `accuracy` decimals (the client gets less); units. */
export function clientSellPrice(raw: Ratio, spreadBps: number, accuracy: number): bigint {
  return floorUnits(mulRatio(raw, ratio(BPS_ONE - checkSpread(spreadBps), BPS_ONE)), accuracy);
}

/** Client fiat → fiat rate: raw × (1 − bps/10^4), rounded DOWN to `accuracy` decimals; units. */
export function clientFiatRate(raw: Ratio, spreadBps: number, accuracy: number): bigint {
  return clientSellPrice(raw, spreadBps, accuracy);
}

/**
 * The inverse quote shown for fiat → crypto (B22): 1 ÷ price rounded DOWN to `inverseAccuracy`
 * decimals, in units. Display only: the order keeps the buy price itself (docs/merchant-payments.md "Quotes and orders").
 */
export function inverseQuote(priceUnits: bigint, priceAccuracy: number, inverseAccuracy: number = INVERSE_QUOTE_ACCURACY): bigint {
  if (priceUnits <= 0n) throw new RangeError('inverseQuote needs a positive price');
  return floorDiv(pow10(priceAccuracy + inverseAccuracy), priceUnits);
}
