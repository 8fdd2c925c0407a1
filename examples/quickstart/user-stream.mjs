// Opens the user data stream of the demo user, places an order that trades, and prints what arrives.
// Usage: node examples/quickstart/user-stream.mjs [http://127.0.0.1:8080]   (BOURSE_DATA=<dir> if not ./data)
/* global process, console, setInterval, setTimeout, clearInterval -- Node globals */
import WebSocket from 'ws';
import { client, loadDemoCredentials } from './bourse-client.mjs';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const { apiKey, secretKey } = loadDemoCredentials();
const api = client(base, apiKey, secretKey);

const { listenKey } = await api.signed('POST', 'userDataStream');
// Keep it alive while the socket is in use (it expires otherwise); PUT every 30 minutes is plenty.
const keepalive = setInterval(() => api.signed('PUT', 'userDataStream', { listenKey }), 30 * 60_000);

const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/openapi/ws/${listenKey}`);
ws.on('message', (data) => {
  const message = JSON.parse(data.toString());
  if ('ping' in message) ws.send(JSON.stringify({ pong: message.ping })); // server heartbeat
  console.log(JSON.stringify(message));
});
ws.on('open', async () => {
  // A small market sell (quantity in BTC; a market BUY's quantity is the USDT to spend): it trades
  // against the book, so execution reports, a ticket and the changed balances arrive.
  await api.signed('POST', 'order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.001' });
  setTimeout(async () => {
    clearInterval(keepalive);
    ws.close();
    await api.signed('DELETE', 'userDataStream', { listenKey });
  }, 1500);
});
