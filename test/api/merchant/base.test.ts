import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaBEndpoints } from '../../../src/api/registry.js';
import { PAYMENT_ERRORS } from '../../../src/core/payment-errors.js';
import { COUNTRY_NAMES } from '../../../src/payments/validation/countries.js';
import { AdminClient, request, type HttpAnswer } from '../../support/clients.js';
import { createUserKey, expectData, expectError, issueToken } from '../../support/merchant.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/** B1–B9 (docs/merchant-payments.md "Endpoints served") for the built-in catalogue (docs/operating.md "Merchant payments settings"), and area B's 404s and documents. */

let t: TestServer;

const get = (path: string, headers: Record<string, string> = {}): Promise<HttpAnswer> => request(`${t.url}${path}`, { headers });
const query = (params: Record<string, string>): string => new URLSearchParams(params).toString();

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t.stop());

describe('B1–B6: lists of the catalogue, sorted by country then codes', () => {
  it('when B1 is asked without hasFindAll, then the countries of configured fiats with their ISO codes', async () => {
    expect(expectData(await get('/v2/base/countrys'))).toEqual([
      { country: 'Mexico', abbr: 'MX' },
      { country: 'United States', abbr: 'US' },
    ]);
    expect(expectData(await get('/v2/base/countrys?hasFindAll=false'))).toHaveLength(2);
  });

  it.each(['true', 'TRUE', '1'])('when B1 is asked with hasFindAll=%s, then every assigned ISO 3166-1 code, sorted by name', async (value) => {
    const rows = expectData(await get(`/v2/base/countrys?hasFindAll=${value}`)) as { country: string; abbr: string }[];
    expect(rows).toHaveLength(COUNTRY_NAMES.size);
    expect(new Set(rows.map((r) => r.abbr))).toEqual(new Set(COUNTRY_NAMES.keys()));
    expect(rows.slice(0, 4)).toEqual([
      { country: 'Afghanistan', abbr: 'AF' },
      { country: 'Åland Islands', abbr: 'AX' },
      { country: 'Albania', abbr: 'AL' },
      { country: 'Algeria', abbr: 'DZ' },
    ]);
    expect(rows).toContainEqual({ country: 'Mexico', abbr: 'MX' });
    expect(rows).toContainEqual({ country: 'United States', abbr: 'US' });
  });

  it('when B1 gets a hasFindAll that is no boolean, then 400 -4010 naming it', async () => {
    expect(expectError(await get('/v2/base/countrys?hasFindAll=maybe'), 400, -4010, 'PARAM_IS_INVALID').detail).toBe('hasFindAll must be true or false');
  });

  it('when B2 is asked, then the fiats by country then code', async () => {
    expect((await get('/v2/base/fiats')).text).toBe(
      '{"code":200,"msg":"SUCCESS","data":[{"country":"Mexico","fiat":"MXN","accuracy":2},{"country":"United States","fiat":"EUR","accuracy":2},{"country":"United States","fiat":"USD","accuracy":2}]}',
    );
  });

  it('when B3 is asked, then the cryptos by code', async () => {
    expect((await get('/v2/base/cryptos')).text).toBe('{"code":200,"msg":"SUCCESS","data":[{"crypto":"BTC","accuracy":8},{"crypto":"USDT","accuracy":4}]}');
  });

  it.each(['buy', 'sell'])('when B4/B5 (%s symbols) are asked, then the open pairs with the fiat country and price accuracy', async (side) => {
    expect(expectData(await get(`/v2/base/${side}/symbols`))).toEqual([
      { country: 'Mexico', fiat: 'MXN', crypto: 'BTC', accuracy: 2 },
      { country: 'Mexico', fiat: 'MXN', crypto: 'USDT', accuracy: 4 },
      { country: 'United States', fiat: 'EUR', crypto: 'USDT', accuracy: 4 },
      { country: 'United States', fiat: 'USD', crypto: 'USDT', accuracy: 4 },
    ]);
  });

  it('when B6 is asked, then all six fiat pairs with accuracy 6', async () => {
    const row = (onRampCountry: string, onRampFiat: string, offRampCountry: string, offRampFiat: string): Record<string, unknown> => ({
      onRampCountry,
      onRampFiat,
      offRampCountry,
      offRampFiat,
      accuracy: 6,
    });
    expect(expectData(await get('/v2/base/fiat/symbols'))).toEqual([
      row('Mexico', 'MXN', 'United States', 'EUR'),
      row('Mexico', 'MXN', 'United States', 'USD'),
      row('United States', 'EUR', 'Mexico', 'MXN'),
      row('United States', 'EUR', 'United States', 'USD'),
      row('United States', 'USD', 'Mexico', 'MXN'),
      row('United States', 'USD', 'United States', 'EUR'),
    ]);
  });
});

