import { describe, expect, it } from 'vitest';
import { errorFrame } from '../../../../src/api/ws/market-errors.js';
import { readClientMessage, type ClientMessage } from '../../../../src/api/ws/market-request.js';
import { createCoreHarness } from '../../../support/core-harness.js';

const core = createCoreHarness().core;
const lookup = (symbol: string) => core.spot.symbols.get(symbol);
const read = (text: string | object): ClientMessage => readClientMessage(typeof text === 'string' ? text : JSON.stringify(text), lookup);

/** A sub request's summary: what the fan-out acts on. */
function summary(message: ClientMessage): unknown {
  if (message.kind !== 'subscription') return message;
  const r = message.request;
  return { event: r.event, id: r.id, topic: r.topic.name, symbols: r.symbols.map((s) => s.spec.symbol), params: r.params, binary: r.binary, limit: r.limit };
}

describe('market stream requests', () => {
  it.each([
    ['', 'INVALID_REQUEST'],
    ['   ', 'INVALID_REQUEST'],
    ['{"event":', 'INVALID_JSON'],
    ['[1,2]', 'INVALID_REQUEST'],
    ['42', 'INVALID_REQUEST'],
  ])('when the text is %j, then it earns %s without an id', (text, error) => {
    expect(read(text)).toEqual({ kind: 'error', error, id: undefined });
  });

  it.each([
    [{ id: '7', topic: 'trade', symbol: 'BTCUSDT' }, 'EVENT_REQUIRED'],
    [{ id: '7', event: '', topic: 'trade', symbol: 'BTCUSDT' }, 'EVENT_REQUIRED'],
    [{ id: '7', event: 'subscribe', topic: 'trade', symbol: 'BTCUSDT' }, 'INVALID_EVENT'],
    [{ id: '7', event: 'sub', symbol: 'BTCUSDT' }, 'TOPIC_REQUIRED'],
    [{ id: '7', event: 'sub', topic: 'trades', symbol: 'BTCUSDT' }, 'INVALID_TOPIC'],
    [{ id: '7', event: 'sub', topic: 'Depth', symbol: 'BTCUSDT' }, 'INVALID_TOPIC'],
    [{ id: '7', event: 'sub', topic: 'kline_2m', symbol: 'BTCUSDT' }, 'INVALID_PERIOD'],
    [{ id: '7', event: 'sub', topic: 'kline', symbol: 'BTCUSDT' }, 'INVALID_PERIOD'],
    [{ id: '7', event: 'sub', topic: 'trade', symbol: 'BTCUSDT', params: 'binary' }, 'INVALID_REQUEST'],
    [{ id: '7', event: 'sub', topic: 'depth', symbol: 'BTCUSDT', params: { limit: 'ten' } }, 'INVALID_REQUEST'],
    [{ id: '7', event: 'sub', topic: 'depth', symbol: 'BTCUSDT', params: { limit: -5 } }, 'INVALID_REQUEST'],
    [{ id: '7', event: 'sub', topic: 'trade' }, 'INVALID_SYMBOLS'],
    [{ id: '7', event: 'sub', topic: 'trade', symbol: ' , ' }, 'INVALID_SYMBOLS'],
    [{ id: '7', event: 'sub', topic: 'trade', symbol: 'BTCUSDT,DOGEUSDT' }, 'INVALID_SYMBOLS'],
    [{ id: '7', event: 'cancel', topic: 'trade', symbol: 'DOGEUSDT' }, 'INVALID_SYMBOLS'],
  ])('when the request is %j, then it earns %s with its id', (request, error) => {
    expect(read(request)).toEqual({ kind: 'error', error, id: '7' });
  });

  it('when a text contains ping, then it is a ping; a {"ping":<number>} is answered with that number', () => {
    expect(read('ping')).toEqual({ kind: 'ping', pong: undefined });
    expect(read('{"ping":1700000000000}')).toEqual({ kind: 'ping', pong: 1700000000000 });
    expect(read('{"ping":"soon"}')).toEqual({ kind: 'ping', pong: undefined });
  });

  it('when a request names a symbol that contains "ping", then it is still a request', () => {
    expect(read({ event: 'sub', topic: 'trade', symbol: 'pingusdt' })).toEqual({ kind: 'error', error: 'INVALID_SYMBOLS', id: undefined });
  });

  it('when the event is cancel_all, then no topic or symbol is needed and a numeric id is kept', () => {
    expect(read({ id: 3, event: 'cancel_all' })).toEqual({ kind: 'cancel_all', id: 3 });
    expect(read({ event: 'cancel_all' })).toEqual({ kind: 'cancel_all', id: undefined });
  });

  it('when symbols are a comma list with spaces, 301. prefixes, lower case and a repeat, then each listed symbol is named once', () => {
    expect(summary(read({ id: '1', event: 'sub', topic: 'trade', symbol: '301.btcusdt, ETHUSDT ,BTCUSDT,' }))).toEqual({
      event: 'sub',
      id: '1',
      topic: 'trade',
      symbols: ['BTCUSDT', 'ETHUSDT'],
      params: {},
      binary: false,
      limit: undefined,
    });
  });

  it('when a kline topic is kline_1M, or kline with params.klineType, then its pair topic is kline_<interval>', () => {
    expect(summary(read({ event: 'sub', topic: 'kline_1M', symbol: 'BTCUSDT' }))).toMatchObject({ topic: 'kline_1M' });
    expect(summary(read({ event: 'sub', topic: 'kline', symbol: 'BTCUSDT', params: { klineType: '5m' } }))).toMatchObject({ topic: 'kline_5m' });
  });

  it.each([
    [{ binary: true }, true, undefined],
    [{ binary: 'true' }, true, undefined],
    [{ binary: 'false', limit: '20' }, false, 20],
    [{ binary: false, limit: 5 }, false, 5],
    [{ limit: '0' }, false, undefined],
    [{ limit: '' }, false, undefined],
  ])('when params are %j, then binary is %s and limit %s', (params, binary, limit) => {
    expect(summary(read({ event: 'sub', topic: 'depth', symbol: 'ETHUSDT', params }))).toMatchObject({ binary, limit, params });
  });

  it('when params hold objects, then only their plain values are echoed', () => {
    expect(summary(read({ event: 'cancel', topic: 'depth', symbol: 'ETHUSDT', params: { binary: 'false', extra: { a: 1 }, list: [1] } }))).toMatchObject({
      event: 'cancel',
      params: { binary: 'false' },
    });
  });
});

