import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, type Balance } from '../support/account-reads.js';
import type { HttpAnswer } from '../support/clients.js';
import { Operator, type Member } from '../support/fixtures.js';
import { ETHUSDT_LIMIT_GTC_BUY } from '../support/order-records.js';
import { startTestServer, type TestServer } from '../support/server.js';

type Params = Record<string, string | number>;
interface OrderBody {
  orderId: string;
  clientOrderId: string;
  time: string;
  updateTime: string;
  transactTime: string;
}

const ORDER = '/openapi/v1/order';
const NOT_FOUND = { code: -2013, msg: 'Order does not exist.' };

describe('A13 query order and A14 cancel order', () => {
  let t: TestServer;
  let op: Operator;
  let alice: Member;
  let bob: Member;

  /** A resting LIMIT BUY of 1 ETH at `price` on ETHUSDT. */
  const rest = async (trader: Member, price: string, clientOrderId?: string): Promise<OrderBody> => {
    const params: Params = { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price };
    if (clientOrderId !== undefined) params.newClientOrderId = clientOrderId;
    const answer = await trader.client.signed('POST', ORDER, params);
    expect(answer.status).toBe(200);
    return answer.body as OrderBody;
  };
  const query = (trader: Member, params: Params): Promise<HttpAnswer> => trader.client.signed('GET', ORDER, params);
  const cancel = (trader: Member, params: Params): Promise<HttpAnswer> => trader.client.signed('DELETE', ORDER, params);
  const usdt = (trader: Member): Promise<Balance> => balance(trader.client, 'USDT');

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    alice = await op.member({ USDT: '10000', ETH: '10' });
    bob = await op.member({ USDT: '10000', ETH: '10' });
    // This file places more than the default 20 orders a second from one key.
    await op.tradingConfig({ ordersPerSecond: 100000 });
  });
  afterAll(async () => t.stop());

  describe('A13', () => {
    it('when queried by orderId, then the record is answered without transactTime or fills', async () => {
      const placed = await rest(alice, '10');
      const answer = await query(alice, { orderId: placed.orderId });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        accountId: alice.accountId,
        ...ETHUSDT_LIMIT_GTC_BUY,
        orderId: placed.orderId,
        clientOrderId: placed.orderId,
        price: '10',
        origQty: '1',
        executedQty: '0',
        cummulativeQuoteQty: '0',
        avgPrice: '0',
        status: 'NEW',
        time: placed.time,
        updateTime: placed.updateTime,
        isWorking: true,
      });
    });

    it.each(['origClientOrderId', 'clientOrderId'])('when queried by %s, then that order is answered', async (name) => {
      const placed = await rest(alice, '11', `q-${name}`);
      const answer = await query(alice, { [name]: `q-${name}` });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ orderId: placed.orderId, clientOrderId: `q-${name}` });
    });

    it('when orderId and origClientOrderId name the same order, then it is answered', async () => {
      const placed = await rest(alice, '12', 'q-same');
      expect((await query(alice, { orderId: placed.orderId, origClientOrderId: 'q-same' })).body).toMatchObject({ orderId: placed.orderId });
    });

    it.each(['origClientOrderId', 'clientOrderId'])('when orderId and %s name different orders, then -2013', async (name) => {
      const first = await rest(alice, '13', `q-first-${name}`);
      await rest(alice, '13', `q-second-${name}`);
      const answer = await query(alice, { orderId: first.orderId, [name]: `q-second-${name}` });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(NOT_FOUND);
    });

    it.each<[string, Params]>([
      ['neither is sent', {}],
      ['both are empty', { orderId: '', origClientOrderId: '' }],
      ['orderId is 0 (absent)', { orderId: 0 }],
    ])('when %s, then -1102 naming both alternatives', async (_what, params) => {
      const answer = await query(alice, params);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: -1102, msg: "Param 'orderId' or 'origClientOrderId' must be sent, but both were empty/null!" });
    });

    it('when the orderId is unknown, then -2013', async () => {
      expect((await query(alice, { orderId: 999999 })).body).toEqual(NOT_FOUND);
    });

    it('when the client order id differs only in case, then -2013 (lookups are exact)', async () => {
      await rest(alice, '14', 'CaseId');
      expect((await query(alice, { origClientOrderId: 'caseid' })).body).toEqual(NOT_FOUND);
    });

    it("when another account's order is queried by id or client id, then -2013", async () => {
      const placed = await rest(bob, '15', 'bob-only');
      expect((await query(alice, { orderId: placed.orderId })).body).toEqual(NOT_FOUND);
      expect((await query(alice, { origClientOrderId: 'bob-only' })).body).toEqual(NOT_FOUND);
    });

    it('when queried without a symbol, then the order is found all the same (coinsph, hbtc)', async () => {
      const placed = await rest(alice, '16');
      const answer = await alice.client.signed('GET', '/openapi/account/v1/order', { orderId: placed.orderId });
      expect(answer.body).toMatchObject({ orderId: placed.orderId, symbol: 'ETHUSDT' });
    });
  });

  describe('A14', () => {
    it('when an open order is canceled by orderId, then the CANCELED record with transactTime comes back and the lock is released', async () => {
      const before = await usdt(alice);
      const placed = await rest(alice, '20');
      expect(await usdt(alice)).not.toEqual(before);
      const answer = await cancel(alice, { orderId: placed.orderId });
      expect(answer.status).toBe(200);
      const body = answer.body as OrderBody;
      expect(body).toEqual({
        accountId: alice.accountId,
        ...ETHUSDT_LIMIT_GTC_BUY,
        orderId: placed.orderId,
        clientOrderId: placed.orderId,
        price: '20',
        origQty: '1',
        executedQty: '0',
        cummulativeQuoteQty: '0',
        avgPrice: '0',
        status: 'CANCELED',
        time: placed.time,
        updateTime: body.transactTime,
        isWorking: false,
        transactTime: body.transactTime,
      });
      expect(Number(body.transactTime)).toBeGreaterThanOrEqual(Number(placed.time));
      expect(await usdt(alice)).toEqual(before);
      expect((await query(alice, { orderId: placed.orderId })).body).toMatchObject({ status: 'CANCELED', isWorking: false });
    });

    it.each(['clientOrderId', 'origClientOrderId'])('when canceled by %s, then that order is canceled', async (name) => {
      const placed = await rest(alice, '21', `c-${name}`);
      const answer = await cancel(alice, { [name]: `c-${name}` });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ orderId: placed.orderId, status: 'CANCELED' });
    });

    it.each(['clientOrderId', 'origClientOrderId'])('when orderId and %s name different orders, then -2013 and neither is canceled', async (name) => {
      const first = await rest(alice, '22', `c-first-${name}`);
      const second = await rest(alice, '22', `c-second-${name}`);
      const answer = await cancel(alice, { orderId: first.orderId, [name]: `c-second-${name}` });
      expect(answer.body).toEqual(NOT_FOUND);
      expect((await query(alice, { orderId: first.orderId })).body).toMatchObject({ status: 'NEW' });
      expect((await query(alice, { orderId: second.orderId })).body).toMatchObject({ status: 'NEW' });
    });

    it('when neither orderId nor a client id is sent, then -1102', async () => {
      const answer = await cancel(alice, { symbol: 'ETHUSDT' });
      expect(answer.status).toBe(400);
      expect((answer.body as { code: number }).code).toBe(-1102);
      expect((answer.body as { msg: string }).msg).toMatch(/^Param 'orderId' or '(orig)?[cC]lientOrderId' must be sent, but both were empty\/null!$/);
    });

    it('when the order was canceled already, then -1142', async () => {
      const placed = await rest(alice, '23');
      expect((await cancel(alice, { orderId: placed.orderId })).status).toBe(200);
      const again = await cancel(alice, { orderId: placed.orderId });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ code: -1142, msg: 'Order has been canceled' });
    });

    it('when the order was filled, then -1139', async () => {
      const ask = (await bob.client.signed('POST', ORDER, { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.5', price: '3000' })).body as OrderBody;
      const take = (await alice.client.signed('POST', ORDER, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.5', price: '3000' })).body as OrderBody;
      expect((await query(bob, { orderId: ask.orderId })).body).toMatchObject({ status: 'FILLED' });
      expect((await cancel(bob, { orderId: ask.orderId })).body).toEqual({ code: -1139, msg: 'Order has been filled.' });
      expect((await cancel(alice, { orderId: take.orderId })).body).toEqual({ code: -1139, msg: 'Order has been filled.' });
    });

    it('when a partly filled order is canceled, then it keeps its fills and ends CANCELED', async () => {
      const ask = (await bob.client.signed('POST', ORDER, { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', quantity: '1', price: '3100' })).body as OrderBody;
      await alice.client.signed('POST', ORDER, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.25', price: '3100' });
      const answer = await cancel(bob, { orderId: ask.orderId });
      expect(answer.body).toMatchObject({ status: 'CANCELED', executedQty: '0.25', cummulativeQuoteQty: '775', avgPrice: '3100', isWorking: false });
    });

    it("when another account's order is canceled by id or client id, then -2013 and it stays open", async () => {
      const placed = await rest(bob, '24', 'bob-keeps');
      expect((await cancel(alice, { orderId: placed.orderId })).body).toEqual(NOT_FOUND);
      expect((await cancel(alice, { clientOrderId: 'bob-keeps' })).body).toEqual(NOT_FOUND);
      expect((await query(bob, { orderId: placed.orderId })).body).toMatchObject({ status: 'NEW' });
    });

    it('when the order id is unknown, then -2013', async () => {
      expect((await cancel(alice, { orderId: 888888 })).body).toEqual(NOT_FOUND);
    });

    it('when the symbol is halted, then the cancel still works', async () => {
      const placed = await rest(alice, '25');
      await op.ok('PATCH', '/symbols/ETHUSDT', { status: 'HALT' });
      try {
        expect((await cancel(alice, { orderId: placed.orderId })).body).toMatchObject({ status: 'CANCELED' });
      } finally {
        await op.ok('PATCH', '/symbols/ETHUSDT', { status: 'TRADING' });
      }
    });

    it('when the cancel parameters are all in a form body without a query, then it works (hbtc)', async () => {
      const placed = await rest(alice, '26');
      const answer = await alice.client.signed('DELETE', ORDER, { orderId: placed.orderId }, { place: 'body' });
      expect(answer.body).toMatchObject({ orderId: placed.orderId, status: 'CANCELED' });
    });
  });
});
