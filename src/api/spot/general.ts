import type { Endpoint, RequestContext } from '../endpoint.js';
import type { RateLimitConfig } from '../auth/rate-limiter.js';
import type { AlgoSettings } from '../../exchange/trading-config.js';
import { anyOf, arrayOf, boolean, constant, decimal, described, digits, emptyArray, integer, millis, object, oneOfValues, string, tuple, type JsonSchema } from '../response-schema.js';
import { emptyObject, millisText } from './schemas.js';
import { attoText, EXCHANGE_ID } from './views.js';

const priceFilter = object({ filterType: constant('PRICE_FILTER'), minPrice: decimal, maxPrice: decimal, tickSize: decimal });
const lotSize = object({ filterType: constant('LOT_SIZE'), minQty: decimal, maxQty: decimal, stepSize: decimal });
const minNotional = object({ filterType: constant('MIN_NOTIONAL'), minNotional: decimal });
const notional = object({ filterType: constant('NOTIONAL'), minNotional: decimal });
const maxNumOrders = object({ filterType: constant('MAX_NUM_ORDERS'), limit: integer });
const maxNumAlgoOrders = object({ filterType: constant('MAX_NUM_ALGO_ORDERS'), maxNumAlgoOrders: integer });
const icebergParts = object({ filterType: constant('ICEBERG_PARTS'), limit: integer });
const brokerMaxNumOrders = object({ filterType: constant('BROKER_MAX_NUM_ORDERS'), limit: integer });
const brokerMaxNumAlgoOrders = object({ filterType: constant('BROKER_MAX_NUM_ALGO_ORDERS'), maxNumAlgoOrders: integer });
const ALGO_NOTE = 'the algo filters are listed only while the algoOrders option is on (docs/spot-api.md "Stop and iceberg orders")';

/**
 * A3's answer: `/exchange` with the three seed filters; `/exchangeInfo` with five and the broker
 * filter, and, while the algoOrders option is on, the algo and iceberg filters too.
 */
function exchangeInformationSchema(rich: boolean): JsonSchema {
  const seedFilters = [priceFilter, lotSize, minNotional];
  const richFilters = [...seedFilters, notional, maxNumOrders];
  const symbol = object({
    symbol: string,
    symbolName: string,
    status: oneOfValues(['TRADING', 'HALT', 'BREAK']),
    exchangeId: digits,
    baseAsset: string,
    baseAssetName: string,
    baseAssetPrecision: decimal,
    quoteAsset: string,
    quoteAssetName: string,
    quotePrecision: decimal,
    quoteAssetPrecision: decimal,
    icebergAllowed: rich ? described(boolean, 'true while the algoOrders option is on') : constant(false),
    isAggregate: constant(false),
    allowMargin: constant(false),
    filters: rich ? described(anyOf(tuple(...richFilters), tuple(...richFilters, maxNumAlgoOrders, icebergParts)), ALGO_NOTE) : tuple(...seedFilters),
  });
  const token = object({
    tokenId: string,
    tokenName: string,
    tokenFullName: string,
    allowDeposit: boolean,
    allowWithdraw: boolean,
    chainTypes: arrayOf(object({ chainType: string, allowDeposit: boolean, allowWithdraw: boolean })),
  });
  const rateLimit = object({
    rateLimitType: oneOfValues(['REQUEST_WEIGHT', 'ORDERS']),
    interval: oneOfValues(['MINUTE', 'SECOND', 'DAY']),
    intervalUnit: integer,
    limit: integer,
  });
  return object({
    timezone: constant('UTC'),
    serverTime: millisText,
    rateLimits: arrayOf(rateLimit),
    brokerFilters: rich ? described(anyOf(tuple(brokerMaxNumOrders), tuple(brokerMaxNumOrders, brokerMaxNumAlgoOrders)), ALGO_NOTE) : emptyArray,
    symbols: arrayOf(symbol),
    options: emptyArray,
    contracts: emptyArray,
    tokens: arrayOf(token),
  });
}

