/**
 * The bad-input table (docs/spot-api.md "Methods and parameters", docs/spot-api.md "API keys", docs/spot-api.md "Signing", docs/spot-api.md "Timestamp and recvWindow", docs/spot-api.md "Order of checks", docs/spot-api.md "Endpoints", docs/spot-api.md "Order validation", docs/spot-api.md "Errors"): every malformed request to the
 * market-data and trading endpoints (A5–A20) gets its 4xx and the spec's `{code, msg}`, never a
 * 500, and the exchange is exactly as it was before the first of them.
 *
 * Requests go over a raw socket (test/support/raw-http.ts) so that a row can carry bytes that are
 * not UTF-8, repeat a header or a parameter, and send a body exactly as written. Signed rows are
 * signed correctly (HMAC of the raw query and body bytes, docs/spot-api.md "Signing"), so that what fails is the input.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, SpotClient, type HttpAnswer } from '../support/clients.js';
import { rawRequest, type RawHeader, type RawRequest } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface Expected {
  status: number;
  code: number;
  /** Exact text where docs/spot-api.md "Errors" fixes it; a pattern where it has `%s` parts. */
  msg: string | RegExp;
}

interface Row {
  name: string;
  method: string;
  path: string;
  /** Raw query text (bytes after `?`), before the `timestamp` and `signature` a signed row appends. */
  query?: string | Buffer;
  body?: string | Buffer;
  contentType?: string;
  headers?: readonly RawHeader[];
  /** Adds `timestamp` (unless `noTimestamp`) and a correct `signature` to the query or the form body. */
  sign?: 'query' | 'body';
  noTimestamp?: boolean;
  /** Replaces the computed signature. */
  signature?: string;
  /** Sends the correct `signature` segment twice. */
  signatureTwice?: boolean;
  /** Sends the demo key in `X-BH-APIKEY`; default: when the row is signed. */
  key?: boolean;
  expect: Expected;
}

const DEPTH = '/openapi/quote/v1/depth';
const TRADES = '/openapi/quote/v1/trades';
const KLINES = '/openapi/quote/v1/klines';
const TICKER_24H = '/openapi/quote/v1/ticker/24hr';
const TICKER_PRICE = '/openapi/v1/ticker/price';
const BOOK_TICKER = '/openapi/quote/v1/ticker/bookTicker';
const ORDER = '/openapi/v1/order';
const ORDER_TEST = '/openapi/v1/order/test';
const BATCH_CANCEL = '/openapi/v1/order/batchCancel';
const OPEN_ORDERS = '/openapi/v1/openOrders';
const HISTORY_ORDERS = '/openapi/v1/historyOrders';
const ACCOUNT = '/openapi/v1/account';
const MY_TRADES = '/openapi/v1/myTrades';

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const BODY_LIMIT_BYTES = 64 * 1024;
const FORTY_DIGITS = '1234567890123456789012345678901234567890';

const E = {
  mandatory: (name: string): Expected => ({
    status: 400,
    code: -1102,
    msg: `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`,
  }),
  oneOf: (first: string, second: string): Expected => ({
    status: 400,
    code: -1102,
    msg: `Param '${first}' or '${second}' must be sent, but both were empty/null!`,
  }),
  /** -1100 for `name`; without a name, for whatever part of the request the server names. */
  illegal: (name?: string): Expected => ({
    status: 400,
    code: -1100,
    msg: new RegExp(`^Illegal characters found in parameter '${name ?? "[^']*"}'; legal range is '.*'\\.$`, 's'),
  }),
  notValid: (name: string): Expected => ({ status: 400, code: -1130, msg: `Data sent for paramter '${name}' is not valid.` }),
  notRequired: (name: string): Expected => ({ status: 400, code: -1106, msg: `Parameter '${name}' sent when not required.` }),
  duplicate: { status: 400, code: -1101, msg: 'Duplicate values for a parameter detected.' },
  combination: { status: 400, code: -1128, msg: 'Combination of optional parameters invalid.' },
  symbol: { status: 400, code: -1121, msg: 'Invalid symbol.' },
  side: { status: 400, code: -1117, msg: 'Invalid side.' },
  orderType: { status: 400, code: -1116, msg: 'Invalid orderType.' },
  typeUnavailable: { status: 400, code: -1116, msg: 'Order type not available.' },
  timeInForce: { status: 400, code: -1115, msg: 'Invalid timeInForce.' },
  interval: { status: 400, code: -1120, msg: 'Invalid interval.' },
  unknownPath: { status: 404, code: -1000, msg: 'Unknown path or method.' },
  tooLarge: { status: 413, code: -1000, msg: 'Request body too large.' },
  mediaType: { status: 415, code: -1000, msg: 'Unsupported content type.' },
  noKey: { status: 400, code: -1002, msg: 'You are not authorized to execute this request.' },
  keyFormat: { status: 400, code: -2014, msg: 'API-key format invalid.' },
  badKey: { status: 400, code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' },
  signature: { status: 400, code: -1022, msg: 'Signature for this request is not valid.' },
  recvWindow: { status: 400, code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' },
  priceHigh: { status: 400, code: -1132, msg: 'Order price too high.' },
  priceLow: { status: 400, code: -1133, msg: 'Order price lower than the minimum.' },
  priceTick: { status: 400, code: -1134, msg: 'Order price decimal too long.' },
  qtyLarge: { status: 400, code: -1135, msg: 'Order quantity too large.' },
  qtySmall: { status: 400, code: -1136, msg: 'Order quantity lower than the minimum.' },
  qtyStep: { status: 400, code: -1137, msg: 'Order quantity decimal too long.' },
  notional: { status: 400, code: -1140, msg: 'Transaction amount lower than the minimum.' },
  marketDecimals: { status: 400, code: -1148, msg: 'Market order amount decimal too long.' },
  emptyBook: { status: 400, code: -1112, msg: 'No orders on book for symbol.' },
  duplicateClientId: { status: 400, code: -1141, msg: 'Duplicate clientOrderId' },
  balance: { status: 400, code: -1131, msg: 'Balance insufficient' },
  wouldTake: { status: 400, code: -1158, msg: 'Order would immediately match and take.' },
  orderNotFound: { status: 400, code: -2013, msg: 'Order does not exist.' },
  orderCanceled: { status: 400, code: -1142, msg: 'Order has been canceled' },
} satisfies Record<string, Expected | ((...names: string[]) => Expected)>;

/** BTCUSDT: tick 0.01, step 0.000001, minNotional 1, maxPrice 10000000, maxQty 1000 (docs/operating.md "Demo data"). */
const LIMIT_BUY: Readonly<Record<string, string>> = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '100', quantity: '0.01' };
const MARKET_BUY: Readonly<Record<string, string>> = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '10' };

