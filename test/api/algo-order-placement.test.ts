/**
 * A11/A12 placement of stop and iceberg orders (docs/spot-api.md "Stop and iceberg orders"): each
 * refusal in the validation order of "Order validation" as the option places its checks, leaving
 * nothing behind; and what is accepted, as records and W1 reports show it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdings } from '../support/account-reads.js';
import { ok, refused } from '../support/answers.js';
import {
  depthOf,
  expectSilentSoFar,
  listAlgoMarket,
  nextPush,
  ORDER,
  place,
  placed,
  queried,
  reportOf,
  setAlgoOrders,
  tradeAt,
  userStream,
  type NewOrderReply,
  type OrderRecord,
  type Params,
} from '../support/algo-orders.js';
import { Operator, type Member } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import type { WsProbe } from '../support/ws-client.js';

/** Traded at 100; PRICE_FILTER 1–100000, LOT_SIZE 0.1–1000, so that every filter code can be reached on stopPrice and icebergQty. */
const TRADED = 'PLXUSDT';
/** Never traded, empty book, default filters. */
const UNTRADED = 'PLNUSDT';
const FUNDS = { PLX: '10', PLN: '10', USDT: '1000' } as const;

/** A member with its user stream open. */
interface Watched {
  member: Member;
  stream: WsProbe;
}

const without = (params: Params, name: string): Params => Object.fromEntries(Object.entries(params).filter(([k]) => k !== name));
const mandatory = (name: string): string => `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`;
const notRequired = (name: string): string => `Parameter '${name}' sent when not required.`;
const ICEBERG_RANGE = "Illegal characters found in parameter 'icebergQty'; legal range is '0 < icebergQty < quantity'.";
const TYPE_UNAVAILABLE = 'Order type not available.';
const WOULD_TRIGGER = 'Order would trigger immediately.';
const filterFailure = (filter: string): string => `New order rejected: Filter failure: ${filter}.`;
const ICEBERG_NOT_GTC = 'New order rejected: an iceberg order must have timeInForce GTC.';

