import { describe, expect, it } from 'vitest';
import { SpotApiError, SpotHttpClient, type FetchLike } from '../../../src/demo/spot-http-client.js';

const SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';

function recordingFetch(status: number, body: string): { fetch: FetchLike; requests: { url: string; init: RequestInit }[] } {
  const requests: { url: string; init: RequestInit }[] = [];
  return {
    requests,
    fetch: (url, init) => {
      requests.push({ url, init });
      return Promise.resolve(new Response(body, { status }));
    },
  };
}

describe('SpotHttpClient', () => {
  it('when a request is signed, then the query carries the HMAC-SHA256 hex of docs/spot-api.md "Signing" and the key is in X-BH-APIKEY', async () => {
    const { fetch, requests } = recordingFetch(200, '{"orderId":"1"}');
    const client = new SpotHttpClient({ baseUrl: 'http://bourse.test', apiKey: 'K', secretKey: SECRET, fetch, now: () => 1538323200000 });
    const body = await client.signed('POST', '/openapi/v1/order', {
      symbol: 'ETHBTC',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      quantity: '1',
      price: '0.1',
      recvWindow: '5000',
    });
    expect(body).toEqual({ orderId: '1' });
    expect(requests).toHaveLength(1);
    expect(requests[0].url).toBe(
      'http://bourse.test/openapi/v1/order?symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000' +
        '&signature=5f2750ad7589d1d40757a55342e621a44037dad23b5128cc70e18ec1d1c3f4c6',
    );
    expect(requests[0].init.method).toBe('POST');
    expect(requests[0].init.headers).toEqual({ 'X-BH-APIKEY': 'K' });
  });

  it('when the server answers an error body, then it rejects with its status, code and message', async () => {
    const { fetch } = recordingFetch(400, '{"code":-1158,"msg":"Order would immediately match and take."}');
    const client = new SpotHttpClient({ baseUrl: 'http://bourse.test', apiKey: 'K', secretKey: SECRET, fetch });
    const error = await client.signed('POST', '/openapi/v1/order', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpotApiError);
    expect(error).toMatchObject({ status: 400, code: -1158, message: 'Order would immediately match and take.' });
  });

  it('when the reply is not JSON, then it rejects without a code', async () => {
    const { fetch } = recordingFetch(502, 'Bad Gateway');
    const client = new SpotHttpClient({ baseUrl: 'http://bourse.test', apiKey: 'K', secretKey: SECRET, fetch });
    await expect(client.signed('GET', '/openapi/v1/openOrders', {})).rejects.toMatchObject({ status: 502, code: undefined });
  });
});