describe('v2 market stream requests', () => {
  const readV2 = (request: object): ClientMessage => readClientMessage(JSON.stringify(request), lookup, 'v2');

  it('when BrokerWssV2 names its symbol in params, then that symbol is subscribed, with the v2 version and params echoed', () => {
    const message = readV2({ topic: 'trade', event: 'sub', params: { binary: false, symbol: '301.ethusdt' } });
    expect(summary(message)).toEqual({ event: 'sub', id: undefined, topic: 'trade', symbols: ['ETHUSDT'], params: { binary: false, symbol: '301.ethusdt' }, binary: false, limit: undefined });
    expect(message.kind === 'subscription' && message.request.version).toBe('v2');
  });

  it.each([
    [{ id: 1, topic: 'trade', event: 'sub', params: { symbol: 'ETHUSDT,BTCUSDT' } }, 'INVALID_SYMBOLS'],
    [{ id: 1, topic: 'diffDepth', event: 'sub', params: { symbol: 'ETHUSDT' } }, 'INVALID_TOPIC'],
    [{ id: 1, topic: 'realtimes', event: 'sub', params: { symbol: 'ETHUSDT', realtimeInterval: '1w' } }, 'INVALID_PERIOD'],
    [{ id: 1, topic: 'kline', event: 'sub', params: { symbol: 'ETHUSDT', klineType: '2m' } }, 'INVALID_PERIOD'],
  ])('when the request is %j, then it earns %s', (request, error) => {
    expect(readV2(request)).toEqual({ kind: 'error', error, id: 1 });
  });

  it.each([
    [undefined, 'realtimes'],
    ['24h', 'realtimes'],
    ['1d', 'realtimes_1d'],
    ['1d+8', 'realtimes_1d+8'],
  ])('when realtimeInterval is %s, then the pair topic is %s; v1 ignores it', (realtimeInterval, topic) => {
    expect(summary(readV2({ topic: 'realtimes', event: 'sub', params: { symbol: 'ETHUSDT', realtimeInterval } }))).toMatchObject({ topic });
    expect(summary(read({ topic: 'realtimes', event: 'sub', symbol: 'ETHUSDT', params: { realtimeInterval } }))).toMatchObject({ topic: 'realtimes' });
  });

  it('when the index topic names a list beside params, as on v1, then every listed symbol is subscribed on v2 too', () => {
    expect(summary(readV2({ symbol: 'BTCUSDT,ETHUSDT', topic: 'index', event: 'sub' }))).toMatchObject({ topic: 'index', symbols: ['BTCUSDT', 'ETHUSDT'] });
    expect(summary(read({ symbol: 'BTCUSDT,ETHUSDT', topic: 'index', event: 'sub' }))).toMatchObject({ topic: 'index', symbols: ['BTCUSDT', 'ETHUSDT'] });
  });
});

describe('market stream error frames', () => {
  it('when the request had an id, then the frame echoes it; codes are strings', () => {
    expect(errorFrame('INVALID_TOPIC', '9')).toBe('{"id":"9","code":"-10004","desc":"Invalid topic!"}');
    expect(errorFrame('INVALID_SYMBOLS', undefined)).toBe('{"code":"-100010","desc":"Invalid Symbols!"}');
    expect(errorFrame('TOO_MANY_SUBSCRIPTIONS', 4)).toBe('{"id":4,"code":"-10000","desc":"Too many subscriptions!"}');
  });
});
