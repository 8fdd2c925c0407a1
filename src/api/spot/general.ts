import type { Endpoint, RequestContext } from '../endpoint.js';
import type { RateLimitConfig } from '../auth/rate-limiter.js';
import { attoText, EXCHANGE_ID } from './views.js';

/** A3 in its two views: the seed's three filters, or coinsph's richer `/exchangeInfo` (area A §3.1). */
function exchangeInformation(ctx: RequestContext, rich: boolean, limits: RateLimitConfig): Record<string, unknown> {
  const core = ctx.exchange.core;
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
        icebergAllowed: false,
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
    brokerFilters: rich ? [{ filterType: 'BROKER_MAX_NUM_ORDERS', limit: core.spot.limits.maxOpenOrdersPerAccount }] : [],
    symbols,
    options: [],
    contracts: [],
    tokens,
  };
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
      handler: (ctx) => exchangeInformation(ctx, false, limits),
    },
    {
      id: 'A3',
      summary: 'Exchange information (with the NOTIONAL and MAX_NUM_ORDERS filters)',
      method: 'GET',
      group: 'general',
      path: 'exchangeInfo',
      security: 'NONE',
      weight: 0,
      params: [],
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
      handler: (ctx) =>
        [...ctx.exchange.core.spot.symbols.values()]
          .filter((s) => s.spec.status === 'TRADING')
          .sort((a, b) => (a.spec.symbol < b.spec.symbol ? -1 : 1))
          .map(({ spec }) => ({ symbol: spec.symbol, quoteToken: spec.quoteAsset, baseToken: spec.baseAsset })),
    },
  ];
}
