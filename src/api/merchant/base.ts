/**
 * B1–B9, the base configuration (docs/merchant-payments.md "Endpoints served"): public reads of the catalogue, sorted by
 * country then codes. Nothing configured gives an empty list, never an error; an unknown
 * combination echoes the names sent with empty lists, so a client can tell "not offered" from a
 * malformed request (which is -4010).
 */
import { formatFixed, unitsOf } from '../../payments/money.js';
import { PENDING_FUND_RAIL, railOfFiat, type FiatSpec, type PaymentsConfig, type RailSpec } from '../../payments/config.js';
import { COUNTRY_NAMES } from '../../payments/validation/countries.js';
import type { ParamDoc } from '../endpoint.js';
import type { MerchantContext, MerchantEndpoint } from './merchant-endpoint.js';
import { ANSWERS, type Answer } from './schemas.js';

/** All rails are automatic (docs/operating.md "Merchant payments settings"): manual rails need platform staff a self-hosted deployment lacks. */
const AUTOMATIC = 1;

/** Accents and case folded away, so "Åland Islands" sorts among the A's and "MEXICO" finds MX. */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Compares rows column by column: folded text first, then the exact text, so the order is total. */
function byColumns<T>(columns: (row: T) => readonly string[]): (a: T, b: T) => number {
  return (a, b) => {
    const left = columns(a);
    const right = columns(b);
    for (let i = 0; i < left.length; i++) {
      for (const [x, y] of [
        [fold(left[i]), fold(right[i])],
        [left[i], right[i]],
      ]) {
        if (x < y) return -1;
        if (x > y) return 1;
      }
    }
    return 0;
  };
}

/** ISO code by folded CLDR name: the catalogue names countries, B1 also shows their codes. */
const CODE_BY_NAME: ReadonlyMap<string, string> = new Map([...COUNTRY_NAMES].map(([code, name]) => [fold(name), code]));

function config(ctx: MerchantContext): PaymentsConfig {
  return ctx.exchange.core.payments.config;
}

interface CountryRow {
  country: string;
  abbr: string;
}

/** B1: countries of configured fiats, or (`hasFindAll`) every ISO 3166-1 code, catalogue names kept. */
function countries(ctx: MerchantContext): CountryRow[] {
  const findAll = ctx.params.bool('hasFindAll') ?? false;
  // A catalogue country whose name is no CLDR name keeps its place, with an empty code.
  const catalogue = new Map<string, CountryRow>();
  for (const { country } of config(ctx).fiats) catalogue.set(country, { country, abbr: CODE_BY_NAME.get(fold(country)) ?? '' });
  const rows = [...catalogue.values()];
  if (findAll) {
    const named = new Set(rows.map((row) => row.abbr));
    for (const [abbr, country] of COUNTRY_NAMES) if (!named.has(abbr)) rows.push({ country, abbr });
  }
  return rows.sort(byColumns((row) => [row.country, row.abbr]));
}

function fiatRows(ctx: MerchantContext): { country: string; fiat: string; accuracy: number }[] {
  return config(ctx)
    .fiats.map(({ country, fiat, accuracy }) => ({ country, fiat, accuracy }))
    .sort(byColumns((row) => [row.country, row.fiat]));
}

function cryptoRows(ctx: MerchantContext): { crypto: string; accuracy: number }[] {
  return config(ctx)
    .cryptos.map(({ crypto, accuracy }) => ({ crypto, accuracy }))
    .sort(byColumns((row) => [row.crypto]));
}

type Side = 'buy' | 'sell';

/** B4 / B5: fiat/crypto pairs with that side open; a pair whose fiat is not configured has no country and is left out. */
function pairRows(ctx: MerchantContext, side: Side): { country: string; fiat: string; crypto: string; accuracy: number }[] {
  const cfg = config(ctx);
  return cfg.pairs
    .filter((pair) => pair[side])
    .flatMap((pair) => {
      const fiat = cfg.fiats.find((f) => f.fiat === pair.fiat);
      return fiat === undefined ? [] : [{ country: fiat.country, fiat: pair.fiat, crypto: pair.crypto, accuracy: pair.accuracy }];
    })
    .sort(byColumns((row) => [row.country, row.fiat, row.crypto]));
}

interface FiatPairRow {
  onRampCountry: string;
  onRampFiat: string;
  offRampCountry: string;
  offRampFiat: string;
  accuracy: number;
}

function fiatPairRows(ctx: MerchantContext): FiatPairRow[] {
  const cfg = config(ctx);
  return cfg.fiatPairs
    .flatMap((pair) => {
      const onRamp = cfg.fiats.find((f) => f.fiat === pair.onRampFiat);
      const offRamp = cfg.fiats.find((f) => f.fiat === pair.offRampFiat);
      if (onRamp === undefined || offRamp === undefined) return [];
      return [{ onRampCountry: onRamp.country, onRampFiat: pair.onRampFiat, offRampCountry: offRamp.country, offRampFiat: pair.offRampFiat, accuracy: pair.accuracy }];
    })
    .sort(byColumns((row) => [row.onRampCountry, row.onRampFiat, row.offRampCountry, row.offRampFiat]));
}

interface PaymentRow {
  paymentId: number;
  fiatFee: string;
  paymentType: number;
}

/** A flat fee in the fiat, with exactly its accuracy (docs/merchant-payments.md "Values and rounding"); a fee the accuracy cannot hold is shown as configured. */
function paymentRow(rail: RailSpec, fee: string, fiat: FiatSpec): PaymentRow {
  const units = unitsOf(fee, fiat.accuracy);
  return { paymentId: rail.paymentId, fiatFee: units === undefined ? fee : formatFixed(units, fiat.accuracy), paymentType: AUTOMATIC };
}

