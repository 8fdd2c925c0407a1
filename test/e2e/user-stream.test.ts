import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ok, refused } from '../support/answers.js';
import { request, type SpotClient } from '../support/clients.js';
import { Operator, type Member } from '../support/fixtures.js';
import { CORE_THREADS, startTestServer, type TestServer } from '../support/server.js';
import { refusedHandshake, WsProbe } from '../support/ws-client.js';

const STREAM = '/openapi/v1/userDataStream';
const ORDER = '/openapi/v1/order';
const LISTEN_KEY = /^[A-Za-z0-9]{64}$/;
const NO_LISTEN_KEY = { code: -1125, msg: 'This listenKey does not exist.' };

interface OrderReply {
  orderId: string;
  time: string;
  transactTime: string;
  fills: { tradeId: string }[];
}

/** The non-fill fields of an executionReport, as the spec shows them for an order not (yet) filled. */
const NOT_A_FILL = { M: '0', l: '0', L: '0', n: '0', N: '', u: true, m: false };

describe.each(CORE_THREADS)('W1 user data stream over a real server (core thread %s)', (coreThread) => {
  let t: TestServer;
  let op: Operator;
  const sockets: WsProbe[] = [];

  const wsUrl = (listenKey: string): string => `${t.url.replace(/^http/, 'ws')}/openapi/ws/${listenKey}`;
  const unsigned = (method: string, client: SpotClient, query = ''): ReturnType<typeof request> =>
    request(`${t.url}${STREAM}${query}`, { method, headers: { 'X-BH-APIKEY': client.apiKey } });
  const listenKeyOf = async (client: SpotClient): Promise<string> => ok<{ listenKey: string }>(await client.signed('POST', STREAM)).listenKey;
  const connect = async (client: SpotClient): Promise<WsProbe> => {
    const probe = await WsProbe.open(wsUrl(await listenKeyOf(client)));
    sockets.push(probe);
    return probe;
  };
  const place = async (member: Member, params: Record<string, string>): Promise<OrderReply> =>
    ok<OrderReply>(await member.client.signed('POST', ORDER, params));

  beforeAll(async () => {
    t = await startTestServer({ BOURSE_CORE_THREAD: coreThread });
    op = new Operator(t);
    await op.listUsdtMarket({ asset: 'WSX', precision: 8, chains: ['WSX'] });
  });
  afterEach(async () => {
    for (const probe of sockets.splice(0)) await probe.close();
  });
  afterAll(async () => t.stop());

  describe('A26–A28 listenKeys', () => {
    it('when A26 is called with the key only (unsigned), then it answers a new 64-character listenKey', async () => {
      const member = await op.member();
      const first = ok<{ listenKey: string }>(await unsigned('POST', member.client));
      const second = ok<{ listenKey: string }>(await unsigned('POST', member.client));
      expect(Object.keys(first)).toEqual(['listenKey']);
      expect(first.listenKey).toMatch(LISTEN_KEY);
      expect(second.listenKey).toMatch(LISTEN_KEY);
      expect(second.listenKey).not.toBe(first.listenKey);
    });

    it('when A26 is signed, then the signature is verified: a good one gets a listenKey, a bad one -1022', async () => {
      const member = await op.member();
      expect(await listenKeyOf(member.client)).toMatch(LISTEN_KEY);
      const bad = await member.client.signed('POST', STREAM, {}, { signature: '0'.repeat(64) });
      refused(bad, -1022, 'Signature for this request is not valid.');
    });

    it('when A26 is signed without a timestamp, then it is refused with -1102', async () => {
      const member = await op.member();
      const answer = await member.client.signed('POST', STREAM, {}, { noTimestamp: true });
      refused(answer, -1102, "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed.");
    });

    it('when A26 has no key, then it is refused with -1002', async () => {
      refused(await request(`${t.url}${STREAM}`, { method: 'POST' }), -1002, 'You are not authorized to execute this request.');
    });

    it('when A27 keeps a listenKey alive, signed or not, then it answers {}', async () => {
      const member = await op.member();
      const listenKey = await listenKeyOf(member.client);
      expect(ok(await member.client.signed('PUT', STREAM, { listenKey }))).toEqual({});
      expect(ok(await unsigned('PUT', member.client, `?listenKey=${listenKey}`))).toEqual({});
    });

    it('when A27 or A28 name an unknown or another account’s listenKey, then they answer -1125', async () => {
      const owner = await op.member();
      const stranger = await op.member();
      const listenKey = await listenKeyOf(owner.client);
      for (const method of ['PUT', 'DELETE']) {
        refused(await stranger.client.signed(method, STREAM, { listenKey }), NO_LISTEN_KEY.code, NO_LISTEN_KEY.msg);
        refused(await owner.client.signed(method, STREAM, { listenKey: 'Z'.repeat(64) }), NO_LISTEN_KEY.code, NO_LISTEN_KEY.msg);
      }
      expect(ok(await owner.client.signed('PUT', STREAM, { listenKey }))).toEqual({});
    });

    it('when A27 gets no listenKey or a malformed one, then it answers -1102 or -1100', async () => {
      const member = await op.member();
      refused(await member.client.signed('PUT', STREAM), -1102, "Mandatory parameter 'listenKey' was not sent, was empty/null, or malformed.");
      const malformed = await member.client.signed('PUT', STREAM, { listenKey: 'short' });
      expect(malformed.status).toBe(400);
      expect((malformed.body as { code: number }).code).toBe(-1100);
    });

    it('when A28 closes a listenKey, then its socket closes 1000 "listenKey closed" and the listenKey is gone', async () => {
      const member = await op.member();
      const listenKey = await listenKeyOf(member.client);
      const probe = await WsProbe.open(wsUrl(listenKey));
      expect(ok(await member.client.signed('DELETE', STREAM, { listenKey }))).toEqual({});
      expect(await probe.closed).toEqual({ code: 1000, reason: 'listenKey closed' });
      refused(await member.client.signed('PUT', STREAM, { listenKey }), NO_LISTEN_KEY.code, NO_LISTEN_KEY.msg);
      expect(await refusedHandshake(wsUrl(listenKey))).toMatchObject({ status: 400, body: NO_LISTEN_KEY });
    });

    it('when the listenKey TTL passes without keepalive, then the socket closes 1000 "listenKey expired"', async () => {
      const member = await op.member();
      await op.tradingConfig({ listenKeyTtlMs: 300 });
      try {
        const listenKey = await listenKeyOf(member.client);
        const probe = await WsProbe.open(wsUrl(listenKey));
        expect(await probe.closed).toEqual({ code: 1000, reason: 'listenKey expired' });
        refused(await member.client.signed('PUT', STREAM, { listenKey }), NO_LISTEN_KEY.code, NO_LISTEN_KEY.msg);
      } finally {
        await op.tradingConfig({ listenKeyTtlMs: 3_600_000 });
      }
    });

    it('when the API key is revoked, then the sockets of its listenKeys close 1000 "listenKey closed"', async () => {
      const user = await op.user();
      const keyA = await op.keyOf(user.userId);
      const keyB = await op.keyOf(user.userId);
      const streamA = await WsProbe.open(wsUrl(await listenKeyOf(keyA)));
      const streamB = await connect(keyB);
      await op.ok('DELETE', `/api-keys/${keyA.apiKey}`);
      expect(await streamA.closed).toEqual({ code: 1000, reason: 'listenKey closed' });
      await op.deposit(user.accountId, 'USDT', '5');
      expect(await streamB.next()).toEqual([
        { e: 'outboundAccountInfo', E: expect.stringMatching(/^[0-9]+$/) as unknown, T: true, W: true, D: true, B: [{ a: 'USDT', f: '5', l: '0' }] },
      ]);
    });

    it('when the handshake names an unknown listenKey, then it is refused with 400 -1125', async () => {
      expect(await refusedHandshake(wsUrl('Q'.repeat(64)))).toMatchObject({ status: 400, body: NO_LISTEN_KEY });
    });
  });

  describe('events', () => {
    it('when an order rests, then one array holds its NEW report and the balances it locked', async () => {
      const member = await op.member({ USDT: '1000' });
      const stream = await connect(member.client);
      const reply = await place(member, { symbol: 'WSXUSDT', side: 'BUY', type: 'LIMIT', quantity: '2', price: '90', newClientOrderId: 'rest-1' });
      expect(await stream.next()).toEqual([
        {
          e: 'executionReport',
          E: reply.time,
          s: 'WSXUSDT',
          c: 'rest-1',
          S: 'BUY',
          o: 'LIMIT',
          f: 'GTC',
          q: '2',
          p: '90',
          X: 'NEW',
          i: reply.orderId,
          ...NOT_A_FILL,
          z: '0',
          w: true,
          O: reply.time,
          Z: '0',
          P: '0',
          F: '0',
        },
        { e: 'outboundAccountInfo', E: reply.time, T: true, W: true, D: true, B: [{ a: 'USDT', f: '820', l: '180' }] },
      ]);
      await member.client.signed('DELETE', ORDER, { orderId: reply.orderId });
    });

    it('when an order crosses, then taker and maker each see their side: acceptance first, then the fill, its ticket and balances; then a cancel', async () => {
      const maker = await op.member({ WSX: '10' });
      const taker = await op.member({ USDT: '1000' });
      const makerStream = await connect(maker.client);
      const takerStream = await connect(taker.client);

      const resting = await place(maker, { symbol: 'WSXUSDT', side: 'SELL', type: 'LIMIT', quantity: '2', price: '100', newClientOrderId: 'mk-1' });
      const makerNew = {
        e: 'executionReport',
        E: resting.time,
        s: 'WSXUSDT',
        c: 'mk-1',
        S: 'SELL',
        o: 'LIMIT',
        f: 'GTC',
        q: '2',
        p: '100',
        X: 'NEW',
        i: resting.orderId,
        ...NOT_A_FILL,
        z: '0',
        w: true,
        O: resting.time,
        Z: '0',
        P: '0',
        F: '0',
      };
      expect(await makerStream.next()).toEqual([
        makerNew,
        { e: 'outboundAccountInfo', E: resting.time, T: true, W: true, D: true, B: [{ a: 'WSX', f: '8', l: '2' }] },
      ]);

      const taking = await place(taker, { symbol: 'WSXUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.5', price: '101', newClientOrderId: 'tk-1' });
      const tradeId = taking.fills[0].tradeId;
      const at = taking.time;
      const takerNew = {
        e: 'executionReport',
        E: at,
        s: 'WSXUSDT',
        c: 'tk-1',
        S: 'BUY',
        o: 'LIMIT',
        f: 'GTC',
        q: '0.5',
        p: '101',
        X: 'NEW',
        i: taking.orderId,
        ...NOT_A_FILL,
        z: '0',
        w: true,
        O: at,
        Z: '0',
        P: '0',
        F: '0',
      };
      expect(await takerStream.next()).toEqual([
        takerNew,
        { ...takerNew, X: 'FILLED', M: resting.orderId, l: '0.5', z: '0.5', L: '100', n: '0.0005', N: 'WSX', w: false, Z: '50' },
        { e: 'ticketInfo', E: at, s: 'WSXUSDT', q: '0.5', t: at, p: '100', T: tradeId, o: taking.orderId, c: 'tk-1', O: resting.orderId, a: taker.accountId, m: false, S: 'BUY' },
        {
          e: 'outboundAccountInfo',
          E: at,
          T: true,
          W: true,
          D: true,
          B: [
            { a: 'USDT', f: '950', l: '0' },
            { a: 'WSX', f: '0.4995', l: '0' },
          ],
        },
      ]);
      expect(await makerStream.next()).toEqual([
        { ...makerNew, E: at, X: 'PARTIALLY_FILLED', M: taking.orderId, l: '0.5', z: '0.5', L: '100', n: '0.05', N: 'USDT', m: true, Z: '50' },
        { e: 'ticketInfo', E: at, s: 'WSXUSDT', q: '0.5', t: at, p: '100', T: tradeId, o: resting.orderId, c: 'mk-1', O: taking.orderId, a: maker.accountId, m: true, S: 'SELL' },
        {
          e: 'outboundAccountInfo',
          E: at,
          T: true,
          W: true,
          D: true,
          B: [
            { a: 'USDT', f: '49.95', l: '0' },
            { a: 'WSX', f: '8', l: '1.5' },
          ],
        },
      ]);

      const canceled = ok<{ transactTime: string }>(await maker.client.signed('DELETE', ORDER, { orderId: resting.orderId }));
      expect(await makerStream.next()).toEqual([
        { ...makerNew, E: canceled.transactTime, X: 'CANCELED', z: '0.5', w: false, Z: '50' },
        { e: 'outboundAccountInfo', E: canceled.transactTime, T: true, W: true, D: true, B: [{ a: 'WSX', f: '9.5', l: '0' }] },
      ]);
      expect(makerStream.pending).toBe(0);
      expect(takerStream.pending).toBe(0);
    });

    it('when the operator credits a deposit, then the stream gets an outboundAccountInfo alone', async () => {
      const member = await op.member({ USDT: '10' });
      const stream = await connect(member.client);
      await op.deposit(member.accountId, 'USDT', '2.5');
      expect(await stream.next()).toEqual([
        { e: 'outboundAccountInfo', E: expect.stringMatching(/^[0-9]+$/) as unknown, T: true, W: true, D: true, B: [{ a: 'USDT', f: '12.5', l: '0' }] },
      ]);
    });

    it('when the listenKey came from a key without TRADE and WITHDRAW, then T and W are false', async () => {
      const member = await op.member({}, { permissions: ['USER_STREAM', 'USER_DATA'] });
      const stream = await connect(member.client);
      await op.deposit(member.accountId, 'BTC', '1');
      expect(await stream.next()).toEqual([
        { e: 'outboundAccountInfo', E: expect.stringMatching(/^[0-9]+$/) as unknown, T: false, W: false, D: true, B: [{ a: 'BTC', f: '1', l: '0' }] },
      ]);
    });

    it('when another account’s balances change, then this stream hears nothing of it', async () => {
      const member = await op.member();
      const other = await op.member();
      const stream = await connect(member.client);
      await op.deposit(other.accountId, 'USDT', '7');
      await op.deposit(member.accountId, 'USDT', '3');
      expect(await stream.next()).toEqual([
        { e: 'outboundAccountInfo', E: expect.stringMatching(/^[0-9]+$/) as unknown, T: true, W: true, D: true, B: [{ a: 'USDT', f: '3', l: '0' }] },
      ]);
    });

    it('when the client sends {"ping":<n>}, then the server answers {"pong":<n>}', async () => {
      const member = await op.member();
      const stream = await connect(member.client);
      stream.send('{"ping":1700000000000}');
      expect(await stream.nextText()).toBe('{"pong":1700000000000}');
    });
  });
});
