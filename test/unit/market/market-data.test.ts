import { describe, expect, it } from 'vitest';
import { formatAtto, formatUnits, parseDecimal } from '../../../src/core/decimal.js';
import type { TradeRow } from '../../../src/core/types.js';
import { MarketData, RECENT_TRADES_KEPT, ratioUnits, type DayStats } from '../../../src/market/market-data.js';

const MINUTE_MS = 60_000;
/** "Now" of most cases: 2024-01-15 12:00:30 UTC. */
const NOW = Date.UTC(2024, 0, 15, 12, 0, 30);
/** Start of the first of the 1440 one-minute buckets that end with NOW's. */
const WINDOW_OPEN = Date.UTC(2024, 0, 14, 12, 1);

function atto(text: string): bigint {
  const value = parseDecimal(text);
  if (value === null) throw new Error(`not a decimal: ${text}`);
  return value;
}

interface TradeSpec {
  tradeId: number;
  time: number;
  price: string;
  qty: string;
  quoteQty: string;
  /** The buyer's order was resting: the taker sold. */
  buyerIsMaker: boolean;
  symbol?: string;
}

/** Both rows of a trade, seller's first, as the core derives them. */
function rows(t: TradeSpec): TradeRow[] {
  const common = { tradeId: t.tradeId, symbol: t.symbol ?? 'BTCUSDT', price: t.price, qty: t.qty, quoteQty: t.quoteQty, commission: '0', commissionAsset: 'USDT', time: t.time };
  return [
    { ...common, accountId: 2, orderId: 2 * t.tradeId, matchOrderId: 2 * t.tradeId + 1, isBuyer: false, isMaker: !t.buyerIsMaker },
    { ...common, accountId: 1, orderId: 2 * t.tradeId + 1, matchOrderId: 2 * t.tradeId, isBuyer: true, isMaker: t.buyerIsMaker },
  ];
}

/** BTCUSDT: two trades before the window, one on its first ms, two inside it. */
function btcMarket(): MarketData {
  const market = new MarketData();
  market.onTrades([
    ...rows({ tradeId: 1, time: WINDOW_OPEN - 10 * MINUTE_MS, price: '39500', qty: '0.01', quoteQty: '395', buyerIsMaker: false }),
    ...rows({ tradeId: 2, time: WINDOW_OPEN - 1, price: '40000', qty: '0.01', quoteQty: '400', buyerIsMaker: false }),
  ]);
  market.onTrades(rows({ tradeId: 3, time: WINDOW_OPEN, price: '41000', qty: '0.02', quoteQty: '820', buyerIsMaker: false }));
  market.onTrades(rows({ tradeId: 4, time: Date.UTC(2024, 0, 15, 11), price: '39000', qty: '0.01', quoteQty: '390', buyerIsMaker: true }));
  market.onTrades(rows({ tradeId: 5, time: Date.UTC(2024, 0, 15, 12, 0, 10), price: '40500', qty: '0.013', quoteQty: '526.5', buyerIsMaker: false }));
  return market;
}

/** DayStats with prices and volumes as canonical decimals ("-" for undefined). */
function view(stats: DayStats): Record<string, string | number> {
  const text = (value: bigint | undefined): string => (value === undefined ? '-' : formatAtto(value));
  return {
    openTime: new Date(stats.openTime).toISOString(),
    lastPrice: text(stats.lastPriceAtto),
    openPrice: text(stats.openPriceAtto),
    highPrice: text(stats.highPriceAtto),
    lowPrice: text(stats.lowPriceAtto),
    prevClosePrice: text(stats.prevClosePriceAtto),
    volume: text(stats.volumeAtto),
    quoteVolume: text(stats.quoteVolumeAtto),
    count: stats.count,
  };
}

