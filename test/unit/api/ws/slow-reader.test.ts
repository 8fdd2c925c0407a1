import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { normalizePeerAddress } from '../../../../src/api/auth/ip-whitelist.js';
import { SLOW_READER_CLOSE_CODE, SLOW_READER_REASON } from '../../../../src/api/ws/backlog-watch.js';
import { ListenKeys } from '../../../../src/api/ws/listen-keys.js';
import { createMarketStreams, type MarketStreamOptions, type MarketStreams } from '../../../../src/api/ws/market-stream.js';
import { attachUpgradeRouter } from '../../../../src/api/ws/upgrade-router.js';
import { createUserStreams, type UserStreamLimits, type UserStreams } from '../../../../src/api/ws/user-stream.js';
import { emptyDerivedRows, PERMISSIONS, type BalanceEvent } from '../../../../src/core/types.js';
import type { ApiKeyRecord } from '../../../../src/exchange/catalogue-module.js';
import { MarketData } from '../../../../src/market/market-data.js';
import { createCoreHarness, limit, T0 } from '../../../support/core-harness.js';
import { ListenKeyCore } from '../../../support/listen-key-core.js';
import { WsProbe } from '../../../support/ws-client.js';
import { MarketProbe } from '../../../support/ws-market-client.js';
import { balanceAtoms } from '../../../support/balance-atoms.js';

/**
 * A reader whose send buffer passes its bound (docs/websocket.md, W1 and W2) is cut off by a check that
 * runs once a second for all sockets, not only at the stream's next frame: a close frame with
 * 1008 and a reason, then, if the client does not take it within the grace, the socket is dropped.
 * The bound is lowered here; one frame of several MiB fills the loopback's kernel buffers and
 * leaves the rest waiting in the server, after which the stream goes quiet.
 */
const BOUND_BYTES = 64 * 1024;
const ACCOUNT = 1001;
const API_KEY = 'K'.repeat(64);
/** A balance event this long is one text frame of about 9 MB. */
const BIG_BALANCE_ASSETS = 150_000;
/** The check runs every second: a cut-off is seen well within this on a loaded machine. */
const NOTICED_WITHIN_MS = 4000;

interface LogEntry {
  level: 'debug' | 'warn';
  fields: Record<string, unknown>;
  msg: string;
}