function exchangeInformationExample(rich: boolean): unknown {
  const filters: Record<string, unknown>[] = [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '10000000', tickSize: '0.01' },
    { filterType: 'LOT_SIZE', minQty: '0.000001', maxQty: '1000', stepSize: '0.000001' },
    { filterType: 'MIN_NOTIONAL', minNotional: '1' },
  ];
  if (rich) filters.push({ filterType: 'NOTIONAL', minNotional: '1' }, { filterType: 'MAX_NUM_ORDERS', limit: 200 });
  return {
    timezone: 'UTC',
    serverTime: '1732579200000',
    rateLimits: [
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalUnit: 1, limit: 1200 },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalUnit: 1, limit: 20 },
      { rateLimitType: 'ORDERS', interval: 'DAY', intervalUnit: 1, limit: 350000 },
    ],
    brokerFilters: rich ? [{ filterType: 'BROKER_MAX_NUM_ORDERS', limit: 1000 }] : [],
    symbols: [
      {
        symbol: 'BTCUSDT',
        symbolName: 'BTCUSDT',
        status: 'TRADING',
        exchangeId: '301',
        baseAsset: 'BTC',
        baseAssetName: 'BTC',
        baseAssetPrecision: '0.000001',
        quoteAsset: 'USDT',
        quoteAssetName: 'USDT',
        quotePrecision: '0.01',
        quoteAssetPrecision: '0.01',
        icebergAllowed: false,
        isAggregate: false,
        allowMargin: false,
        filters,
      },
    ],
    options: [],
    contracts: [],
    tokens: [
      {
        tokenId: 'USDT',
        tokenName: 'USDT',
        tokenFullName: 'Tether USD',
        allowDeposit: true,
        allowWithdraw: true,
        chainTypes: [
          { chainType: 'TRC20', allowDeposit: true, allowWithdraw: true },
          { chainType: 'ERC20', allowDeposit: true, allowWithdraw: true },
        ],
      },
      { tokenId: 'USD', tokenName: 'USD', tokenFullName: 'US Dollar', allowDeposit: false, allowWithdraw: false, chainTypes: [] },
    ],
  };
}

/**
 * A3 in its two views: the BHEX API's three filters, or coinsph's richer `/exchangeInfo` (docs/spot-api.md
 * "Exchange information"). Only the rich view shows the algoOrders option: the Java SDK reads
 * `/exchange` and `/brokerInfo` into a fixed set of filters.
 */
function exchangeInformation(ctx: RequestContext, rich: boolean, limits: RateLimitConfig): Record<string, unknown> {
  const core = ctx.exchange.core;
  const algo: AlgoSettings | undefined = rich && core.spot.algo.algoOrders ? core.spot.algo : undefined;
  const symbols = [...core.spot.symbols.values()]
    .sort((a, b) => (a.spec.symbol < b.spec.symbol ? -1 : 1))
    .map(({ spec }) => {
      const filters: Record<string, unknown>[] = [
        { filterType: 'PRICE_FILTER', minPrice: attoText(spec.minPriceAtto), maxPrice: attoText(spec.maxPriceAtto), tickSize: attoText(spec.tickSizeAtto) },
        { filterType: 'LOT_SIZE', minQty: attoText(spec.minQtyAtto), maxQty: attoText(spec.maxQtyAtto), stepSize: attoText(spec.stepSizeAtto) },
        { filterType: 'MIN_NOTIONAL', minNotional: attoText(spec.minNotionalAtto) },
      ];
      if (rich) {
        filters.push(
          { filterType: 'NOTIONAL', minNotional: attoText(spec.minNotionalAtto) },
          { filterType: 'MAX_NUM_ORDERS', limit: core.spot.limits.maxOpenOrdersPerSymbol },
        );
      }
      if (algo !== undefined) {
        filters.push({ filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: algo.maxAlgoOrdersPerSymbol }, { filterType: 'ICEBERG_PARTS', limit: algo.maxIcebergParts });
      }
      return {
        symbol: spec.symbol,
        symbolName: spec.symbol,
        status: spec.status,
        exchangeId: EXCHANGE_ID,
        baseAsset: spec.baseAsset,
        baseAssetName: spec.baseAsset,
        baseAssetPrecision: attoText(spec.stepSizeAtto),
        quoteAsset: spec.quoteAsset,
        quoteAssetName: spec.quoteAsset,
        quotePrecision: attoText(spec.tickSizeAtto),
        quoteAssetPrecision: attoText(spec.tickSizeAtto),
        icebergAllowed: algo !== undefined,
        isAggregate: false,
        allowMargin: false,
        filters,
      };
    });
  const tokens = [...core.ledger.assets.values()]
    .sort((a, b) => (a.asset < b.asset ? -1 : 1))
    .map((asset) => {
      const crypto = asset.kind === 'crypto';
      return {
        tokenId: asset.asset,
        tokenName: asset.asset,
        tokenFullName: asset.fullName,
        allowDeposit: crypto && asset.allowDeposit,
        allowWithdraw: crypto && asset.allowWithdraw,
        chainTypes: crypto
          ? asset.chains.map((chainType) => ({ chainType, allowDeposit: asset.allowDeposit, allowWithdraw: asset.allowWithdraw }))
          : [],
      };
    });
  return {
    timezone: 'UTC',
    serverTime: String(ctx.exchange.clock()),
    rateLimits: [
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalUnit: 1, limit: limits.requestWeightPerMinute },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalUnit: 1, limit: limits.ordersPerSecond },
      { rateLimitType: 'ORDERS', interval: 'DAY', intervalUnit: 1, limit: limits.ordersPerDay },
    ],
    brokerFilters: rich ? brokerFilters(core.spot.limits.maxOpenOrdersPerAccount, algo) : [],
    symbols,
    options: [],
    contracts: [],
    tokens,
  };
}

