/**
 * The payments configuration document (docs/operating.md "Merchant payments settings"): one journaled document, read
 * by `GET /admin/v1/payments/config` and merged by `PATCH`. New values apply to objects created
 * afterwards. Money values are decimal strings; nothing here is a float.
 */
import { refuse } from '../core/payment-errors.js';

export interface FiatSpec {
  fiat: string;
  country: string;
  accuracy: number;
  /** Order min and max in this fiat (docs/operating.md "Merchant payments settings"). */
  orderMin: string;
  orderMax: string;
}

export interface CryptoSpec {
  crypto: string;
  accuracy: number;
}

/** A fiat/crypto pair, priced on area A symbol `symbol` with `accuracy` price decimals. */
export interface PairSpec {
  fiat: string;
  crypto: string;
  symbol: string;
  accuracy: number;
  buy: boolean;
  sell: boolean;
}

export interface FiatPairSpec {
  onRampFiat: string;
  offRampFiat: string;
  accuracy: number;
}

export interface RailSpec {
  paymentId: number;
  paymentMethodName: string;
  /** The rail's fiat; `*` for the pending fund (70), which serves every fiat. */
  fiat: string;
  payInFee: string;
  payoutFee: string;
  /** Labels of the deposit instructions (B17). */
  instructionLabels: string[];
}

export interface TransferFeeSpec {
  fiat: string;
  /** 0 fixed amount in the fiat, 1 fraction of the amount. */
  feeType: 0 | 1;
  fee: string;
}

export interface LimitDefaults {
  monthLimit: string;
  dayFiatLimit: string;
  monthFiatLimit: string;
  monthCryptoLimit: string;
}

export interface WebhookSettings {
  timeoutMs: number;
  retryGapsMs: number[];
  jitterPct: number;
  retentionDays: number;
  maxInFlightPerUrl: number;
}

export interface PaymentsConfig {
  tokenTtlMs: number;
  quoteTtlMs: number;
  acceptWindowMs: number;
  documentsWindowMs: number;
  paymentWindowMs: number;
  releaseHoldMs: number;
  webhook: WebhookSettings;
  maxMerchantsPerUser: number;
  maxOpenOrdersPerMerchant: number;
  defaultCountry: string;
  /** Base of `kycLink` and `verifyLink`; `""` = the server's own `http://<HOST>:<PORT>`. */
  publicBaseUrl: string;
  limits: LimitDefaults;
  /** USD value of one unit of each currency, fixed so limits never move with the market (docs/merchant-payments.md "Amount limits"). */
  limitRates: Record<string, string>;
  fiats: FiatSpec[];
  cryptos: CryptoSpec[];
  pairs: PairSpec[];
  fiatPairs: FiatPairSpec[];
  rails: RailSpec[];
  transferFees: TransferFeeSpec[];
  spreadBps: number;
}

/** Rail id of the pending fund, the one id with a special meaning (docs/merchant-payments.md "Values and rounding"). */
export const PENDING_FUND_RAIL = 70;

const FIAT_PAIR_ACCURACY = 6;

function allFiatPairs(fiats: readonly string[]): FiatPairSpec[] {
  return fiats.flatMap((onRampFiat) => fiats.filter((f) => f !== onRampFiat).map((offRampFiat) => ({ onRampFiat, offRampFiat, accuracy: FIAT_PAIR_ACCURACY })));
}

