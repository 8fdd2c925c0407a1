import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Operator, type Member } from '../support/fixtures.js';
import { ETHUSDT_LIMIT_GTC_BUY } from '../support/order-records.js';
import { startTestServer, type TestServer } from '../support/server.js';

type Params = Record<string, string | number>;
interface Fill {
  price: string;
  qty: string;
  commission: string;
  commissionAsset: string;
  tradeId: string;
}
interface OrderBody {
  orderId: string;
  time: string;
  fills: Fill[];
}

const ORDER = '/openapi/v1/order';

describe('A11 new order', () => {
  let t: TestServer;
  let op: Operator;
  /** Funded with plenty of everything; used for the refusals, which change nothing. */
  let rich: Member;

  const place = (trader: Member, params: Params) => trader.client.signed('POST', ORDER, params);
  const setStatus = async (symbol: string, status: string): Promise<void> => {
    await op.ok('PATCH', `/symbols/${symbol}`, { status });
  };

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    rich = await op.member({ BTC: '100', ETH: '1000', USDT: '10000000', MXN: '1000000' });
    // Refusals count as ORDERS too (docs/spot-api.md "Rate limits"); this file sends far more than 20 a second from one key.
    await op.tradingConfig({ ordersPerSecond: 100000 });
  });
  afterAll(async () => t.stop());

  describe('replies', () => {
    it('when a LIMIT order rests, then the reply is the full record with transactTime and empty fills', async () => {
      const trader = await op.member({ USDT: '1000' });
      const answer = await place(trader, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.5', price: '100.5' });
      expect(answer.status).toBe(200);
      const body = answer.body as OrderBody;
      expect(body).toEqual({
        accountId: trader.accountId,
        ...ETHUSDT_LIMIT_GTC_BUY,
        orderId: body.orderId,
        clientOrderId: body.orderId,
        price: '100.5',
        origQty: '0.5',
        executedQty: '0',
        cummulativeQuoteQty: '0',
        avgPrice: '0',
        status: 'NEW',
        time: body.time,
        updateTime: body.time,
        isWorking: true,
        transactTime: body.time,
        fills: [],
      });
      expect(body.orderId).toMatch(/^[1-9][0-9]*$/);
      expect(Math.abs(Number(body.time) - Date.now())).toBeLessThan(5000);
    });

    it('when a LIMIT BUY takes a resting ask, then fills list the trade at the maker price with the fee in the base asset', async () => {
      const maker = await op.member({ ETH: '1' });
      const taker = await op.member({ USDT: '1000' });
      const resting = (await place(maker, { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', quantity: '1', price: '2000' })).body as OrderBody;
      const answer = await place(taker, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.4', price: '2100', newClientOrderId: 'take-1' });
      expect(answer.status).toBe(200);
      const body = answer.body as OrderBody;
      expect(body).toEqual({
        accountId: taker.accountId,
        ...ETHUSDT_LIMIT_GTC_BUY,
        orderId: String(Number(resting.orderId) + 1),
        clientOrderId: 'take-1',
        price: '2100',
        origQty: '0.4',
        executedQty: '0.4',
        cummulativeQuoteQty: '800',
        avgPrice: '2000',
        status: 'FILLED',
        time: body.time,
        updateTime: body.time,
        isWorking: false,
        transactTime: body.time,
        fills: [{ price: '2000', qty: '0.4', commission: '0.0004', commissionAsset: 'ETH', tradeId: body.fills[0]?.tradeId }],
      });
      expect(body.fills[0].tradeId).toMatch(/^[1-9][0-9]*$/);
      const makerView = await maker.client.signed('GET', ORDER, { orderId: resting.orderId });
      expect(makerView.body).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '0.4', cummulativeQuoteQty: '800', isWorking: true });
    });

    it('when a taker crosses two levels, then fills are in matching order with increasing trade ids', async () => {
      const maker = await op.member({ USDT: '100' });
      const taker = await op.member({ ETH: '5' });
      await place(maker, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.1', price: '90' });
      await place(maker, { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.1', price: '91' });
      // The first test's bid at 100.5 rests above these two; the sell takes exactly those three levels.
      const answer = await place(taker, { symbol: 'ETHUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.7', price: '90', timeInForce: 'IOC' });
      const body = answer.body as OrderBody;
      expect(body.fills.map((f) => [f.price, f.qty, f.commission, f.commissionAsset])).toEqual([
        ['100.5', '0.5', '0.05025', 'USDT'],
        ['91', '0.1', '0.0091', 'USDT'],
        ['90', '0.1', '0.009', 'USDT'],
      ]);
      const ids = body.fills.map((f) => Number(f.tradeId));
      expect(ids).toEqual([ids[0], ids[0] + 1, ids[0] + 2]);
      expect(body).toMatchObject({ status: 'FILLED', executedQty: '0.7', cummulativeQuoteQty: '68.35', avgPrice: '97.64', timeInForce: 'IOC' });
    });

    it('when LIMIT is sent without timeInForce, then it is GTC (hbtc)', async () => {
      const answer = await place(rich, { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.01' });
      expect(answer.body).toMatchObject({ status: 'NEW', timeInForce: 'GTC', isWorking: true });
    });

    it('when IOC does not cross, then the order is recorded CANCELED at once', async () => {
      const answer = await place(rich, { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', quantity: '1', price: '0.01', timeInForce: 'IOC' });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ status: 'CANCELED', timeInForce: 'IOC', executedQty: '0', isWorking: false, fills: [] });
    });

    it('when side, type, timeInForce and symbol come in lower case, then they are read upper-cased', async () => {
      const answer = await place(rich, { symbol: 'ethbtc', side: 'buy', type: 'limit', timeInForce: 'gtc', quantity: '1', price: '0.01' });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC' });
    });

    it('when a LIMIT_MAKER does not cross, then it rests as GTC', async () => {
      const answer = await place(rich, { symbol: 'ETHBTC', side: 'SELL', type: 'LIMIT_MAKER', quantity: '1', price: '0.5' });
      expect(answer.body).toMatchObject({ status: 'NEW', type: 'LIMIT_MAKER', timeInForce: 'GTC' });
    });
  });

  describe('MARKET BUY amounts (quote, docs/spot-api.md "MARKET BUY amount")', () => {
    let seller: Member;
    beforeAll(async () => {
      seller = await op.member({ BTC: '1' });
      await place(seller, { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '1', price: '30000' });
    });

    it('when MARKET BUY sends quantity, then it is the quote amount to spend', async () => {
      const buyer = await op.member({ USDT: '1000' });
      const answer = await place(buyer, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '300' });
      expect(answer.status).toBe(200);
      const body = answer.body as OrderBody;
      expect(body).toMatchObject({
        price: '0',
        origQty: '300',
        executedQty: '0.01',
        cummulativeQuoteQty: '300',
        avgPrice: '30000',
        status: 'FILLED',
        timeInForce: 'IOC',
        type: 'MARKET',
        isWorking: false,
        fills: [{ price: '30000', qty: '0.01', commission: '0.00001', commissionAsset: 'BTC', tradeId: body.fills[0]?.tradeId }],
      });
    });

    it('when MARKET BUY sends quoteOrderQty, then it is the amount to spend', async () => {
      const buyer = await op.member({ USDT: '1000' });
      const answer = await place(buyer, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: '150' });
      expect(answer.body).toMatchObject({ origQty: '150', executedQty: '0.005', cummulativeQuoteQty: '150', status: 'FILLED' });
    });

    it('when MARKET BUY sends both quantity and quoteOrderQty, then 400 -1128', async () => {
      const answer = await place(rich, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '150', quoteOrderQty: '150' });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: -1128, msg: 'Combination of optional parameters invalid.' });
    });

    it('when MARKET BUY sends neither, then -1102 naming quantity', async () => {
      const answer = await place(rich, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET' });
      expect(answer.body).toEqual({ code: -1102, msg: "Mandatory parameter 'quantity' was not sent, was empty/null, or malformed." });
    });

    it('when the MARKET BUY amount has more decimals than the tick, then -1148', async () => {
      const answer = await place(rich, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '100.005' });
      expect(answer.body).toEqual({ code: -1148, msg: 'Market order amount decimal too long.' });
    });

    it('when the MARKET BUY amount is below minNotional, then -1140', async () => {
      const answer = await place(rich, { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quoteOrderQty: '0.99' });
      expect(answer.body).toEqual({ code: -1140, msg: 'Transaction amount lower than the minimum.' });
    });
  });

  describe('refusals in the order of docs/spot-api.md "Order validation"', () => {
    const LIMIT_BUY: Params = { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '10' };
    const without = (params: Params, name: string): Params => Object.fromEntries(Object.entries(params).filter(([k]) => k !== name));

    const refusals: [string, Params, number, string][] = [
      ['symbol absent', without(LIMIT_BUY, 'symbol'), -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."],
      ['symbol unknown', { ...LIMIT_BUY, symbol: 'DOGEUSDT' }, -1121, 'Invalid symbol.'],
      ['symbol malformed', { ...LIMIT_BUY, symbol: 'ETH-USDT' }, -1121, 'Invalid symbol.'],
      ['side absent', without(LIMIT_BUY, 'side'), -1102, "Mandatory parameter 'side' was not sent, was empty/null, or malformed."],
      ['side invalid', { ...LIMIT_BUY, side: 'HOLD' }, -1117, 'Invalid side.'],
      ['type absent', without(LIMIT_BUY, 'type'), -1102, "Mandatory parameter 'type' was not sent, was empty/null, or malformed."],
      ['type invalid', { ...LIMIT_BUY, type: 'LIMITED' }, -1116, 'Invalid orderType.'],
      ['type unavailable', { ...LIMIT_BUY, type: 'STOP_LOSS_LIMIT', stopPrice: '9' }, -1116, 'Order type not available.'],
      ['timeInForce invalid', { ...LIMIT_BUY, timeInForce: 'GTX' }, -1115, 'Invalid timeInForce.'],
      ['assetType MARGIN', { ...LIMIT_BUY, assetType: 'MARGIN' }, -1130, "Data sent for paramter 'assetType' is not valid."],
      ['newClientOrderId with a space', { ...LIMIT_BUY, newClientOrderId: 'a b' }, -1100, ''],
      ['newClientOrderId of 65 characters', { ...LIMIT_BUY, newClientOrderId: 'a'.repeat(65) }, -1100, ''],
      ['stopPrice > 0', { ...LIMIT_BUY, stopPrice: '9' }, -1106, "Parameter 'stopPrice' sent when not required."],
      ['icebergQty > 0', { ...LIMIT_BUY, icebergQty: '0.5' }, -1106, "Parameter 'icebergQty' sent when not required."],
      ['quoteOrderQty on LIMIT', { ...LIMIT_BUY, quoteOrderQty: '10' }, -1106, "Parameter 'quoteOrderQty' sent when not required."],
      ['quoteOrderQty on MARKET SELL', { symbol: 'ETHUSDT', side: 'SELL', type: 'MARKET', quoteOrderQty: '10' }, -1106, "Parameter 'quoteOrderQty' sent when not required."],
      ['LIMIT without price', without(LIMIT_BUY, 'price'), -1102, "Mandatory parameter 'price' was not sent, was empty/null, or malformed."],
      ['LIMIT without quantity', without(LIMIT_BUY, 'quantity'), -1102, "Mandatory parameter 'quantity' was not sent, was empty/null, or malformed."],
      ['MARKET SELL without quantity', { symbol: 'ETHUSDT', side: 'SELL', type: 'MARKET' }, -1102, "Mandatory parameter 'quantity' was not sent, was empty/null, or malformed."],
      ['price below minPrice', { ...LIMIT_BUY, price: '0' }, -1133, 'Order price lower than the minimum.'],
      ['price above maxPrice', { ...LIMIT_BUY, price: '1000000.01' }, -1132, 'Order price too high.'],
      ['price off tick', { ...LIMIT_BUY, price: '10.001' }, -1134, 'Order price decimal too long.'],
      ['quantity 0', { ...LIMIT_BUY, quantity: '0' }, -1136, 'Order quantity lower than the minimum.'],
      ['quantity above maxQty', { ...LIMIT_BUY, quantity: '10000.0001' }, -1135, 'Order quantity too large.'],
      ['quantity off step', { ...LIMIT_BUY, quantity: '1.00001' }, -1137, 'Order quantity decimal too long.'],
      ['price × quantity below minNotional', { ...LIMIT_BUY, price: '0.99', quantity: '1' }, -1140, 'Transaction amount lower than the minimum.'],
      ['MARKET SELL on an empty bid side', { symbol: 'BTCMXN', side: 'SELL', type: 'MARKET', quantity: '0.1' }, -1112, 'No orders on book for symbol.'],
      ['MARKET BUY on an empty ask side', { symbol: 'BTCMXN', side: 'BUY', type: 'MARKET', quantity: '100' }, -1112, 'No orders on book for symbol.'],
      ['balance short', { ...LIMIT_BUY, quantity: '10000', price: '1000000' }, -1131, 'Balance insufficient'],
      // Precedence: the earlier step answers when two fail.
      ['unknown symbol and bad side', { ...LIMIT_BUY, symbol: 'NOPE', side: 'HOLD' }, -1121, 'Invalid symbol.'],
      ['bad side and bad type', { ...LIMIT_BUY, side: 'HOLD', type: 'LIMITED' }, -1117, 'Invalid side.'],
      ['bad type and bad timeInForce', { ...LIMIT_BUY, type: 'LIMITED', timeInForce: 'GTX' }, -1116, 'Invalid orderType.'],
      ['bad timeInForce and stopPrice', { ...LIMIT_BUY, timeInForce: 'GTX', stopPrice: '1' }, -1115, 'Invalid timeInForce.'],
      ['stopPrice and no price', { ...without(LIMIT_BUY, 'price'), stopPrice: '1' }, -1106, "Parameter 'stopPrice' sent when not required."],
      ['price off tick and quantity off step', { ...LIMIT_BUY, price: '10.001', quantity: '1.00001' }, -1134, 'Order price decimal too long.'],
      ['quantity off step on an empty bid side', { symbol: 'BTCMXN', side: 'SELL', type: 'MARKET', quantity: '0.1000001' }, -1137, 'Order quantity decimal too long.'],
    ];
    it.each(refusals.map(([what, params, code, msg]) => [what, code, params, msg] as const))('when %s, then 400 %i', async (_what, code, params, msg) => {
      const answer = await place(rich, params);
      expect(answer.status).toBe(400);
      const body = answer.body as { code: number; msg: string };
      expect(body.code).toBe(code);
      if (msg !== '') expect(body.msg).toBe(msg);
      else expect(body.msg).toMatch(/^Illegal characters found in parameter 'newClientOrderId'/);
    });

    it('when stopPrice and icebergQty are 0, then they are tolerated', async () => {
      const answer = await place(rich, { ...LIMIT_BUY, stopPrice: '0', icebergQty: '0.0', newOrderRespType: 'ACK' });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ stopPrice: '0', icebergQty: '0', fills: [] });
    });

    it('when a MARKET SELL would be worth less than minNotional at the best bid, then -1140', async () => {
      const bidder = await op.member({ MXN: '1000' });
      await place(bidder, { symbol: 'USDTMXN', side: 'BUY', type: 'LIMIT', quantity: '100', price: '1' });
      const small = await place(rich, { symbol: 'USDTMXN', side: 'SELL', type: 'MARKET', quantity: '9.99' });
      expect(small.body).toEqual({ code: -1140, msg: 'Transaction amount lower than the minimum.' });
      const enough = await place(rich, { symbol: 'USDTMXN', side: 'SELL', type: 'MARKET', quantity: '10' });
      expect(enough.body).toMatchObject({ status: 'FILLED', executedQty: '10', cummulativeQuoteQty: '10' });
    });

    it('when newClientOrderId was used before in the account, then -1141; another account may use it', async () => {
      expect((await place(rich, { ...LIMIT_BUY, newClientOrderId: 'dup.id:1/x-y_z' })).status).toBe(200);
      const again = await place(rich, { ...LIMIT_BUY, newClientOrderId: 'dup.id:1/x-y_z' });
      expect(again.body).toEqual({ code: -1141, msg: 'Duplicate clientOrderId' });
      const other = await op.member({ USDT: '100' });
      expect((await place(other, { ...LIMIT_BUY, newClientOrderId: 'dup.id:1/x-y_z' })).status).toBe(200);
    });

    it('when the symbol is halted or in BREAK, then -1151 before the filters', async () => {
      await setStatus('ETHUSDT', 'HALT');
      try {
        expect((await place(rich, { ...LIMIT_BUY, price: '10.001' })).body).toEqual({ code: -1151, msg: 'Symbol is not open for trading.' });
        await setStatus('ETHUSDT', 'BREAK');
        expect((await place(rich, LIMIT_BUY)).body).toEqual({ code: -1151, msg: 'Symbol is not open for trading.' });
        expect((await place(rich, without(LIMIT_BUY, 'price'))).body).toMatchObject({ code: -1102 });
      } finally {
        await setStatus('ETHUSDT', 'TRADING');
      }
      expect((await place(rich, LIMIT_BUY)).status).toBe(200);
    });

    it('when the account has the maximum open orders on the symbol, then -2010 MAX_NUM_ORDERS', async () => {
      const trader = await op.member({ USDT: '1000' });
      await op.tradingConfig({ maxOpenOrdersPerSymbol: 2 });
      try {
        expect((await place(trader, LIMIT_BUY)).status).toBe(200);
        expect((await place(trader, LIMIT_BUY)).status).toBe(200);
        const third = await place(trader, LIMIT_BUY);
        expect(third.body).toEqual({ code: -2010, msg: 'New order rejected: Filter failure: MAX_NUM_ORDERS.' });
        expect((await place(trader, { ...LIMIT_BUY, symbol: 'BTCUSDT' })).status).toBe(200);
      } finally {
        await op.tradingConfig({ maxOpenOrdersPerSymbol: 200 });
      }
    });

    it('when the account has the maximum open orders overall, then -2010 BROKER_MAX_NUM_ORDERS', async () => {
      const trader = await op.member({ USDT: '1000' });
      await op.tradingConfig({ maxOpenOrdersPerAccount: 1 });
      try {
        expect((await place(trader, LIMIT_BUY)).status).toBe(200);
        const second = await place(trader, { ...LIMIT_BUY, symbol: 'BTCUSDT' });
        expect(second.body).toEqual({ code: -2010, msg: 'New order rejected: Filter failure: BROKER_MAX_NUM_ORDERS.' });
      } finally {
        await op.tradingConfig({ maxOpenOrdersPerAccount: 1000 });
      }
    });

    it('when a LIMIT_MAKER would match a resting order, even the account own, then -1158', async () => {
      const trader = await op.member({ USDT: '100', EUR: '100' });
      expect((await place(trader, { symbol: 'USDTEUR', side: 'SELL', type: 'LIMIT', quantity: '100', price: '0.9' })).status).toBe(200);
      const crossing = await place(trader, { symbol: 'USDTEUR', side: 'BUY', type: 'LIMIT_MAKER', quantity: '100', price: '0.9' });
      expect(crossing.body).toEqual({ code: -1158, msg: 'Order would immediately match and take.' });
      expect((await place(trader, { symbol: 'USDTEUR', side: 'BUY', type: 'LIMIT_MAKER', quantity: '100', price: '0.8999' })).status).toBe(200);
    });

    it('when the balance covers the lock exactly, then it is accepted; a tick more is -1131', async () => {
      const trader = await op.member({ USDT: '20' });
      expect((await place(trader, { ...LIMIT_BUY, quantity: '1', price: '20.01' })).body).toEqual({ code: -1131, msg: 'Balance insufficient' });
      expect((await place(trader, { ...LIMIT_BUY, quantity: '1', price: '20' })).status).toBe(200);
    });

    it('when orders are refused, then they use no order id', async () => {
      const first = (await place(rich, LIMIT_BUY)).body as OrderBody;
      await place(rich, { ...LIMIT_BUY, price: '10.001' });
      await place(rich, { ...LIMIT_BUY, quantity: '100000', price: '100000' });
      const second = (await place(rich, LIMIT_BUY)).body as OrderBody;
      expect(Number(second.orderId)).toBe(Number(first.orderId) + 1);
    });
  });

  describe('timestamp and recvWindow (docs/spot-api.md "Timestamp and recvWindow")', () => {
    const LIMIT_BUY: Params = { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '10' };
    const at = (timestamp: number, extra: Params = {}) => rich.client.signed('POST', ORDER, { ...LIMIT_BUY, ...extra, timestamp }, { noTimestamp: true });
    const OUTSIDE = { code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' };

    it('when the timestamp is older than the default 5000 ms window, then -1021', async () => {
      expect((await at(Date.now() - 6000)).body).toEqual(OUTSIDE);
    });

    it('when the same old timestamp comes with recvWindow 20000, then it is accepted', async () => {
      expect((await at(Date.now() - 6000, { recvWindow: 20000 })).status).toBe(200);
    });

    it('when the timestamp is more than 1000 ms ahead of the server, then -1021', async () => {
      expect((await at(Date.now() + 3000, { recvWindow: 60000 })).body).toEqual(OUTSIDE);
    });

    it('when the timestamp is old and the parameters are bad too, then -1021 wins (recvWindow before parameters)', async () => {
      expect((await at(Date.now() - 60000, { symbol: 'NOPE' })).body).toEqual(OUTSIDE);
    });

    it.each([0, 60001])('when recvWindow is %i, then 400 -1130', async (recvWindow) => {
      const answer = await at(Date.now(), { recvWindow });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: -1130, msg: "Data sent for paramter 'recvWindow' is not valid." });
    });

    it.each([1, 60000])('when recvWindow is %i (a bound), then it is allowed', async (recvWindow) => {
      // 500 ms ahead stays inside the 1000 ms future tolerance and, being ahead, inside any window.
      const answer = await at(Date.now() + 500, { recvWindow });
      expect(answer.status).toBe(200);
    });
  });
});
