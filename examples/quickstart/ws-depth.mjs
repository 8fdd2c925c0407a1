// Subscribes to BTCUSDT depth (5 levels) on the market stream and prints the best bid and ask.
// Usage: node examples/quickstart/ws-depth.mjs [ws://127.0.0.1:8080]
/* global process, console, setInterval -- Node globals */
import WebSocket from 'ws';

const base = process.argv[2] ?? 'ws://127.0.0.1:8080';
const ws = new WebSocket(`${base}/openapi/quote/ws/v1`);

ws.on('open', () => {
  ws.send(JSON.stringify({ id: 1, topic: 'depth', event: 'sub', symbol: 'BTCUSDT', params: { limit: 5 } }));
  // The server closes a market socket that sends nothing for 5 minutes: ping now and then.
  setInterval(() => ws.send(JSON.stringify({ ping: Date.now() })), 60_000).unref();
});
let frames = 0;
ws.on('message', (data) => {
  const message = JSON.parse(data.toString());
  if ('pong' in message) return;
  if ('code' in message) throw new Error(`refused: ${JSON.stringify(message)}`);
  const book = message.data[0];
  console.log(`${message.f ? 'snapshot' : 'update  '} v=${book.v} bid ${book.b[0]?.join(' x ')} | ask ${book.a[0]?.join(' x ')}`);
  if (++frames === 3) ws.close();
});
ws.on('close', (code, reason) => console.log(`closed ${code} ${reason}`));
