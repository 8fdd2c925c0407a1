import { refuse } from '../../core/payment-errors.js';
import type { CreateQuoteCommand, ExpireQuoteCommand, SetPriceOverrideCommand } from '../../core/payment-commands.js';
import { cryptoSpec, fiatSpec } from '../../payments/config.js';
import { formatFixed, unitsOf } from '../../payments/money.js';
import type { Quote } from '../../payments/orders.js';
import { amountOf } from './funding-records.js';
import { clientPrice, overrideKey } from './order-pricing.js';
import { merchantUserOf, staleDecision, type Dropped, type PaymentsContext } from './payments-context.js';

/** B22/B23 with `createQuoteId`: the price for the amount, locked for `quoteTtlMs`, single use (docs/merchant-payments.md "Quotes and orders"). */
export function createQuote(p: PaymentsContext, cmd: CreateQuoteCommand): Quote {
  merchantUserOf(p, cmd.userId);
  const config = p.state.config;
  const fiatFrom = fiatSpec(config, cmd.from);
  const cryptoFrom = cryptoSpec(config, cmd.from);
  const accuracy = fiatFrom?.accuracy ?? cryptoFrom?.accuracy;
  if (accuracy === undefined) refuse('SYMBOL_INVALID', `${cmd.from} is not configured`);
  const amount = { units: amountOf(cmd.amount, accuracy, 'amount'), accuracy };
  const kind = cmd.kind;
  const fiat = kind === 'crypto_to_fiat' ? cmd.to : cmd.from;
  const crypto = kind === 'crypto_to_fiat' ? cmd.from : kind === 'fiat_to_crypto' ? cmd.to : '';
  const price = clientPrice(p.state, p.ports.books, { userId: cmd.userId, kind, fiat, crypto, toFiat: kind === 'fiat_to_fiat' ? cmd.to : '', size: amount });
  if (price === undefined) refuse('RATE_INVALID', `No price for ${cmd.from} → ${cmd.to} now`);
  if (p.state.quotes.has(cmd.quoteId)) throw new Error(`quote id collision ${cmd.quoteId}`);
  const quote: Quote = { quoteId: cmd.quoteId, userId: cmd.userId, kind, from: cmd.from, to: cmd.to, amount, price, expireTime: p.ctx.ts + config.quoteTtlMs };
  p.state.quotes.set(quote.quoteId, quote);
  // Nothing changes a quote (or its money) once made: a shallow copy is a true snapshot, far cheaper than structuredClone.
  return { ...quote };
}

/** ACTIVE → EXPIRED (its deadline, or docs/merchant-payments.md "The simulator and the sandbox API"): the quote is removed; -5200 if it is not active. */
export function expireQuote(p: PaymentsContext, cmd: ExpireQuoteCommand): { quoteId: string; status: 'EXPIRED' } | Dropped {
  const quote = p.state.quotes.get(cmd.quoteId);
  if (quote === undefined || (cmd.userId !== 0 && quote.userId !== cmd.userId)) {
    if (cmd.due !== undefined) return staleDecision(p, cmd.due, '');
    refuse('OTC_QUOTE_EXPIRED', `Quote ${cmd.quoteId} is not active`);
  }
  p.state.quotes.delete(quote.quoteId);
  return { quoteId: quote.quoteId, status: 'EXPIRED' };
}

/** docs/merchant-payments.md "The simulator and the sandbox API" PUT/DELETE /prices: a fixed price for this user until removed. */
export function setPriceOverride(p: PaymentsContext, cmd: SetPriceOverrideCommand): { from: string; to: string; price: string } | true {
  const config = p.state.config;
  const cryptoPair = config.pairs.find((x) => (x.crypto === cmd.from && x.fiat === cmd.to) || (x.fiat === cmd.from && x.crypto === cmd.to));
  const fiatPair = config.fiatPairs.find((x) => x.onRampFiat === cmd.from && x.offRampFiat === cmd.to);
  if (cryptoPair === undefined && fiatPair === undefined) refuse('SYMBOL_INVALID', `${cmd.from}/${cmd.to} is not a configured pair`);
  const key = cryptoPair !== undefined ? overrideKey('fiat_to_crypto', cryptoPair.fiat, cryptoPair.crypto) : overrideKey('fiat_to_fiat', cmd.from, cmd.to);
  const accuracy = cryptoPair?.accuracy ?? fiatPair?.accuracy ?? 0;
  let overrides = p.state.priceOverrides.get(cmd.userId);
  if (cmd.price === undefined) {
    overrides?.delete(key);
    return true;
  }
  const units = unitsOf(cmd.price, accuracy);
  if (units === undefined || units <= 0n) refuse('PARAM_IS_INVALID', `price must be a decimal > 0 with at most ${accuracy} decimals`);
  if (overrides === undefined) {
    overrides = new Map();
    p.state.priceOverrides.set(cmd.userId, overrides);
  }
  overrides.set(key, units);
  return { from: cmd.from, to: cmd.to, price: formatFixed(units, accuracy) };
}
