import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOW_READER_CLOSE_CODE, SLOW_READER_REASON } from '../../src/api/ws/backlog-watch.js';
import { startChildServer, type ChildServer, type LogLine } from '../support/child-server.js';
import { SpotClient } from '../support/clients.js';
import { RawWsClient } from '../support/raw-ws.js';
import { liftRateLimits } from '../support/trading-setup.js';

/**
 * A client that stops reading is cut off once what it has not read passes the bound of
 * docs/websocket.md "Limits" (on both streams), counted from what the server sent it, wherever the
 * bytes wait: in the server, in the kernels' buffers (up to megabytes on loopback, which `ws`'s
 * `bufferedAmount` does not see) or in the client. The real server process, its real log, real
 * order traffic over HTTP, and a reader that never reads: a TCP socket doing the WebSocket
 * handshake by hand. The bound is lowered (`BOURSE_WS_MAX_UNREAD_BYTES`) so that a loaded machine
 * fills it in seconds; the count is the same at 4 MiB.
 */

const BOUND_BYTES = 256 * 1024;
/** One check may let a send pass the bound before the next notices: a frame, a read receipt. */
const OVER_BOUND_SLACK_BYTES = 32 * 1024;
/** The traffic fills the bound in about a second; counting only the server's buffer took minutes. */
const CUT_OFF_WITHIN_MS = 15_000;
/** Orders in flight at once: enough to keep the server busy without starving the test process. */
const TRADING_LOOPS = 8;

let child: ChildServer;
let user: SpotClient;
let merchant: SpotClient;
const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-slow-reader-'));

beforeAll(async () => {
  child = await startChildServer({ dataDir, env: { BOURSE_WS_MAX_UNREAD_BYTES: String(BOUND_BYTES) } });
  await liftRateLimits(child.url, child.adminToken);
  user = new SpotClient(child.url, child.demo.apiKey, child.demo.secretKey);
  merchant = new SpotClient(child.url, child.demo.merchantApiKey, child.demo.merchantSecretKey);
});

afterAll(async () => {
  await child?.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Trades on BTCUSDT until `stop` holds: the demo user rests a small sell, the merchant takes it.
 * Every pair is a trade, a book change and four of the user's events. Resolves with the pairs made.
 */
async function tradeUntil(stop: () => boolean): Promise<number> {
  let pairs = 0;
  const loop = async (): Promise<void> => {
    while (!stop()) {
      const sell = await user.signed('POST', '/openapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', price: '60000', quantity: '0.00002' });
      if (sell.status !== 200) throw new Error(`sell answered ${sell.status} ${sell.text}`);
      const buy = await merchant.signed('POST', '/openapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '60000', quantity: '0.00002' });
      if (buy.status !== 200) throw new Error(`buy answered ${buy.status} ${buy.text}`);
      pairs++;
    }
  };
  await Promise.all(Array.from({ length: TRADING_LOOPS }, loop));
  return pairs;
}

/** Trades until the server logs `msg`, then answers that line; fails past CUT_OFF_WITHIN_MS. */
async function tradeUntilLogged(msg: string): Promise<LogLine> {
  const startedAt = performance.now();
  const stop = (): boolean => child.logLine(msg) !== undefined || performance.now() - startedAt > CUT_OFF_WITHIN_MS;
  const pairs = await tradeUntil(stop);
  const line = child.logLine(msg);
  if (line === undefined) throw new Error(`no "${msg}" within ${CUT_OFF_WITHIN_MS} ms (${pairs} trades)`);
  return line;
}

/**
 * The cut-off of `reader` as its log `line` tells it and as the reader finds it reading at last:
 * over the bound by less than a frame, most of it outside the server process (the kernels held it,
 * where the old count did not look), the read receipts it was asked for unanswered, then the close
 * frame, with nothing sent past the bound.
 */
async function expectCutOffAtBound(line: LogLine, reader: RawWsClient): Promise<void> {
  expect(line).toMatchObject({ level: 40, ip: '127.0.0.1', port: reader.localPort });
  const queuedBytes = line.queuedBytes as number;
  expect(queuedBytes).toBeGreaterThan(BOUND_BYTES);
  expect(queuedBytes).toBeLessThan(BOUND_BYTES + OVER_BOUND_SLACK_BYTES);
  expect(line.bufferedBytes as number).toBeLessThan(queuedBytes);

  const read = await reader.readToClose();
  expect(read.close).toEqual({ code: SLOW_READER_CLOSE_CODE, reason: SLOW_READER_REASON });
  expect(read.dataBytes).toBeGreaterThan(BOUND_BYTES - OVER_BOUND_SLACK_BYTES);
  expect(read.dataBytes).toBeLessThan(BOUND_BYTES + OVER_BOUND_SLACK_BYTES);
  expect(read.pings).toBeGreaterThan(0);
}

describe('a client that never reads', () => {
  it('when a market stream client subscribed to depth, diffDepth and trade never reads while its symbol trades, then it is cut off as the bound goes unread, logged with its address and bytes', async () => {
    const reader = await RawWsClient.open(child.url, '/openapi/quote/ws/v1');
    try {
      // A long request id is echoed in every frame: frames of ~4 KB fill the bound in a second of
      // trading on a loaded machine; the reader's backlog is the same kind of bytes either way.
      const id = 'x'.repeat(4000);
      for (const topic of ['depth', 'diffDepth', 'trade']) reader.send({ id, topic, event: 'sub', symbol: 'BTCUSDT' });

      const line = await tradeUntilLogged('market socket too slow to follow; cut off');
      expect(line).toMatchObject({ component: 'market-stream', stream: 'v1' });
      await expectCutOffAtBound(line, reader);
    } finally {
      await reader.destroy();
    }
  });

  it('when a user data stream client never reads while its account trades, then it is cut off as the bound goes unread, logged with its address and bytes', async () => {
    const issued = await user.signed('POST', '/openapi/v1/userDataStream');
    const { listenKey } = issued.body as { listenKey: string };
    const reader = await RawWsClient.open(child.url, `/openapi/ws/${listenKey}`);
    try {
      const line = await tradeUntilLogged('user stream reader too slow; cut off');
      expect(line).toMatchObject({ component: 'user-stream', accountId: expect.any(Number) as number });
      await expectCutOffAtBound(line, reader);
    } finally {
      await reader.destroy();
    }
  });
});
