import type { OrderKindName } from '../../core/payment-commands.js';
import type { PaymentsConfig } from '../../payments/config.js';
import { unitsToAtto } from '../../core/decimal.js';
import { clientBuyPrice, clientFiatRate, clientSellPrice, rawBuyPrice, rawFiatRate, rawSellPrice, type BookLevel } from '../../payments/pricing.js';
import type { Money } from '../../payments/orders.js';
import type { SpotModule, SymbolState } from '../spot-module.js';
import type { PaymentsState } from './payments-state.js';

/** What a price is asked for: a conversion, and the size it prices (absent: the top of the book). */
export interface PriceAsk {
  userId: number;
  kind: OrderKindName;
  /** f2c and c2f: the pair; f2f: on-ramp fiat `fiat`, off-ramp fiat `toFiat`. */
  fiat: string;
  crypto: string;
  toFiat: string;
  /** f2c: fiat X; c2f: crypto Q; f2f: on-ramp fiat X. */
  size: Money | undefined;
}

/** The key of a docs/merchant-payments.md "The simulator and the sandbox API" price override: a crypto pair fixes both sides, a fiat pair one direction. */
export function overrideKey(kind: OrderKindName, a: string, b: string): string {
  return kind === 'fiat_to_fiat' ? `${a}>${b}` : `${b}/${a}`;
}

/** A book side best first, as levels in atto, read only as deep as a walk needs (docs/merchant-payments.md "Quotes and orders"); re-iterable. */
function levels(state: SymbolState, side: 'asks' | 'bids'): Iterable<BookLevel> {
  const { spec, book } = state;
  return {
    *[Symbol.iterator]() {
      for (const level of book[side].levelsBestFirst()) {
        yield { priceAtto: BigInt(level.priceTicks) * spec.tickSizeAtto, qtyAtto: BigInt(level.totalLots) * spec.stepSizeAtto };
      }
    },
  };
}

function tradingBook(spot: SpotModule, symbol: string): SymbolState | undefined {
  const state = spot.symbols.get(symbol);
  return state?.spec.status === 'TRADING' ? state : undefined;
}

/** The USDT pair of a fiat, for fiat → fiat through USDT. */
function usdtSymbol(config: PaymentsConfig, fiat: string): string | undefined {
  return config.pairs.find((p) => p.crypto === 'USDT' && p.fiat === fiat)?.symbol;
}

/**
 * The client price of docs/merchant-payments.md "Quotes and orders" from Bourse's own books (or the user's docs/merchant-payments.md "The simulator and the sandbox API" override), rounded once in
 * the platform's favour: f2c the buy price (fiat per crypto, up), c2f the sell price (down), f2f the
 * rate (down). `undefined`: no price (symbol missing or halted, side empty, depth short: -5027).
 */
export function clientPrice(payments: PaymentsState, spot: SpotModule, ask: PriceAsk): Money | undefined {
  const config = payments.config;
  const sizeAtto = ask.size === undefined ? undefined : unitsToAtto(ask.size.units, ask.size.accuracy);
  if (ask.kind === 'fiat_to_fiat') {
    const accuracy = config.fiatPairs.find((p) => p.onRampFiat === ask.fiat && p.offRampFiat === ask.toFiat)?.accuracy;
    if (accuracy === undefined) return undefined;
    const override = payments.priceOverrides.get(ask.userId)?.get(overrideKey(ask.kind, ask.fiat, ask.toFiat));
    if (override !== undefined) return { units: override, accuracy };
    const symbolA = usdtSymbol(config, ask.fiat);
    const symbolB = usdtSymbol(config, ask.toFiat);
    const bookA = symbolA === undefined ? undefined : tradingBook(spot, symbolA);
    const bookB = symbolB === undefined ? undefined : tradingBook(spot, symbolB);
    if (bookA === undefined || bookB === undefined) return undefined;
    const raw = rawFiatRate(levels(bookA, 'asks'), levels(bookB, 'bids'), sizeAtto);
    return raw === undefined ? undefined : { units: clientFiatRate(raw, config.spreadBps, accuracy), accuracy };
  }
  const pair = config.pairs.find((p) => p.fiat === ask.fiat && p.crypto === ask.crypto);
  if (pair === undefined) return undefined;
  const override = payments.priceOverrides.get(ask.userId)?.get(overrideKey(ask.kind, ask.fiat, ask.crypto));
  if (override !== undefined) return { units: override, accuracy: pair.accuracy };
  const book = tradingBook(spot, pair.symbol);
  if (book === undefined) return undefined;
  if (ask.kind === 'fiat_to_crypto') {
    const raw = rawBuyPrice(levels(book, 'asks'), sizeAtto);
    return raw === undefined ? undefined : { units: clientBuyPrice(raw, config.spreadBps, pair.accuracy), accuracy: pair.accuracy };
  }
  const raw = rawSellPrice(levels(book, 'bids'), sizeAtto);
  return raw === undefined ? undefined : { units: clientSellPrice(raw, config.spreadBps, pair.accuracy), accuracy: pair.accuracy };
}