/** Valid orders of each kind on TRADED (last price 100), which the rows break one rule at a time. */
const SL_SELL: Params = { symbol: TRADED, side: 'SELL', type: 'STOP_LOSS', quantity: '1', stopPrice: '90' };
const SL_BUY: Params = { symbol: TRADED, side: 'BUY', type: 'STOP_LOSS', quantity: '100', stopPrice: '110' };
const TP_BUY: Params = { symbol: TRADED, side: 'BUY', type: 'TAKE_PROFIT', quantity: '100', stopPrice: '90' };
const TP_SELL: Params = { symbol: TRADED, side: 'SELL', type: 'TAKE_PROFIT', quantity: '1', stopPrice: '110' };
const SLL_SELL: Params = { symbol: TRADED, side: 'SELL', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', quantity: '1', price: '89', stopPrice: '90' };
const SLL_BUY: Params = { symbol: TRADED, side: 'BUY', type: 'STOP_LOSS_LIMIT', timeInForce: 'GTC', quantity: '1', price: '111', stopPrice: '110' };
const TPL_BUY: Params = { symbol: TRADED, side: 'BUY', type: 'TAKE_PROFIT_LIMIT', timeInForce: 'GTC', quantity: '1', price: '91', stopPrice: '90' };
const TPL_SELL: Params = { symbol: TRADED, side: 'SELL', type: 'TAKE_PROFIT_LIMIT', timeInForce: 'GTC', quantity: '1', price: '109', stopPrice: '110' };
const ICE_SELL: Params = { symbol: TRADED, side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '1', price: '200', icebergQty: '0.2' };
const LIMIT_BUY: Params = { symbol: TRADED, side: 'BUY', type: 'LIMIT', quantity: '1', price: '50' };

type Row = [what: string, params: Params, code: number, msg: string];
/** Rows in the order the test names read them: what, code, then the rest. */
const named = (rows: Row[]) => rows.map(([what, params, code, msg]) => [what, code, params, msg] as const);

/** With the option off (the platform's behaviour). */
const OFF_ROWS: Row[] = [
  ['STOP_LOSS', SL_SELL, -1116, TYPE_UNAVAILABLE],
  ['STOP_LOSS_LIMIT', SLL_SELL, -1116, TYPE_UNAVAILABLE],
  ['TAKE_PROFIT', TP_BUY, -1116, TYPE_UNAVAILABLE],
  ['TAKE_PROFIT_LIMIT', TPL_SELL, -1116, TYPE_UNAVAILABLE],
  ['icebergQty on LIMIT', ICE_SELL, -1106, notRequired('icebergQty')],
  ['icebergQty on LIMIT_MAKER', { ...ICE_SELL, type: 'LIMIT_MAKER' }, -1106, notRequired('icebergQty')],
  ['stopPrice on LIMIT', { ...LIMIT_BUY, stopPrice: '60' }, -1106, notRequired('stopPrice')],
  // Precedence: the type (step 1) before the parameters (step 3), which come before the amounts (step 4).
  ['icebergQty on STOP_LOSS_LIMIT', { ...SLL_SELL, icebergQty: '0.5' }, -1116, TYPE_UNAVAILABLE],
  ['icebergQty on LIMIT without price', without(ICE_SELL, 'price'), -1106, notRequired('icebergQty')],
];

/** With the option on, in the order of "Order validation" as the option places its checks. */
const ON_ROWS: Row[] = [
  // Step 1.
  ['MARKET_OF_PAYOUT', { ...SL_SELL, type: 'MARKET_OF_PAYOUT' }, -1116, TYPE_UNAVAILABLE],
  // Step 3.
  ['stopPrice on LIMIT', { ...LIMIT_BUY, stopPrice: '60' }, -1106, notRequired('stopPrice')],
  ['stopPrice on MARKET', { symbol: TRADED, side: 'SELL', type: 'MARKET', quantity: '1', stopPrice: '90' }, -1106, notRequired('stopPrice')],
  ['stopPrice on LIMIT_MAKER', { ...LIMIT_BUY, type: 'LIMIT_MAKER', stopPrice: '60' }, -1106, notRequired('stopPrice')],
  ['icebergQty on MARKET', { symbol: TRADED, side: 'SELL', type: 'MARKET', quantity: '1', icebergQty: '0.5' }, -1106, notRequired('icebergQty')],
  ['icebergQty on STOP_LOSS', { ...SL_SELL, icebergQty: '0.5' }, -1106, notRequired('icebergQty')],
  ['icebergQty on TAKE_PROFIT', { ...TP_SELL, icebergQty: '0.5' }, -1106, notRequired('icebergQty')],
  // Step 4.
  ['STOP_LOSS without stopPrice', without(SL_SELL, 'stopPrice'), -1102, mandatory('stopPrice')],
  ['TAKE_PROFIT_LIMIT with stopPrice 0 (unset)', { ...TPL_SELL, stopPrice: '0' }, -1102, mandatory('stopPrice')],
  ['STOP_LOSS_LIMIT without price', without(SLL_SELL, 'price'), -1102, mandatory('price')],
  ['TAKE_PROFIT_LIMIT without price', without(TPL_BUY, 'price'), -1102, mandatory('price')],
  ['STOP_LOSS SELL without quantity', without(SL_SELL, 'quantity'), -1102, mandatory('quantity')],
  ['TAKE_PROFIT BUY without quantity', without(TP_BUY, 'quantity'), -1102, mandatory('quantity')],
  ['STOP_LOSS_LIMIT without quantity', without(SLL_BUY, 'quantity'), -1102, mandatory('quantity')],
  ['icebergQty equal to quantity', { ...ICE_SELL, icebergQty: '1' }, -1100, ICEBERG_RANGE],
  ['icebergQty above quantity', { ...SLL_SELL, icebergQty: '1.5' }, -1100, ICEBERG_RANGE],
  // Step 6: PRICE_FILTER on stopPrice, LOT_SIZE on icebergQty, MIN_NOTIONAL of a stop-market order at its stop price.
  ['stopPrice below minPrice', { ...SL_SELL, stopPrice: '0.99' }, -1133, 'Order price lower than the minimum.'],
  ['stopPrice above maxPrice', { ...SL_BUY, stopPrice: '100000.01' }, -1132, 'Order price too high.'],
  ['stopPrice off tick', { ...SLL_SELL, stopPrice: '90.001' }, -1134, 'Order price decimal too long.'],
  ['icebergQty below minQty', { ...ICE_SELL, icebergQty: '0.09' }, -1136, 'Order quantity lower than the minimum.'],
  ['icebergQty off step', { ...TPL_BUY, icebergQty: '0.155' }, -1137, 'Order quantity decimal too long.'],
  ['stop-market SELL whose quantity × stopPrice is below minNotional', { ...SL_SELL, quantity: '0.1', stopPrice: '99.99' }, -1140, 'Transaction amount lower than the minimum.'],
  ['stop-market BUY amount below minNotional', { ...TP_BUY, quantity: '9.99' }, -1140, 'Transaction amount lower than the minimum.'],
  ['stop-market BUY amount with more decimals than the tick', { ...SL_BUY, quantity: '100.001' }, -1148, 'Market order amount decimal too long.'],
  ['stop-limit price × quantity below minNotional', { ...SLL_SELL, quantity: '0.11', price: '89' }, -1140, 'Transaction amount lower than the minimum.'],
  // Step 10: the trigger side against the last price (100), equal or wrong.
  ['STOP_LOSS SELL at the last price', { ...SL_SELL, stopPrice: '100' }, -2010, WOULD_TRIGGER],
  ['STOP_LOSS SELL above the last price', { ...SL_SELL, stopPrice: '100.01' }, -2010, WOULD_TRIGGER],
  ['TAKE_PROFIT BUY at the last price', { ...TP_BUY, stopPrice: '100' }, -2010, WOULD_TRIGGER],
  ['TAKE_PROFIT BUY above the last price', { ...TP_BUY, stopPrice: '101' }, -2010, WOULD_TRIGGER],
  ['STOP_LOSS BUY at the last price', { ...SL_BUY, stopPrice: '100' }, -2010, WOULD_TRIGGER],
  ['STOP_LOSS BUY below the last price', { ...SL_BUY, stopPrice: '99.99' }, -2010, WOULD_TRIGGER],
  ['TAKE_PROFIT SELL at the last price', { ...TP_SELL, stopPrice: '100' }, -2010, WOULD_TRIGGER],
  ['TAKE_PROFIT SELL below the last price', { ...TP_SELL, stopPrice: '99' }, -2010, WOULD_TRIGGER],
  ['STOP_LOSS_LIMIT SELL at the last price', { ...SLL_SELL, stopPrice: '100' }, -2010, WOULD_TRIGGER],
  ['TAKE_PROFIT_LIMIT BUY above the last price', { ...TPL_BUY, stopPrice: '101' }, -2010, WOULD_TRIGGER],
  ['iceberg with timeInForce IOC', { ...ICE_SELL, timeInForce: 'IOC' }, -2010, ICEBERG_NOT_GTC],
  ['iceberg with timeInForce FOK', { ...ICE_SELL, timeInForce: 'FOK' }, -2010, ICEBERG_NOT_GTC],
  ['iceberg stop-limit with timeInForce IOC', { ...SLL_SELL, timeInForce: 'IOC', icebergQty: '0.5' }, -2010, ICEBERG_NOT_GTC],
  ['iceberg of 11 parts', { ...ICE_SELL, quantity: '1.1', icebergQty: '0.1' }, -2010, filterFailure('ICEBERG_PARTS')],
  // Step 11: the lock of the order the stop fires.
  ['stop-market SELL quantity above the free base', { ...SL_SELL, quantity: '10.01' }, -1131, 'Balance insufficient'],
  ['stop-market BUY amount above the free quote', { ...TP_BUY, quantity: '1000.01' }, -1131, 'Balance insufficient'],
  ['stop-limit BUY price × quantity above the free quote', { ...SLL_BUY, quantity: '9.01' }, -1131, 'Balance insufficient'],
  ['iceberg SELL quantity above the free base', { ...ICE_SELL, quantity: '10.1', icebergQty: '1.01' }, -1131, 'Balance insufficient'],
  // Precedence: two rules broken, the earlier step answers.
  ['stopPrice on LIMIT without price', { ...without(LIMIT_BUY, 'price'), stopPrice: '60' }, -1106, notRequired('stopPrice')],
  ['icebergQty on STOP_LOSS without stopPrice', { ...without(SL_SELL, 'stopPrice'), icebergQty: '0.5' }, -1106, notRequired('icebergQty')],
  ['STOP_LOSS_LIMIT without stopPrice and its price off tick', { ...without(SLL_SELL, 'stopPrice'), price: '89.001' }, -1102, mandatory('stopPrice')],
  ['icebergQty above quantity and off step', { ...ICE_SELL, icebergQty: '1.001' }, -1100, ICEBERG_RANGE],
  ['price below minPrice and stopPrice off tick', { ...SLL_SELL, price: '0.99', stopPrice: '90.001' }, -1133, 'Order price lower than the minimum.'],
  ['quantity off step and stopPrice below minPrice', { ...SL_SELL, quantity: '1.001', stopPrice: '0.5' }, -1137, 'Order quantity decimal too long.'],
  ['stopPrice off tick and icebergQty off step', { ...SLL_SELL, stopPrice: '90.001', icebergQty: '0.155' }, -1134, 'Order price decimal too long.'],
  ['stopPrice above maxPrice on the trigger side', { ...SL_SELL, stopPrice: '100000.01' }, -1132, 'Order price too high.'],
  ['stop-market SELL below minNotional on the trigger side', { ...TP_SELL, quantity: '0.1', stopPrice: '99' }, -1140, 'Transaction amount lower than the minimum.'],
  ['a used clientOrderId on the trigger side', { ...SL_SELL, stopPrice: '100', newClientOrderId: 'taken' }, -1141, 'Duplicate clientOrderId'],
  ['on the trigger side with the balance short', { ...SL_SELL, stopPrice: '101', quantity: '20' }, -2010, WOULD_TRIGGER],
  ['11 iceberg parts with the balance short', { ...ICE_SELL, quantity: '22', icebergQty: '2' }, -2010, filterFailure('ICEBERG_PARTS')],
];

/** Rows A12 answers too, with the same refusal. */
const THROUGH_A12 = [
  'STOP_LOSS_LIMIT without price',
  'stopPrice off tick',
  'stop-market SELL whose quantity × stopPrice is below minNotional',
  'TAKE_PROFIT BUY at the last price',
  'iceberg of 11 parts',
  'stop-limit BUY price × quantity above the free quote',
];

describe('A11/A12 stop and iceberg order placement', () => {
  let t: TestServer;
  let op: Operator;
  /** Refused every row: the state it must keep is read around each refusal. */
  let refuser: Watched;
  const opened: WsProbe[] = [];

  const watched = async (funds: Readonly<Record<string, string>> = FUNDS): Promise<Watched> => {
    const member = await op.member(funds);
    const stream = await userStream(t, member.client);
    opened.push(stream);
    return { member, stream };
  };
  /** What a refusal must leave as it was: balances (A19), open orders (A17), history (A18). */
  const stateOf = async ({ client }: Member): Promise<unknown> => ({
    balances: await holdings(client, ['PLX', 'PLN', 'USDT']),
    open: ok(await client.signed('GET', '/openapi/v1/openOrders')),
    history: ok(await client.signed('GET', '/openapi/v1/historyOrders')),
  });
  const expectRefusedCleanly = async (who: Watched, params: Params, code: number, msg: string, path = ORDER): Promise<void> => {
    const before = await stateOf(who.member);
    refused(await who.member.client.signed('POST', path, params), code, msg);
    expect(await stateOf(who.member)).toEqual(before);
    await expectSilentSoFar(op, who.member, who.stream);
  };

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    // Each row sends one order and reads the account three times: far above the default limits.
    await op.tradingConfig({ ordersPerSecond: 1_000_000, requestWeightPerMinute: 1_000_000 });
    await listAlgoMarket(op, 'PLX', { minPrice: '1', maxPrice: '100000', minQty: '0.1', maxQty: '1000', minNotional: '10' });
    await listAlgoMarket(op, 'PLN');
    await tradeAt(op, TRADED, 'PLX', '100', '1');
    refuser = await watched();
    // A client id the refuser has used, and an open order its refusals must leave alone.
    await placed(refuser.member, { symbol: TRADED, side: 'SELL', type: 'LIMIT', quantity: '0.1', price: '1000', newClientOrderId: 'taken' });
    await nextPush(refuser.stream);
  });
  afterAll(async () => {
    for (const stream of opened) await stream.close();
    await t.stop();
  });

  describe('with the option off (the default)', () => {
    it.each(named(OFF_ROWS))('when %s is sent, then 400 %i and nothing is left behind', async (_what, code, params, msg) => {
      await expectRefusedCleanly(refuser, params, code, msg);
    });

    it('when a stop type is sent through A12, then it is refused the same way', async () => {
      await expectRefusedCleanly(refuser, SLL_SELL, -1116, TYPE_UNAVAILABLE, `${ORDER}/test`);
    });
  });

  describe('with the option on', () => {
    beforeAll(async () => setAlgoOrders(op, true));

    describe('refusals in validation order', () => {
      it.each(named(ON_ROWS))('when %s, then 400 %i and nothing is left behind', async (_what, code, params, msg) => {
        await expectRefusedCleanly(refuser, params, code, msg);
      });

      it.each(named(ON_ROWS.filter(([what]) => THROUGH_A12.includes(what))))('when %s is tested through A12, then 400 %i as A11', async (_what, code, params, msg) => {
        await expectRefusedCleanly(refuser, params, code, msg, `${ORDER}/test`);
      });

      it('when an account has 5 untriggered orders on a symbol, then the 6th is -2010 MAX_NUM_ALGO_ORDERS; another symbol, an iceberg or a cancel makes room', async () => {
        const trader = await watched();
        const stops: NewOrderReply[] = [];
        for (let i = 0; i < 5; i++) stops.push(await placed(trader.member, { ...SL_SELL, quantity: '0.2' }));
        for (let i = 0; i < 5; i++) await nextPush(trader.stream);
        await expectRefusedCleanly(trader, { ...SL_SELL, quantity: '0.2' }, -2010, filterFailure('MAX_NUM_ALGO_ORDERS'));
        // Counted per symbol, and only untriggered orders: an iceberg rests in the book.
        expect((await placed(trader.member, { ...SL_SELL, symbol: UNTRADED, quantity: '0.2' })).status).toBe('NEW');
        expect((await placed(trader.member, { ...ICE_SELL, quantity: '0.4' })).isWorking).toBe(true);
        ok(await trader.member.client.signed('DELETE', ORDER, { orderId: stops[0].orderId }));
        expect((await placed(trader.member, { ...SL_SELL, quantity: '0.2' })).status).toBe('NEW');
      });

      it('when an account has maxAlgoOrdersPerAccount untriggered orders, then the next is -2010 BROKER_MAX_NUM_ALGO_ORDERS', async () => {
        const trader = await watched();
        await op.tradingConfig({ maxAlgoOrdersPerAccount: 2 });
        try {
          await placed(trader.member, SL_SELL);
          await placed(trader.member, { ...SL_SELL, symbol: UNTRADED });
          for (let i = 0; i < 2; i++) await nextPush(trader.stream);
          await expectRefusedCleanly(trader, TP_BUY, -2010, filterFailure('BROKER_MAX_NUM_ALGO_ORDERS'));
        } finally {
          await op.tradingConfig({ maxAlgoOrdersPerAccount: 100 });
        }
        expect((await placed(trader.member, TP_BUY)).status).toBe('NEW');
      });
    });

    describe('accepted orders', () => {
      /** [what, params, status fields of the record, the balance its lock leaves as W1 shows it]. */
      const ACCEPTED: [string, Params, Partial<OrderRecord>, { a: string; f: string; l: string }][] = [
        ['STOP_LOSS SELL', SL_SELL, { type: 'STOP_LOSS', timeInForce: 'IOC', price: '0', origQty: '1', stopPrice: '90', isWorking: false }, { a: 'PLX', f: '9', l: '1' }],
        ['STOP_LOSS BUY (quote amount)', SL_BUY, { timeInForce: 'IOC', price: '0', origQty: '100', stopPrice: '110', isWorking: false }, { a: 'USDT', f: '900', l: '100' }],
        ['TAKE_PROFIT BUY with quoteOrderQty', { ...without(TP_BUY, 'quantity'), quoteOrderQty: '150' }, { origQty: '150', stopPrice: '90', isWorking: false }, { a: 'USDT', f: '850', l: '150' }],
        ['TAKE_PROFIT SELL', TP_SELL, { timeInForce: 'IOC', origQty: '1', stopPrice: '110', isWorking: false }, { a: 'PLX', f: '9', l: '1' }],
        ['STOP_LOSS_LIMIT SELL', SLL_SELL, { timeInForce: 'GTC', price: '89', stopPrice: '90', icebergQty: '0', isWorking: false }, { a: 'PLX', f: '9', l: '1' }],
        ['STOP_LOSS_LIMIT BUY IOC', { ...SLL_BUY, timeInForce: 'IOC' }, { timeInForce: 'IOC', price: '111', stopPrice: '110', isWorking: false }, { a: 'USDT', f: '889', l: '111' }],
        ['TAKE_PROFIT_LIMIT BUY iceberg', { ...TPL_BUY, quantity: '2', icebergQty: '0.5' }, { price: '91', origQty: '2', stopPrice: '90', icebergQty: '0.5', isWorking: false }, { a: 'USDT', f: '818', l: '182' }],
        ['LIMIT iceberg of exactly 10 parts', { ...ICE_SELL, price: '201', icebergQty: '0.1' }, { type: 'LIMIT', stopPrice: '0', icebergQty: '0.1', isWorking: true }, { a: 'PLX', f: '9', l: '1' }],
        ['LIMIT_MAKER iceberg', { ...LIMIT_BUY, type: 'LIMIT_MAKER', icebergQty: '0.5' }, { type: 'LIMIT_MAKER', timeInForce: 'GTC', icebergQty: '0.5', isWorking: true }, { a: 'USDT', f: '950', l: '50' }],
      ];

      it.each(ACCEPTED)('when a %s is placed, then it is NEW as sent, A13 and A17 show it, and W1 reports it with P and F', async (_what, params, fields, locked) => {
        const trader = await watched();
        const reply = await placed(trader.member, params);
        const { transactTime, fills, ...record } = reply;
        expect(record).toMatchObject({ ...fields, status: 'NEW', side: params.side, executedQty: '0', cummulativeQuoteQty: '0', updateTime: record.time });
        expect([transactTime, fills]).toEqual([record.time, []]);
        expect(await queried(trader.member, record.orderId)).toEqual(record);
        expect(ok(await trader.member.client.signed('GET', '/openapi/v1/openOrders'))).toEqual([record]);
        expect(await nextPush(trader.stream)).toEqual([
          reportOf(record, record.time),
          { e: 'outboundAccountInfo', E: record.time, T: true, W: true, D: true, B: [locked] },
        ]);
      });

      it('when an ordinary LIMIT order is placed, then its record and its report carry stopPrice and icebergQty "0" (P and F)', async () => {
        const trader = await watched();
        const { transactTime: _at, fills: _fills, ...record } = await placed(trader.member, LIMIT_BUY);
        expect(record).toMatchObject({ stopPrice: '0', icebergQty: '0', isWorking: true });
        expect(await queried(trader.member, record.orderId)).toMatchObject({ stopPrice: '0', icebergQty: '0' });
        const [report] = await nextPush(trader.stream);
        expect(report).toMatchObject({ e: 'executionReport', i: record.orderId, P: '0', F: '0' });
        expect(report).toEqual(reportOf(record, record.time));
      });

      it('when an iceberg rests, then depth shows its visible part only', async () => {
        const trader = await watched();
        await placed(trader.member, { ...ICE_SELL, price: '333', quantity: '1.5', icebergQty: '0.3' });
        const { asks } = await depthOf(trader.member.client, TRADED);
        expect(asks.find(([price]) => price === '333')).toEqual(['333', '0.3']);
      });

      it('when the account is at MAX_NUM_ORDERS on the symbol, then a stop is still accepted and a limit order still refused', async () => {
        const trader = await watched();
        await op.tradingConfig({ maxOpenOrdersPerSymbol: 2 });
        try {
          await placed(trader.member, LIMIT_BUY);
          await placed(trader.member, LIMIT_BUY);
          for (let i = 0; i < 2; i++) await nextPush(trader.stream);
          expect((await placed(trader.member, SLL_SELL)).isWorking).toBe(false);
          expect((await placed(trader.member, TP_BUY)).isWorking).toBe(false);
          for (let i = 0; i < 2; i++) await nextPush(trader.stream);
          await expectRefusedCleanly(trader, LIMIT_BUY, -2010, filterFailure('MAX_NUM_ORDERS'));
        } finally {
          await op.tradingConfig({ maxOpenOrdersPerSymbol: 200 });
        }
      });

      it('when the symbol has never traded, then any stopPrice is accepted, and a stop-market SELL needs no bid', async () => {
        const trader = await watched();
        const accepted = [
          { ...SL_SELL, symbol: UNTRADED, stopPrice: '5000' },
          { ...SL_BUY, symbol: UNTRADED, stopPrice: '0.01' },
          { ...TP_BUY, symbol: UNTRADED, stopPrice: '5000' },
          { ...TPL_SELL, symbol: UNTRADED, stopPrice: '0.01', price: '1', quantity: '2' },
        ];
        for (const params of accepted) expect(await placed(trader.member, params)).toMatchObject({ status: 'NEW', isWorking: false, stopPrice: params.stopPrice });
        expect(await depthOf(trader.member.client, UNTRADED)).toEqual({ bids: [], asks: [] });
      });

      it('when a valid stop is tested through A12, then it answers {} and leaves no record, lock or event', async () => {
        const trader = await watched();
        const before = await stateOf(trader.member);
        expect(ok(await trader.member.client.signed('POST', `${ORDER}/test`, SLL_BUY))).toEqual({});
        expect(await stateOf(trader.member)).toEqual(before);
        await expectSilentSoFar(op, trader.member, trader.stream);
      });

      it('when refused orders come between, then an accepted stop takes the next order id', async () => {
        const trader = await watched();
        const first = await placed(trader.member, SL_SELL);
        await place(trader.member, { ...SL_SELL, stopPrice: '100' });
        await place(trader.member, { ...ICE_SELL, quantity: '1.1', icebergQty: '0.1' });
        const second = await placed(trader.member, SL_SELL);
        expect(Number(second.orderId)).toBe(Number(first.orderId) + 1);
      });
    });
  });
});
