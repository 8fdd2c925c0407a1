// Stop and iceberg orders (docs/spot-api.md "Stop and iceberg orders"): a stop-limit sell below the last
// trade price, listed and canceled, then an iceberg limit sell far above the market, placed and canceled.
// Usage: node examples/quickstart/stop-order.mjs [http://127.0.0.1:8080] [SYMBOL]   (BOURSE_DATA=<dir> if not ./data)
// The operator's algoOrders option must be on (`npx bourse config set algoOrders true`); while it is off
// this says so and exits 1. Prices and quantities come from the symbol's filters, computed exactly.
/* global process, console, fetch -- Node globals */
import { client, loadDemoCredentials } from './bourse-client.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const symbol = process.argv[3] ?? 'BTCUSDT';
/** Iceberg parts: the order shows a third of itself at a time (fewer if the operator allows fewer). */
const ICEBERG_PARTS = 3n;

// Money stays exact: every decimal string becomes a bigint count of 10^-18 (the smallest unit Bourse
// accepts), is computed on, and is written back as a decimal string. No float touches a price.
const DIGITS = 18;
const ONE = 10n ** BigInt(DIGITS);
function units(text) {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null || (match[2] ?? '').length > DIGITS) throw new Error(`not a decimal: ${text}`);
  return BigInt(match[1]) * ONE + BigInt((match[2] ?? '').padEnd(DIGITS, '0'));
}
function decimal(value) {
  const fraction = (value % ONE).toString().padStart(DIGITS, '0').replace(/0+$/, '');
  return fraction === '' ? String(value / ONE) : `${value / ONE}.${fraction}`;
}
const floorTo = (value, step) => value - (value % step);
const ceilTo = (value, step) => floorTo(value + step - 1n, step);
const max = (a, b) => (a > b ? a : b);
const min = (a, b) => (a < b ? a : b);

function log(step, text) {
  console.log(`${step.padEnd(9)} ${text}`);
}

async function publicGet(path) {
  const response = await fetch(`${base}${path}`);
  const body = await response.json();
  if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body;
}

// 1. The symbol's rules, and whether the operator offers stop and iceberg orders.
const info = await publicGet('/openapi/v1/exchangeInfo');
const rules = info.symbols.find((s) => s.symbol === symbol);
if (rules === undefined) throw new Error(`no symbol ${symbol} in /openapi/v1/exchangeInfo`);
if (!rules.icebergAllowed) {
  console.error(`Stop and iceberg orders are off on this server: /openapi/v1/exchangeInfo says icebergAllowed false for ${symbol}.
The operator turns them on with
  npx bourse config set algoOrders true
(or PATCH /admin/v1/trading/config {"algoOrders":true} with the admin token, see docs/operating.md); then run this again.`);
  process.exit(1);
}
const filter = (type) => rules.filters.find((f) => f.filterType === type);
const tick = units(filter('PRICE_FILTER').tickSize);
const maxPrice = units(filter('PRICE_FILTER').maxPrice);
const { minQty, stepSize } = filter('LOT_SIZE');
const { minNotional } = filter('MIN_NOTIONAL');
const maxParts = BigInt(filter('ICEBERG_PARTS').limit);
log('symbol', `${symbol}: tickSize ${decimal(tick)}, stepSize ${stepSize}, minQty ${minQty}, minNotional ${minNotional}; icebergAllowed true, at most ${filter('MAX_NUM_ALGO_ORDERS').maxNumAlgoOrders} stop orders here, ${maxParts} iceberg parts`);

/** The least quantity LOT_SIZE and MIN_NOTIONAL accept at `price`: at least minQty, quantity × price ≥ minNotional, on the step. */
function smallestQuantity(price) {
  const step = units(stepSize);
  const forNotional = (units(minNotional) * ONE + price - 1n) / price;
  return ceilTo(max(units(minQty), forNotional), step);
}

// 2. Where the market is: the last trade price decides which stop prices are accepted.
const { price: lastText } = await publicGet(`/openapi/quote/v1/ticker/price?symbol=${symbol}`);
const { bidPrice, askPrice } = await publicGet(`/openapi/quote/v1/ticker/bookTicker?symbol=${symbol}`);
log('market', `last trade ${lastText}, best bid ${bidPrice}, best ask ${askPrice}`);
let last = units(lastText);
if (last === 0n) {
  // Before a symbol's first trade any stop price is accepted; the best bid stands in for the last price.
  if (units(bidPrice) === 0n) throw new Error(`${symbol} has no trade and no bid yet: start the server with its demo market maker (npm start) and wait a few seconds`);
  last = units(bidPrice);
  log('market', `no trade yet: any stop price is accepted; the best bid ${bidPrice} stands in for the last price`);
}

const { apiKey, secretKey } = loadDemoCredentials();
const api = client(base, apiKey, secretKey);

// 3. A stop-loss sell: if the price falls 2 % (to stopPrice), sell at no less than 3 % below today's.
// It waits out of the book, NEW with isWorking false, with its quantity locked.
const stopPrice = floorTo((last * 98n) / 100n, tick);
const limitPrice = floorTo((last * 97n) / 100n, tick);
const stopQuantity = smallestQuantity(limitPrice);
const stop = await api.signed('POST', 'order', {
  symbol,
  side: 'SELL',
  type: 'STOP_LOSS_LIMIT',
  timeInForce: 'GTC',
  quantity: decimal(stopQuantity),
  price: decimal(limitPrice),
  stopPrice: decimal(stopPrice),
});
log('stop', `order ${stop.orderId} ${stop.type} ${stop.side} ${stop.origQty} @ ${stop.price} stop ${stop.stopPrice}: status ${stop.status}, isWorking ${stop.isWorking}`);
log('record', JSON.stringify(stop));

for (const order of await api.signed('GET', 'openOrders', { symbol })) {
  log('open', `order ${order.orderId} ${order.type} ${order.side} ${order.origQty} @ ${order.price} stop ${order.stopPrice}: status ${order.status}, isWorking ${order.isWorking}`);
}
const stopCanceled = await api.signed('DELETE', 'order', { orderId: stop.orderId });
log('canceled', `order ${stopCanceled.orderId} ${stopCanceled.status}`);

// 4. An iceberg: a LIMIT sell far above the market (so it rests) that shows one part of itself at a
// time; the depth carries only that part.
const icebergPrice = min(floorTo((max(last, units(askPrice)) * 3n) / 2n, tick), floorTo(maxPrice, tick));
const parts = min(ICEBERG_PARTS, maxParts);
const part = smallestQuantity(icebergPrice);
const iceberg = await api.signed('POST', 'order', {
  symbol,
  side: 'SELL',
  type: 'LIMIT',
  timeInForce: 'GTC',
  quantity: decimal(part * parts),
  price: decimal(icebergPrice),
  icebergQty: decimal(part),
});
log('iceberg', `order ${iceberg.orderId} ${iceberg.type} ${iceberg.side} ${iceberg.origQty} @ ${iceberg.price} showing ${iceberg.icebergQty} at a time: status ${iceberg.status}, isWorking ${iceberg.isWorking}`);
const depth = await publicGet(`/openapi/quote/v1/depth?symbol=${symbol}&limit=1000`);
const level = depth.asks.find(([price]) => units(price) === icebergPrice);
log('depth', `asks at ${iceberg.price}: ${level === undefined ? 'none in the first 1000 levels' : level[1]}`);
const icebergCanceled = await api.signed('DELETE', 'order', { orderId: iceberg.orderId });
log('canceled', `order ${icebergCanceled.orderId} ${icebergCanceled.status}`);
