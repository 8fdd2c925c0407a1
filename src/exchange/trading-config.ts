import { attoToUnits, formatUnits, parseDecimal } from '../core/decimal.js';
import { reject } from '../core/errors.js';
import type { SetTradingConfigCommand } from '../core/types.js';
import { FEE_RATE_ONE, FEE_RATE_SCALE } from '../ledger/account.js';
import type { Ledger } from '../ledger/ledger.js';

/** Limits the core enforces on orders (docs/operating.md "Trading settings and listings" trading config); changed only by commands. */
export interface CoreLimits {
  maxOpenOrdersPerSymbol: number;
  maxOpenOrdersPerAccount: number;
}

export const DEFAULT_CORE_LIMITS: CoreLimits = {
  maxOpenOrdersPerSymbol: 200,
  maxOpenOrdersPerAccount: 1000,
};

/** Stop and iceberg orders (docs/spot-api.md "Stop and iceberg orders"): off by default, so that clients see the platform. */
export interface AlgoSettings {
  algoOrders: boolean;
  /** MAX_NUM_ALGO_ORDERS: untriggered stop orders per account and symbol. */
  maxAlgoOrdersPerSymbol: number;
  /** BROKER_MAX_NUM_ALGO_ORDERS: untriggered stop orders per account. */
  maxAlgoOrdersPerAccount: number;
  /** ICEBERG_PARTS: most parts an iceberg order may be cut into. */
  maxIcebergParts: number;
}

export const DEFAULT_ALGO_SETTINGS: Readonly<AlgoSettings> = Object.freeze({
  algoOrders: false,
  maxAlgoOrdersPerSymbol: 5,
  maxAlgoOrdersPerAccount: 100,
  maxIcebergParts: 10,
});

/** The algo settings that are counts (the option itself is a flag). */
export const ALGO_COUNT_KEYS = ['maxAlgoOrdersPerSymbol', 'maxAlgoOrdersPerAccount', 'maxIcebergParts'] as const satisfies readonly (keyof AlgoSettings)[];

/** The settings of a snapshot image; an image from before they existed has the defaults. */
export function restoreAlgoSettings(image: Partial<AlgoSettings> | undefined): AlgoSettings {
  const settings = { ...DEFAULT_ALGO_SETTINGS };
  if (image?.algoOrders !== undefined) settings.algoOrders = image.algoOrders === true;
  restoreCounts(settings, image, ALGO_COUNT_KEYS, 'algo limit');
  return settings;
}

/** Copies the counts an image holds into `settings`; a count the image lacks keeps its default, a malformed one is an error. */
function restoreCounts<K extends string>(settings: Record<K, number>, image: Partial<Record<K, number>> | undefined, keys: readonly K[], what: string): void {
  for (const key of keys) {
    const value = image?.[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`snapshot ${what} ${key} is not a count: ${String(value)}`);
    settings[key] = value;
  }
}

/**
 * Rate limits and bans of docs/spot-api.md "Rate limits" (also applied by area B) and the listenKey validity (docs/spot-api.md "User data streams").
 * The API's rate limiter enforces them; the core only holds them, so that an operator's change is
 * journaled and survives a restart like any other.
 */
export interface RateLimitSettings {
  requestWeightPerMinute: number;
  ordersPerSecond: number;
  ordersPerDay: number;
  banStrikes: number;
  banBaseMs: number;
  banMaxMs: number;
  listenKeyTtlMs: number;
}

export const RATE_LIMIT_KEYS = [
  'requestWeightPerMinute',
  'ordersPerSecond',
  'ordersPerDay',
  'banStrikes',
  'banBaseMs',
  'banMaxMs',
  'listenKeyTtlMs',
] as const satisfies readonly (keyof RateLimitSettings)[];

/** What a new data directory starts with, and what an image or journal from before these settings were journaled gets. */
export const DEFAULT_RATE_LIMIT_SETTINGS: Readonly<RateLimitSettings> = Object.freeze({
  requestWeightPerMinute: 3000,
  ordersPerSecond: 20,
  ordersPerDay: 350_000,
  banStrikes: 20,
  banBaseMs: 120_000,
  banMaxMs: 259_200_000,
  listenKeyTtlMs: 3_600_000,
});

