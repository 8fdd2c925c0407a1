import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hmacHex, SpotClient } from '../support/clients.js';
import { Operator } from '../support/fixtures.js';
import { rawRequest, type RawAnswer } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface BadRequest {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** Raw query bytes before `timestamp` and `signature` are appended. */
  query: string;
  body?: string;
  contentType?: string;
  /** The query already carries its own `timestamp`. */
  ownTimestamp?: boolean;
}
interface Expected {
  status: number;
  code: number;
  /** Exact message, or a prefix ending in `…`. */
  msg: string;
}

const ORDER = '/openapi/v1/order';
const OPEN = '/openapi/v1/openOrders';
const ACCOUNT = '/openapi/v1/account';
const GOOD_ORDER = 'symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=1&price=10';

const DUPLICATE = { status: 400, code: -1101, msg: 'Duplicate values for a parameter detected.' };
const illegal = (name: string): Expected => ({ status: 400, code: -1100, msg: `Illegal characters found in parameter '${name}'…` });
const notValid = (name: string): Expected => ({ status: 400, code: -1130, msg: `Data sent for paramter '${name}' is not valid.` });
/** Which name a broken JSON body is blamed on is the server's choice; the code is not. */
const ILLEGAL_JSON: Expected = { status: 400, code: -1100, msg: "Illegal characters found in parameter '…" };
const INVALID_SYMBOL = { status: 400, code: -1121, msg: 'Invalid symbol.' };

