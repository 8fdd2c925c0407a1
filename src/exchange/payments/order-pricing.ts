import type { OrderKindName } from '../../core/payment-commands.js';
import type { PaymentsConfig } from '../../payments/config.js';
import { unitsToAtto } from '../../core/decimal.js';
import { clientBuyPrice, clientFiatRate, clientSellPrice, rawBuyPrice, rawFiatRate, rawSellPrice } from '../../payments/pricing.js';
import type { Money } from '../../payments/orders.js';
import type { PriceBooks } from './payments-ports.js';
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

/** The USDT pair of a fiat, for fiat → fiat through USDT. */
function usdtSymbol(config: PaymentsConfig, fiat: string): string | undefined {
  return config.pairs.find((p) => p.crypto === 'USDT' && p.fiat === fiat)?.symbol;
}

/**
 * The client price of docs/merchant-payments.md "Quotes and orders" from Bourse's own books (or the user's docs/merchant-payments.md "The simulator and the sandbox API" override), rounded once in
 * the platform's favour: f2c the buy price (fiat per crypto, up), c2f the sell price (down), f2f the
 * rate (down). `undefined`: no price (symbol missing or halted, side empty, depth short: -5027).
 */
export function clientPrice(payments: PaymentsState, books: PriceBooks, ask: PriceAsk): Money | undefined {
  const config = payments.config;
  const sizeAtto = ask.size === undefined ? undefined : unitsToAtto(ask.size.units, ask.size.accuracy);
  if (ask.kind === 'fiat_to_fiat') {
    const accuracy = config.fiatPairs.find((p) => p.onRampFiat === ask.fiat && p.offRampFiat === ask.toFiat)?.accuracy;
    if (accuracy === undefined) return undefined;
    const override = payments.priceOverrides.get(ask.userId)?.get(overrideKey(ask.kind, ask.fiat, ask.toFiat));
    if (override !== undefined) return { units: override, accuracy };
    const symbolA = usdtSymbol(config, ask.fiat);
    const symbolB = usdtSymbol(config, ask.toFiat);
    const asksA = symbolA === undefined ? undefined : books.bookLevels(symbolA, 'asks');
    const bidsB = symbolB === undefined ? undefined : books.bookLevels(symbolB, 'bids');
    if (asksA === undefined || bidsB === undefined) return undefined;
    const raw = rawFiatRate(asksA, bidsB, sizeAtto);
    return raw === undefined ? undefined : { units: clientFiatRate(raw, config.spreadBps, accuracy), accuracy };
  }
  const pair = config.pairs.find((p) => p.fiat === ask.fiat && p.crypto === ask.crypto);
  if (pair === undefined) return undefined;
  const override = payments.priceOverrides.get(ask.userId)?.get(overrideKey(ask.kind, ask.fiat, ask.crypto));
  if (override !== undefined) return { units: override, accuracy: pair.accuracy };
  const side = books.bookLevels(pair.symbol, ask.kind === 'fiat_to_crypto' ? 'asks' : 'bids');
  if (side === undefined) return undefined;
  if (ask.kind === 'fiat_to_crypto') {
    const raw = rawBuyPrice(side, sizeAtto);
    return raw === undefined ? undefined : { units: clientBuyPrice(raw, config.spreadBps, pair.accuracy), accuracy: pair.accuracy };
  }
  const raw = rawSellPrice(side, sizeAtto);
  return raw === undefined ? undefined : { units: clientSellPrice(raw, config.spreadBps, pair.accuracy), accuracy: pair.accuracy };
}
