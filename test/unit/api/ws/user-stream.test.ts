import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { normalizePeerAddress } from '../../../../src/api/auth/ip-whitelist.js';
import { ListenKeys } from '../../../../src/api/ws/listen-keys.js';
import { attachUpgradeRouter } from '../../../../src/api/ws/upgrade-router.js';
import { createUserStreams, type UserStreamLimits, type UserStreams } from '../../../../src/api/ws/user-stream.js';
import { emptyDerivedRows, PERMISSIONS, type BalanceEvent, type Command, type CoreEvent, type OrderEvent, type OrderRow } from '../../../../src/core/types.js';
import type { ApiKeyRecord } from '../../../../src/exchange/catalogue-module.js';
import type { AccountSet } from '../../../../src/ledger/ledger.js';
import { refusedHandshake, WsProbe } from '../../../support/ws-client.js';
import { balanceAtoms } from '../../../support/balance-atoms.js';
import { ListenKeyCore } from '../../../support/listen-key-core.js';

const T0 = 1_700_000_000_000;
const ALICE = 1001;
const BOB = 1002;
const ALICE_TRADER = 'T'.repeat(64);
const ALICE_READER = 'R'.repeat(64);
const BOB_KEY = 'B'.repeat(64);

function apiKey(apiKey: string, accountId: number, permissions: ApiKeyRecord['permissions']): [string, ApiKeyRecord] {
  return [apiKey, { apiKey, userId: accountId, accountId, secretSealed: '', permissions, ipWhitelist: [], label: '', createdAt: T0, revoked: false }];
}

function order(overrides: Partial<OrderRow>): OrderRow {
  const status = overrides.status ?? 'NEW';
  return {
    orderId: 52001,
    accountId: ALICE,
    symbol: 'BTCUSDT',
    clientOrderId: 'my-1',
    side: 'BUY',
    type: 'LIMIT',
    timeInForce: 'GTC',
    price: '30000',
    origQty: '0.01',
    executedQty: '0',
    cummulativeQuoteQty: '0',
    status: 'NEW',
    stopPrice: '0',
    icebergQty: '0',
    isWorking: status === 'NEW' || status === 'PARTIALLY_FILLED',
    time: T0,
    updateTime: T0,
    ...overrides,
  };
}

const SEQ = 41;
const TIME = T0 + 400;
const accepted: OrderEvent = { kind: 'order', seq: SEQ, time: TIME, accountId: ALICE, order: order({}) };
const makerFill: OrderEvent = {
  kind: 'order',
  seq: SEQ,
  time: TIME,
  accountId: BOB,
  order: order({ orderId: 51990, accountId: BOB, clientOrderId: '51990', side: 'SELL', origQty: '0.004', executedQty: '0.004', cummulativeQuoteQty: '120', status: 'FILLED' }),
  fill: { tradeId: 9001, price: '30000', qty: '0.004', commission: '0.12', commissionAsset: 'USDT', isMaker: true, matchOrderId: 52001 },
};
const takerFill: OrderEvent = {
  kind: 'order',
  seq: SEQ,
  time: TIME,
  accountId: ALICE,
  order: order({ executedQty: '0.004', cummulativeQuoteQty: '120', status: 'PARTIALLY_FILLED', updateTime: TIME }),
  fill: { tradeId: 9001, price: '30000', qty: '0.004', commission: '0.000004', commissionAsset: 'BTC', isMaker: false, matchOrderId: 51990 },
};
const bobBalance: BalanceEvent = { kind: 'balance', seq: SEQ, time: TIME, accountId: BOB, balances: [balanceAtoms('USDT', '119.88', '0')] };
const aliceBalance: BalanceEvent = {
  kind: 'balance',
  seq: SEQ,
  time: TIME,
  accountId: ALICE,
  balances: [
    balanceAtoms('BTC', '1.003996', '0'),
    balanceAtoms('USDT', '700', '180'),
  ],
};