const cases: [string, BadRequest, Expected][] = [
  // A11
  ['A11 names symbol twice', { method: 'POST', path: ORDER, query: `${GOOD_ORDER}&symbol=ETHUSDT` }, DUPLICATE],
  ['A11 has a broken percent escape', { method: 'POST', path: ORDER, query: 'symbol=ETH%ZZ&side=BUY&type=LIMIT&quantity=1&price=10' }, illegal('symbol')],
  ['A11 has bytes that are not UTF-8', { method: 'POST', path: ORDER, query: `${GOOD_ORDER}&newClientOrderId=%FF%FE` }, illegal('newClientOrderId')],
  ['A11 newClientOrderId is not ASCII', { method: 'POST', path: ORDER, query: `${GOOD_ORDER}&newClientOrderId=caf%C3%A9` }, illegal('newClientOrderId')],
  ['A11 quantity has an exponent', { method: 'POST', path: ORDER, query: 'symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=1e3&price=10' }, illegal('quantity')],
  ['A11 quantity is negative', { method: 'POST', path: ORDER, query: 'symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=-1&price=10' }, illegal('quantity')],
  ['A11 quantity has a plus sign', { method: 'POST', path: ORDER, query: 'symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=%2B1&price=10' }, illegal('quantity')],
  ['A11 quantity has a separator', { method: 'POST', path: ORDER, query: 'symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=1%2C5&price=10' }, illegal('quantity')],
  ['A11 quantity has 21 integer digits', { method: 'POST', path: ORDER, query: `symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=${'1'.repeat(21)}&price=10` }, illegal('quantity')],
  ['A11 quantity has 19 decimals', { method: 'POST', path: ORDER, query: `symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=1.${'0'.repeat(18)}1&price=10` }, illegal('quantity')],
  ['A11 price has no digit before the point', { method: 'POST', path: ORDER, query: 'symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=1&price=.5' }, illegal('price')],
  ['A11 price is NaN', { method: 'POST', path: ORDER, query: 'symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=1&price=NaN' }, illegal('price')],
  ['A11 price is hexadecimal', { method: 'POST', path: ORDER, query: 'symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=1&price=0x10' }, illegal('price')],
  ['A11 price has a space', { method: 'POST', path: ORDER, query: 'symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=1&price=%2010' }, illegal('price')],
  ['A11 quantity is the largest DECIMAL', { method: 'POST', path: ORDER, query: `symbol=ETHUSDT&side=SELL&type=LIMIT&quantity=${'9'.repeat(20)}&price=10` }, { status: 400, code: -1135, msg: 'Order quantity too large.' }],
  ['A11 price is the largest DECIMAL', { method: 'POST', path: ORDER, query: `symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=1&price=${'9'.repeat(20)}.${'9'.repeat(18)}` }, { status: 400, code: -1132, msg: 'Order price too high.' }],
  ['A11 price is 1e-18 off tick', { method: 'POST', path: ORDER, query: `symbol=ETHUSDT&side=BUY&type=LIMIT&quantity=1&price=10.${'0'.repeat(17)}1` }, { status: 400, code: -1134, msg: 'Order price decimal too long.' }],
  ['A11 symbol is a NUL byte', { method: 'POST', path: ORDER, query: 'symbol=%00&side=BUY&type=LIMIT&quantity=1&price=10' }, INVALID_SYMBOL],
  ['A11 JSON body nests an object', { method: 'POST', path: ORDER, query: '', body: '{"symbol":"ETHUSDT","side":{"x":1},"type":"LIMIT"}', contentType: 'application/json' }, ILLEGAL_JSON],
  ['A11 JSON body has a null', { method: 'POST', path: ORDER, query: '', body: '{"symbol":"ETHUSDT","side":null}', contentType: 'application/json' }, ILLEGAL_JSON],
  ['A11 JSON body is an array', { method: 'POST', path: ORDER, query: '', body: '[{"symbol":"ETHUSDT"}]', contentType: 'application/json' }, ILLEGAL_JSON],
  ['A11 JSON body is cut short', { method: 'POST', path: ORDER, query: '', body: '{"symbol":"ETHUSDT","side":', contentType: 'application/json' }, ILLEGAL_JSON],
  ['A11 JSON body repeats a name', { method: 'POST', path: ORDER, query: '', body: '{"symbol":"ETHUSDT","symbol":"BTCUSDT"}', contentType: 'application/json' }, DUPLICATE],
  ['A11 JSON quantity is an exponent number', { method: 'POST', path: ORDER, query: '', body: '{"symbol":"ETHUSDT","side":"BUY","type":"LIMIT","quantity":1e3,"price":10}', contentType: 'application/json' }, illegal('quantity')],
  ['A11 body is text/plain', { method: 'POST', path: ORDER, query: '', body: GOOD_ORDER, contentType: 'text/plain' }, { status: 415, code: -1000, msg: 'Unsupported content type.' }],
  ['A11 body is over 64 KiB', { method: 'POST', path: ORDER, query: GOOD_ORDER, body: `pad=${'x'.repeat(70 * 1024)}` }, { status: 413, code: -1000, msg: 'Request body too large.' }],
  // A13
  ['A13 orderId is letters', { method: 'GET', path: ORDER, query: 'orderId=abc' }, illegal('orderId')],
  ['A13 orderId is negative', { method: 'GET', path: ORDER, query: 'orderId=-1' }, illegal('orderId')],
  ['A13 orderId has 20 digits', { method: 'GET', path: ORDER, query: `orderId=${'9'.repeat(20)}` }, illegal('orderId')],
  ['A13 orderId is beyond a LONG', { method: 'GET', path: ORDER, query: 'orderId=9223372036854775808' }, illegal('orderId')],
  ['A13 origClientOrderId has 65 characters', { method: 'GET', path: ORDER, query: `origClientOrderId=${'a'.repeat(65)}` }, illegal('origClientOrderId')],
  ['A13 origClientOrderId has a space', { method: 'GET', path: ORDER, query: 'origClientOrderId=a%20b' }, illegal('origClientOrderId')],
  ['A13 names orderId twice', { method: 'GET', path: ORDER, query: 'orderId=1&orderId=2' }, DUPLICATE],
  ['A13 recvWindow is 0', { method: 'GET', path: ORDER, query: 'orderId=1&recvWindow=0' }, notValid('recvWindow')],
  // A14
  ['A14 orderId is a decimal', { method: 'DELETE', path: ORDER, query: 'orderId=1.5' }, illegal('orderId')],
  ['A14 clientOrderId is not UTF-8', { method: 'DELETE', path: ORDER, query: 'clientOrderId=%C3' }, illegal('clientOrderId')],
  ['A14 JSON orderId is an array', { method: 'DELETE', path: ORDER, query: '', body: '{"orderId":[1]}', contentType: 'application/json' }, ILLEGAL_JSON],
  ['A14 recvWindow is 60001', { method: 'DELETE', path: ORDER, query: 'orderId=1&recvWindow=60001' }, notValid('recvWindow')],
  // A17
  ['A17 limit is a word', { method: 'GET', path: OPEN, query: 'limit=ten' }, illegal('limit')],
  ['A17 limit is beyond an INT', { method: 'GET', path: OPEN, query: 'limit=2147483648' }, illegal('limit')],
  ['A17 side is unknown', { method: 'GET', path: OPEN, query: 'side=LONG' }, { status: 400, code: -1117, msg: 'Invalid side.' }],
  ['A17 symbol is malformed', { method: 'GET', path: OPEN, query: 'symbol=eth-usdt' }, INVALID_SYMBOL],
  ['A17 orderId is letters', { method: 'GET', path: OPEN, query: 'orderId=x' }, illegal('orderId')],
  ['A17 recvWindow is 0', { method: 'GET', path: OPEN, query: 'recvWindow=0' }, notValid('recvWindow')],
  // A19
  ['A19 recvWindow is 0', { method: 'GET', path: ACCOUNT, query: 'recvWindow=0' }, notValid('recvWindow')],
  ['A19 recvWindow is 60001', { method: 'GET', path: ACCOUNT, query: 'recvWindow=60001' }, notValid('recvWindow')],
  ['A19 timestamp has an exponent', { method: 'GET', path: ACCOUNT, query: 'timestamp=1e12', ownTimestamp: true }, illegal('timestamp')],
  ['A19 names recvWindow twice', { method: 'GET', path: ACCOUNT, query: 'recvWindow=5000&recvWindow=5000' }, DUPLICATE],
  ['A19 JSON body is not JSON', { method: 'POST', path: ACCOUNT, query: '', body: '{timestamp:1}', contentType: 'application/json' }, ILLEGAL_JSON],
];

