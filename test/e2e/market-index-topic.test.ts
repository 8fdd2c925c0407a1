import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeLimit, startFrozenMarket, type FrozenMarket } from '../support/frozen-market.js';

/**
 * The index topic (docs/websocket.md "The index topic") on both market stream paths, as the BHEX
 * Python SDK's `subscribe_to_index` asks for it: `{"symbol":"BTCUSDT,ETHUSDT","topic":"index","event":"sub"}`.
 * A symbol's index is the mid of its best bid and ask, or its last price while a side is empty.
 */

const NOW = Date.parse('2024-01-15T09:00:30.000Z');
const SDK_REQUEST = { symbol: 'ETHUSDT,BTCUSDT', topic: 'index', event: 'sub' };

const indexFrame = (symbol: string, index: string, f: boolean) => ({
  symbol,
  symbolName: symbol,
  topic: 'index',
  params: { binary: 'false' },
  data: [{ symbol, index, edp: index, formula: '(bid+ask)/2' }],
  f,
  sendTime: NOW,
});

let market: FrozenMarket;

beforeAll(async () => {
  market = await startFrozenMarket(NOW);
});

afterAll(() => market.stop());

describe('the index topic', () => {
  it('when subscribe_to_index names two symbols on v1 and v2, then each symbol gets a snapshot, v2 after its ack, and updates follow the mid and then the last price', async () => {
    const v1 = await market.probe('/openapi/quote/ws/v1');
    const v2 = await market.probe('/openapi/quote/ws/v2');
    // No book and no trade yet: "0".
    expect(await v1.ask(SDK_REQUEST)).toEqual(indexFrame('ETHUSDT', '0', true));
    expect(await v1.next()).toEqual(indexFrame('BTCUSDT', '0', true));
    expect(await v2.ask(SDK_REQUEST)).toEqual({ event: 'sub', topic: 'index', params: {}, code: '0', msg: 'Success' });
    expect(await v2.next()).toEqual(indexFrame('ETHUSDT', '0', true));
    expect(await v2.next()).toEqual(indexFrame('BTCUSDT', '0', true));

    // Both sides: the mid, to half a tick.
    await placeLimit(market.user, 'SELL', '2000', '1');
    await placeLimit(market.merchant, 'BUY', '1999.99', '1');
    for (const p of [v1, v2]) expect(await p.next()).toEqual(indexFrame('ETHUSDT', '1999.995', false));

    // The ask side emptied by a trade: the last price.
    await placeLimit(market.merchant, 'BUY', '2000', '1');
    for (const p of [v1, v2]) expect(await p.next()).toEqual(indexFrame('ETHUSDT', '2000', false));

    // A book change that leaves the index as it was sends nothing: the next frame is BTCUSDT's,
    // whose book changed after it (had ETHUSDT's index changed, its frame would come first).
    await placeLimit(market.merchant, 'BUY', '1999.98', '1', 'ETHUSDT');
    await placeLimit(market.user, 'SELL', '60000', '0.001', 'BTCUSDT');
    await placeLimit(market.merchant, 'BUY', '59999.99', '0.001', 'BTCUSDT');
    for (const p of [v1, v2]) expect(await p.next()).toEqual(indexFrame('BTCUSDT', '59999.995', false));
  });

  it.each(['/openapi/quote/ws/v1', '/openapi/quote/ws/v2'])('when the index of an unknown symbol is asked for on %s, then the v1 error frame answers and nothing is subscribed', async (path) => {
    const p = await market.probe(path);
    expect(await p.ask({ id: 'i', symbol: 'ETHUSDT,DOGEUSDT', topic: 'index', event: 'sub' })).toEqual({ id: 'i', code: '-100010', desc: 'Invalid Symbols!' });
    expect(await p.ask('ping')).toEqual({ pong: NOW });
  });
});