/** `a=1&b=2` from a base and changes (`null` removes a name); values are written as given, unencoded. */
function form(base: Readonly<Record<string, string>>, changes: Readonly<Record<string, string | null>> = {}): string {
  const merged: Record<string, string | null> = { ...base, ...changes };
  return Object.entries(merged)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function limitBuy(changes: Readonly<Record<string, string | null>> = {}): string {
  return form(LIMIT_BUY, changes);
}

function jsonBody(members: string): string {
  return `{"symbol":"BTCUSDT","side":"BUY","type":"LIMIT",${members}}`;
}

const BAD_UTF8 = Buffer.from([0xc3, 0x28]);

const MARKET_DATA_ROWS: Row[] = [
  { name: 'depth has no symbol', method: 'GET', path: DEPTH, expect: E.mandatory('symbol') },
  { name: 'depth has an empty symbol', method: 'GET', path: DEPTH, query: 'symbol=&limit=5', expect: E.mandatory('symbol') },
  { name: 'depth names an unknown symbol', method: 'GET', path: DEPTH, query: 'symbol=NOPEUSDT', expect: E.symbol },
  { name: 'depth names a malformed symbol', method: 'GET', path: DEPTH, query: 'symbol=BTC-USDT', expect: E.symbol },
  { name: 'depth repeats symbol', method: 'GET', path: DEPTH, query: 'symbol=BTCUSDT&symbol=BTCUSDT', expect: E.duplicate },
  { name: 'depth limit is a word', method: 'GET', path: DEPTH, query: 'symbol=BTCUSDT&limit=abc', expect: E.illegal('limit') },
  { name: 'depth limit is negative', method: 'GET', path: DEPTH, query: 'symbol=BTCUSDT&limit=-5', expect: E.illegal('limit') },
  { name: 'depth limit has a fraction', method: 'GET', path: DEPTH, query: 'symbol=BTCUSDT&limit=1.5', expect: E.illegal('limit') },
  { name: 'depth limit has an exponent', method: 'GET', path: DEPTH, query: 'symbol=BTCUSDT&limit=1e2', expect: E.illegal('limit') },
  { name: 'depth limit is beyond 32 bits', method: 'GET', path: DEPTH, query: 'symbol=BTCUSDT&limit=4294967296', expect: E.illegal('limit') },
  { name: 'depth limit has a broken percent escape', method: 'GET', path: DEPTH, query: 'symbol=BTCUSDT&limit=%ZZ', expect: E.illegal('limit') },
  { name: 'depth limit is percent-encoded non-UTF-8 (%FF)', method: 'GET', path: DEPTH, query: 'symbol=BTCUSDT&limit=%FF', expect: E.illegal('limit') },
  {
    name: 'depth limit is an overlong UTF-8 encoding (%C0%80)',
    method: 'GET',
    path: DEPTH,
    query: 'symbol=BTCUSDT&limit=%C0%80',
    expect: E.illegal('limit'),
  },
  {
    name: 'the depth query holds a raw byte that is not UTF-8',
    method: 'GET',
    path: DEPTH,
    query: Buffer.concat([Buffer.from('symbol=BTCUSDT&limit=1'), Buffer.from([0xff])]),
    expect: E.illegal(),
  },
  { name: 'trades limit is NaN', method: 'GET', path: TRADES, query: 'symbol=BTCUSDT&limit=NaN', expect: E.illegal('limit') },
  { name: 'trades repeats limit', method: 'GET', path: TRADES, query: 'symbol=BTCUSDT&limit=5&limit=6', expect: E.duplicate },
  { name: 'trades names an unknown symbol', method: 'GET', path: TRADES, query: 'symbol=DOGEUSDT', expect: E.symbol },
  { name: 'klines has no interval', method: 'GET', path: KLINES, query: 'symbol=BTCUSDT', expect: E.mandatory('interval') },
  { name: 'klines interval is in the wrong case (1H)', method: 'GET', path: KLINES, query: 'symbol=BTCUSDT&interval=1H', expect: E.interval },
  { name: 'klines interval is not listed (2m)', method: 'GET', path: KLINES, query: 'symbol=BTCUSDT&interval=2m', expect: E.interval },
  { name: 'klines repeats interval', method: 'GET', path: KLINES, query: 'symbol=BTCUSDT&interval=1m&interval=1m', expect: E.duplicate },
  {
    name: 'klines startTime is a word',
    method: 'GET',
    path: KLINES,
    query: 'symbol=BTCUSDT&interval=1m&startTime=yesterday',
    expect: E.illegal('startTime'),
  },
  {
    name: 'klines endTime has 40 digits',
    method: 'GET',
    path: KLINES,
    query: `symbol=BTCUSDT&interval=1m&endTime=${FORTY_DIGITS}`,
    expect: E.illegal('endTime'),
  },
  { name: 'klines startTime is negative', method: 'GET', path: KLINES, query: 'symbol=BTCUSDT&interval=1m&startTime=-1', expect: E.illegal('startTime') },
  {
    name: 'klines startTime is after endTime',
    method: 'GET',
    path: KLINES,
    query: 'symbol=BTCUSDT&interval=1m&startTime=2000&endTime=1000',
    expect: E.combination,
  },
  {
    name: 'the 24h ticker symbols list holds an unknown symbol',
    method: 'GET',
    path: TICKER_24H,
    query: `symbols=${encodeURIComponent('["BTCUSDT","NOPE"]')}`,
    expect: E.symbol,
  },
  {
    name: 'the 24h ticker symbols list is broken JSON',
    method: 'GET',
    path: TICKER_24H,
    query: `symbols=${encodeURIComponent('["BTCUSDT"')}`,
    expect: E.illegal('symbols'),
  },
  { name: 'the price ticker names an unknown symbol', method: 'GET', path: TICKER_PRICE, query: 'symbol=btcusd', expect: E.symbol },
  {
    name: 'the book ticker asks for 41 symbols',
    method: 'GET',
    path: BOOK_TICKER,
    query: `symbols=${Array.from({ length: 41 }, () => 'BTCUSDT').join(',')}`,
    expect: E.notValid('symbols'),
  },
  { name: 'the depth path is in the wrong case', method: 'GET', path: '/openapi/quote/v1/Depth', query: 'symbol=BTCUSDT', expect: E.unknownPath },
  { name: 'depth is asked with PUT', method: 'PUT', path: DEPTH, query: 'symbol=BTCUSDT', expect: E.unknownPath },
];

/** A11 rows count toward the 20 orders per second of the key (docs/spot-api.md "Rate limits"): most order rows use A12, same checks. */
const ORDER_ROWS: Row[] = [
  { name: 'an order has no symbol', method: 'POST', path: ORDER_TEST, query: limitBuy({ symbol: null }), sign: 'query', expect: E.mandatory('symbol') },
  { name: 'an order has no side', method: 'POST', path: ORDER_TEST, query: limitBuy({ side: null }), sign: 'query', expect: E.mandatory('side') },
  { name: 'an order has no type', method: 'POST', path: ORDER_TEST, query: limitBuy({ type: null }), sign: 'query', expect: E.mandatory('type') },
  { name: 'a LIMIT order has no price', method: 'POST', path: ORDER_TEST, query: limitBuy({ price: null }), sign: 'query', expect: E.mandatory('price') },
  { name: 'a LIMIT order has an empty price', method: 'POST', path: ORDER_TEST, query: limitBuy({ price: '' }), sign: 'query', expect: E.mandatory('price') },
  {
    name: 'a LIMIT order has no quantity',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ quantity: null }),
    sign: 'query',
    expect: E.mandatory('quantity'),
  },
  {
    name: 'a MARKET BUY has neither quantity nor quoteOrderQty',
    method: 'POST',
    path: ORDER_TEST,
    query: form(MARKET_BUY, { quantity: null }),
    sign: 'query',
    expect: E.mandatory('quantity'),
  },
  { name: 'an order names an unknown symbol', method: 'POST', path: ORDER, query: limitBuy({ symbol: 'NOPEUSDT' }), sign: 'query', expect: E.symbol },
  {
    name: 'an order symbol has 21 characters',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ symbol: 'BTCUSDTBTCUSDTBTCUSDT' }),
    sign: 'query',
    expect: E.symbol,
  },
  { name: 'an order side is HOLD', method: 'POST', path: ORDER, query: limitBuy({ side: 'HOLD' }), sign: 'query', expect: E.side },
  { name: 'an order type is FOO', method: 'POST', path: ORDER_TEST, query: limitBuy({ type: 'FOO' }), sign: 'query', expect: E.orderType },
  { name: 'an order type is STOP_LOSS', method: 'POST', path: ORDER, query: limitBuy({ type: 'STOP_LOSS' }), sign: 'query', expect: E.typeUnavailable },
  {
    name: 'an order timeInForce is GTX',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ timeInForce: 'GTX' }),
    sign: 'query',
    expect: E.timeInForce,
  },
  {
    name: 'an order assetType is MARGIN',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ assetType: 'MARGIN' }),
    sign: 'query',
    expect: E.notValid('assetType'),
  },
  {
    name: 'an order newClientOrderId holds a space',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ newClientOrderId: 'my%20id' }),
    sign: 'query',
    expect: E.illegal('newClientOrderId'),
  },
  {
    name: 'an order newClientOrderId has 65 characters',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ newClientOrderId: 'x'.repeat(65) }),
    sign: 'query',
    expect: E.illegal('newClientOrderId'),
  },
  {
    name: 'an order sends stopPrice',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ stopPrice: '90' }),
    sign: 'query',
    expect: E.notRequired('stopPrice'),
  },
  {
    name: 'an order sends icebergQty',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ icebergQty: '0.005' }),
    sign: 'query',
    expect: E.notRequired('icebergQty'),
  },
  {
    name: 'a LIMIT order sends quoteOrderQty',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ quoteOrderQty: '1' }),
    sign: 'query',
    expect: E.notRequired('quoteOrderQty'),
  },
  {
    name: 'a MARKET BUY sends both quantity and quoteOrderQty',
    method: 'POST',
    path: ORDER_TEST,
    query: form(MARKET_BUY, { quoteOrderQty: '10' }),
    sign: 'query',
    expect: E.combination,
  },
  { name: 'an order price is zero', method: 'POST', path: ORDER, query: limitBuy({ price: '0' }), sign: 'query', expect: E.priceLow },
  { name: 'an order quantity is zero', method: 'POST', path: ORDER_TEST, query: limitBuy({ quantity: '0.000' }), sign: 'query', expect: E.qtySmall },
  { name: 'an order price is negative', method: 'POST', path: ORDER_TEST, query: limitBuy({ price: '-100' }), sign: 'query', expect: E.illegal('price') },
  {
    name: 'an order quantity is negative',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ quantity: '-0.01' }),
    sign: 'query',
    expect: E.illegal('quantity'),
  },
  { name: 'an order price has a plus sign', method: 'POST', path: ORDER_TEST, query: limitBuy({ price: '%2B100' }), sign: 'query', expect: E.illegal('price') },
  { name: 'an order price is 1e5', method: 'POST', path: ORDER, query: limitBuy({ price: '1e5' }), sign: 'query', expect: E.illegal('price') },
  { name: 'an order quantity is NaN', method: 'POST', path: ORDER_TEST, query: limitBuy({ quantity: 'NaN' }), sign: 'query', expect: E.illegal('quantity') },
  { name: 'an order price is Infinity', method: 'POST', path: ORDER_TEST, query: limitBuy({ price: 'Infinity' }), sign: 'query', expect: E.illegal('price') },
  { name: 'an order price is hexadecimal', method: 'POST', path: ORDER_TEST, query: limitBuy({ price: '0x64' }), sign: 'query', expect: E.illegal('price') },
  { name: 'an order price has 40 digits', method: 'POST', path: ORDER_TEST, query: limitBuy({ price: FORTY_DIGITS }), sign: 'query', expect: E.illegal('price') },
  {
    name: 'an order quantity has 19 decimals',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ quantity: '0.0100000000000000001' }),
    sign: 'query',
    expect: E.illegal('quantity'),
  },
  { name: 'an order price starts with the point', method: 'POST', path: ORDER_TEST, query: limitBuy({ price: '.5' }), sign: 'query', expect: E.illegal('price') },
  {
    name: 'an order quantity has a decimal comma',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ quantity: '0%2C01' }),
    sign: 'query',
    expect: E.illegal('quantity'),
  },
  {
    name: 'an order price has more decimals than the tick',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ price: '100.001' }),
    sign: 'query',
    expect: E.priceTick,
  },
  {
    name: 'an order quantity has more decimals than the step',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ quantity: '0.0100001' }),
    sign: 'query',
    expect: E.qtyStep,
  },
  {
    name: 'an order price is above maxPrice',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ price: '10000000.01' }),
    sign: 'query',
    expect: E.priceHigh,
  },
  {
    name: 'an order quantity is above maxQty',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ quantity: '1000.000001' }),
    sign: 'query',
    expect: E.qtyLarge,
  },
  {
    name: 'an order is below minNotional',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ price: '0.01', quantity: '1' }),
    sign: 'query',
    expect: E.notional,
  },
  {
    name: 'a MARKET BUY amount has more decimals than the tick',
    method: 'POST',
    path: ORDER_TEST,
    query: form(MARKET_BUY, { quantity: '10.001' }),
    sign: 'query',
    expect: E.marketDecimals,
  },
  { name: 'a MARKET BUY meets an empty ask side', method: 'POST', path: ORDER, query: form(MARKET_BUY), sign: 'query', expect: E.emptyBook },
  {
    name: 'a MARKET SELL is worth less than minNotional at the best bid',
    method: 'POST',
    path: ORDER_TEST,
    query: form(MARKET_BUY, { side: 'SELL', quantity: '0.001' }),
    sign: 'query',
    expect: E.notional,
  },
  {
    name: 'an order reuses a client order id',
    method: 'POST',
    path: ORDER,
    query: limitBuy({ newClientOrderId: 'resting-bid' }),
    sign: 'query',
    expect: E.duplicateClientId,
  },
  {
    name: 'an order costs more than the free balance',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ price: '10000000', quantity: '1000' }),
    sign: 'query',
    expect: E.balance,
  },
  {
    name: 'a LIMIT_MAKER would take',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ symbol: 'ETHUSDT', type: 'LIMIT_MAKER', price: '100000' }),
    sign: 'query',
    expect: E.wouldTake,
  },
  { name: 'an order repeats side in the query', method: 'POST', path: ORDER, query: `${limitBuy()}&side=BUY`, sign: 'query', expect: E.duplicate },
  {
    name: 'an order repeats quantity in the form body',
    method: 'POST',
    path: ORDER,
    body: `${limitBuy()}&quantity=0.01`,
    contentType: FORM,
    sign: 'body',
    expect: E.duplicate,
  },
  {
    name: 'an order repeats a member of its JSON body',
    method: 'POST',
    path: ORDER,
    body: jsonBody('"price":"100","quantity":"0.01","quantity":"0.02"'),
    contentType: JSON_TYPE,
    sign: 'query',
    expect: E.duplicate,
  },
  {
    name: 'the query names an unknown symbol and the body a listed one',
    method: 'POST',
    path: ORDER,
    query: 'symbol=NOPEUSDT',
    body: limitBuy({ symbol: 'BTCUSDT' }),
    contentType: FORM,
    sign: 'body',
    expect: E.symbol,
  },
  { name: 'an order recvWindow is zero', method: 'POST', path: ORDER, query: limitBuy({ recvWindow: '0' }), sign: 'query', expect: E.notValid('recvWindow') },
  {
    name: 'an order recvWindow is over 60000',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ recvWindow: '60001' }),
    sign: 'query',
    expect: E.notValid('recvWindow'),
  },
  {
    name: 'an order timestamp is a word',
    method: 'POST',
    path: ORDER_TEST,
    query: limitBuy({ timestamp: 'now' }),
    sign: 'query',
    noTimestamp: true,
    expect: E.illegal('timestamp'),
  },
  {
    name: 'an order timestamp is from 1970',
    method: 'POST',
    path: ORDER,
    query: limitBuy({ timestamp: '1000' }),
    sign: 'query',
    noTimestamp: true,
    expect: E.recvWindow,
  },
];