/** Built-in defaults (docs/operating.md "Merchant payments settings"). */
export function defaultPaymentsConfig(): PaymentsConfig {
  return {
    tokenTtlMs: 7_200_000,
    quoteTtlMs: 10_000,
    acceptWindowMs: 1_800_000,
    documentsWindowMs: 86_400_000,
    paymentWindowMs: 1_800_000,
    releaseHoldMs: 1_800_000,
    webhook: {
      timeoutMs: 5000,
      retryGapsMs: [15_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 54_000_000],
      jitterPct: 10,
      retentionDays: 30,
      maxInFlightPerUrl: 16,
    },
    maxMerchantsPerUser: 100,
    maxOpenOrdersPerMerchant: 50,
    defaultCountry: 'Mexico',
    publicBaseUrl: '',
    limits: { monthLimit: '250000.00', dayFiatLimit: '25000.00', monthFiatLimit: '100000.00', monthCryptoLimit: '15000.00' },
    limitRates: { USD: '1', USDT: '1', MXN: '0.05', EUR: '1.08', BTC: '60000' },
    fiats: [
      { fiat: 'MXN', country: 'Mexico', accuracy: 2, orderMin: '100.00', orderMax: '1000000.00' },
      { fiat: 'USD', country: 'United States', accuracy: 2, orderMin: '10.00', orderMax: '100000.00' },
      // Listed under United States so that existing integrations of this API keep working (docs/operating.md "Merchant payments settings").
      { fiat: 'EUR', country: 'United States', accuracy: 2, orderMin: '10.00', orderMax: '100000.00' },
    ],
    cryptos: [
      { crypto: 'USDT', accuracy: 4 },
      { crypto: 'BTC', accuracy: 8 },
    ],
    pairs: [
      { fiat: 'MXN', crypto: 'USDT', symbol: 'USDTMXN', accuracy: 4, buy: true, sell: true },
      { fiat: 'MXN', crypto: 'BTC', symbol: 'BTCMXN', accuracy: 2, buy: true, sell: true },
      { fiat: 'USD', crypto: 'USDT', symbol: 'USDTUSD', accuracy: 4, buy: true, sell: true },
      { fiat: 'EUR', crypto: 'USDT', symbol: 'USDTEUR', accuracy: 4, buy: true, sell: true },
    ],
    fiatPairs: allFiatPairs(['MXN', 'USD', 'EUR']),
    rails: [
      { paymentId: 58, paymentMethodName: 'Automated SPEI - Arcus', fiat: 'MXN', payInFee: '1.00', payoutFee: '5.00', instructionLabels: ['Cuenta CLABE', 'Beneficiary Name'] },
      {
        paymentId: 83,
        paymentMethodName: 'WIRE',
        fiat: 'USD',
        payInFee: '5.00',
        payoutFee: '15.00',
        instructionLabels: ['Deposit Message', 'Bank Account Number', 'Bank Routing Number', 'Bank Beneficiary Name', 'Bank Name', 'Bank Address'],
      },
      { paymentId: 85, paymentMethodName: 'SEPA', fiat: 'EUR', payInFee: '1.00', payoutFee: '2.00', instructionLabels: ['IBAN', 'BIC', 'Beneficiary Name', 'Reference'] },
      { paymentId: PENDING_FUND_RAIL, paymentMethodName: 'Pending Fund', fiat: '*', payInFee: '0.00', payoutFee: '0.00', instructionLabels: [] },
    ],
    transferFees: [
      { fiat: 'MXN', feeType: 0, fee: '2.00' },
      { fiat: 'USD', feeType: 1, fee: '0.001' },
      { fiat: 'EUR', feeType: 0, fee: '0.00' },
    ],
    spreadBps: 50,
  };
}

/** The fiat's own rail (the pending fund excluded). */
export function railOfFiat(config: PaymentsConfig, fiat: string): RailSpec | undefined {
  return config.rails.find((rail) => rail.fiat === fiat);
}

export function fiatSpec(config: PaymentsConfig, fiat: string): FiatSpec | undefined {
  return config.fiats.find((f) => f.fiat === fiat);
}

/**
 * Refuses (-5057) a `country` that is not `fiat`'s. Requests name a country as B1 lists it (`Mexico`,
 * not `MX`), so the detail says which name the fiat takes.
 */
export function refuseCountryMismatch(config: PaymentsConfig, fiat: string, country: string): void {
  const spec = fiatSpec(config, fiat);
  if (spec?.country === country) return;
  const hint = spec === undefined ? '' : `; its country is ${spec.country}, as /v2/base/countrys names it`;
  refuse('COUNTRY_AND_FIAT_NOT_SUPPORT', `${fiat} is not the fiat of ${country}${hint}`);
}

export function cryptoSpec(config: PaymentsConfig, crypto: string): CryptoSpec | undefined {
  return config.cryptos.find((c) => c.crypto === crypto);
}
