import { describe, expect, it } from 'vitest';
import { DEMO_MARKET_MAKER_SEED, DEMO_MARKET_MAKER_SYMBOLS } from '../../../src/demo/demo-catalogue.js';
import { demoLadder } from '../../../src/demo/ladder.js';
import { startDemoMarketMaker, type DemoMarketMakerOptions } from '../../../src/demo/market-maker.js';
import { errorReply, FakeSpotApi, RecordingLogger } from './fake-spot-api.js';

const SEED = DEMO_MARKET_MAKER_SEED;
const [BTCUSDT, ETHUSDT] = DEMO_MARKET_MAKER_SYMBOLS;

function start(api: FakeSpotApi, logger: RecordingLogger, options: Partial<DemoMarketMakerOptions> = {}): ReturnType<typeof startDemoMarketMaker> {
  return startDemoMarketMaker({
    baseUrl: 'http://bourse.test',
    apiKey: 'K',
    secretKey: 'S',
    symbols: [BTCUSDT, ETHUSDT],
    seed: SEED,
    // One tick per test unless a test says otherwise: the next one is a second away.
    intervalMs: 1000,
    ordersPerSecond: 4,
    logger,
    fetch: api.fetch,
    ...options,
  });
}

describe('demo market maker', () => {
  it('when it starts, then it reads its open orders and places the best level of every symbol first, within its order budget', async () => {
    const api = new FakeSpotApi();
    const logger = new RecordingLogger();
    const maker = start(api, logger);
    await logger.untilTicks(1);
    await maker.stop();
    expect(api.calls.items[0]).toMatchObject({ method: 'GET', path: '/openapi/v1/openOrders', params: { limit: '1000' } });
    expect(api.changes()).toEqual([
      'BTCUSDT BUY 60000 0.219199',
      'BTCUSDT SELL 60060 0.212924',
      'ETHUSDT BUY 3000 3.3577',
      'ETHUSDT SELL 3003 2.4594',
    ]);
    expect(api.calls.items.filter((c) => c.method === 'POST').every((c) => c.params.type === 'LIMIT_MAKER')).toBe(true);
    expect(logger.ticks()).toEqual([{ tick: 0, canceled: 0, placed: 4 }]);
    expect(logger.warnings()).toEqual([]);
  });

  it('when ticks follow, then the books fill up to the ladder of the current tick and a full book is left alone', async () => {
    const api = new FakeSpotApi();
    const logger = new RecordingLogger();
    const maker = start(api, logger, { intervalMs: 5, ordersPerSecond: 800 });
    await logger.entries.until(() => logger.ticks().some((t) => t.placed === 0 && t.canceled === 0));
    const quiet = logger.ticks().find((t) => t.placed === 0 && t.canceled === 0);
    const tick = quiet?.tick as number;
    for (const rules of [BTCUSDT, ETHUSDT]) {
      const ladder = demoLadder(SEED, tick, rules);
      const open = api.open.filter((o) => o.symbol === rules.symbol).map((o) => `${o.side} ${o.price} ${o.origQty}`);
      const wanted = [...ladder.bids, ...ladder.asks].map((o) => `${o.side} ${o.price} ${o.quantity}`);
      expect(open.sort()).toEqual(wanted.sort());
    }
    await maker.stop();
    expect(tick).toBeGreaterThanOrEqual(5);
  });

  it('when an open order is off the ladder or partly filled, then it is canceled; orders of other symbols are left alone', async () => {
    const api = new FakeSpotApi();
    api.open.push(
      { orderId: '901', symbol: 'BTCUSDT', side: 'BUY', price: '55000', origQty: '1', executedQty: '0' },
      { orderId: '902', symbol: 'BTCUSDT', side: 'BUY', price: '60000', origQty: '0.219199', executedQty: '0.1' },
      { orderId: '903', symbol: 'XRPUSDT', side: 'BUY', price: '1', origQty: '10', executedQty: '0' },
    );
    const logger = new RecordingLogger();
    const maker = start(api, logger, { symbols: [BTCUSDT], ordersPerSecond: 1 });
    await logger.untilTicks(1);
    await maker.stop();
    expect(api.changes()).toEqual(['DELETE 901', 'DELETE 902', 'BTCUSDT BUY 60000 0.219199']);
    expect(api.open.map((o) => o.orderId)).toEqual(['903', '1']);
  });

  it('when a cancel finds the order already gone, then nothing is logged', async () => {
    const api = new FakeSpotApi();
    api.open.push({ orderId: '901', symbol: 'BTCUSDT', side: 'BUY', price: '55000', origQty: '1', executedQty: '0' });
    api.intercept = (call) => (call.method === 'DELETE' ? errorReply(400, -1139, 'Order has been filled.') : undefined);
    const logger = new RecordingLogger();
    const maker = start(api, logger, { symbols: [BTCUSDT] });
    await logger.untilTicks(1);
    await maker.stop();
    expect(logger.ticks()).toEqual([{ tick: 0, canceled: 0, placed: 4 }]);
    expect(logger.warnings()).toEqual([]);
  });

  it('when a level would take (-1158), then it is skipped quietly and the next levels are placed', async () => {
    const api = new FakeSpotApi();
    api.intercept = (call, index) => (index === 1 ? errorReply(400, -1158, 'Order would immediately match and take.') : undefined);
    const logger = new RecordingLogger();
    const maker = start(api, logger);
    await logger.untilTicks(1);
    await maker.stop();
    expect(api.changes()).toHaveLength(4);
    expect(api.open.map((o) => `${o.symbol} ${o.side}`)).toEqual(['BTCUSDT SELL', 'ETHUSDT BUY', 'ETHUSDT SELL']);
    expect(logger.warnings()).toEqual([]);
  });

  it('when a symbol refuses orders, then one warning is logged and the other symbols are still quoted', async () => {
    const api = new FakeSpotApi();
    api.intercept = (call) => (call.params.symbol === 'BTCUSDT' ? errorReply(400, -1151, 'Market is halted.') : undefined);
    const logger = new RecordingLogger();
    const maker = start(api, logger);
    await logger.untilTicks(1);
    await maker.stop();
    expect(api.changes()).toEqual(['BTCUSDT BUY 60000 0.219199', 'ETHUSDT BUY 3000 3.3577', 'ETHUSDT SELL 3003 2.4594']);
    expect(logger.warnings()).toMatchObject([{ details: { symbol: 'BTCUSDT', side: 'BUY', price: '60000' }, message: 'demo market maker: order refused' }]);
  });

  it('when the server rate-limits it (429), then the tick ends at once and is logged', async () => {
    const api = new FakeSpotApi();
    api.intercept = (_call, index) => (index === 2 ? errorReply(429, -1015, 'Too many new orders') : undefined);
    const logger = new RecordingLogger();
    const maker = start(api, logger);
    await logger.untilTicks(1);
    await maker.stop();
    expect(api.calls.items).toHaveLength(3);
    expect(logger.ticks()).toEqual([{ tick: 0, canceled: 0, placed: 1 }]);
    expect(logger.warnings()).toMatchObject([{ details: { tick: 0, err: { status: 429, code: -1015 } }, message: 'demo market maker: tick failed, retrying next tick' }]);
  });

  it('when the server cannot be reached, then every tick logs a warning and the next tick tries again', async () => {
    const api = new FakeSpotApi();
    api.intercept = () => Promise.reject(new TypeError('fetch failed'));
    const logger = new RecordingLogger();
    const maker = start(api, logger, { intervalMs: 1 });
    await logger.entries.until(() => logger.warnings().length >= 3);
    await maker.stop();
    expect(logger.warnings().slice(0, 3).map((w) => w.details.tick)).toEqual([0, 1, 2]);
    expect(logger.warnings()[0].details.err).toBeInstanceOf(TypeError);
  });

  it('when stopped during a tick, then stop waits for that tick, which places nothing more, and no tick follows', async () => {
    const api = new FakeSpotApi();
    let release: (() => void) | undefined;
    api.intercept = (call) =>
      call.method === 'GET' ? new Promise<Response>((resolve) => (release = () => resolve(Response.json([])))) : undefined;
    const logger = new RecordingLogger();
    const maker = start(api, logger, { intervalMs: 1 });
    await api.calls.until((calls) => calls.length === 1);
    let stopped = false;
    const stopping = maker.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release?.();
    await stopping;
    expect(api.calls.items).toHaveLength(1);
    expect(logger.ticks()).toEqual([{ tick: 0, canceled: 0, placed: 0 }]);
  });

  it('when its options are invalid, then it refuses to start', () => {
    const api = new FakeSpotApi();
    const logger = new RecordingLogger();
    expect(() => start(api, logger, { intervalMs: 0 })).toThrow('intervalMs');
    expect(() => start(api, logger, { symbols: [] })).toThrow('at least one symbol');
    expect(api.calls.items).toEqual([]);
  });
});