describe('B7 / B8: rails of a fiat/crypto combination', () => {
  const rail = (paymentId: number, fiatFee: string): Record<string, unknown> => ({ paymentId, fiatFee, paymentType: 1 });

  it.each([
    ['buy', 'Mexico', 'MXN', 'USDT', [rail(58, '1.00'), rail(70, '0.00')]],
    ['buy', 'Mexico', 'MXN', 'BTC', [rail(58, '1.00'), rail(70, '0.00')]],
    ['buy', 'United States', 'USD', 'USDT', [rail(83, '5.00'), rail(70, '0.00')]],
    ['buy', 'United States', 'EUR', 'USDT', [rail(85, '1.00'), rail(70, '0.00')]],
    ['sell', 'Mexico', 'MXN', 'USDT', [rail(58, '5.00'), rail(70, '0.00')]],
    ['sell', 'United States', 'USD', 'USDT', [rail(83, '15.00'), rail(70, '0.00')]],
    ['sell', 'United States', 'EUR', 'USDT', [rail(85, '2.00'), rail(70, '0.00')]],
  ])('when %s payments of %s %s/%s are asked, then the fiat rail with its fee, then 70', async (side, country, fiat, crypto, paymentList) => {
    expect(expectData(await get(`/v2/base/${side}/payments?${query({ country, fiat, crypto })}`))).toEqual({ country, fiat, crypto, paymentList });
  });

  it('when B7 is asked for MXN/USDT, then the body is exactly the documented one', async () => {
    expect((await get('/v2/base/buy/payments?country=Mexico&fiat=MXN&crypto=USDT')).text).toBe(
      '{"code":200,"msg":"SUCCESS","data":{"country":"Mexico","fiat":"MXN","crypto":"USDT","paymentList":[{"paymentId":58,"fiatFee":"1.00","paymentType":1},{"paymentId":70,"fiatFee":"0.00","paymentType":1}]}}',
    );
  });

  it.each([
    ['a country that is not the fiat’s', 'United States', 'MXN', 'USDT'],
    ['a pair that is not configured', 'United States', 'USD', 'BTC'],
    ['an unknown fiat', 'Mexico', 'ARS', 'USDT'],
    ['an unknown crypto', 'Mexico', 'MXN', 'ETH'],
    ['a code in lower case', 'Mexico', 'mxn', 'USDT'],
  ])('when the combination has %s, then the names are echoed with an empty list', async (_what, country, fiat, crypto) => {
    for (const side of ['buy', 'sell']) {
      expect(expectData(await get(`/v2/base/${side}/payments?${query({ country, fiat, crypto })}`))).toEqual({ country, fiat, crypto, paymentList: [] });
    }
  });

  it.each([
    ['country', { fiat: 'MXN', crypto: 'USDT' }],
    ['fiat', { country: 'Mexico', crypto: 'USDT' }],
    ['crypto', { country: 'Mexico', fiat: 'MXN' }],
  ])('when %s is missing, then 400 -4010 naming it', async (missing, params) => {
    for (const side of ['buy', 'sell']) {
      const body = expectError(await get(`/v2/base/${side}/payments?${query(params)}`), 400, -4010, 'PARAM_IS_INVALID');
      expect(body).toEqual({ code: -4010, msg: 'PARAM_IS_INVALID', detail: `${missing} is required`, data: null });
    }
  });
});

describe('B9: rails of a fiat/fiat combination', () => {
  const rail = (paymentId: number, fiatFee: string): Record<string, unknown> => ({ paymentId, fiatFee, paymentType: 1 });
  const names = (onRampCountry: string, onRampFiat: string, offRampCountry: string, offRampFiat: string): Record<string, string> => ({
    onRampCountry,
    onRampFiat,
    offRampCountry,
    offRampFiat,
  });

  it('when MXN → USD is asked, then the body is exactly the documented one', async () => {
    expect((await get(`/v2/base/fiat/payments?${query(names('Mexico', 'MXN', 'United States', 'USD'))}`)).text).toBe(
      '{"code":200,"msg":"SUCCESS","data":{"onRampCountry":"Mexico","onRampFiat":"MXN","offRampCountry":"United States","offRampFiat":"USD","paymentListFrom":[{"paymentId":58,"fiatFee":"1.00","paymentType":1}],"paymentListTo":[{"paymentId":83,"fiatFee":"15.00","paymentType":1}]}}',
    );
  });

  it.each([
    [names('United States', 'EUR', 'Mexico', 'MXN'), [rail(85, '1.00')], [rail(58, '5.00')]],
    [names('United States', 'USD', 'United States', 'EUR'), [rail(83, '5.00')], [rail(85, '2.00')]],
  ])('when %j is asked, then the on-ramp rail with its pay-in fee and the off-ramp rail with its payout fee', async (params, paymentListFrom, paymentListTo) => {
    expect(expectData(await get(`/v2/base/fiat/payments?${query(params)}`))).toEqual({ ...params, paymentListFrom, paymentListTo });
  });

  it.each([
    ['the same fiat twice', names('Mexico', 'MXN', 'Mexico', 'MXN')],
    ['a country that is not the fiat’s', names('Mexico', 'USD', 'Mexico', 'MXN')],
    ['an unknown fiat', names('Mexico', 'MXN', 'Canada', 'CAD')],
  ])('when the combination has %s, then the names are echoed with empty lists', async (_what, params) => {
    expect(expectData(await get(`/v2/base/fiat/payments?${query(params)}`))).toEqual({ ...params, paymentListFrom: [], paymentListTo: [] });
  });

  it.each(['onRampCountry', 'onRampFiat', 'offRampCountry', 'offRampFiat'])('when %s is missing, then 400 -4010 naming it', async (missing) => {
    const params = names('Mexico', 'MXN', 'United States', 'USD');
    delete params[missing];
    expect(expectError(await get(`/v2/base/fiat/payments?${query(params)}`), 400, -4010, 'PARAM_IS_INVALID').detail).toBe(`${missing} is required`);
  });
});

