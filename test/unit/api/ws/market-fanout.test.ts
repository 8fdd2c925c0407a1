import { beforeEach, describe, expect, it } from 'vitest';
import { MarketFanout } from '../../../../src/api/ws/market-fanout.js';
import { readClientMessage } from '../../../../src/api/ws/market-request.js';
import { MAX_PAIRS_PER_SOCKET, SocketSubscriptions, type FrameSink } from '../../../../src/api/ws/market-subscriptions.js';
import type { MarketFrame } from '../../../../src/api/ws/market-frames.js';
import type { Side } from '../../../../src/core/types.js';
import { MarketData } from '../../../../src/market/market-data.js';
import { CoreHarness, T0, createCoreHarness, limit } from '../../../support/core-harness.js';

/** The fan-out's clock: inside the 1m bar [T0 − 20 s, T0 + 40 s). */
const NOW = T0 + 30_000;
const BAR_1M = T0 - 20_000;

class Socket implements FrameSink {
  readonly own = new SocketSubscriptions();
  sent: { text: string; binary: boolean }[] = [];

  send(frame: MarketFrame, binary: boolean): void {
    this.sent.push({ text: frame.text, binary });
  }

  /** Frames sent since the last call, parsed. */
  take(): unknown[] {
    const frames = this.sent.map((s) => JSON.parse(s.text) as unknown);
    this.sent = [];
    return frames;
  }
}

let h: CoreHarness;
let market: MarketData;
let fanout: MarketFanout;
let seller: number;
let buyer: number;

/** An order at a given time; the market read models and trade subscribers see its trades. */
function order(accountId: number, side: Side, price: string, quantity: string, at?: number): number {
  if (at !== undefined) h.now = at;
  const placed = h.place(limit(accountId, 'ETHUSDT', side, price, quantity));
  market.onTrades(h.lastRows.trades);
  fanout.onTrades(h.lastRows.trades);
  return placed.order.orderId;
}

function subscribe(socket: Socket, request: object): string | undefined {
  const message = readClientMessage(JSON.stringify(request), (symbol) => h.core.spot.symbols.get(symbol));
  if (message.kind !== 'subscription') throw new Error(`not a subscription: ${JSON.stringify(message)}`);
  return fanout.apply(socket, socket.own, message.request);
}

const frame = (topic: string, data: unknown[], f: boolean, extra: Record<string, unknown> = {}) => ({
  symbol: 'ETHUSDT',
  symbolName: 'ETHUSDT',
  topic,
  params: { binary: 'false' },
  data,
  f,
  sendTime: NOW,
  ...extra,
});

beforeEach(() => {
  h = createCoreHarness();
  market = new MarketData();
  fanout = new MarketFanout({ core: h.core, market }, () => NOW);
  seller = h.funded({ ETH: '10' });
  buyer = h.funded({ USDT: '100000' });
  order(seller, 'SELL', '2000', '1');
  order(seller, 'SELL', '2001.5', '0.5');
  order(buyer, 'BUY', '1999', '1.2');
});

describe('trade subscriptions', () => {
  it('when nothing traded yet, then the snapshot is an empty f:true frame, the request id and params echoed', () => {
    const s = new Socket();
    subscribe(s, { id: '1', event: 'sub', topic: 'trade', symbol: 'ETHUSDT', params: { binary: 'false' } });
    expect(s.sent).toEqual([
      {
        text: `{"id":"1","symbol":"ETHUSDT","symbolName":"ETHUSDT","topic":"trade","params":{"binary":"false"},"data":[],"f":true,"sendTime":${NOW}}`,
        binary: false,
      },
    ]);
  });

  it('when trades commit, then each batch is one f:false frame with m true when the taker bought', () => {
    const s = new Socket();
    subscribe(s, { event: 'sub', topic: 'trade', symbol: 'ETHUSDT' });
    s.take();
    order(buyer, 'BUY', '2000', '0.25', T0 + 5000);
    order(seller, 'SELL', '1999', '0.5', T0 + 6000);
    expect(s.take()).toEqual([
      frame('trade', [{ v: '1', t: T0 + 5000, p: '2000', q: '0.25', m: true }], false),
      frame('trade', [{ v: '2', t: T0 + 6000, p: '1999', q: '0.5', m: false }], false),
    ]);
  });

  it('when a socket subscribes after trades, then its snapshot holds them oldest first', () => {
    order(buyer, 'BUY', '2000', '0.25', T0 + 5000);
    order(seller, 'SELL', '1999', '0.5', T0 + 6000);
    const s = new Socket();
    subscribe(s, { event: 'sub', topic: 'trade', symbol: 'ETHUSDT' });
    expect(s.take()).toEqual([
      frame(
        'trade',
        [
          { v: '1', t: T0 + 5000, p: '2000', q: '0.25', m: true },
          { v: '2', t: T0 + 6000, p: '1999', q: '0.5', m: false },
        ],
        true,
      ),
    ]);
  });

  it('when a trade is on another symbol, then ETHUSDT subscribers get nothing', () => {
    const s = new Socket();
    subscribe(s, { event: 'sub', topic: 'trade', symbol: 'BTCUSDT' });
    s.take();
    order(buyer, 'BUY', '2000', '0.25');
    expect(s.take()).toEqual([]);
  });
});