describe('bad input to A11, A13, A14, A17 and A19', () => {
  let t: TestServer;
  let client: SpotClient;
  let apiKey: string;
  let secretKey: string;

  /** Balances, open orders and history of the trader: what no refused request may change. */
  const state = async (): Promise<unknown[]> => [
    ((await client.signed('GET', ACCOUNT)).body as { balances: unknown }).balances,
    (await client.signed('GET', OPEN)).body,
    (await client.signed('GET', '/openapi/v1/historyOrders')).body,
  ];

  const send = (bad: BadRequest): Promise<RawAnswer> => {
    const parts = [bad.query, bad.ownTimestamp === true ? '' : `timestamp=${Date.now()}`].filter((p) => p !== '');
    const query = parts.join('&');
    const signature = hmacHex(secretKey, query + (bad.body ?? ''));
    const headers: [string, string][] = [['X-BH-APIKEY', apiKey]];
    if (bad.body !== undefined) headers.push(['Content-Type', bad.contentType ?? 'application/x-www-form-urlencoded']);
    return rawRequest(t.url, { method: bad.method, target: `${bad.path}?${query}&signature=${signature}`, headers, body: bad.body });
  };

  beforeAll(async () => {
    t = await startTestServer();
    const op = new Operator(t);
    const user = await op.user();
    await op.fund(user.accountId, { USDT: '1000', ETH: '3' });
    ({ apiKey, secretKey } = await op.newKey(user.userId));
    client = new SpotClient(t.url, apiKey, secretKey);
    // An open order (id 1 of this server) and a canceled one, so A13/A14 have something they must not touch.
    await client.signed('POST', ORDER, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '10' });
    const canceled = (await client.signed('POST', ORDER, { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', quantity: '1', price: '5000' })).body as { orderId: string };
    await client.signed('DELETE', ORDER, { orderId: canceled.orderId });
    await op.tradingConfig({ ordersPerSecond: 100000 });
  });
  afterAll(async () => t.stop());

  it('when the control request is well-formed, then it is served (the harness signs correctly)', async () => {
    const answer = await send({ method: 'GET', path: ORDER, query: 'orderId=1' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ orderId: '1', status: 'NEW' });
  });

  it.each(cases)('when %s, then the spec error comes and nothing changes', async (_what, bad, expected) => {
    const before = await state();
    const answer = await send(bad);
    expect(answer.status).toBe(expected.status);
    expect(answer.headers['content-type']).toEqual(['application/json; charset=utf-8']);
    const body = answer.body as { code: number; msg: string };
    expect(Object.keys(body).sort()).toEqual(['code', 'msg']);
    expect(body.code).toBe(expected.code);
    if (expected.msg.endsWith('…')) expect(body.msg.startsWith(expected.msg.slice(0, -1))).toBe(true);
    else expect(body.msg).toBe(expected.msg);
    expect(await state()).toEqual(before);
  });
});
