import { reject } from '../../core/errors.js';
import { parseDecimal } from '../../core/decimal.js';
import { isHttpUrl } from '../../payments/validation/formats.js';
import type { CryptoSpec, FiatPairSpec, FiatSpec, PairSpec, PaymentsConfig, RailSpec, TransferFeeSpec } from '../../payments/config.js';

/**
 * Merges a partial configuration document into the current one (PATCH /admin/v1/payments/config).
 * Every member is checked before anything is set; an unknown or malformed member is -1130 naming
 * it, in the operator API's `{code, msg}` format.
 */
export function mergePaymentsConfig(current: PaymentsConfig, patch: Record<string, unknown>): PaymentsConfig {
  const next: PaymentsConfig = structuredClone(current);
  for (const [key, value] of Object.entries(patch)) {
    const set = SETTERS[key as keyof PaymentsConfig];
    if (set === undefined) reject('INVALID_PARAM_VALUE', [key]);
    set(next, value, key);
  }
  checkCatalogue(next);
  return next;
}

type Setter = (config: PaymentsConfig, value: unknown, key: string) => void;

function count(value: unknown, key: string, min = 1): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) reject('INVALID_PARAM_VALUE', [key]);
  return value;
}

function text(value: unknown, key: string, max = 128): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) reject('INVALID_PARAM_VALUE', [key]);
  return value.trim();
}

function decimal(value: unknown, key: string, positive = false): string {
  if (typeof value !== 'string') reject('INVALID_PARAM_VALUE', [key]);
  const atto = parseDecimal(value);
  if (atto === null || (positive && atto === 0n)) reject('INVALID_PARAM_VALUE', [key]);
  return value;
}

function object(value: unknown, key: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) reject('INVALID_PARAM_VALUE', [key]);
  return value as Record<string, unknown>;
}

function list<T>(value: unknown, key: string, item: (entry: Record<string, unknown>, at: string) => T): T[] {
  if (!Array.isArray(value)) reject('INVALID_PARAM_VALUE', [key]);
  return value.map((entry, i) => item(object(entry, `${key}[${i}]`), `${key}[${i}]`));
}

function values<T>(value: unknown, key: string, item: (entry: unknown, at: string) => T): T[] {
  if (!Array.isArray(value)) reject('INVALID_PARAM_VALUE', [key]);
  return value.map((entry, i) => item(entry, `${key}[${i}]`));
}

function bool(value: unknown, key: string): boolean {
  if (typeof value !== 'boolean') reject('INVALID_PARAM_VALUE', [key]);
  return value;
}

const code = (value: unknown, key: string): string => {
  const c = text(value, key, 16);
  if (!/^[A-Z0-9]{2,16}$/.test(c)) reject('INVALID_PARAM_VALUE', [key]);
  return c;
};

const fiatItem = (e: Record<string, unknown>, at: string): FiatSpec => ({
  fiat: code(e.fiat, `${at}.fiat`),
  country: text(e.country, `${at}.country`, 64),
  accuracy: count(e.accuracy, `${at}.accuracy`, 0),
  orderMin: decimal(e.orderMin, `${at}.orderMin`),
  orderMax: decimal(e.orderMax, `${at}.orderMax`, true),
});
const cryptoItem = (e: Record<string, unknown>, at: string): CryptoSpec => ({ crypto: code(e.crypto, `${at}.crypto`), accuracy: count(e.accuracy, `${at}.accuracy`, 0) });
const pairItem = (e: Record<string, unknown>, at: string): PairSpec => ({
  fiat: code(e.fiat, `${at}.fiat`),
  crypto: code(e.crypto, `${at}.crypto`),
  symbol: code(e.symbol, `${at}.symbol`),
  accuracy: count(e.accuracy, `${at}.accuracy`, 0),
  buy: bool(e.buy, `${at}.buy`),
  sell: bool(e.sell, `${at}.sell`),
});
const fiatPairItem = (e: Record<string, unknown>, at: string): FiatPairSpec => ({
  onRampFiat: code(e.onRampFiat, `${at}.onRampFiat`),
  offRampFiat: code(e.offRampFiat, `${at}.offRampFiat`),
  accuracy: count(e.accuracy, `${at}.accuracy`, 0),
});
const railItem = (e: Record<string, unknown>, at: string): RailSpec => ({
  paymentId: count(e.paymentId, `${at}.paymentId`),
  paymentMethodName: text(e.paymentMethodName, `${at}.paymentMethodName`),
  fiat: e.fiat === '*' ? '*' : code(e.fiat, `${at}.fiat`),
  payInFee: decimal(e.payInFee, `${at}.payInFee`),
  payoutFee: decimal(e.payoutFee, `${at}.payoutFee`),
  instructionLabels: values(e.instructionLabels ?? [], `${at}.instructionLabels`, (label, a) => text(label, a, 64)),
});
const transferFeeItem = (e: Record<string, unknown>, at: string): TransferFeeSpec => {
  const feeType = e.feeType;
  if (feeType !== 0 && feeType !== 1) reject('INVALID_PARAM_VALUE', [`${at}.feeType`]);
  return { fiat: code(e.fiat, `${at}.fiat`), feeType, fee: decimal(e.fee, `${at}.fee`) };
};