const BODY_ROWS: Row[] = [
  {
    name: 'a JSON order price is the number 1e5',
    method: 'POST',
    path: ORDER_TEST,
    body: jsonBody('"price":1e5,"quantity":"0.01"'),
    contentType: JSON_TYPE,
    sign: 'query',
    expect: E.illegal('price'),
  },
  {
    name: 'a JSON order quantity is an array',
    method: 'POST',
    path: ORDER_TEST,
    body: jsonBody('"price":"100","quantity":["0.01"]'),
    contentType: JSON_TYPE,
    sign: 'query',
    expect: E.illegal('quantity'),
  },
  {
    name: 'a JSON order price is null',
    method: 'POST',
    path: ORDER_TEST,
    body: jsonBody('"price":null,"quantity":"0.01"'),
    contentType: JSON_TYPE,
    sign: 'query',
    expect: E.illegal('price'),
  },
  {
    name: 'a JSON order nests an object',
    method: 'POST',
    path: ORDER_TEST,
    body: jsonBody('"price":{"value":"100"},"quantity":"0.01"'),
    contentType: JSON_TYPE,
    sign: 'query',
    expect: E.illegal('price'),
  },
  {
    name: 'a JSON body is cut short',
    method: 'POST',
    path: ORDER_TEST,
    body: '{"symbol":"BTCUSDT","side":',
    contentType: JSON_TYPE,
    sign: 'query',
    expect: E.illegal(),
  },
  {
    name: 'a JSON body is an array',
    method: 'POST',
    path: ORDER_TEST,
    body: '[{"symbol":"BTCUSDT"}]',
    contentType: JSON_TYPE,
    sign: 'query',
    expect: E.illegal(),
  },
  {
    name: 'a JSON body has text after the object',
    method: 'POST',
    path: ORDER_TEST,
    body: `${jsonBody('"price":"100","quantity":"0.01"')} x`,
    contentType: JSON_TYPE,
    sign: 'query',
    expect: E.illegal(),
  },
  {
    name: 'a JSON body is form encoded',
    method: 'POST',
    path: ORDER_TEST,
    body: limitBuy(),
    contentType: JSON_TYPE,
    sign: 'query',
    expect: E.illegal(),
  },
  {
    name: 'a JSON string holds bytes that are not UTF-8',
    method: 'POST',
    path: ORDER_TEST,
    body: Buffer.concat([Buffer.from(jsonBody('"price":"100","quantity":"0.01","newClientOrderId":"a')), BAD_UTF8, Buffer.from('"}')]),
    contentType: JSON_TYPE,
    sign: 'query',
    expect: E.illegal('newClientOrderId'),
  },
  {
    name: 'a form body holds bytes that are not UTF-8',
    method: 'POST',
    path: ORDER_TEST,
    body: Buffer.concat([Buffer.from(`${limitBuy()}&newClientOrderId=a`), BAD_UTF8]),
    contentType: FORM,
    sign: 'body',
    expect: E.illegal('newClientOrderId'),
  },
  {
    name: 'a form body has a broken percent escape',
    method: 'POST',
    path: ORDER_TEST,
    body: limitBuy({ price: '1%G0' }),
    contentType: FORM,
    sign: 'body',
    expect: E.illegal('price'),
  },
  {
    name: 'a form body has a truncated UTF-8 escape',
    method: 'POST',
    path: ORDER_TEST,
    body: limitBuy({ newClientOrderId: 'a%E2%82' }),
    contentType: FORM,
    sign: 'body',
    expect: E.illegal('newClientOrderId'),
  },
  {
    name: 'an order body is text/plain',
    method: 'POST',
    path: ORDER_TEST,
    body: limitBuy(),
    contentType: 'text/plain',
    sign: 'query',
    expect: E.mediaType,
  },
  {
    name: 'an order body is XML',
    method: 'POST',
    path: ORDER,
    body: '<order><symbol>BTCUSDT</symbol></order>',
    contentType: 'application/xml',
    sign: 'query',
    expect: E.mediaType,
  },
  {
    name: 'an order form body is over 64 KiB',
    method: 'POST',
    path: ORDER,
    body: `${limitBuy()}&padding=${'x'.repeat(BODY_LIMIT_BYTES)}`,
    contentType: FORM,
    sign: 'body',
    expect: E.tooLarge,
  },
  {
    name: 'an order JSON body is over 64 KiB',
    method: 'POST',
    path: ORDER_TEST,
    body: jsonBody(`"price":"100","quantity":"0.01","padding":"${'x'.repeat(BODY_LIMIT_BYTES)}"`),
    contentType: JSON_TYPE,
    sign: 'query',
    expect: E.tooLarge,
  },
  {
    name: 'a POST account query has a broken JSON body',
    method: 'POST',
    path: ACCOUNT,
    body: '{"recvWindow":',
    contentType: JSON_TYPE,
    sign: 'query',
    expect: E.illegal(),
  },
  {
    name: 'two Content-Length headers disagree',
    method: 'POST',
    path: ORDER_TEST,
    body: 'a=12',
    headers: [
      ['Content-Length', '3'],
      ['Content-Length', '4'],
    ],
    expect: E.illegal(),
  },
];

