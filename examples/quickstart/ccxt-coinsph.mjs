// ccxt's coinsph class pointed at Bourse. Needs `npm install ccxt` (Bourse's tests use 4.5.x).
// Usage: node examples/quickstart/ccxt-coinsph.mjs [http://127.0.0.1:8080]   (BOURSE_DATA=<dir> if not ./data)
/* global process, console -- Node globals */
import ccxt from 'ccxt';
import { loadDemoCredentials } from './bourse-client.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const { apiKey, secretKey } = loadDemoCredentials();

class Bourse extends ccxt.coinsph {
  // Optional: Bourse also accepts coinsph's own X-COINS-APIKEY; this sends Bourse's header name instead.
  sign(path, api = 'public', method = 'GET', params = {}, headers = undefined, body = undefined) {
    const request = super.sign(path, api, method, params, headers, body);
    if (request.headers?.['X-COINS-APIKEY'] !== undefined) {
      request.headers['X-BH-APIKEY'] = request.headers['X-COINS-APIKEY'];
      delete request.headers['X-COINS-APIKEY'];
    }
    return request;
  }
}

const exchange = new Bourse({ apiKey, secret: secretKey, urls: { api: { public: base, private: base } } });
await exchange.loadMarkets();
const book = await exchange.fetchOrderBook('BTC/USDT', 5);
console.log('best bid', book.bids[0], 'best ask', book.asks[0]);
const order = await exchange.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 50000);
console.log('order', order.id, order.status);
console.log('canceled', (await exchange.cancelOrder(order.id, 'BTC/USDT')).status);
const balance = await exchange.fetchBalance();
console.log('BTC', balance.BTC, 'USDT', balance.USDT);