describe('base reads and tokens (docs/merchant-payments.md "Getting a token")', () => {
  it('when a valid token is sent, then the read is answered as without one', async () => {
    const key = await createUserKey(new AdminClient(t.url, t.adminToken));
    const { token } = await issueToken(t.url, key);
    expect(expectData(await get('/v2/base/cryptos', { 'X-BH-TOKEN': token }))).toHaveLength(2);
  });

  it('when an unknown token is sent, then it is ignored', async () => {
    expect(expectData(await get('/v2/base/cryptos', { 'X-BH-TOKEN': 'stale' }))).toHaveLength(2);
  });
});

describe('unknown paths and methods under area B (docs/merchant-payments.md "Answers and errors")', () => {
  it.each([
    ['GET', '/v2'],
    ['GET', '/v2/'],
    ['GET', '/v2/nothing/here'],
    ['GET', '/openapi/v2'],
    ['GET', '/openapi/v2/nothing'],
    ['GET', '/sandbox'],
    ['GET', '/sandbox/v2/nothing'],
    ['POST', '/v2/base/fiats'],
    ['DELETE', '/v2/token/generate'],
  ])('when %s %s is requested, then 404 -1000 in the area B envelope', async (method, path) => {
    const answer = await request(`${t.url}${path}`, { method });
    expect(expectError(answer, 404, -1000, 'UNKNOWN')).toEqual({ code: -1000, msg: 'UNKNOWN', detail: `No endpoint ${method} ${path}`, data: null });
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it.each(['/openapi/v1/nothing', '/V2/base/fiats', '/v21/base', '/sandboxes'])('when %s is requested, then area A answers its own 404', async (path) => {
    const answer = await get(path);
    expect([answer.status, answer.body]).toEqual([404, { code: -1000, msg: 'Unknown path or method.' }]);
  });
});

describe('area B documents', () => {
  interface Operation {
    summary: string;
    security: Record<string, string[]>[];
    parameters: { name: string; in: string; required: boolean }[];
  }
  let doc: { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: { ErrorEnvelope: { properties: { code: { enum: number[] } } } } } };

  beforeAll(async () => {
    const answer = await get('/openapi-v2.json');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    doc = answer.body as typeof doc;
  });

  it('when /openapi-v2.json is read, then every area B endpoint has an operation named for it under each of its paths', () => {
    expect(doc.openapi).toBe('3.1.0');
    const missing = areaBEndpoints().flatMap((e) =>
      [e.path, ...(e.extraPaths ?? [])]
        .map((path) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}'))
        .filter((path) => !doc.paths[path]?.[e.method.toLowerCase()]?.summary.startsWith(`${e.id} `))
        .map((path) => `${e.id} ${e.method} ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it('when B0 and a base read are described, then B0 needs the API key and signature, base reads take a token or nothing', () => {
    const b0 = doc.paths['/v2/token/generate'].get;
    expect(b0.security).toEqual([{ apiKey: [] }]);
    expect(b0.parameters.filter((p) => p.required).map((p) => [p.name, p.in])).toEqual([
      ['timestamp', 'query'],
      ['signature', 'query'],
    ]);
    expect(doc.paths['/v2/base/countrys'].get.security).toEqual([{}, { token: [] }]);
    expect(doc.paths['/v2/base/buy/payments'].get.parameters.map((p) => [p.name, p.required])).toEqual([
      ['country', true],
      ['fiat', true],
      ['crypto', true],
    ]);
  });

  it('when the error envelope schema is read, then it lists every code of docs/merchant-payments.md "Error codes"', () => {
    const codes = [...new Set(Object.values(PAYMENT_ERRORS).map((e) => e.code))].sort((a, b) => a - b);
    expect([...doc.components.schemas.ErrorEnvelope.properties.code.enum].sort((a, b) => a - b)).toEqual(codes);
  });

  it('when /openapi.json is read, then it holds every area B operation exactly as /openapi-v2.json does', async () => {
    const all = (await get('/openapi.json')).body as typeof doc;
    const differing = Object.entries(doc.paths).filter(([path, operations]) => JSON.stringify(all.paths[path]) !== JSON.stringify(operations));
    expect(differing.map(([path]) => path)).toEqual([]);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(30);
  });
});