const KEY_ROWS: Row[] = [
  { name: 'a signed request has no key', method: 'GET', path: OPEN_ORDERS, sign: 'query', key: false, expect: E.noKey },
  {
    name: 'the key header is empty',
    method: 'GET',
    path: OPEN_ORDERS,
    sign: 'query',
    key: false,
    headers: [['X-BH-APIKEY', '']],
    expect: E.noKey,
  },
  {
    name: 'the key header is repeated',
    method: 'GET',
    path: OPEN_ORDERS,
    sign: 'query',
    key: false,
    headers: [
      ['X-BH-APIKEY', '$KEY'],
      ['X-BH-APIKEY', '$KEY'],
    ],
    expect: E.keyFormat,
  },
  {
    name: 'the X-COINS-APIKEY header is repeated',
    method: 'GET',
    path: ACCOUNT,
    sign: 'query',
    key: false,
    headers: [
      ['X-COINS-APIKEY', '$KEY'],
      ['X-COINS-APIKEY', '$KEY'],
    ],
    expect: E.keyFormat,
  },
  {
    name: 'the key has 63 characters',
    method: 'GET',
    path: OPEN_ORDERS,
    sign: 'query',
    key: false,
    headers: [['X-BH-APIKEY', 'A'.repeat(63)]],
    expect: E.keyFormat,
  },
  {
    name: 'the accessKey parameter is malformed',
    method: 'GET',
    path: OPEN_ORDERS,
    query: 'accessKey=not-a-key',
    sign: 'query',
    key: false,
    expect: E.keyFormat,
  },
  {
    name: 'the key is well-formed but unknown',
    method: 'GET',
    path: OPEN_ORDERS,
    sign: 'query',
    key: false,
    headers: [['X-BH-APIKEY', 'A'.repeat(64)]],
    expect: E.badKey,
  },
  { name: 'a keyed request has no signature', method: 'GET', path: OPEN_ORDERS, query: `timestamp=${Date.now()}`, key: true, expect: E.mandatory('signature') },
  { name: 'a signed request has no timestamp', method: 'GET', path: ACCOUNT, sign: 'query', noTimestamp: true, expect: E.mandatory('timestamp') },
  { name: 'the signature is not the HMAC', method: 'GET', path: ACCOUNT, sign: 'query', signature: '0'.repeat(64), expect: E.signature },
  { name: 'the signature is not hex', method: 'GET', path: ACCOUNT, sign: 'query', signature: 'zz', expect: E.signature },
  { name: 'the signature is sent twice', method: 'GET', path: ACCOUNT, sign: 'query', signatureTwice: true, expect: E.duplicate },
  { name: 'the timestamp is sent twice', method: 'GET', path: OPEN_ORDERS, query: `timestamp=${Date.now()}`, sign: 'query', expect: E.duplicate },
];

