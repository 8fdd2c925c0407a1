import type { TradeRow } from '../../core/types.js';
import { requireKey, type Endpoint } from '../endpoint.js';
import { readLimit, readLong, readTimeRange } from '../params.js';
import { symbolParam } from './orders.js';
import { arrayOf } from '../response-schema.js';
import { accountTradeExample, accountTradeSchema } from './schemas.js';

/** A20 record: coinsph's and the SDKs' field names together (docs/spot-api.md "Deposits and withdrawals", docs/spot-api.md "Compatibility" item 16). */
function tradeRecord(row: TradeRow): Record<string, unknown> {
  return {
    id: String(row.tradeId),
    symbol: row.symbol,
    symbolName: row.symbol,
    orderId: String(row.orderId),
    matchOrderId: String(row.matchOrderId),
    price: row.price,
    qty: row.qty,
    quoteQty: row.quoteQty,
    commission: row.commission,
    commissionAsset: row.commissionAsset,
    time: String(row.time),
    isBuyer: row.isBuyer,
    isMaker: row.isMaker,
    fee: { feeTokenId: row.commissionAsset, feeTokenName: row.commissionAsset, fee: row.commission },
    feeTokenId: row.commissionAsset,
    feeAmount: row.commission,
    makerRebate: '0',
  };
}

export function tradeEndpoints(): Endpoint[] {
  return [
    {
      id: 'A20',
      extraMethods: ['POST'],
      summary: 'Account trade list',
      method: 'GET',
      group: 'private',
      path: 'myTrades',
      security: 'USER_DATA',
      weight: 5,
      params: [
        { name: 'symbol', type: 'STRING' },
        { name: 'orderId', type: 'LONG', description: "that order's trades" },
        { name: 'startTime', type: 'LONG' },
        { name: 'endTime', type: 'LONG' },
        { name: 'fromId', type: 'LONG', description: 'trades with smaller ids, descending' },
        { name: 'toId', type: 'LONG', description: 'trades with larger ids, ascending' },
        { name: 'limit', type: 'INT', description: 'default 500, max 1000' },
      ],
      response: arrayOf(accountTradeSchema),
      example: [accountTradeExample],
      handler: async (ctx) => {
        const params = ctx.params;
        const state = symbolParam(ctx);
        const orderId = readLong(params, 'orderId', { zeroIsAbsent: true });
        const { startTime, endTime } = readTimeRange(params);
        const fromId = readLong(params, 'fromId', { zeroIsAbsent: true });
        const toId = readLong(params, 'toId', { zeroIsAbsent: true });
        const limit = readLimit(params, { default: 500, max: 1000 });
        const rows = await ctx.exchange.history.listTrades({
          accountId: requireKey(ctx).accountId,
          symbol: state?.spec.symbol,
          orderId,
          startTime,
          endTime,
          fromId,
          toId,
          limit,
        });
        return rows.map(tradeRecord);
      },
    },
  ];
}