const acceptedReport = {
  e: 'executionReport',
  E: '1700000000400',
  s: 'BTCUSDT',
  c: 'my-1',
  S: 'BUY',
  o: 'LIMIT',
  f: 'GTC',
  q: '0.01',
  p: '30000',
  X: 'NEW',
  i: '52001',
  M: '0',
  l: '0',
  z: '0',
  L: '0',
  n: '0',
  N: '',
  u: true,
  w: true,
  m: false,
  O: '1700000000000',
  Z: '0',
  P: '0',
  F: '0',
};
const fillReport = { ...acceptedReport, X: 'PARTIALLY_FILLED', M: '51990', l: '0.004', z: '0.004', L: '30000', n: '0.000004', N: 'BTC', Z: '120' };
const ticket = { e: 'ticketInfo', E: '1700000000400', s: 'BTCUSDT', q: '0.004', t: '1700000000400', p: '30000', T: '9001', o: '52001', c: 'my-1', O: '51990', a: '1001', m: false, S: 'BUY' };
const aliceAccountInfo = {
  e: 'outboundAccountInfo',
  E: '1700000000400',
  T: true,
  W: true,
  D: true,
  B: [
    { a: 'BTC', f: '1.003996', l: '0' },
    { a: 'USDT', f: '700', l: '180' },
  ],
};

interface Rig {
  streams: UserStreams;
  /** The core as the stream sees it: it sets the accounts whose events are recorded. */
  core: { streamedAccounts: AccountSet | undefined };
  listenKeys: ListenKeys;
  /** A26 committed: a new listenKey of the account, issued by the key. */
  issue: (accountId: number, apiKey: string) => string;
  /** A28 committed. */
  close: (listenKey: string, accountId: number) => void;
  strikes: string[];
  warnings: string[];
  url: (listenKey: string) => string;
  commit: (events: CoreEvent[], commands?: Command[]) => void;
}