describe('MarketData.dayStats (A8 window, docs/spot-api.md "Market data")', () => {
  it('when trades are inside and before the window, then open/high/low/volumes come from the window and prevClose from the last trade before it', () => {
    expect(view(btcMarket().dayStats('BTCUSDT', NOW))).toEqual({
      openTime: '2024-01-14T12:01:00.000Z',
      lastPrice: '40500',
      openPrice: '41000',
      highPrice: '41000',
      lowPrice: '39000',
      prevClosePrice: '40000',
      volume: '0.043',
      quoteVolume: '1736.5',
      count: 3,
    });
  });

  it('when now reaches the last ms of its bucket, then the window still starts 1439 buckets earlier', () => {
    const stats = btcMarket().dayStats('BTCUSDT', Date.UTC(2024, 0, 15, 12, 0, 59, 999));
    expect(new Date(stats.openTime).toISOString()).toBe('2024-01-14T12:01:00.000Z');
    expect(stats.count).toBe(3);
  });

  it('when now enters the next bucket, then the oldest bucket leaves the window and its trade becomes prevClose', () => {
    expect(view(btcMarket().dayStats('BTCUSDT', Date.UTC(2024, 0, 15, 12, 1)))).toEqual({
      openTime: '2024-01-14T12:02:00.000Z',
      lastPrice: '40500',
      openPrice: '39000',
      highPrice: '40500',
      lowPrice: '39000',
      prevClosePrice: '41000',
      volume: '0.023',
      quoteVolume: '916.5',
      count: 2,
    });
  });

  it('when the window holds no trade, then open, high, low and prevClose are the last price and the volumes are zero', () => {
    expect(view(btcMarket().dayStats('BTCUSDT', Date.UTC(2024, 0, 17)))).toEqual({
      openTime: '2024-01-16T00:01:00.000Z',
      lastPrice: '40500',
      openPrice: '40500',
      highPrice: '40500',
      lowPrice: '40500',
      prevClosePrice: '40500',
      volume: '0',
      quoteVolume: '0',
      count: 0,
    });
  });

  it('when a symbol never traded, then every price is undefined and the volumes are zero', () => {
    expect(view(btcMarket().dayStats('ETHUSDT', NOW))).toEqual({
      openTime: '2024-01-14T12:01:00.000Z',
      lastPrice: '-',
      openPrice: '-',
      highPrice: '-',
      lowPrice: '-',
      prevClosePrice: '-',
      volume: '0',
      quoteVolume: '0',
      count: 0,
    });
  });

  it('when every trade is inside the window, then there is no prevClose', () => {
    const market = new MarketData();
    market.onTrades(rows({ tradeId: 1, time: NOW - 1_000, price: '2000', qty: '1', quoteQty: '2000', buyerIsMaker: false }));
    expect(view(market.dayStats('BTCUSDT', NOW))).toMatchObject({ openPrice: '2000', prevClosePrice: '-', count: 1 });
  });
});

describe('MarketData.dayStats over other windows (docs/websocket.md "v2 market stream" realtimeInterval)', () => {
  /** Trades at 15:00 and 20:00 UTC the day before NOW, and at 02:00 UTC NOW's day. */
  function dayMarket(): MarketData {
    const market = new MarketData();
    market.onTrades(rows({ tradeId: 1, time: Date.UTC(2024, 0, 14, 15), price: '100', qty: '1', quoteQty: '100', buyerIsMaker: false }));
    market.onTrades(rows({ tradeId: 2, time: Date.UTC(2024, 0, 14, 20), price: '200', qty: '1', quoteQty: '200', buyerIsMaker: false }));
    market.onTrades(rows({ tradeId: 3, time: Date.UTC(2024, 0, 15, 2), price: '300', qty: '1', quoteQty: '300', buyerIsMaker: false }));
    return market;
  }

  it.each([
    ['24h', '2024-01-14T12:01:00.000Z', { openPrice: '100', lowPrice: '100', prevClosePrice: '-', volume: '3', quoteVolume: '600', count: 3 }],
    ['1d+8', '2024-01-14T16:00:00.000Z', { openPrice: '200', lowPrice: '200', prevClosePrice: '100', volume: '2', quoteVolume: '500', count: 2 }],
    ['1d', '2024-01-15T00:00:00.000Z', { openPrice: '300', lowPrice: '300', prevClosePrice: '200', volume: '1', quoteVolume: '300', count: 1 }],
  ] as const)('when the window is %s, then it opens at %s and holds the trades since', (window, openTime, expected) => {
    expect(view(dayMarket().dayStats('BTCUSDT', NOW, window))).toEqual({ openTime, lastPrice: '300', highPrice: '300', ...expected });
  });
});