const QUERY_ROWS: Row[] = [
  { name: 'a query order names no order', method: 'GET', path: ORDER, sign: 'query', expect: E.oneOf('orderId', 'origClientOrderId') },
  { name: 'a query order id is a word', method: 'GET', path: ORDER, query: 'orderId=first', sign: 'query', expect: E.illegal('orderId') },
  { name: 'a query order id is negative', method: 'GET', path: ORDER, query: 'orderId=-1', sign: 'query', expect: E.illegal('orderId') },
  {
    name: 'a query order id has 20 digits',
    method: 'GET',
    path: ORDER,
    query: 'orderId=99999999999999999999',
    sign: 'query',
    expect: E.illegal('orderId'),
  },
  {
    name: 'a query client order id holds a space',
    method: 'GET',
    path: ORDER,
    query: 'origClientOrderId=my%20id',
    sign: 'query',
    expect: E.illegal('origClientOrderId'),
  },
  { name: 'a query order id is unknown', method: 'GET', path: ORDER, query: 'orderId=999999', sign: 'query', expect: E.orderNotFound },
  { name: 'a cancel names order 0', method: 'DELETE', path: ORDER, query: 'orderId=0', sign: 'query', expect: E.oneOf('orderId', 'clientOrderId') },
  { name: 'a cancel repeats orderId', method: 'DELETE', path: ORDER, query: 'orderId=1&orderId=1', sign: 'query', expect: E.duplicate },
  { name: 'a cancel names an unknown order', method: 'DELETE', path: ORDER, query: 'orderId=999999', sign: 'query', expect: E.orderNotFound },
  {
    name: 'a cancel names a canceled order',
    method: 'DELETE',
    path: ORDER,
    query: 'clientOrderId=canceled-once',
    sign: 'query',
    expect: E.orderCanceled,
  },
  { name: 'a batch cancel side is BOTH', method: 'DELETE', path: BATCH_CANCEL, query: 'side=BOTH', sign: 'query', expect: E.side },
  { name: 'a batch cancel names an unknown symbol', method: 'DELETE', path: BATCH_CANCEL, query: 'symbol=NOPE', sign: 'query', expect: E.symbol },
  { name: 'a cancel of open orders has no symbol', method: 'DELETE', path: OPEN_ORDERS, sign: 'query', expect: E.mandatory('symbol') },
  { name: 'a cancel of open orders names an unknown symbol', method: 'DELETE', path: OPEN_ORDERS, query: 'symbol=NOPE', sign: 'query', expect: E.symbol },
  { name: 'open orders names an unknown symbol', method: 'GET', path: OPEN_ORDERS, query: 'symbol=NOPE', sign: 'query', expect: E.symbol },
  { name: 'open orders limit is a word', method: 'GET', path: OPEN_ORDERS, query: 'limit=all', sign: 'query', expect: E.illegal('limit') },
  { name: 'open orders side is SHORT', method: 'GET', path: OPEN_ORDERS, query: 'side=SHORT', sign: 'query', expect: E.side },
  {
    name: 'history orders startTime is after endTime',
    method: 'GET',
    path: HISTORY_ORDERS,
    query: 'startTime=2000&endTime=1000',
    sign: 'query',
    expect: E.combination,
  },
  { name: 'history orders endTime is NaN', method: 'GET', path: HISTORY_ORDERS, query: 'endTime=NaN', sign: 'query', expect: E.illegal('endTime') },
  { name: 'my trades names an unknown symbol', method: 'GET', path: MY_TRADES, query: 'symbol=NOPE', sign: 'query', expect: E.symbol },
  { name: 'my trades fromId is a word', method: 'GET', path: MY_TRADES, query: 'fromId=latest', sign: 'query', expect: E.illegal('fromId') },
  { name: 'my trades limit is 1e3', method: 'GET', path: MY_TRADES, query: 'limit=1e3', sign: 'query', expect: E.illegal('limit') },
  {
    name: 'my trades startTime is after endTime',
    method: 'GET',
    path: MY_TRADES,
    query: 'startTime=2000&endTime=1000',
    sign: 'query',
    expect: E.combination,
  },
  { name: 'an order is sent with PATCH', method: 'PATCH', path: ORDER, query: limitBuy(), sign: 'query', expect: E.unknownPath },
];

