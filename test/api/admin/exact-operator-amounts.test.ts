/**
 * Exact at the operator boundary: every decimal and integer member of /admin/v1 is read from the
 * literal the operator sent, never through a double, so a value is either kept exactly or refused
 * with `{code, msg}` (-1100 when it is not of the member's form, -1130 when the target cannot hold
 * it). Bodies here are raw JSON texts, because `JSON.stringify` would already have rounded them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance } from '../../support/account-reads.js';
import { ok } from '../../support/answers.js';
import { request, type HttpAnswer } from '../../support/clients.js';
import { Operator, type Member } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

interface DepositRecord {
  orderId: string;
  quantity: string;
}
interface Filter {
  filterType: string;
  [name: string]: unknown;
}
interface SymbolInfo {
  symbol: string;
  filters: Filter[];
}
interface CoinInfo {
  coin: string;
  networkList: { withdrawFee: string; withdrawMin: string }[];
}

/** Asset with 8 decimals (as BTC), 18 decimals, and 0 decimals; names nothing else uses. */
const A8 = 'XEXACT8';
const A18 = 'XEXACT18';
const A0 = 'XEXACT0';

/** A `{code, msg}` refusal with exactly this status and code. */
function expectRefusal(answer: HttpAnswer, status: number, code: number): void {
  expect({ status: answer.status, code: (answer.body as { code?: unknown }).code, keys: Object.keys(answer.body as object).sort() }, answer.text).toEqual({
    status,
    code,
    keys: ['code', 'msg'],
  });
}