describe('depth subscriptions', () => {
  it('when subscribing, then the snapshot is the book; later frames follow a change of version only', () => {
    const s = new Socket();
    const top = new Socket();
    subscribe(s, { event: 'sub', topic: 'depth', symbol: 'ETHUSDT' });
    subscribe(top, { event: 'sub', topic: 'depth', symbol: 'ETHUSDT', params: { limit: '1' } });
    const book = { e: 301, s: 'ETHUSDT', t: NOW, v: '3', b: [['1999', '1.2']], a: [['2000', '1'], ['2001.5', '0.5']] };
    expect(s.take()).toEqual([frame('depth', [book], true)]);
    expect(top.take()).toEqual([frame('depth', [{ ...book, a: [['2000', '1']] }], true, { params: { binary: 'false', limit: '1' } })]);

    fanout.flushDepths();
    expect(s.take()).toEqual([]);

    order(seller, 'SELL', '2002', '0.3');
    fanout.flushDepths();
    expect(s.take()).toEqual([frame('depth', [{ ...book, v: '4', a: [['2000', '1'], ['2001.5', '0.5'], ['2002', '0.3']] }], false)]);
    expect(top.take()).toEqual([frame('depth', [{ ...book, v: '4', a: [['2000', '1']] }], false, { params: { binary: 'false', limit: '1' } })]);
  });
});

describe('diffDepth subscriptions', () => {
  it('when levels change, then the next frame holds only them, a removed level with qty "0", best first', () => {
    const early = new Socket();
    subscribe(early, { event: 'sub', topic: 'diffDepth', symbol: 'ETHUSDT' });
    expect(early.take()).toEqual([frame('diffDepth', [{ e: 301, s: 'ETHUSDT', t: NOW, v: '3', b: [['1999', '1.2']], a: [['2000', '1'], ['2001.5', '0.5']] }], true)]);

    h.ok({ type: 'cancelOrder', accountId: seller, orderId: 2 });
    order(buyer, 'BUY', '1998', '0.4');
    order(buyer, 'BUY', '1999.5', '0.1');
    const late = new Socket();
    subscribe(late, { event: 'sub', topic: 'diffDepth', symbol: 'ETHUSDT' });
    expect(late.take()).toEqual([
      frame('diffDepth', [{ e: 301, s: 'ETHUSDT', t: NOW, v: '6', b: [['1999.5', '0.1'], ['1999', '1.2'], ['1998', '0.4']], a: [['2000', '1']] }], true),
    ]);

    fanout.flushDepths();
    expect(early.take()).toEqual([
      frame('diffDepth', [{ e: 301, s: 'ETHUSDT', t: NOW, v: '6', b: [['1999.5', '0.1'], ['1998', '0.4']], a: [['2001.5', '0']] }], false),
    ]);
    expect(late.take()).toEqual([]);

    order(buyer, 'BUY', '2000', '0.25');
    fanout.flushDepths();
    const diff = frame('diffDepth', [{ e: 301, s: 'ETHUSDT', t: NOW, v: '7', b: [], a: [['2000', '0.75']] }], false);
    expect(early.take()).toEqual([diff]);
    expect(late.take()).toEqual([diff]);
    fanout.flushDepths();
    expect(early.take()).toEqual([]);
  });
});