const ROWS: Row[] = [...MARKET_DATA_ROWS, ...ORDER_ROWS, ...BODY_ROWS, ...KEY_ROWS, ...QUERY_ROWS];

function hmacHex(secret: string, message: Buffer): string {
  return createHmac('sha256', Buffer.from(secret, 'ascii')).update(message).digest('hex');
}

function appendSegment(raw: Buffer, segment: string): Buffer {
  if (segment.length === 0) return raw;
  return raw.length === 0 ? Buffer.from(segment) : Buffer.concat([raw, Buffer.from(`&${segment}`)]);
}

/** The row as bytes on the wire, signed over exactly the bytes sent (docs/spot-api.md "Signing"). */
function buildRequest(row: Row, apiKey: string, secret: string): RawRequest {
  const headers: RawHeader[] = [];
  if (row.key ?? row.sign !== undefined) headers.push(['X-BH-APIKEY', apiKey]);
  for (const [name, value] of row.headers ?? []) headers.push([name, value === '$KEY' ? apiKey : value]);
  if (row.contentType !== undefined) headers.push(['Content-Type', row.contentType]);
  let query: Buffer = Buffer.from(row.query ?? '');
  let body: Buffer = Buffer.from(row.body ?? '');
  if (row.sign !== undefined) {
    const timestamp = row.noTimestamp === true ? '' : `timestamp=${Date.now()}`;
    if (row.sign === 'query') query = appendSegment(query, timestamp);
    else body = appendSegment(body, timestamp);
    const signature = `signature=${row.signature ?? hmacHex(secret, Buffer.concat([query, body]))}`;
    const segments = row.signatureTwice === true ? `${signature}&${signature}` : signature;
    if (row.sign === 'query') query = appendSegment(query, segments);
    else body = appendSegment(body, segments);
  }
  const target = query.length === 0 ? Buffer.from(row.path) : Buffer.concat([Buffer.from(`${row.path}?`), query]);
  return { method: row.method, target, headers, body: body.length === 0 ? undefined : body };
}

