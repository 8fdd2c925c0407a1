import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hmacHex, request, SpotClient } from '../support/clients.js';
import { MerchantClient } from '../support/merchant-client.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * docs/spot-api.md "Methods and parameters": a body that is neither form nor JSON is 415 `-1000` "Unsupported content type.",
 * answered like 404 and 413 before the key checks of docs/spot-api.md "Order of checks", which cannot read `timestamp` or
 * `signature` out of such a body. Area B has no 415: such a body is -4010 "body" in its envelope,
 * after the token (docs/merchant-payments.md "Requests", docs/merchant-payments.md "Answers and errors").
 */
const UNSUPPORTED = { status: 415, body: { code: -1000, msg: 'Unsupported content type.' } };
const ORDER = 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=100';

describe('bodies of an unsupported content type', () => {
  let s: TestServer;
  let spot: SpotClient;

  beforeAll(async () => {
    s = await startTestServer();
    spot = new SpotClient(s.url, s.demo.apiKey, s.demo.secretKey);
  });

  afterAll(async () => {
    await s.stop();
  });

  /** The whole signed request in the body, nothing in the query: what a client sending text/plain by mistake does. */
  function signedBody(params: string): string {
    const payload = `${params}&timestamp=${Date.now()}`;
    return `${payload}&signature=${hmacHex(s.demo.secretKey, payload)}`;
  }

  it.each([
    ['A11 new order', 'POST', '/openapi/v1/order', 'text/plain'],
    ['A11 new order', 'POST', '/openapi/v1/order', 'text/plain; charset=utf-8'],
    ['A12 test order', 'POST', '/openapi/v1/order/test', 'text/plain'],
    ['A14 cancel', 'DELETE', '/openapi/v1/order', 'text/plain'],
    ['A26 listenKey', 'POST', '/openapi/v1/userDataStream', 'text/plain'],
  ])('when %s comes as %s… with no signed query, then 415 -1000, not -1102', async (_name, method, path, contentType) => {
    const answer = await request(`${s.url}${path}`, {
      method,
      headers: { 'X-BH-APIKEY': s.demo.apiKey, 'Content-Type': contentType },
      body: signedBody(path.endsWith('order') && method === 'DELETE' ? 'orderId=1' : ORDER),
    });
    expect({ status: answer.status, body: answer.body }).toEqual(UNSUPPORTED);
  });

  it('when an order comes as XML, then 415 -1000', async () => {
    const answer = await request(`${s.url}/openapi/v1/order`, {
      method: 'POST',
      headers: { 'X-BH-APIKEY': s.demo.apiKey, 'Content-Type': 'application/xml' },
      body: '<order><symbol>BTCUSDT</symbol><side>BUY</side></order>',
    });
    expect({ status: answer.status, body: answer.body }).toEqual(UNSUPPORTED);
  });

  it('when the query is signed but the body is text/plain, then still 415 -1000 and no order is placed', async () => {
    const before = await spot.signed('GET', '/openapi/v1/openOrders');
    const payload = `${ORDER}&timestamp=${Date.now()}`;
    const answer = await request(`${s.url}/openapi/v1/order?${payload}&signature=${hmacHex(s.demo.secretKey, payload)}`, {
      method: 'POST',
      headers: { 'X-BH-APIKEY': s.demo.apiKey, 'Content-Type': 'text/plain' },
      body: 'newClientOrderId=plain-1',
    });
    expect({ status: answer.status, body: answer.body }).toEqual(UNSUPPORTED);
    expect((await spot.signed('GET', '/openapi/v1/openOrders')).body).toEqual(before.body);
  });

  it('when no API key is sent either, then 415 comes first, as 413 does', async () => {
    const answer = await request(`${s.url}/openapi/v1/order`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: ORDER });
    expect({ status: answer.status, body: answer.body }).toEqual(UNSUPPORTED);
  });

  it('when the body is empty, then its Content-Type does not matter', async () => {
    const payload = `timestamp=${Date.now()}`;
    const answer = await request(`${s.url}/openapi/v1/userDataStream?${payload}&signature=${hmacHex(s.demo.secretKey, payload)}`, {
      method: 'POST',
      headers: { 'X-BH-APIKEY': s.demo.apiKey, 'Content-Type': 'text/plain' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ listenKey: expect.stringMatching(/^[A-Za-z0-9]{64}$/) as string });
  });

  it('when area B gets a text/plain body with a valid token, then 400 -4010 naming the body, in its envelope', async () => {
    const merchant = await MerchantClient.connect(s.url, s.demo.merchantApiKey, s.demo.merchantSecretKey);
    const answer = await request(`${s.url}/v2/merchants`, {
      method: 'POST',
      headers: { 'X-BH-TOKEN': merchant.token, 'Content-Type': 'text/plain' },
      body: '{"merchantName":"Plain Co"}',
    });
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: { code: -4010, msg: 'PARAM_IS_INVALID', detail: 'body has Content-Type text/plain; send application/json or application/x-www-form-urlencoded', data: null },
    });
  });

  it('when area B gets a text/plain body without a token, then the token is reported first (401 -1002)', async () => {
    const answer = await request(`${s.url}/v2/merchants`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"merchantName":"Plain Co"}' });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ code: -1002, msg: 'UNAUTHORIZED' });
  });
});