/** The fiat of `code` when it is configured under `country`, the pair of a combination's side. */
function fiatIn(cfg: PaymentsConfig, country: string, code: string): FiatSpec | undefined {
  return cfg.fiats.find((f) => f.fiat === code && f.country === country);
}

/** B7 / B8: the fiat's rail with its pay-in (buy) or payout (sell) fee, then the pending fund. */
function cryptoPayments(ctx: MerchantContext, side: Side): { country: string; fiat: string; crypto: string; paymentList: PaymentRow[] } {
  const country = ctx.params.str('country', { required: true });
  const fiat = ctx.params.str('fiat', { required: true });
  const crypto = ctx.params.str('crypto', { required: true });
  const cfg = config(ctx);
  const fiatSpec = fiatIn(cfg, country, fiat);
  const offered =
    fiatSpec !== undefined && cfg.cryptos.some((c) => c.crypto === crypto) && cfg.pairs.some((p) => p.fiat === fiat && p.crypto === crypto && p[side]);
  const paymentList: PaymentRow[] = [];
  if (offered) {
    const feeOf = (rail: RailSpec): string => (side === 'buy' ? rail.payInFee : rail.payoutFee);
    const own = railOfFiat(cfg, fiat);
    if (own !== undefined) paymentList.push(paymentRow(own, feeOf(own), fiatSpec));
    const pendingFund = cfg.rails.find((rail) => rail.paymentId === PENDING_FUND_RAIL);
    if (pendingFund !== undefined) paymentList.push(paymentRow(pendingFund, feeOf(pendingFund), fiatSpec));
  }
  return { country, fiat, crypto, paymentList };
}

interface FiatPaymentsAnswer {
  onRampCountry: string;
  onRampFiat: string;
  offRampCountry: string;
  offRampFiat: string;
  paymentListFrom: PaymentRow[];
  paymentListTo: PaymentRow[];
}

/** B9: the on-ramp fiat's rail with its pay-in fee, the off-ramp fiat's with its payout fee (70 is not allowed on f2f). */
function fiatPayments(ctx: MerchantContext): FiatPaymentsAnswer {
  const onRampCountry = ctx.params.str('onRampCountry', { required: true });
  const onRampFiat = ctx.params.str('onRampFiat', { required: true });
  const offRampCountry = ctx.params.str('offRampCountry', { required: true });
  const offRampFiat = ctx.params.str('offRampFiat', { required: true });
  const cfg = config(ctx);
  const onRamp = fiatIn(cfg, onRampCountry, onRampFiat);
  const offRamp = fiatIn(cfg, offRampCountry, offRampFiat);
  const answer: FiatPaymentsAnswer = { onRampCountry, onRampFiat, offRampCountry, offRampFiat, paymentListFrom: [], paymentListTo: [] };
  if (onRamp === undefined || offRamp === undefined) return answer;
  if (!cfg.fiatPairs.some((p) => p.onRampFiat === onRampFiat && p.offRampFiat === offRampFiat)) return answer;
  const from = railOfFiat(cfg, onRampFiat);
  const to = railOfFiat(cfg, offRampFiat);
  if (from !== undefined) answer.paymentListFrom.push(paymentRow(from, from.payInFee, onRamp));
  if (to !== undefined) answer.paymentListTo.push(paymentRow(to, to.payoutFee, offRamp));
  return answer;
}

const required = (name: string, description: string): ParamDoc => ({ name, type: 'STRING', required: true, description });

function base(id: keyof typeof ANSWERS, summary: string, path: string, params: readonly ParamDoc[], handler: MerchantEndpoint['handler']): MerchantEndpoint {
  const answer: Answer = ANSWERS[id];
  return { id, summary, method: 'GET', path: `/v2/base/${path}`, auth: 'OPTIONAL_TOKEN', params, ...answer, handler };
}

const CRYPTO_PAYMENT_PARAMS: readonly ParamDoc[] = [
  required('country', 'country name as B2 lists it'),
  required('fiat', 'fiat code'),
  required('crypto', 'crypto code'),
];

export function baseEndpoints(): MerchantEndpoint[] {
  return [
    base(
      'B1',
      'countries',
      'countrys',
      [{ name: 'hasFindAll', type: 'ENUM', values: ['true', 'false', '1', '0'], description: 'true: every ISO 3166-1 country; default false: countries of configured fiats' }],
      countries,
    ),
    base('B2', 'fiat currencies', 'fiats', [], fiatRows),
    base('B3', 'crypto currencies', 'cryptos', [], cryptoRows),
    base('B4', 'fiat→crypto pairs', 'buy/symbols', [], (ctx) => pairRows(ctx, 'buy')),
    base('B5', 'crypto→fiat pairs', 'sell/symbols', [], (ctx) => pairRows(ctx, 'sell')),
    base('B6', 'fiat→fiat pairs', 'fiat/symbols', [], fiatPairRows),
    base('B7', 'rails for fiat→crypto', 'buy/payments', CRYPTO_PAYMENT_PARAMS, (ctx) => cryptoPayments(ctx, 'buy')),
    base('B8', 'rails for crypto→fiat', 'sell/payments', CRYPTO_PAYMENT_PARAMS, (ctx) => cryptoPayments(ctx, 'sell')),
    base(
      'B9',
      'rails for fiat→fiat',
      'fiat/payments',
      [
        required('onRampCountry', 'country of the fiat paid in'),
        required('onRampFiat', 'fiat paid in'),
        required('offRampCountry', 'country of the fiat paid out'),
        required('offRampFiat', 'fiat paid out'),
      ],
      fiatPayments,
    ),
  ];
}