const SETTERS: Partial<Record<keyof PaymentsConfig, Setter>> = {
  tokenTtlMs: (c, v, k) => (c.tokenTtlMs = count(v, k)),
  quoteTtlMs: (c, v, k) => (c.quoteTtlMs = count(v, k)),
  acceptWindowMs: (c, v, k) => (c.acceptWindowMs = count(v, k)),
  documentsWindowMs: (c, v, k) => (c.documentsWindowMs = count(v, k)),
  paymentWindowMs: (c, v, k) => (c.paymentWindowMs = count(v, k)),
  releaseHoldMs: (c, v, k) => (c.releaseHoldMs = count(v, k)),
  maxMerchantsPerUser: (c, v, k) => (c.maxMerchantsPerUser = count(v, k)),
  maxOpenOrdersPerMerchant: (c, v, k) => (c.maxOpenOrdersPerMerchant = count(v, k)),
  defaultCountry: (c, v, k) => (c.defaultCountry = text(v, k, 64)),
  publicBaseUrl: (c, v, k) => {
    if (v !== '' && (typeof v !== 'string' || !isHttpUrl(v) || v.length > 512)) reject('INVALID_PARAM_VALUE', [k]);
    c.publicBaseUrl = (v as string).replace(/\/+$/, '');
  },
  spreadBps: (c, v, k) => {
    c.spreadBps = count(v, k, 0);
    if (c.spreadBps >= 10_000) reject('INVALID_PARAM_VALUE', [k]);
  },
  webhook: (c, v, k) => {
    const w = object(v, k);
    for (const [name, value] of Object.entries(w)) {
      const at = `${k}.${name}`;
      if (name === 'retryGapsMs') c.webhook.retryGapsMs = values(value, at, count);
      else if (name === 'timeoutMs' || name === 'retentionDays' || name === 'maxInFlightPerUrl') c.webhook[name] = count(value, at);
      else if (name === 'jitterPct') c.webhook.jitterPct = count(value, at, 0);
      else reject('INVALID_PARAM_VALUE', [at]);
    }
  },
  limits: (c, v, k) => {
    for (const [name, value] of Object.entries(object(v, k))) {
      if (!(name in c.limits)) reject('INVALID_PARAM_VALUE', [`${k}.${name}`]);
      c.limits[name as keyof PaymentsConfig['limits']] = decimal(value, `${k}.${name}`);
    }
  },
  limitRates: (c, v, k) => {
    for (const [name, value] of Object.entries(object(v, k))) c.limitRates[code(name, `${k}.${name}`)] = decimal(value, `${k}.${name}`, true);
  },
  fiats: (c, v, k) => (c.fiats = list(v, k, fiatItem)),
  cryptos: (c, v, k) => (c.cryptos = list(v, k, cryptoItem)),
  pairs: (c, v, k) => (c.pairs = list(v, k, pairItem)),
  fiatPairs: (c, v, k) => (c.fiatPairs = list(v, k, fiatPairItem)),
  rails: (c, v, k) => (c.rails = list(v, k, railItem)),
  transferFees: (c, v, k) => (c.transferFees = list(v, k, transferFeeItem)),
};

/** The catalogue must stay consistent with itself: pairs and rails name configured currencies. */
function checkCatalogue(config: PaymentsConfig): void {
  const fiats = new Set(config.fiats.map((f) => f.fiat));
  const cryptos = new Set(config.cryptos.map((c) => c.crypto));
  config.pairs.forEach((pair, i) => {
    if (!fiats.has(pair.fiat) || !cryptos.has(pair.crypto)) reject('INVALID_PARAM_VALUE', [`pairs[${i}]`]);
  });
  config.fiatPairs.forEach((pair, i) => {
    if (!fiats.has(pair.onRampFiat) || !fiats.has(pair.offRampFiat) || pair.onRampFiat === pair.offRampFiat) reject('INVALID_PARAM_VALUE', [`fiatPairs[${i}]`]);
  });
  config.rails.forEach((rail, i) => {
    if (rail.fiat !== '*' && !fiats.has(rail.fiat)) reject('INVALID_PARAM_VALUE', [`rails[${i}]`]);
  });
  if (new Set(config.rails.map((r) => r.paymentId)).size !== config.rails.length) reject('INVALID_PARAM_VALUE', ['rails']);
}