/** The settings of a snapshot image, member by member; a member the image lacks (an older image) takes its default. */
export function restoreRateLimitSettings(image: Partial<RateLimitSettings> | undefined): RateLimitSettings {
  const settings = { ...DEFAULT_RATE_LIMIT_SETTINGS };
  restoreCounts(settings, image, RATE_LIMIT_KEYS, 'rate limit');
  return settings;
}

/** A fee rate of docs/spot-api.md "Locks, fees and rounding": 0 to 0.1 with at most 8 decimals, as fixed-point 10^-8 units; -1130 otherwise. */
export function parseFeeRate(text: string, param: string): bigint {
  const atto = parseDecimal(text);
  const rate = atto === null ? null : attoToUnits(atto, FEE_RATE_SCALE);
  if (rate === null || rate > FEE_RATE_ONE / 10n) reject('INVALID_PARAM_VALUE', [param]);
  return rate;
}

export function formatFeeRate(rate: bigint): string {
  return formatUnits(rate, FEE_RATE_SCALE);
}

function positiveCount(value: number | undefined, param: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 1) reject('INVALID_PARAM_VALUE', [param]);
  return value;
}

/** What the trading config sets in the spot module: its open-order limits, the algo order option and the rate limits it holds for the API. */
export interface TradingSettings {
  limits: CoreLimits;
  algo: AlgoSettings;
  rateLimits: RateLimitSettings;
}

/** The whole trading config: the spot module's settings and the ledger's default fee rates. */
export interface TradingConfigHolder {
  readonly spot: Readonly<TradingSettings>;
  readonly ledger: Pick<Ledger, 'defaultMakerFeeRate' | 'defaultTakerFeeRate'>;
}

/** Changes the trading config (docs/operating.md "Trading settings and listings"); every value is checked before any is set. */
export function setTradingConfig(spot: TradingSettings, ledger: Ledger, cmd: SetTradingConfigCommand): unknown {
  const perSymbol = positiveCount(cmd.maxOpenOrdersPerSymbol, 'maxOpenOrdersPerSymbol');
  const perAccount = positiveCount(cmd.maxOpenOrdersPerAccount, 'maxOpenOrdersPerAccount');
  const maker = cmd.defaultMakerFeeRate === undefined ? undefined : parseFeeRate(cmd.defaultMakerFeeRate, 'defaultMakerFeeRate');
  const taker = cmd.defaultTakerFeeRate === undefined ? undefined : parseFeeRate(cmd.defaultTakerFeeRate, 'defaultTakerFeeRate');
  const rateLimits: Partial<RateLimitSettings> = {};
  for (const key of RATE_LIMIT_KEYS) {
    const value = positiveCount(cmd[key], key);
    if (value !== undefined) rateLimits[key] = value;
  }
  const algo: Partial<AlgoSettings> = {};
  if (cmd.algoOrders !== undefined) {
    if (typeof cmd.algoOrders !== 'boolean') reject('INVALID_PARAM_VALUE', ['algoOrders']);
    algo.algoOrders = cmd.algoOrders;
  }
  for (const key of ALGO_COUNT_KEYS) {
    const value = positiveCount(cmd[key], key);
    if (value !== undefined) algo[key] = value;
  }
  if (perSymbol !== undefined) spot.limits.maxOpenOrdersPerSymbol = perSymbol;
  if (perAccount !== undefined) spot.limits.maxOpenOrdersPerAccount = perAccount;
  if (maker !== undefined) ledger.defaultMakerFeeRate = maker;
  if (taker !== undefined) ledger.defaultTakerFeeRate = taker;
  Object.assign(spot.rateLimits, rateLimits);
  Object.assign(spot.algo, algo);
  return tradingConfigView({ spot, ledger });
}

/** The whole trading config as `GET /admin/v1/trading/config` answers it: rate limits, open-order limits, default fees. */
export function tradingConfigView({ spot, ledger }: TradingConfigHolder): Record<string, unknown> {
  return {
    ...spot.rateLimits,
    maxOpenOrdersPerSymbol: spot.limits.maxOpenOrdersPerSymbol,
    maxOpenOrdersPerAccount: spot.limits.maxOpenOrdersPerAccount,
    defaultMakerFeeRate: formatFeeRate(ledger.defaultMakerFeeRate),
    defaultTakerFeeRate: formatFeeRate(ledger.defaultTakerFeeRate),
    ...spot.algo,
  };
}