/** A logger keeping its lines, and when each warning was written (a cut-off's moment). */
function recorder(): { entries: LogEntry[]; warnedAt: number[]; logger: { debug(fields: object, msg: string): void; warn(fields: object, msg: string): void } } {
  const entries: LogEntry[] = [];
  const warnedAt: number[] = [];
  return {
    entries,
    warnedAt,
    logger: {
      debug: (fields, msg) => entries.push({ level: 'debug', fields: fields as Record<string, unknown>, msg }),
      warn: (fields, msg) => {
        warnedAt.push(performance.now());
        entries.push({ level: 'warn', fields: fields as Record<string, unknown>, msg });
      },
    },
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Resolves once `condition` holds (vitest polls it: a cut-off has no event of its own here), with the time it took; rejects after `withinMs`. */
async function until(condition: () => boolean, withinMs: number, what: string): Promise<number> {
  const startedAt = performance.now();
  await vi.waitUntil(condition, { timeout: withinMs, interval: 20 }).catch(() => {
    throw new Error(`${what}: not within ${withinMs} ms`);
  });
  return performance.now() - startedAt;
}

describe('slow readers', () => {
  const cleanups: (() => Promise<void>)[] = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function userRig(
    limits: Partial<UserStreamLimits>,
  ): Promise<{ streams: UserStreams; listenKey: string; url: string; log: LogEntry[]; warnedAt: number[]; pushBigFrame(): void; pushFrameOf(assets: number): void }> {
    const apiKeys = new Map<string, ApiKeyRecord>([
      [API_KEY, { apiKey: API_KEY, userId: ACCOUNT, accountId: ACCOUNT, secretSealed: '', permissions: [...PERMISSIONS], ipWhitelist: [], label: '', createdAt: T0, revoked: false }],
    ]);
    const core = new ListenKeyCore(apiKeys, () => T0);
    const listenKeys = new ListenKeys({ core, clock: () => T0 });
    const { entries, warnedAt, logger } = recorder();
    const streams = createUserStreams({
      listenKeys,
      exchange: { core: { catalogue: { apiKeys }, streamedAccounts: undefined } },
      limiter: { strike: () => undefined },
      clock: () => T0,
      logger,
      limits: { maxBufferedBytes: BOUND_BYTES, ...limits },
    });
    const server = createServer();
    attachUpgradeRouter(server, [streams], () => undefined, (request) => normalizePeerAddress(request.socket.remoteAddress ?? ''));
    const port = await listen(server);
    cleanups.push(async () => {
      await streams.close();
      listenKeys.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const { listenKey } = core.open(ACCOUNT, API_KEY);
    const balanceEvent = (assets: number): BalanceEvent => ({
      kind: 'balance',
      seq: 1,
      time: T0,
      accountId: ACCOUNT,
      balances: Array.from({ length: assets }, (_, i) => balanceAtoms(`A${i}`, '123456789.12345678', '0')),
    });
    const push = (event: BalanceEvent): void => streams.onCommit({ size: 1, commitMs: 0, commands: [], rows: { ...emptyDerivedRows(), events: [event] }, results: [] });
    const big = balanceEvent(BIG_BALANCE_ASSETS);
    return {
      streams,
      listenKey,
      url: `ws://127.0.0.1:${port}/openapi/ws/${listenKey}`,
      log: entries,
      warnedAt,
      pushBigFrame: () => push(big),
      pushFrameOf: (assets) => push(balanceEvent(assets)),
    };
  }

  const cutOffs = (log: LogEntry[]): LogEntry[] => log.filter((entry) => entry.level === 'warn' && entry.msg.includes('too slow'));

  it('when a user stream reader stops reading and the stream then goes quiet, then within seconds it is closed with 1008 and a reason', async () => {
    // A grace long enough for the client to read the 9 MB backlog up to the close frame.
    const rig = await userRig({ slowReaderCloseGraceMs: 30_000 });
    const reader = await WsProbe.open(rig.url);
    cleanups.push(async () => {
      reader.ws.terminate();
      await reader.closed;
    });
    reader.ws.pause();
    rig.pushBigFrame();
    // No further frame: only the periodic check can notice (the next ping is 30 s away).
    const noticedMs = await until(() => cutOffs(rig.log).length > 0, NOTICED_WITHIN_MS, 'cut off');
    expect(noticedMs).toBeLessThan(NOTICED_WITHIN_MS);
    expect(cutOffs(rig.log)).toEqual([
      {
        level: 'warn',
        fields: { accountId: ACCOUNT, ip: '127.0.0.1', port: expect.any(Number) as number, queuedBytes: expect.any(Number) as number, bufferedBytes: expect.any(Number) as number },
        msg: 'user stream reader too slow; cut off',
      },
    ]);
    expect(cutOffs(rig.log)[0].fields.queuedBytes).toBeGreaterThan(BOUND_BYTES);
    // Reading again, the client gets what was queued, then the close frame: not a bare 1006.
    reader.ws.resume();
    expect(await reader.closed).toEqual({ code: SLOW_READER_CLOSE_CODE, reason: SLOW_READER_REASON });
    expect(reader.pending).toBe(1);
    await until(() => rig.streams.socketCount === 0, 5000, 'socket gone');
  });

  it('when a cut-off reader never takes its close frame, then it is dropped after the grace', async () => {
    const graceMs = 500;
    const rig = await userRig({ slowReaderCloseGraceMs: graceMs });
    const reader = await WsProbe.open(rig.url);
    cleanups.push(async () => {
      reader.ws.terminate();
      await reader.closed;
    });
    reader.ws.pause();
    rig.pushBigFrame();
    await until(() => cutOffs(rig.log).length > 0, NOTICED_WITHIN_MS, 'cut off');
    await until(() => rig.streams.socketCount === 0, graceMs + 3000, 'dropped');
    // From the cut-off's log line, not from when the test saw it: a loaded machine polls late.
    expect(performance.now() - rig.warnedAt[0]).toBeGreaterThanOrEqual(graceMs);
    // The server ended the TCP connection: the client, reading again, sees it end without a close frame.
    reader.ws.resume();
    expect((await reader.closed).code).toBe(1006);
  });

  it('when a reader reads what it is sent, many times the bound in all, then its WebSocket stack answers the read receipts and it is never cut off', async () => {
    const rig = await userRig({ backlogCheckIntervalMs: 50 });
    const reader = await WsProbe.open(rig.url);
    cleanups.push(async () => {
      await reader.close();
    });
    // 300 frames of about 8 KB, each sent once the previous one was read: 40 times the bound.
    let sentBytes = 0;
    for (let i = 0; i < 300; i++) {
      rig.pushFrameOf(180);
      sentBytes += (await reader.nextText()).length;
    }
    expect(sentBytes).toBeGreaterThan(30 * BOUND_BYTES);
    expect(cutOffs(rig.log)).toEqual([]);
    expect(rig.streams.socketCount).toBe(1);
  });

  it('when a reader within its bound is quiet, then the check leaves it open', async () => {
    const rig = await userRig({ backlogCheckIntervalMs: 50 });
    const reader = await WsProbe.open(rig.url);
    cleanups.push(async () => {
      await reader.close();
    });
    reader.send({ ping: 7 });
    expect(await reader.next()).toEqual({ pong: 7 });
    // Nothing to await: the point is that six checks (every 50 ms) pass and none cuts the reader.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(cutOffs(rig.log)).toEqual([]);
    expect(rig.streams.socketCount).toBe(1);
  });

  it('when a market stream reader stops reading and the stream then goes quiet, then within seconds it is closed with 1008 and a reason', async () => {
    const h = createCoreHarness();
    const market = new MarketData();
    const { entries, logger } = recorder();
    const options: MarketStreamOptions = { maxBufferedBytes: BOUND_BYTES, slowReaderCloseGraceMs: 30_000 };
    const streams: MarketStreams = createMarketStreams({ exchange: { core: h.core, market }, limiter: { strike: () => undefined }, clock: () => T0, logger }, options);
    const server = createServer();
    attachUpgradeRouter(server, [streams], () => undefined, (request) => normalizePeerAddress(request.socket.remoteAddress ?? ''));
    const port = await listen(server);
    cleanups.push(async () => {
      await streams.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const reader = await MarketProbe.open(`ws://127.0.0.1:${port}/openapi/quote/ws/v1`);
    cleanups.push(async () => {
      reader.ws.terminate();
      await reader.closed;
    });
    expect(await reader.ask({ event: 'sub', topic: 'trade', symbol: 'ETHUSDT' })).toMatchObject({ topic: 'trade', f: true });
    reader.ws.pause();
    // One committed trade, repeated: a trade frame of several MB, then nothing more.
    h.place(limit(h.funded({ ETH: '1' }), 'ETHUSDT', 'SELL', '2000', '1'));
    h.place(limit(h.funded({ USDT: '10000' }), 'ETHUSDT', 'BUY', '2000', '1'));
    const buyerRow = h.lastRows.trades.find((row) => row.isBuyer);
    expect(buyerRow).toBeDefined();
    streams.onCommit({ rows: { ...h.lastRows, trades: Array.from({ length: 100_000 }, () => buyerRow!) } });
    const noticedMs = await until(() => cutOffs(entries).length > 0, NOTICED_WITHIN_MS, 'cut off');
    expect(noticedMs).toBeLessThan(NOTICED_WITHIN_MS);
    expect(cutOffs(entries)[0]).toMatchObject({ fields: { ip: '127.0.0.1' }, msg: 'market socket too slow to follow; cut off' });
    reader.ws.resume();
    expect(await reader.closed).toEqual({ code: SLOW_READER_CLOSE_CODE, reason: SLOW_READER_REASON });
  });
});