describe('operator API: decimal and integer members are kept exactly or refused', () => {
  let t: TestServer;
  let op: Operator;
  let holder: Member;

  /** One operator request whose body is this JSON text, byte for byte. */
  const send = (method: string, path: string, bodyText: string): Promise<HttpAnswer> =>
    request(`${t.url}/admin/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${t.adminToken}`, 'Content-Type': 'application/json' },
      body: bodyText,
    });

  const deposits = async (): Promise<DepositRecord[]> =>
    ok<DepositRecord[]>(await holder.client.signed('GET', '/openapi/v1/depositOrders', { limit: 1000 }));

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    for (const [asset, precision] of [
      [A8, 8],
      [A18, 18],
      [A0, 0],
    ] as const) {
      await op.ok('POST', '/assets', { asset, precision, chains: [asset] });
    }
    holder = await op.member();
  });
  afterAll(async () => t.stop());

  describe('deposits (POST /admin/v1/deposits)', () => {
    it.each([
      // The two values: a double would make them 12345678.12345679 and 9007199254740992.
      ['the JSON number 12345678.12345678 (8 decimals)', A8, '12345678.12345678', '12345678.12345678'],
      ['the string "12345678.12345678"', A8, '"12345678.12345678"', '12345678.12345678'],
      ['the JSON number 9007199254740993', A8, '9007199254740993', '9007199254740993'],
      ['the JSON number 9007199254740993 for a 0-decimal asset', A0, '9007199254740993', '9007199254740993'],
      ['the JSON number 99999999999999999999.99999999 (20 + 8 digits)', A8, '99999999999999999999.99999999', '99999999999999999999.99999999'],
      ['the JSON number 0.1', A8, '0.1', '0.1'],
      ['the JSON number 100.50 (a trailing zero)', A8, '100.50', '100.5'],
      ['the JSON number 0.123456789012345678 (18 decimals)', A18, '0.123456789012345678', '0.123456789012345678'],
      ['the JSON number 1.000000000000000001 (18 decimals)', A18, '1.000000000000000001', '1.000000000000000001'],
    ])('when the amount is %s, then the deposit is exactly that', async (_what, asset, literal, expected) => {
      const answer = await send('POST', '/deposits', `{"accountId":${holder.accountId},"asset":"${asset}","amount":${literal}}`);
      const { depositId } = ok<{ depositId: string }>(answer);
      expect((await deposits()).find((d) => d.orderId === depositId)?.quantity).toBe(expected);
    });

    it.each([
      // Before: accepted as 12345678.12345679 (String of the double), one atom more than sent.
      ['the JSON number 12345678.123456789 for an 8-decimal asset (too precise)', A8, '12345678.123456789', -1130],
      ['the string "12345678.123456789" for an 8-decimal asset', A8, '"12345678.123456789"', -1130],
      ['the JSON number 0.5 for a 0-decimal asset', A0, '0.5', -1130],
      ['the JSON number 0.1234567890123456789 (19 decimals; the double prints 0.12345678901234568)', A18, '0.1234567890123456789', -1100],
      ['the JSON number 1.0000000000000000001 (the double is 1)', A18, '1.0000000000000000001', -1100],
      ['the JSON number 123456789012345678901 (21 digits)', A0, '123456789012345678901', -1100],
      ['the JSON number 1e3 (exponent)', A8, '1e3', -1100],
      ['the JSON number 1E-8 (exponent)', A8, '1E-8', -1100],
      ['the JSON number -1', A8, '-1', -1100],
      ['the JSON number 0', A8, '0', -1130],
    ])('when the amount is %s, then it is refused and nothing is credited', async (_what, asset, literal, code) => {
      const before = (await deposits()).length;
      const balanceBefore = await balance(holder.client, asset);
      expectRefusal(await send('POST', '/deposits', `{"accountId":${holder.accountId},"asset":"${asset}","amount":${literal}}`), 400, code);
      expect((await deposits()).length).toBe(before);
      expect(await balance(holder.client, asset)).toEqual(balanceBefore);
    });

    it.each([
      ['the JSON number 9007199254740993 (beyond 2^53)', '9007199254740993', 400, -1130],
      ['the string "9007199254740993"', '"9007199254740993"', 400, -1130],
      ['the JSON number 99999999999999999999999', '99999999999999999999999', 400, -1130],
      ['a JSON number with a fraction that a double drops (1.0000000000000001)', '1.0000000000000001', 400, -1100],
      ['a JSON number in exponent form (1e0)', '1e0', 400, -1100],
      ['a negative JSON number', '-1', 400, -1100],
      ['the largest safe integer (no such account)', '9007199254740991', 404, -1000],
    ])('when accountId is %s, then it is refused', async (_what, literal, status, code) => {
      const before = (await deposits()).length;
      expectRefusal(await send('POST', '/deposits', `{"accountId":${literal},"asset":"${A8}","amount":"1"}`), status, code);
      expect((await deposits()).length).toBe(before);
    });

    it('when accountId is the holder\'s id as a JSON number with ".0", then it is refused, not read as that id', async () => {
      expectRefusal(await send('POST', '/deposits', `{"accountId":${holder.accountId}.0,"asset":"${A8}","amount":"1"}`), 400, -1100);
    });

    it('when a member is sent twice, then the body is refused rather than one of them kept', async () => {
      const answer = await send('POST', '/deposits', `{"accountId":${holder.accountId},"asset":"${A8}","amount":"1","amount":"1000"}`);
      expectRefusal(answer, 400, -1100);
      expect((answer.body as { msg: string }).msg).toContain('amount is sent twice');
    });
  });

  describe('fee rates (PATCH /admin/v1/accounts/:accountId)', () => {
    it.each([
      ['the JSON number 0.00012345 (8 decimals)', '0.00012345', '0.00012345'],
      ['the string "0.00012345"', '"0.00012345"', '0.00012345'],
      ['the JSON number 0.1', '0.1', '0.1'],
      ['the JSON number 0.00100000 (trailing zeros)', '0.00100000', '0.001'],
    ])('when makerFeeRate is %s, then the rate is exactly that', async (_what, literal, expected) => {
      const answer = ok<{ makerFeeRate: string }>(await send('PATCH', `/accounts/${holder.accountId}`, `{"makerFeeRate":${literal}}`));
      expect(answer.makerFeeRate).toBe(expected);
    });

    it.each([
      // Before: the double of 0.0010000000000000001 is 0.001, which was set.
      ['the JSON number 0.0010000000000000001 (19 decimals)', '0.0010000000000000001', -1100],
      ['the JSON number 0.000123456 (9 decimals; rates have 8)', '0.000123456', -1130],
      ['the JSON number 0.10000000000000001 (the double prints 0.1)', '0.10000000000000001', -1130],
      ['the JSON number 1e-3', '1e-3', -1100],
    ])('when makerFeeRate is %s, then it is refused and the rate is unchanged', async (_what, literal, code) => {
      const before = ok<{ makerFeeRate: string }>(await send('PATCH', `/accounts/${holder.accountId}`, '{"takerFeeRate":"0.002"}')).makerFeeRate;
      expectRefusal(await send('PATCH', `/accounts/${holder.accountId}`, `{"makerFeeRate":${literal}}`), 400, code);
      expect(ok<{ makerFeeRate: string }>(await send('PATCH', `/accounts/${holder.accountId}`, '{"takerFeeRate":"0.002"}')).makerFeeRate).toBe(before);
    });
  });

  describe('symbol tick and step sizes (POST /admin/v1/symbols)', () => {
    const listed = async (symbol: string): Promise<SymbolInfo | undefined> =>
      ok<{ symbols: SymbolInfo[] }>(await request(`${t.url}/openapi/v1/exchangeInfo`)).symbols.find((s) => s.symbol === symbol);
    const filter = (info: SymbolInfo | undefined, type: string): Filter | undefined => info?.filters.find((f) => f.filterType === type);

    it.each([
      // Before: tickSize 0.3 and maxPrice 3, another market than the one sent.
      [
        'tickSize 0.30000000000000001 and maxPrice 3.0000000000000001 as JSON numbers',
        'XEXA',
        A18,
        '"tickSize":0.30000000000000001,"stepSize":1,"maxPrice":3.0000000000000001,"minNotional":1',
        { tickSize: '0.30000000000000001', maxPrice: '3.0000000000000001', minPrice: '0.30000000000000001' },
        { stepSize: '1' },
      ],
      // 9007199254740993 = 3 × 3002399751580331; its double 9007199254740992 is no multiple of 3.
      [
        'maxQty 9007199254740993 with stepSize 3 as JSON numbers',
        'XEXB',
        A18,
        '"tickSize":0.01,"stepSize":3,"maxQty":9007199254740993,"minNotional":1',
        { tickSize: '0.01' },
        { stepSize: '3', minQty: '3', maxQty: '9007199254740993' },
      ],
      [
        'tickSize "0.00000001" and stepSize 0.00000001 (string and number)',
        'XEXC',
        A18,
        '"tickSize":"0.00000001","stepSize":0.00000001,"minNotional":"0.0001"',
        { tickSize: '0.00000001' },
        { stepSize: '0.00000001' },
      ],
    ])('when a symbol is listed with %s, then exchangeInfo shows exactly those values', async (_what, symbol, quote, members, price, lot) => {
      ok(await send('POST', '/symbols', `{"symbol":"${symbol}","baseAsset":"${A8}","quoteAsset":"${quote}",${members}}`));
      const info = await listed(symbol);
      expect(filter(info, 'PRICE_FILTER')).toMatchObject(price);
      expect(filter(info, 'LOT_SIZE')).toMatchObject(lot);
    });

    it.each([
      ['tickSize 0.0000000000000000001 (19 decimals; the double prints 1e-19)', 'XEXD', '"tickSize":0.0000000000000000001,"stepSize":1,"minNotional":1', -1100],
      ['tickSize 1e-2 (exponent)', 'XEXE', '"tickSize":1e-2,"stepSize":1,"minNotional":1', -1100],
      ['stepSize 0.000000001 for an 8-decimal base asset', 'XEXF', '"tickSize":0.01,"stepSize":0.000000001,"minNotional":1', -1130],
      ['maxQty 9007199254740992 with stepSize 3 (no multiple)', 'XEXG', '"tickSize":0.01,"stepSize":3,"maxQty":9007199254740992,"minNotional":1', -1130],
    ])('when a symbol is listed with %s, then it is refused and not listed', async (_what, symbol, members, code) => {
      expectRefusal(await send('POST', '/symbols', `{"symbol":"${symbol}","baseAsset":"${A8}","quoteAsset":"${A18}",${members}}`), 400, code);
      expect(await listed(symbol)).toBeUndefined();
    });
  });

  describe('asset amounts and precision (POST /admin/v1/assets)', () => {
    const coin = async (asset: string): Promise<CoinInfo | undefined> =>
      ok<CoinInfo[]>(await holder.client.signed('GET', '/openapi/wallet/v1/config/getall')).find((c) => c.coin === asset);

    it.each([
      ['withdrawFee 12345678.12345678 and minWithdraw 0.00000001 as JSON numbers', 'XEXH', '"precision":8,"withdrawFee":12345678.12345678,"minWithdraw":0.00000001', '12345678.12345678', '0.00000001'],
      ['withdrawFee "1" and minWithdraw 9007199254740993 for precision 0', 'XEXI', '"precision":0,"withdrawFee":"1","minWithdraw":9007199254740993', '1', '9007199254740993'],
    ])('when an asset is added with %s, then they are exactly those', async (_what, asset, members, withdrawFee, withdrawMin) => {
      ok(await send('POST', '/assets', `{"asset":"${asset}",${members}}`));
      expect((await coin(asset))?.networkList[0]).toMatchObject({ withdrawFee, withdrawMin });
    });

    it.each([
      // Before: accepted as 12345678.12345679.
      ['withdrawFee 12345678.123456789 for precision 8', 'XEXJ', '"precision":8,"withdrawFee":12345678.123456789', -1130],
      ['precision 8.0 (not an integer literal)', 'XEXK', '"precision":8.0', -1100],
      ['precision 8.0000000000000001 (the double is 8)', 'XEXL', '"precision":8.0000000000000001', -1100],
      ['precision 9007199254740993', 'XEXM', '"precision":9007199254740993', -1130],
      ['precision 1e1', 'XEXN', '"precision":1e1', -1100],
    ])('when an asset is added with %s, then it is refused and not added', async (_what, asset, members, code) => {
      expectRefusal(await send('POST', '/assets', `{"asset":"${asset}",${members}}`), 400, code);
      expect(await coin(asset)).toBeUndefined();
    });
  });

  describe('trading config (PATCH /admin/v1/trading/config)', () => {
    const config = async (): Promise<Record<string, unknown>> => op.ok<Record<string, unknown>>('GET', '/trading/config');

    it('when defaultMakerFeeRate is the JSON number 0.00012345 and maxOpenOrdersPerSymbol the string "300", then both are exactly those', async () => {
      ok(await send('PATCH', '/trading/config', '{"defaultMakerFeeRate":0.00012345,"maxOpenOrdersPerSymbol":"300"}'));
      expect(await config()).toMatchObject({ defaultMakerFeeRate: '0.00012345', maxOpenOrdersPerSymbol: 300 });
    });

    it.each([
      ['defaultMakerFeeRate 0.0010000000000000001 (the double is 0.001)', '"defaultMakerFeeRate":0.0010000000000000001', -1100],
      ['maxOpenOrdersPerSymbol 9007199254740993', '"maxOpenOrdersPerSymbol":9007199254740993', -1130],
      ['maxOpenOrdersPerSymbol 200.0', '"maxOpenOrdersPerSymbol":200.0', -1100],
      ['maxOpenOrdersPerAccount 1500.00000000000001 (the double is 1500)', '"maxOpenOrdersPerAccount":1500.00000000000001', -1100],
    ])('when %s, then it is refused and the config is unchanged', async (_what, members, code) => {
      const before = await config();
      expectRefusal(await send('PATCH', '/trading/config', `{${members}}`), 400, code);
      expect(await config()).toEqual(before);
    });
  });

  describe('payments config (PATCH /admin/v1/payments/config)', () => {
    const config = async (): Promise<Record<string, unknown>> => op.ok<Record<string, unknown>>('GET', '/payments/config');

    it('when counts come as JSON numbers a double holds exactly (61000, 6e4, 4000), then they are set to those values', async () => {
      ok(await send('PATCH', '/payments/config', '{"quoteTtlMs":61000,"tokenTtlMs":6e4,"webhook":{"timeoutMs":4000}}'));
      expect(await config()).toMatchObject({ quoteTtlMs: 61000, tokenTtlMs: 60000, webhook: { timeoutMs: 4000 } });
    });

    it.each([
      // Before: JSON.parse made it 60000, which was set.
      ['tokenTtlMs 60000.000000000001 (the double is 60000)', '{"tokenTtlMs":60000.000000000001}', 'tokenTtlMs'],
      ['tokenTtlMs 9007199254740993', '{"tokenTtlMs":9007199254740993}', 'tokenTtlMs'],
      ['webhook.timeoutMs 5000.0000000000001 (the double is 5000)', '{"webhook":{"timeoutMs":5000.0000000000001}}', 'webhook.timeoutMs'],
      ['webhook.retryGapsMs[1] 2^53 + 1', '{"webhook":{"retryGapsMs":[1000,9007199254740993]}}', 'webhook.retryGapsMs[1]'],
    ])('when %s, then -1130 names the member and the config is unchanged', async (_what, body, member) => {
      const before = await config();
      const answer = await send('PATCH', '/payments/config', body);
      expectRefusal(answer, 400, -1130);
      expect((answer.body as { msg: string }).msg).toContain(`'${member}'`);
      expect(await config()).toEqual(before);
    });
  });
});