interface StateSnapshot {
  account: unknown;
  openOrders: unknown;
  historyOrders: unknown;
  depth: unknown[];
  verify: unknown;
  journalSeq: number;
  nextOrderId: number;
}

function okBody(answer: HttpAnswer, what: string): unknown {
  if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${answer.text}`);
  return answer.body;
}

describe('bad input (area A: A5–A20)', () => {
  let t: TestServer;
  let client: SpotClient;
  let before: StateSnapshot;

  async function snapshot(): Promise<StateSnapshot> {
    const admin = new AdminClient(t.url, t.adminToken);
    const verify = okBody(await admin.send('GET', '/verify'), 'verify') as { ok: boolean; details: unknown };
    const depth = [];
    for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
      const book = okBody(await client.get(DEPTH, { symbol }), `depth ${symbol}`) as Record<string, unknown>;
      depth.push({ lastUpdateId: book.lastUpdateId, bids: book.bids, asks: book.asks });
    }
    return {
      account: okBody(await client.signed('GET', ACCOUNT), 'account'),
      openOrders: okBody(await client.signed('GET', OPEN_ORDERS), 'open orders'),
      historyOrders: okBody(await client.signed('GET', HISTORY_ORDERS), 'history orders'),
      depth,
      verify: { ok: verify.ok, details: verify.details },
      journalSeq: t.server.exchange.history.lastSeq(),
      nextOrderId: t.server.exchange.core.spot.nextOrderId,
    };
  }

  beforeAll(async () => {
    t = await startTestServer();
    client = new SpotClient(t.url, t.demo.apiKey, t.demo.secretKey);
    // A bid and an ask of the demo user make rows reach the book checks; a canceled order feeds A14's -1142.
    okBody(await client.signed('POST', ORDER, { ...LIMIT_BUY, newClientOrderId: 'resting-bid' }), 'resting bid');
    okBody(
      await client.signed('POST', ORDER, { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', price: '100000', quantity: '0.01', newClientOrderId: 'resting-ask' }),
      'resting ask',
    );
    okBody(await client.signed('POST', ORDER, { ...LIMIT_BUY, price: '99', quantity: '0.02', newClientOrderId: 'canceled-once' }), 'order to cancel');
    okBody(await client.signed('DELETE', ORDER, { clientOrderId: 'canceled-once' }), 'cancel');
    before = await snapshot();
  });
  afterAll(async () => t.stop());

  it('when the scene is set, then the demo user has two open orders, one canceled and a verified ledger', () => {
    const clientIds = (orders: unknown): string[] => (orders as { clientOrderId: string }[]).map((o) => o.clientOrderId);
    expect(clientIds(before.openOrders)).toEqual(['resting-bid', 'resting-ask']);
    expect(clientIds(before.historyOrders)).toEqual(['canceled-once']);
    expect(before.verify).toMatchObject({ ok: true });
    expect(before.nextOrderId).toBe(4);
  });

  it(`when the table is counted, then it has at least 60 rows (${ROWS.length})`, () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(60);
    expect(new Set(ROWS.map((row) => row.name)).size).toBe(ROWS.length);
  });

  for (const row of ROWS) {
    const { status, code } = row.expect;
    it(`when ${row.name}, then ${status} ${code}`, async () => {
      const answer = await rawRequest(t.url, buildRequest(row, t.demo.apiKey, t.demo.secretKey));
      const msg = row.expect.msg instanceof RegExp ? expect.stringMatching(row.expect.msg) : row.expect.msg;
      expect({ status: answer.status, contentType: answer.headers['content-type'], body: answer.body }).toEqual({
        status,
        contentType: ['application/json; charset=utf-8'],
        body: { code, msg },
      });
    });
  }

  it('when every row has been refused, then balances, orders, books, ledger and journal are unchanged', async () => {
    expect(await snapshot()).toEqual(before);
  });
});
