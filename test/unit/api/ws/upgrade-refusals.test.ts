import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ListenKeys } from '../../../../src/api/ws/listen-keys.js';
import { createMarketStreams, type MarketStreams } from '../../../../src/api/ws/market-stream.js';
import { attachUpgradeRouter, loggablePath } from '../../../../src/api/ws/upgrade-router.js';
import { ClientAddresses } from '../../../../src/api/client-address.js';
import { createUserStreams, type UserStreams } from '../../../../src/api/ws/user-stream.js';
import { BourseError } from '../../../../src/core/errors.js';
import { PERMISSIONS } from '../../../../src/core/types.js';
import type { ApiKeyRecord } from '../../../../src/exchange/catalogue-module.js';
import { MarketData } from '../../../../src/market/market-data.js';
import { createCoreHarness, T0 } from '../../../support/core-harness.js';
import { ListenKeyCore } from '../../../support/listen-key-core.js';
import { rawRequest } from '../../../support/raw-http.js';
import { refusedHandshake, WsProbe } from '../../../support/ws-client.js';

/** Every refused WebSocket upgrade is logged once, with its reason, and never with a listenKey. */
const ACCOUNT = 1001;
const API_KEY = 'K'.repeat(64);
const UNKNOWN_LISTEN_KEY = 'u'.repeat(64);

interface LogEntry {
  level: string;
  fields: Record<string, unknown>;
  msg: string;
}

interface Rig {
  base: string;
  port: number;
  /** Commits listenKeys, as A26 would. */
  keysCore: ListenKeyCore;
  banned: Set<string>;
  users: UserStreams;
  markets: MarketStreams;
  /** Lines of the router's logger (info, warn). */
  log: LogEntry[];
}

const refusals = (log: LogEntry[]): LogEntry[] => log.filter((entry) => entry.msg === 'websocket upgrade refused');

function keyRecord(): ApiKeyRecord {
  return { apiKey: API_KEY, userId: ACCOUNT, accountId: ACCOUNT, secretSealed: '', permissions: [...PERMISSIONS], ipWhitelist: [], label: '', createdAt: T0, revoked: false };
}