describe('bookTicker subscriptions', () => {
  it('when a level behind the best changes, then nothing is sent; when the best changes, then the new best is', () => {
    const s = new Socket();
    subscribe(s, { event: 'sub', topic: 'bookTicker', symbol: 'ETHUSDT' });
    const ticker = { s: 'ETHUSDT', b: '1999', bq: '1.2', a: '2000', aq: '1', t: NOW };
    expect(s.take()).toEqual([frame('bookTicker', [ticker], true)]);
    order(seller, 'SELL', '2003', '1');
    fanout.flushBookTickers();
    expect(s.take()).toEqual([]);
    order(buyer, 'BUY', '2000', '1');
    fanout.flushBookTickers();
    expect(s.take()).toEqual([frame('bookTicker', [{ ...ticker, a: '2001.5', aq: '0.5' }], false)]);
  });

  it('when a side is empty, then its price and qty are "0"', () => {
    const s = new Socket();
    subscribe(s, { event: 'sub', topic: 'bookTicker', symbol: 'BTCUSDT' });
    expect(s.take()).toMatchObject([{ data: [{ s: 'BTCUSDT', b: '0', bq: '0', a: '0', aq: '0', t: NOW }] }]);
  });
});

describe('kline subscriptions', () => {
  it('when subscribing to kline_1m with limit 2, then the snapshot is the last 2 bars under topic kline with params.klineType', () => {
    order(buyer, 'BUY', '2000', '0.1', BAR_1M - 60_000);
    order(buyer, 'BUY', '2000', '0.2', BAR_1M - 1);
    order(seller, 'SELL', '1999', '0.5', BAR_1M + 1000);
    order(buyer, 'BUY', '2000', '0.3', BAR_1M + 2000);
    const s = new Socket();
    subscribe(s, { id: '5', event: 'sub', topic: 'kline_1m', symbol: 'ETHUSDT', params: { binary: 'false', limit: '2' } });
    expect(s.take()).toEqual([
      {
        id: '5',
        ...frame(
          'kline',
          [
            { t: BAR_1M - 60_000, s: 'ETHUSDT', sn: 'ETHUSDT', o: '2000', h: '2000', l: '2000', c: '2000', v: '0.3' },
            { t: BAR_1M, s: 'ETHUSDT', sn: 'ETHUSDT', o: '1999', h: '2000', l: '1999', c: '2000', v: '0.8' },
          ],
          true,
          { params: { binary: 'false', limit: '2', klineType: '1m' } },
        ),
      },
    ]);
  });

  it('when the current bar changes, then the next flush sends it once; without a trade, nothing', () => {
    const s = new Socket();
    subscribe(s, { event: 'sub', topic: 'kline_1m', symbol: 'ETHUSDT' });
    const params = { params: { binary: 'false', klineType: '1m' } };
    expect(s.take()).toEqual([frame('kline', [], true, params)]);
    fanout.flushStats();
    expect(s.take()).toEqual([]);
    order(buyer, 'BUY', '2000', '0.1', BAR_1M + 1000);
    order(buyer, 'BUY', '2000', '0.2', BAR_1M + 2000);
    fanout.flushStats();
    fanout.flushStats();
    expect(s.take()).toEqual([frame('kline', [{ t: BAR_1M, s: 'ETHUSDT', sn: 'ETHUSDT', o: '2000', h: '2000', l: '2000', c: '2000', v: '0.3' }], false, params)]);
  });
});

describe('realtimes subscriptions', () => {
  it('when subscribing, then the snapshot has the 24 h values with a string time and a numeric e; a change is sent on the next flush', () => {
    order(buyer, 'BUY', '2000', '0.5', BAR_1M + 1000);
    const s = new Socket();
    subscribe(s, { event: 'sub', topic: 'realtimes', symbol: 'ETHUSDT' });
    const params = { params: { binary: 'false', realtimeInterval: '24h' } };
    const item = { t: String(NOW), s: 'ETHUSDT', sn: 'ETHUSDT', c: '2000', h: '2000', l: '2000', o: '2000', v: '0.5', qv: '1000', m: '0', e: 301 };
    expect(s.take()).toEqual([frame('realtimes', [item], true, params)]);
    fanout.flushStats();
    expect(s.take()).toEqual([]);
    order(seller, 'SELL', '1999', '1', BAR_1M + 2000);
    fanout.flushStats();
    expect(s.take()).toEqual([frame('realtimes', [{ ...item, c: '1999', l: '1999', v: '1.5', qv: '2999', m: '-0.0005' }], false, params)]);
  });
});

