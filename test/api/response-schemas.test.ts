/**
 * Every spot (area A) operation of /openapi.json, driven to a 200 answer over real HTTP and checked
 * against the response schema the registry declares for it; each declared example must satisfy its
 * own schema. Both empty and non-empty lists, and the different shapes of one answer (a resting
 * order and one with fills, one symbol or all, a deposit of a crypto and of a fiat asset, a
 * withdrawal auditing, sent and rejected), are checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpotClient, type HttpAnswer } from '../support/clients.js';
import { Operator, MAIN_TO_SUB, type Member } from '../support/fixtures.js';
import { SchemaCheck } from '../support/schema-check.js';
import { startTestServer, type TestServer } from '../support/server.js';

type Params = Record<string, string | number>;

const SYMBOL = 'BTCUSDT';

describe('spot answers against their declared response schemas', () => {
  let t: TestServer;
  let op: Operator;
  let check: SchemaCheck;
  let open: SpotClient;

  /** The answer must be 200; its body goes to the schema check under `method path`. */
  function checked(method: string, path: string, answer: HttpAnswer): unknown {
    if (answer.status !== 200) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text}`);
    check.check(method, path, answer.body);
    return answer.body;
  }
  const pub = async (path: string, params: Params = {}): Promise<unknown> => checked('GET', path, await open.get(path, params));
  const signed = async <T = unknown>(client: SpotClient, method: string, path: string, params: Params = {}): Promise<T> =>
    checked(method, path, await client.signed(method, path, params)) as T;
  /** A read route that answers both GET and POST (docs/spot-api.md "Methods and parameters"). */
  const read = async <T = unknown>(client: SpotClient, path: string, params: Params = {}, methods = ['GET', 'POST']): Promise<T> => {
    let body: unknown;
    for (const method of methods) body = await signed(client, method, path, params);
    return body as T;
  };
  const order = (who: Member, params: Params): Promise<{ orderId: string; fills: unknown[] }> =>
    signed(who.client, 'POST', '/openapi/v1/order', { symbol: SYMBOL, ...params });

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    check = await SchemaCheck.load(t.url);
    open = new SpotClient(t.url, '', '');
  });
  afterAll(async () => t.stop());

  it('when every spot operation is driven to a 200 answer, then each answer matches its schema and every example its own', async () => {
    // General and market data on an empty book: empty lists, "0" prices.
    await pub('/openapi/v1/ping');
    await pub('/openapi/v1/time');
    await pub('/openapi/v1/exchange');
    await pub('/openapi/v1/exchangeInfo');
    await pub('/openapi/v1/pairs');
    const marketData = async (): Promise<void> => {
      await pub('/openapi/quote/v1/depth', { symbol: SYMBOL, limit: 5 });
      await pub('/openapi/quote/v1/trades', { symbol: SYMBOL });
      await pub('/openapi/quote/v1/klines', { symbol: SYMBOL, interval: '1m' });
      for (const path of ['/openapi/quote/v1/ticker/24hr', '/openapi/quote/v1/ticker/price', '/openapi/quote/v1/ticker/bookTicker']) {
        await pub(path, { symbol: SYMBOL });
        await pub(path, { symbols: 'BTCUSDT,ETHUSDT' });
        await pub(path);
      }
    };
    await marketData();

    const seller = await op.member({ BTC: '1' });
    const buyer = await op.member({ USDT: '100000' });
    const idle = await op.member();

    // Empty lists.
    expect(await read(idle.client, '/openapi/v1/openOrders', {}, ['GET'])).toEqual([]);
    expect(await read(idle.client, '/openapi/v1/historyOrders')).toEqual([]);
    expect(await read(idle.client, '/openapi/v1/myTrades')).toEqual([]);
    expect(await read(idle.client, '/openapi/v1/depositOrders')).toEqual([]);
    expect(await read(idle.client, '/openapi/v1/withdrawalOrders')).toEqual([]);
    expect(await signed(idle.client, 'DELETE', '/openapi/v1/openOrders', { symbol: SYMBOL })).toEqual([]);

    // Orders: one rests (ACK asked), one fills at once (RESULT asked), a market buy fills (FULL asked).
    const resting = await order(seller, { side: 'SELL', type: 'LIMIT', price: '60000', quantity: '0.01', newOrderRespType: 'ACK', newClientOrderId: 'ask-1' });
    expect(resting.fills).toEqual([]);
    const filled = await order(buyer, { side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', price: '60000', quantity: '0.005', newOrderRespType: 'RESULT' });
    expect(filled.fills).toHaveLength(1);
    const market = await order(buyer, { side: 'BUY', type: 'MARKET', quoteOrderQty: '120', newOrderRespType: 'FULL' });
    expect(market.fills).toHaveLength(1);
    await order(buyer, { side: 'BUY', type: 'LIMIT_MAKER', price: '50000', quantity: '0.01' });
    await signed(buyer.client, 'POST', '/openapi/v1/order/test', { symbol: SYMBOL, side: 'BUY', type: 'LIMIT', price: '50000', quantity: '0.01' });

    await signed(seller.client, 'GET', '/openapi/v1/order', { orderId: resting.orderId });
    await signed(seller.client, 'GET', '/openapi/v1/order', { origClientOrderId: 'ask-1' });
    await signed(buyer.client, 'GET', '/openapi/v1/order', { orderId: market.orderId });
    expect(await read<unknown[]>(seller.client, '/openapi/v1/openOrders', {}, ['GET'])).toHaveLength(1);
    expect(await read<unknown[]>(buyer.client, '/openapi/v1/historyOrders')).toHaveLength(2);
    expect(await read<unknown[]>(buyer.client, '/openapi/v1/myTrades')).toHaveLength(2);
    expect(await read<unknown[]>(seller.client, '/openapi/v1/myTrades', { symbol: SYMBOL })).toHaveLength(2);
    await marketData();

    await signed(seller.client, 'DELETE', '/openapi/v1/order', { orderId: resting.orderId });
    expect(await signed(buyer.client, 'DELETE', '/openapi/v1/openOrders', { symbol: SYMBOL })).toHaveLength(1);
    await order(buyer, { side: 'BUY', type: 'LIMIT', price: '40000', quantity: '0.01' });
    await signed(buyer.client, 'DELETE', '/openapi/v1/order/batchCancel', { symbol: SYMBOL });
    await signed(idle.client, 'DELETE', '/openapi/v1/order/batchCancel');

    // Account, wallet configuration, funding.
    await read(buyer.client, '/openapi/v1/account');
    await read(idle.client, '/openapi/v1/account');
    await read(buyer.client, '/openapi/wallet/v1/config/getall');
    await op.deposit(seller.accountId, 'USD', '250');
    expect(await read<unknown[]>(seller.client, '/openapi/v1/depositOrders')).toHaveLength(2);
    await read(seller.client, '/openapi/v1/depositAddress', { tokenId: 'USDT' });
    await read(seller.client, '/openapi/v1/depositAddress', { tokenId: 'BTC', chainType: 'BTC' });

    const withdraw = async (clientOrderId: string): Promise<string> =>
      (
        await signed<{ orderId: string }>(buyer.client, 'POST', '/openapi/v1/withdraw', {
          tokenId: 'USDT',
          clientOrderId,
          address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
          withdrawQuantity: '20',
          chainType: 'TRC20',
        })
      ).orderId;
    const auditing = await withdraw('w-auditing');
    const sent = await withdraw('w-sent');
    const rejected = await withdraw('w-rejected');
    await op.ok('POST', `/withdrawals/${sent}/approve`, { txId: 'chain-tx-42' });
    await op.ok('POST', `/withdrawals/${rejected}/reject`, { reason: 'address on a sanctions list' });
    expect(await read<unknown[]>(buyer.client, '/openapi/v1/withdrawalOrders')).toHaveLength(3);
    for (const orderId of [auditing, sent, rejected]) await read(buyer.client, '/openapi/v1/withdraw/detail', { orderId });
    await read(buyer.client, '/openapi/v1/withdraw/detail', { clientOrderId: 'w-sent' });

    // Sub-accounts, transfers, balance flow.
    const family = await op.family({ USDT: '1000' }, { subName: 'bot-a' });
    expect(await read<unknown[]>(family.main, '/openapi/v1/subAccount/query', {}, ['POST', 'GET'])).toHaveLength(2);
    await signed(family.main, 'POST', '/openapi/v1/transfer', { ...MAIN_TO_SUB, tokenId: 'USDT', amount: '250.25' });
    await signed(family.sub, 'POST', '/openapi/v1/transfer', { tokenId: 'USDT', amount: '10' });
    expect(await read<unknown[]>(family.main, '/openapi/v1/balance_flow', {}, ['POST', 'GET'])).toHaveLength(3);
    await read(family.main, '/openapi/v1/balance_flow', { accountType: 1, accountIndex: 1 }, ['POST']);
    await read(family.sub, '/openapi/v1/balance_flow', {}, ['GET']);
    expect(await read(idle.client, '/openapi/v1/balance_flow', {}, ['POST'])).toEqual([]);
    await read(buyer.client, '/openapi/v1/balance_flow', { limit: 100 }, ['GET']);
    await signed(family.main, 'POST', '/openapi/v1/user/transfer', { targetUserId: idle.userId, clientOrderId: 'gift-1', tokenId: 'USDT', amount: '5', businessType: 3 });

    // User data stream keys.
    const { listenKey } = await signed<{ listenKey: string }>(buyer.client, 'POST', '/openapi/v1/userDataStream');
    await signed(buyer.client, 'PUT', '/openapi/v1/userDataStream', { listenKey });
    await signed(buyer.client, 'DELETE', '/openapi/v1/userDataStream', { listenKey });

    const violations = check.violations.map((v) => `${v.operation} ${v.url}: ${v.errors}\n  ${JSON.stringify(v.body).slice(0, 600)}`);
    expect(violations).toEqual([]);
    expect(check.unreached('/openapi/').filter((key) => !key.split(' ')[1].startsWith('/openapi/v2'))).toEqual([]);
    expect(check.badExamples('/openapi/').filter((key) => !key.split(' ')[1].startsWith('/openapi/v2'))).toEqual([]);
  });
});