/** The rich view's broker filters: BROKER_MAX_NUM_ORDERS, and BROKER_MAX_NUM_ALGO_ORDERS while the algoOrders option is on. */
function brokerFilters(maxOpenOrdersPerAccount: number, algo: AlgoSettings | undefined): Record<string, unknown>[] {
  const filters: Record<string, unknown>[] = [{ filterType: 'BROKER_MAX_NUM_ORDERS', limit: maxOpenOrdersPerAccount }];
  if (algo !== undefined) filters.push({ filterType: 'BROKER_MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: algo.maxAlgoOrdersPerAccount });
  return filters;
}

export function generalEndpoints(limits: RateLimitConfig): Endpoint[] {
  return [
    {
      id: 'A1',
      summary: 'Test connectivity',
      method: 'GET',
      group: 'general',
      path: 'ping',
      extraPaths: ['/openapi/quote/v1/ping'],
      security: 'NONE',
      weight: 0,
      params: [],
      response: emptyObject,
      example: {},
      handler: () => ({}),
    },
    {
      id: 'A2',
      summary: 'Check server time',
      method: 'GET',
      group: 'general',
      path: 'time',
      extraPaths: ['/openapi/quote/v1/time'],
      security: 'NONE',
      weight: 0,
      params: [],
      response: object({ serverTime: millis }),
      example: { serverTime: 1732579200000 },
      handler: (ctx) => ({ serverTime: ctx.exchange.clock() }),
    },
    {
      id: 'A3',
      summary: 'Exchange information',
      method: 'GET',
      group: 'general',
      path: 'exchange',
      extraPaths: ['/openapi/v1/brokerInfo', '/openapi/brokerInfo'],
      security: 'NONE',
      weight: 0,
      params: [],
      response: exchangeInformationSchema(false),
      example: exchangeInformationExample(false),
      handler: (ctx) => exchangeInformation(ctx, false, limits),
    },
    {
      id: 'A3',
      summary: 'Exchange information (with the NOTIONAL and MAX_NUM_ORDERS filters, and the algo order filters while that option is on)',
      method: 'GET',
      group: 'general',
      path: 'exchangeInfo',
      security: 'NONE',
      weight: 0,
      params: [],
      response: exchangeInformationSchema(true),
      example: exchangeInformationExample(true),
      handler: (ctx) => exchangeInformation(ctx, true, limits),
    },
    {
      id: 'A4',
      summary: 'Trading pairs',
      method: 'GET',
      group: 'general',
      path: 'pairs',
      security: 'NONE',
      weight: 1,
      params: [],
      response: arrayOf(object({ symbol: string, quoteToken: string, baseToken: string })),
      example: [
        { symbol: 'BTCUSDT', quoteToken: 'USDT', baseToken: 'BTC' },
        { symbol: 'ETHBTC', quoteToken: 'BTC', baseToken: 'ETH' },
      ],
      handler: (ctx) =>
        [...ctx.exchange.core.spot.symbols.values()]
          .filter((s) => s.spec.status === 'TRADING')
          .sort((a, b) => (a.spec.symbol < b.spec.symbol ? -1 : 1))
          .map(({ spec }) => ({ symbol: spec.symbol, quoteToken: spec.quoteAsset, baseToken: spec.baseAsset })),
    },
  ];
}