describe('refused WebSocket upgrades', () => {
  const cleanups: (() => Promise<void>)[] = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function rig(): Promise<Rig> {
    const log: LogEntry[] = [];
    const record = (level: string) => (fields: object, msg: string) => log.push({ level, fields: fields as Record<string, unknown>, msg });
    const quiet = { debug: () => undefined, warn: () => undefined };
    const apiKeys = new Map([[API_KEY, keyRecord()]]);
    const keysCore = new ListenKeyCore(apiKeys, () => T0);
    const listenKeys = new ListenKeys({ core: keysCore, clock: () => T0 });
    const users = createUserStreams({
      listenKeys,
      exchange: { core: { catalogue: { apiKeys }, streamedAccounts: undefined } },
      limiter: { strike: () => undefined },
      clock: () => T0,
      logger: quiet,
      limits: { socketsPerListenKey: 1 },
    });
    const h = createCoreHarness();
    const markets = createMarketStreams({ exchange: { core: h.core, market: new MarketData() }, limiter: { strike: () => undefined }, clock: () => T0, logger: quiet });
    const banned = new Set<string>();
    const server: Server = createServer();
    attachUpgradeRouter(
      server,
      [markets, users],
      (ip) => (banned.has(ip) ? { error: new BourseError('IP_BANNED', [T0 + 60_000]), headers: { 'Retry-After': '60' } } : undefined),
      (request) => new ClientAddresses(undefined).of(request),
      { info: record('info'), warn: record('warn') },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    cleanups.push(async () => {
      await users.close();
      await markets.close();
      listenKeys.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return { base: `ws://127.0.0.1:${port}`, port, keysCore, banned, users, markets, log };
  }

  it('when the listenKey is unknown, then 400 -1125 is answered and logged at info with the key cut to 4 characters', async () => {
    const r = await rig();
    const refused = await refusedHandshake(`${r.base}/openapi/ws/${UNKNOWN_LISTEN_KEY}?token=secret`);
    expect(refused).toMatchObject({ status: 400, body: { code: -1125, msg: 'This listenKey does not exist.' } });
    expect(refusals(r.log)).toEqual([
      {
        level: 'info',
        fields: { ip: '127.0.0.1', path: '/openapi/ws/uuuu…', status: 400, code: -1125, reason: 'listenKey unknown or expired' },
        msg: 'websocket upgrade refused',
      },
    ]);
    expect(JSON.stringify(r.log)).not.toContain(UNKNOWN_LISTEN_KEY);
    expect(JSON.stringify(r.log)).not.toContain('secret');
  });

  it('when a live listenKey is over its socket limit, then 429 is answered and logged at warn, without the listenKey', async () => {
    const r = await rig();
    const { listenKey } = r.keysCore.open(ACCOUNT, API_KEY);
    const first = await WsProbe.open(`${r.base}/openapi/ws/${listenKey}`);
    cleanups.push(async () => {
      await first.close();
    });
    const refused = await refusedHandshake(`${r.base}/openapi/ws/${listenKey}`);
    expect(refused).toMatchObject({ status: 429, body: { code: -1003 } });
    expect(refusals(r.log)).toEqual([
      {
        level: 'warn',
        fields: { ip: '127.0.0.1', path: `/openapi/ws/${listenKey.slice(0, 4)}…`, status: 429, code: -1003, reason: '1 user streams per listenKey already open' },
        msg: 'websocket upgrade refused',
      },
    ]);
    expect(JSON.stringify(r.log)).not.toContain(listenKey);
  });

  it('when the IP is banned, then 418 is answered and logged at warn', async () => {
    const r = await rig();
    r.banned.add('127.0.0.1');
    expect(await refusedHandshake(`${r.base}/openapi/quote/ws/v1`)).toMatchObject({ status: 418, body: { code: -1003 } });
    expect(refusals(r.log)).toEqual([
      { level: 'warn', fields: { ip: '127.0.0.1', path: '/openapi/quote/ws/v1', status: 418, code: -1003, reason: 'IP banned' }, msg: 'websocket upgrade refused' },
    ]);
  });

  it('when no stream lives at the path, then 404 -1000 is answered and logged at info', async () => {
    const r = await rig();
    expect(await refusedHandshake(`${r.base}/openapi/v1/ping`)).toMatchObject({ status: 404, body: { code: -1000, msg: 'Unknown path or method.' } });
    expect(refusals(r.log)).toEqual([
      {
        level: 'info',
        fields: { ip: '127.0.0.1', path: '/openapi/v1/ping', status: 404, code: -1000, reason: 'no WebSocket stream at this path' },
        msg: 'websocket upgrade refused',
      },
    ]);
  });

  it('when the handshake is malformed, then it is answered in area A format and logged with what was wrong', async () => {
    const r = await rig();
    const noKey = await rawRequest(`http://127.0.0.1:${r.port}`, {
      method: 'GET',
      target: '/openapi/quote/ws/v1',
      headers: [
        ['Connection', 'Upgrade'],
        ['Upgrade', 'websocket'],
        ['Sec-WebSocket-Version', '13'],
      ],
    });
    expect(noKey.status).toBe(400);
    expect(noKey.body).toEqual({ code: -1100, msg: "Illegal characters found in parameter 'handshake'; legal range is 'a WebSocket handshake (RFC 6455)'." });
    const post = await rawRequest(`http://127.0.0.1:${r.port}`, {
      method: 'POST',
      target: '/openapi/quote/ws/v1',
      headers: [
        ['Connection', 'Upgrade'],
        ['Upgrade', 'websocket'],
        ['Sec-WebSocket-Key', 'dGhlIHNhbXBsZSBub25jZQ=='],
        ['Sec-WebSocket-Version', '13'],
      ],
    });
    expect(post.status).toBe(404);
    expect(refusals(r.log)).toEqual([
      {
        level: 'info',
        fields: { ip: '127.0.0.1', path: '/openapi/quote/ws/v1', status: 400, code: -1100, reason: 'malformed handshake: Missing or invalid Sec-WebSocket-Key header' },
        msg: 'websocket upgrade refused',
      },
      {
        level: 'info',
        fields: { ip: '127.0.0.1', path: '/openapi/quote/ws/v1', status: 404, code: -1000, reason: 'malformed handshake: Invalid HTTP method' },
        msg: 'websocket upgrade refused',
      },
    ]);
  });

  it('when the server is shutting down, then the handshake is dropped and logged at info', async () => {
    const r = await rig();
    await r.markets.close();
    const ws = new WebSocket(`${r.base}/openapi/quote/ws/v1`);
    const outcome = await new Promise<string>((resolve) => {
      ws.once('open', () => resolve('open'));
      ws.once('unexpected-response', () => resolve('answered'));
      ws.once('error', (error) => resolve(error.message));
    });
    expect(outcome).toBe('socket hang up');
    expect(refusals(r.log)).toEqual([
      { level: 'info', fields: { ip: '127.0.0.1', path: '/openapi/quote/ws/v1', status: undefined, code: undefined, reason: 'server shutting down' }, msg: 'websocket upgrade refused' },
    ]);
  });

  it('when a path is logged, then its query is left out and long segments are cut, bounded in length', () => {
    expect(loggablePath(`/openapi/ws/${'A'.repeat(64)}?signature=abc`)).toBe('/openapi/ws/AAAA…');
    expect(loggablePath('/openapi/quote/ws/v1/sub/trade/BTCUSDT')).toBe('/openapi/quote/ws/v1/sub/trade/BTCUSDT');
    expect(loggablePath(`/${'a/'.repeat(300)}`).length).toBeLessThanOrEqual(201);
  });
});