describe('subscription bookkeeping', () => {
  it('when a sub repeats, then it is ignored; after cancel, nothing more is sent', () => {
    const s = new Socket();
    subscribe(s, { event: 'sub', topic: 'trade', symbol: 'ETHUSDT' });
    subscribe(s, { event: 'sub', topic: 'trade', symbol: 'ETHUSDT,BTCUSDT' });
    expect(s.take().map((f) => (f as { symbol: string }).symbol)).toEqual(['ETHUSDT', 'BTCUSDT']);
    expect(s.own.size).toBe(2);
    subscribe(s, { event: 'cancel', topic: 'trade', symbol: 'ETHUSDT' });
    order(buyer, 'BUY', '2000', '0.25');
    expect(s.take()).toEqual([]);
    expect(s.own.size).toBe(1);
  });

  it('when cancelAll runs, then every pair of that socket stops and others go on', () => {
    const gone = new Socket();
    const stays = new Socket();
    subscribe(gone, { event: 'sub', topic: 'depth', symbol: 'ETHUSDT' });
    subscribe(stays, { event: 'sub', topic: 'depth', symbol: 'ETHUSDT' });
    gone.take();
    stays.take();
    fanout.cancelAll(gone.own);
    order(seller, 'SELL', '2002', '0.3');
    fanout.flushDepths();
    expect(gone.take()).toEqual([]);
    expect(stays.take()).toHaveLength(1);
    expect(gone.own.size).toBe(0);
  });

  it('when a sub would pass 200 pairs, then it is refused whole', () => {
    // Seven demo symbols × 20 topics are 140 pairs: list four more to reach the limit.
    for (const asset of ['XA', 'XB', 'XC', 'XD']) {
      h.ok({ type: 'addAsset', asset, precision: 8, kind: 'crypto', fullName: asset, chains: [], withdrawFee: '0', minWithdraw: '0', allowDeposit: true, allowWithdraw: true });
      h.ok({ type: 'addSymbol', symbol: `${asset}USDT`, baseAsset: asset, quoteAsset: 'USDT', tickSize: '0.01', stepSize: '0.01', minPrice: '0.01', maxPrice: '1000', minQty: '0.01', maxQty: '1000', minNotional: '1' });
    }
    const s = new Socket();
    const symbols = [...h.core.spot.symbols.keys()];
    const topics = ['trade', 'depth', 'diffDepth', 'bookTicker', 'realtimes', ...['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M'].map((i) => `kline_${i}`)];
    let pairs = 0;
    for (const topic of topics) {
      for (const symbol of symbols) {
        if (pairs === MAX_PAIRS_PER_SOCKET - 1) break;
        expect(subscribe(s, { event: 'sub', topic, symbol })).toBeUndefined();
        pairs++;
      }
    }
    expect(s.own.size).toBe(199);
    expect(subscribe(s, { event: 'sub', topic: 'kline_1M', symbol: 'BTCUSDT,ETHUSDT,ETHBTC,USDTMXN' })).toBe('TOO_MANY_SUBSCRIPTIONS');
    expect(s.own.size).toBe(199);
    s.take();
    expect(subscribe(s, { event: 'sub', topic: 'kline_1M', symbol: 'USDTUSD' })).toBeUndefined();
    expect(s.own.size).toBe(200);
  });

  it('when params.binary is true, then the sink is told to send binary frames', () => {
    const s = new Socket();
    subscribe(s, { event: 'sub', topic: 'bookTicker', symbol: 'ETHUSDT', params: { binary: true } });
    expect(s.sent.map((x) => x.binary)).toEqual([true]);
    expect(s.take()).toMatchObject([{ params: { binary: true }, f: true }]);
  });
});