describe('MarketData trades and klines', () => {
  it('when a trade arrives as a buyer row and a seller row, then it is one public trade with the literal isBuyerMaker', () => {
    const trades = btcMarket().recentTrades('BTCUSDT', 2);
    expect(trades.map((t) => [t.tradeId, formatAtto(t.priceAtto), formatAtto(t.qtyAtto), t.isBuyerMaker])).toEqual([
      [4, '39000', '0.01', true],
      [5, '40500', '0.013', false],
    ]);
    expect(btcMarket().recentTrades('BTCUSDT', 500)).toHaveLength(5);
    expect(formatAtto(btcMarket().lastPrice('BTCUSDT') ?? -1n)).toBe('40500');
    expect(btcMarket().lastPrice('ETHUSDT')).toBeUndefined();
  });

  it('when more than the kept number of trades arrive, then only the newest 1000 are served, oldest first', () => {
    const market = new MarketData();
    const total = RECENT_TRADES_KEPT + 5;
    for (let id = 1; id <= total; id++) {
      market.onTrades(rows({ tradeId: id, time: NOW + id, price: '100', qty: '1', quoteQty: '100', buyerIsMaker: false }));
    }
    const served = market.recentTrades('BTCUSDT', 5000);
    expect(served).toHaveLength(1000);
    expect([served[0].tradeId, served[999].tradeId]).toEqual([6, total]);
  });

  it('when trades are fed, then the klines of every interval count the taker-buy part from the buyer row', () => {
    const bars = btcMarket().klines('BTCUSDT', '1d', 500, undefined, NOW);
    expect(bars.map((b) => [new Date(b.openTime).toISOString(), formatAtto(b.openAtto), formatAtto(b.closeAtto), formatAtto(b.volumeAtto), b.count, formatAtto(b.takerBuyVolumeAtto), formatAtto(b.takerBuyQuoteVolumeAtto)])).toEqual([
      ['2024-01-14T00:00:00.000Z', '39500', '41000', '0.04', 3, '0.04', '1615'],
      ['2024-01-15T00:00:00.000Z', '39000', '40500', '0.023', 2, '0.013', '526.5'],
    ]);
    expect(btcMarket().klines('ETHUSDT', '1d', 500, undefined, NOW)).toEqual([]);
  });
});

describe('ratioUnits (A8 priceChangePercent and weightedAvgPrice)', () => {
  const ratio = (numerator: string, denominator: string, decimals: number): string =>
    formatUnits(ratioUnits(atto(numerator), atto(denominator), decimals), decimals);
  const negative = (numerator: string, denominator: string, decimals: number): string =>
    formatUnits(ratioUnits(-atto(numerator), atto(denominator), decimals), decimals);

  it('when a price change is divided by the open price, then it is a fraction with 4 decimals, half away from zero', () => {
    expect(negative('500', '41000', 4)).toBe('-0.0122');
    expect(ratio('500.02', '29500', 4)).toBe('0.0169');
    expect(ratio('1.5', '10000', 4)).toBe('0.0002');
    expect(negative('1.5', '10000', 4)).toBe('-0.0002');
    expect(ratio('1.49', '10000', 4)).toBe('0.0001');
    expect(negative('0.4', '10000', 4)).toBe('0');
  });

  it('when quote volume is divided by volume, then the average is at the tick decimals, half away from zero', () => {
    expect(ratio('1736.5', '0.043', 2)).toBe('40383.72');
    expect(ratio('100.005', '1', 2)).toBe('100.01');
    expect(ratio('100.00499', '1', 2)).toBe('100');
    expect(ratio('0.000015', '1', 5)).toBe('0.00002');
  });

  it('when the denominator is zero, then the ratio is zero', () => {
    expect(ratio('5', '0', 4)).toBe('0');
  });
});
