import { attoToUnits, formatUnits, parseDecimal } from '../core/decimal.js';
import { reject } from '../core/errors.js';
import type { SetTradingConfigCommand } from '../core/types.js';
import { FEE_RATE_ONE, FEE_RATE_SCALE } from '../ledger/account.js';
import type { ExchangeCore } from './exchange-core.js';

/** Limits the core enforces on orders (area A §10 trading config); changed only by commands. */
export interface CoreLimits {
  maxOpenOrdersPerSymbol: number;
  maxOpenOrdersPerAccount: number;
}

export const DEFAULT_CORE_LIMITS: CoreLimits = {
  maxOpenOrdersPerSymbol: 200,
  maxOpenOrdersPerAccount: 1000,
};

/** A fee rate of area A §4.8: 0 to 0.1 with at most 8 decimals, as fixed-point 10^-8 units; -1130 otherwise. */
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

/** The core's part of the trading config; every value is checked before any is set. */
export function setTradingConfig(core: ExchangeCore, cmd: SetTradingConfigCommand): unknown {
  const perSymbol = positiveCount(cmd.maxOpenOrdersPerSymbol, 'maxOpenOrdersPerSymbol');
  const perAccount = positiveCount(cmd.maxOpenOrdersPerAccount, 'maxOpenOrdersPerAccount');
  const maker = cmd.defaultMakerFeeRate === undefined ? undefined : parseFeeRate(cmd.defaultMakerFeeRate, 'defaultMakerFeeRate');
  const taker = cmd.defaultTakerFeeRate === undefined ? undefined : parseFeeRate(cmd.defaultTakerFeeRate, 'defaultTakerFeeRate');
  if (perSymbol !== undefined) core.spot.limits.maxOpenOrdersPerSymbol = perSymbol;
  if (perAccount !== undefined) core.spot.limits.maxOpenOrdersPerAccount = perAccount;
  if (maker !== undefined) core.ledger.defaultMakerFeeRate = maker;
  if (taker !== undefined) core.ledger.defaultTakerFeeRate = taker;
  return tradingConfigView(core);
}

export function tradingConfigView(core: ExchangeCore): Record<string, unknown> {
  return {
    maxOpenOrdersPerSymbol: core.spot.limits.maxOpenOrdersPerSymbol,
    maxOpenOrdersPerAccount: core.spot.limits.maxOpenOrdersPerAccount,
    defaultMakerFeeRate: formatFeeRate(core.ledger.defaultMakerFeeRate),
    defaultTakerFeeRate: formatFeeRate(core.ledger.defaultTakerFeeRate),
  };
}