describe('W1 user data stream', () => {
  let now = T0;
  const cleanups: (() => Promise<void>)[] = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function rig(limits: Partial<UserStreamLimits> = {}): Promise<Rig> {
    now = T0;
    const apiKeys = new Map([
      apiKey(ALICE_TRADER, ALICE, [...PERMISSIONS]),
      apiKey(ALICE_READER, ALICE, ['USER_STREAM', 'USER_DATA']),
      apiKey(BOB_KEY, BOB, [...PERMISSIONS]),
    ]);
    const keysCore = new ListenKeyCore(apiKeys, () => now);
    const listenKeys = new ListenKeys({ core: keysCore, clock: () => now });
    const strikes: string[] = [];
    const warnings: string[] = [];
    const core = { catalogue: { apiKeys }, streamedAccounts: undefined as AccountSet | undefined };
    const streams = createUserStreams({
      listenKeys,
      exchange: { core },
      limiter: {
        strike: (ip) => {
          strikes.push(ip);
          return undefined;
        },
      },
      clock: () => now,
      logger: { debug: () => undefined, warn: (_fields, msg) => warnings.push(msg) },
      limits,
    });
    const server: Server = createServer();
    attachUpgradeRouter(server, [streams], () => undefined, (request) => normalizePeerAddress(request.socket.remoteAddress ?? ''));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    cleanups.push(async () => {
      await streams.close();
      listenKeys.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const commit = (events: CoreEvent[], commands: Command[] = []): void => {
      const info = keysCore.commit(commands);
      streams.onCommit({ ...info, size: Math.max(1, info.size), rows: { ...emptyDerivedRows(), events } });
    };
    return {
      streams,
      core,
      listenKeys,
      issue: (accountId, key) => {
        const { listenKey, info } = keysCore.open(accountId, key);
        streams.onCommit(info);
        return listenKey;
      },
      close: (listenKey, accountId) => commit([], [{ type: 'closeListenKey', listenKey, accountId }]),
      strikes,
      warnings,
      url: (listenKey) => `ws://127.0.0.1:${port}/openapi/ws/${listenKey}`,
      commit,
    };
  }

  async function open(r: Rig, listenKey: string): Promise<WsProbe> {
    const probe = await WsProbe.open(r.url(listenKey));
    cleanups.push(async () => {
      await probe.close();
    });
    return probe;
  }

  describe('handshake', () => {
    it('when the listenKey is unknown, then the handshake is refused with 400 -1125 and no upgrade', async () => {
      const r = await rig();
      for (const listenKey of ['x'.repeat(64), 'short', '%2F']) {
        const refused = await refusedHandshake(r.url(listenKey));
        expect(refused.status).toBe(400);
        expect(refused.body).toEqual({ code: -1125, msg: 'This listenKey does not exist.' });
      }
      expect(r.streams.socketCount).toBe(0);
    });

    it('when the listenKey has expired, then the handshake is refused with -1125', async () => {
      const r = await rig();
      const listenKey = r.issue(ALICE, ALICE_TRADER);
      now = T0 + 3_600_000;
      expect((await refusedHandshake(r.url(listenKey))).body).toEqual({ code: -1125, msg: 'This listenKey does not exist.' });
    });

    it('when the path has a trailing slash or a query, then the socket opens all the same', async () => {
      const r = await rig();
      const listenKey = r.issue(ALICE, ALICE_TRADER);
      await open(r, `${listenKey}/`);
      await open(r, `${listenKey}?x=1`);
      expect(r.streams.socketCount).toBe(2);
    });

    it('when a listenKey already has its limit of sockets, then one more is refused with 429 -1003 and a strike', async () => {
      const r = await rig({ socketsPerListenKey: 2 });
      const listenKey = r.issue(ALICE, ALICE_TRADER);
      const first = await open(r, listenKey);
      await open(r, listenKey);
      const refused = await refusedHandshake(r.url(listenKey));
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.body).toEqual({ code: -1003, msg: 'Too many requests; current limit is 2 requests per listenKey.' });
      expect(r.strikes).toEqual(['127.0.0.1']);
      await first.close();
      await open(r, listenKey);
      expect(r.streams.socketCount).toBe(2);
    });

    it('when an IP already has its limit of user sockets, then one more is refused with 429 -1003 and a strike', async () => {
      const r = await rig({ socketsPerIp: 2 });
      await open(r, r.issue(ALICE, ALICE_TRADER));
      await open(r, r.issue(BOB, BOB_KEY));
      const refused = await refusedHandshake(r.url(r.issue(BOB, BOB_KEY)));
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ code: -1003, msg: 'Too many requests; current limit is 2 requests per IP.' });
      expect(r.strikes).toEqual(['127.0.0.1']);
    });
  });

  describe('content', () => {
    it('when a step fills an order of the account, then one array holds its reports, then its ticket, then its balances', async () => {
      const r = await rig();
      const alice = await open(r, r.issue(ALICE, ALICE_TRADER));
      r.commit([accepted, makerFill, takerFill, bobBalance, aliceBalance]);
      expect(await alice.next()).toEqual([acceptedReport, fillReport, ticket, aliceAccountInfo]);
    });

    it('when the frame is sent, then its fields come in the order of the spec, longs as strings', async () => {
      const r = await rig();
      const alice = await open(r, r.issue(ALICE, ALICE_TRADER));
      r.commit([takerFill]);
      expect(await alice.nextText()).toBe(
        '[{"e":"executionReport","E":"1700000000400","s":"BTCUSDT","c":"my-1","S":"BUY","o":"LIMIT","f":"GTC","q":"0.01","p":"30000",' +
          '"X":"PARTIALLY_FILLED","i":"52001","M":"51990","l":"0.004","z":"0.004","L":"30000","n":"0.000004","N":"BTC",' +
          '"u":true,"w":true,"m":false,"O":"1700000000000","Z":"120","P":"0","F":"0"},' +
          '{"e":"ticketInfo","E":"1700000000400","s":"BTCUSDT","q":"0.004","t":"1700000000400","p":"30000","T":"9001",' +
          '"o":"52001","c":"my-1","O":"51990","a":"1001","m":false,"S":"BUY"}]',
      );
    });

    it('when the maker side is watched, then it sees its own fill as maker, with the counter order and its fee', async () => {
      const r = await rig();
      const bob = await open(r, r.issue(BOB, BOB_KEY));
      r.commit([accepted, makerFill, takerFill, bobBalance, aliceBalance]);
      expect(await bob.next()).toEqual([
        {
          ...acceptedReport,
          c: '51990',
          S: 'SELL',
          q: '0.004',
          X: 'FILLED',
          i: '51990',
          M: '52001',
          l: '0.004',
          z: '0.004',
          L: '30000',
          n: '0.12',
          N: 'USDT',
          w: false,
          m: true,
          Z: '120',
        },
        { ...ticket, o: '51990', c: '51990', O: '52001', a: '1002', m: true, S: 'SELL' },
        { e: 'outboundAccountInfo', E: '1700000000400', T: true, W: true, D: true, B: [{ a: 'USDT', f: '119.88', l: '0' }] },
      ]);
    });

    it('when a batch holds two steps, then each is its own array, in engine order', async () => {
      const r = await rig();
      const alice = await open(r, r.issue(ALICE, ALICE_TRADER));
      const canceled: OrderEvent = { ...accepted, seq: SEQ + 1, time: TIME + 1, order: order({ status: 'CANCELED', updateTime: TIME + 1 }) };
      const unlocked: BalanceEvent = { kind: 'balance', seq: SEQ + 1, time: TIME + 1, accountId: ALICE, balances: [balanceAtoms('USDT', '1000', '0')] };
      r.commit([accepted, aliceBalance, canceled, unlocked]);
      expect(await alice.next()).toEqual([acceptedReport, aliceAccountInfo]);
      expect(await alice.next()).toEqual([
        { ...acceptedReport, E: '1700000000401', X: 'CANCELED', w: false },
        { e: 'outboundAccountInfo', E: '1700000000401', T: true, W: true, D: true, B: [{ a: 'USDT', f: '1000', l: '0' }] },
      ]);
    });

    it('when a step only changes balances (a deposit), then the array holds the outboundAccountInfo alone', async () => {
      const r = await rig();
      const alice = await open(r, r.issue(ALICE, ALICE_TRADER));
      r.commit([aliceBalance]);
      expect(await alice.next()).toEqual([aliceAccountInfo]);
    });

    it('when a step touches only other accounts, then nothing is pushed', async () => {
      const r = await rig();
      const alice = await open(r, r.issue(ALICE, ALICE_TRADER));
      r.commit([makerFill, bobBalance]);
      r.commit([{ ...aliceBalance, seq: SEQ + 1 }]);
      expect(await alice.next()).toEqual([aliceAccountInfo]);
      expect(alice.pending).toBe(0);
    });

    it('when an account has a socket open, then the core records its events, and no longer once its last socket closed', async () => {
      const r = await rig();
      const watched = (): boolean[] => [ALICE, BOB].map((accountId) => r.core.streamedAccounts?.has(accountId) ?? true);
      expect(watched()).toEqual([false, false]);
      const listenKey = r.issue(ALICE, ALICE_TRADER);
      const first = await open(r, listenKey);
      await open(r, listenKey);
      expect(watched()).toEqual([true, false]);
      r.close(listenKey, ALICE);
      await first.closed;
      await vi.waitFor(() => expect(watched()).toEqual([false, false]));
    });

    it('when events were committed before the socket opened, then they are not replayed', async () => {
      const r = await rig();
      const listenKey = r.issue(ALICE, ALICE_TRADER);
      r.commit([accepted, aliceBalance]);
      const alice = await open(r, listenKey);
      r.commit([{ ...takerFill, seq: SEQ + 1 }]);
      expect(await alice.next()).toEqual([fillReport, ticket]);
    });

    it('when the listenKey came from a key without TRADE or WITHDRAW, then T and W are false', async () => {
      const r = await rig();
      const reader = await open(r, r.issue(ALICE, ALICE_READER));
      const trader = await open(r, r.issue(ALICE, ALICE_TRADER));
      r.commit([aliceBalance]);
      expect(await reader.next()).toEqual([{ ...aliceAccountInfo, T: false, W: false }]);
      expect(await trader.next()).toEqual([aliceAccountInfo]);
    });
  });

  describe('heartbeat', () => {
    it('when the ping interval passes, then the server sends {"ping":<ms>}', async () => {
      const r = await rig({ pingIntervalMs: 10 });
      const alice = await open(r, r.issue(ALICE, ALICE_TRADER));
      expect(await alice.next()).toEqual({ ping: T0 });
    });

    it('when the client sends {"ping":<n>}, then it gets {"pong":<n>}; a bare "ping" gets the server time', async () => {
      const r = await rig();
      const alice = await open(r, r.issue(ALICE, ALICE_TRADER));
      alice.send('{"ping":1699999999999}');
      expect(await alice.nextText()).toBe('{"pong":1699999999999}');
      alice.send('ping');
      expect(await alice.next()).toEqual({ pong: T0 });
    });

    it('when the client sends other texts (an SDK subscription), then they are ignored', async () => {
      const r = await rig();
      const alice = await open(r, r.issue(ALICE, ALICE_TRADER));
      alice.send('{"topic":"order","event":"sub"}');
      alice.send('{"ping":7}');
      expect(await alice.next()).toEqual({ pong: 7 });
      expect(alice.pending).toBe(0);
    });

    it('when the client sends a protocol ping, then it gets a protocol pong', async () => {
      const r = await rig();
      const alice = await open(r, r.issue(ALICE, ALICE_TRADER));
      const pong = new Promise<string>((resolve) => alice.ws.once('pong', (data) => resolve(data.toString('utf8'))));
      alice.ws.ping('hello');
      expect(await pong).toBe('hello');
    });

    it('when the socket has lived its lifetime, then it closes 1000 "connection lifetime reached"', async () => {
      const r = await rig({ pingIntervalMs: 10, lifetimeMs: 86_400_000 });
      const alice = await open(r, r.issue(ALICE, ALICE_TRADER));
      now = T0 + 86_400_000;
      expect(await alice.closed).toEqual({ code: 1000, reason: 'connection lifetime reached' });
    });

    it('when a client frame is over the size limit, then the socket closes 1009', async () => {
      const r = await rig({ maxClientFrameBytes: 64 });
      const alice = await open(r, r.issue(ALICE, ALICE_TRADER));
      alice.send(`{"ping":1,"pad":"${'x'.repeat(64)}"}`);
      expect((await alice.closed).code).toBe(1009);
    });
  });

  describe('lifecycle', () => {
    it('when the listenKey is closed, then its sockets close 1000 "listenKey closed" and others stay', async () => {
      const r = await rig();
      const listenKey = r.issue(ALICE, ALICE_TRADER);
      const first = await open(r, listenKey);
      const second = await open(r, listenKey);
      const other = await open(r, r.issue(ALICE, ALICE_TRADER));
      r.close(listenKey, ALICE);
      expect(await first.closed).toEqual({ code: 1000, reason: 'listenKey closed' });
      expect(await second.closed).toEqual({ code: 1000, reason: 'listenKey closed' });
      r.commit([aliceBalance]);
      expect(await other.next()).toEqual([aliceAccountInfo]);
    });

    it('when the listenKey expires, then its sockets close 1000 "listenKey expired"', async () => {
      const r = await rig();
      const alice = await open(r, r.issue(ALICE, ALICE_TRADER));
      now = T0 + 3_600_000;
      r.listenKeys.sweep();
      expect(await alice.closed).toEqual({ code: 1000, reason: 'listenKey expired' });
    });

    it('when a batch revokes the API key, then the sockets of its listenKeys close 1000 "listenKey closed"', async () => {
      const r = await rig();
      const trader = await open(r, r.issue(ALICE, ALICE_TRADER));
      const readerKey = r.issue(ALICE, ALICE_READER);
      const reader = await open(r, readerKey);
      r.commit([], [{ type: 'revokeApiKey', apiKey: ALICE_TRADER }]);
      expect(await trader.closed).toEqual({ code: 1000, reason: 'listenKey closed' });
      expect(r.listenKeys.find(readerKey)?.apiKey).toBe(ALICE_READER);
      r.commit([aliceBalance]);
      expect(await reader.next()).toEqual([{ ...aliceAccountInfo, T: false, W: false }]);
    });

    it('when the streams close, then every socket closes 1001 and new handshakes fail', async () => {
      const r = await rig();
      const listenKey = r.issue(ALICE, ALICE_TRADER);
      const alice = await open(r, listenKey);
      await r.streams.close();
      expect(await alice.closed).toEqual({ code: 1001, reason: 'server shutting down' });
      expect(r.streams.socketCount).toBe(0);
      await expect(WsProbe.open(r.url(listenKey))).rejects.toThrow();
    });

    it('when every socket is disconnected (a leader stepped down), then they close 1001 and the stream keeps serving', async () => {
      const r = await rig();
      const listenKey = r.issue(ALICE, ALICE_TRADER);
      const alice = await open(r, listenKey);
      await r.streams.disconnectAll();
      expect(await alice.closed).toEqual({ code: 1001, reason: 'server shutting down' });
      expect(r.streams.socketCount).toBe(0);
      const again = await open(r, listenKey);
      r.commit([aliceBalance]);
      expect(await again.next()).toEqual([aliceAccountInfo]);
    });

    it('when a reader stops reading and its backlog passes the limit, then it is cut off', async () => {
      const r = await rig({ maxBufferedBytes: 64 * 1024 });
      const listenKey = r.issue(ALICE, ALICE_TRADER);
      const port = Number(new URL(r.url(listenKey)).port);
      // A raw TCP client: the handshake by hand, then never reading, so the server's backlog grows.
      const reader = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => reader.once('connect', resolve));
      reader.write(
        `GET /openapi/ws/${listenKey} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
      const head = await new Promise<string>((resolve) => reader.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))));
      expect(head.startsWith('HTTP/1.1 101')).toBe(true);
      reader.pause();
      const big: BalanceEvent = { ...aliceBalance, balances: Array.from({ length: 500 }, (_, i) => (balanceAtoms(`A${i}`, '123456789.12345678', '0'))) };
      for (let i = 0; i < 2000 && r.warnings.length === 0; i++) r.commit([{ ...big, seq: i }]);
      expect(r.warnings).toEqual(['user stream reader too slow; cut off']);
      const ended = new Promise<void>((resolve) => reader.once('close', () => resolve()));
      reader.resume();
      await ended;
      expect(r.streams.socketCount).toBe(0);
    });
  });
});
