/**
 * Story: a take-profit market buy sized in quote fires and walks two ask levels. TPX last traded at
 * 100; Dana places a TAKE_PROFIT BUY spending 300 USDT when the price falls to 95, which locks 300.
 * Sol offers 1 at 96 and 5 at 97; a trade at 95 fires Dana's order, which buys 1 at 96 and 2.1 at 97
 * (the 0.3 left cannot buy a step at 97), pays its fees in TPX and gets the 0.3 back. The balance
 * flow of each side adds up to its balances and the operator's verify holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flows, holdings } from '../../support/account-reads.js';
import { ok } from '../../support/answers.js';
import { depthOf, listAlgoMarket, nextPush, placed, queried, setAlgoOrders, tradeAt, userStream, type NewOrderReply, type Push } from '../../support/algo-orders.js';
import { Operator, type Member } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import type { WsProbe } from '../../support/ws-client.js';

describe('story: a take-profit market buy fires and walks two ask levels', () => {
  let t: TestServer;
  let op: Operator;
  let dana: Member;
  let sol: Member;
  let stream: WsProbe;
  let symbol: string;
  let takeProfit: NewOrderReply;

  const flowRows = async (who: Member, tokenId: string): Promise<string[][]> => (await flows(who.client, { tokenId })).map((f) => [f.flowType, f.change, f.total]);

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    await setAlgoOrders(op, true);
    symbol = await listAlgoMarket(op, 'TPX');
    await tradeAt(op, symbol, 'TPX', '100', '1');
    dana = await op.member({ USDT: '1000' });
    sol = await op.member({ TPX: '6' });
    stream = await userStream(t, dana.client);
  });
  afterAll(async () => {
    await stream.close();
    await t.stop();
  });

  it('1. Dana places the take-profit: 300 USDT locked, waiting', async () => {
    takeProfit = await placed(dana, { symbol, side: 'BUY', type: 'TAKE_PROFIT', quantity: '300', stopPrice: '95' });
    expect(takeProfit).toMatchObject({ status: 'NEW', isWorking: false, type: 'TAKE_PROFIT', timeInForce: 'IOC', price: '0', origQty: '300', stopPrice: '95' });
    expect(await holdings(dana.client, ['USDT'])).toEqual({ USDT: '700/300' });
    await nextPush(stream);
  });

  it('2. Sol offers two levels, above the stop price: nothing fires', async () => {
    await placed(sol, { symbol, side: 'SELL', type: 'LIMIT', quantity: '1', price: '96' });
    await placed(sol, { symbol, side: 'SELL', type: 'LIMIT', quantity: '5', price: '97' });
    expect(await queried(dana, takeProfit.orderId)).toMatchObject({ status: 'NEW', isWorking: false });
  });

  it('3. a trade at 95 fires it: it buys across both levels as the taker and is FILLED', async () => {
    await tradeAt(op, symbol, 'TPX', '95', '0.1');
    expect(await queried(dana, takeProfit.orderId)).toMatchObject({
      status: 'FILLED',
      isWorking: false,
      origQty: '300',
      executedQty: '3.1',
      cummulativeQuoteQty: '299.7',
      // 299.7 / 3.1 = 96.677…, truncated.
      avgPrice: '96.67',
      stopPrice: '95',
    });
    const trades = ok<Record<string, unknown>[]>(await dana.client.signed('GET', '/openapi/v1/myTrades', { symbol }));
    expect(trades.map((x) => [x.price, x.qty, x.commission, x.commissionAsset, x.isBuyer, x.isMaker, x.orderId])).toEqual([
      ['97', '2.1', '0.0021', 'TPX', true, false, takeProfit.orderId],
      ['96', '1', '0.001', 'TPX', true, false, takeProfit.orderId],
    ]);
    expect(await depthOf(dana.client, symbol)).toEqual({ bids: [], asks: [['97', '2.9']] });
  });

  it("4. Dana's stream has the whole fire in one push: trigger, fills, tickets, balances with the unspent 0.3 unlocked", async () => {
    const push: Push = await nextPush(stream);
    expect(push.map((f) => [f.e, f.X, f.l, f.L, f.n, f.w])).toEqual([
      ['executionReport', 'NEW', '0', '0', '0', true],
      ['executionReport', 'PARTIALLY_FILLED', '1', '96', '0.001', true],
      ['executionReport', 'PARTIALLY_FILLED', '2.1', '97', '0.0021', true],
      ['executionReport', 'FILLED', '0', '0', '0', false],
      ['ticketInfo', undefined, undefined, undefined, undefined, undefined],
      ['ticketInfo', undefined, undefined, undefined, undefined, undefined],
      ['outboundAccountInfo', undefined, undefined, undefined, undefined, undefined],
    ]);
    expect(push.slice(0, 4).map((f) => [f.i, f.o, f.f, f.q, f.P, f.F])).toEqual(Array(4).fill([takeProfit.orderId, 'TAKE_PROFIT', 'IOC', '300', '95', '0']));
    expect(push[6].B).toEqual([
      { a: 'TPX', f: '3.0969', l: '0' },
      { a: 'USDT', f: '700.3', l: '0' },
    ]);
    expect(await holdings(dana.client, ['TPX', 'USDT'])).toEqual({ TPX: '3.0969/0', USDT: '700.3/0' });
  });

  it("5. the balance flow of each side adds up to its balances, and the operator's verify holds with replay", async () => {
    expect(await flowRows(dana, 'USDT')).toEqual([
      ['DEPOSIT', '1000', '1000'],
      ['TRADE', '-96', '904'],
      ['TRADE', '-203.7', '700.3'],
    ]);
    expect(await flowRows(dana, 'TPX')).toEqual([
      ['TRADE', '1', '1'],
      ['FEE', '-0.001', '0.999'],
      ['TRADE', '2.1', '3.099'],
      ['FEE', '-0.0021', '3.0969'],
    ]);
    expect(await flowRows(sol, 'TPX')).toEqual([
      ['DEPOSIT', '6', '6'],
      ['TRADE', '-1', '5'],
      ['TRADE', '-2.1', '2.9'],
    ]);
    expect(await flowRows(sol, 'USDT')).toEqual([
      ['TRADE', '96', '96'],
      ['FEE', '-0.096', '95.904'],
      ['TRADE', '203.7', '299.604'],
      ['FEE', '-0.2037', '299.4003'],
    ]);
    const report = await op.ok<{ ok: boolean; details: Record<string, string>[]; replay: { ok: boolean } }>('GET', '/verify?replay=1');
    expect([report.ok, report.replay.ok]).toEqual([true, true]);
    const tpx = report.details.find((d) => d.asset === 'TPX');
    expect(tpx).toMatchObject({ total: tpx?.deposits, withdrawals: '0' });
  });
});
