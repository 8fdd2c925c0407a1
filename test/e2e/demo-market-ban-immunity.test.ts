import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MARKET_MAKER_SYMBOLS } from '../../src/demo/demo-catalogue.js';
import { openSecretBox } from '../../src/api/auth/secret-box.js';
import { findDemoMarketMakerKey } from '../../src/demo/demo-data.js';
import { AdminClient } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Linux routes all of 127/8 to lo: a second loopback address is another client to the limiter. */
const FLOODER = '127.0.0.1';
const OBSERVER = '127.0.0.2';
const CHANGE_DEADLINE_MS = 20_000;

interface Answer {
  status: number;
  body: unknown;
}

function getFrom(localAddress: string, url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', localAddress, agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text.length > 0 ? (JSON.parse(text) as unknown) : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the demo market outlives a ban of the loopback address', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer({ BOURSE_DEMO: '1', BOURSE_DEMO_MARKET_MAKER: '1' });
    // A small budget, so a flood reaches the ban in a few hundred requests.
    const lowered = await new AdminClient(t.url, t.adminToken).send('PATCH', '/trading/config', { requestWeightPerMinute: 300, banStrikes: 5 });
    expect(lowered.status).toBe(200);
  });
  afterAll(async () => {
    await t?.stop();
  });

  async function updateIds(): Promise<number[]> {
    const answers = await Promise.all(
      DEMO_MARKET_MAKER_SYMBOLS.map((s) => getFrom(OBSERVER, `${t.url}/openapi/quote/v1/depth?symbol=${s.symbol}&limit=5`)),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    return answers.map((a) => (a.body as { lastUpdateId: number }).lastUpdateId);
  }

  it('when a client floods from 127.0.0.1 until it is banned (418), then the demo books seen from 127.0.0.2 keep changing while the ban holds', async () => {
    let status = 0;
    for (let sent = 0; sent < 2000 && status !== 418; sent++) status = (await getFrom(FLOODER, `${t.url}/openapi/quote/v1/depth?symbol=BTCUSDT&limit=5`)).status;
    expect(status).toBe(418);

    const before = await updateIds();
    // The maker quotes on a timer of its own, in this process but announcing nothing: the books
    // are read again until one has changed.
    let after = before;
    const changed = async (): Promise<boolean> => (after = await updateIds()).some((id, i) => id !== before[i]);
    await expect.poll(changed, { timeout: CHANGE_DEADLINE_MS, interval: 500, message: 'a demo book changes while 127.0.0.1 is banned' }).toBe(true);
    expect(after.some((id, i) => id > before[i])).toBe(true);
    // The flooder is still banned: the maker kept quoting from the same address.
    expect((await getFrom(FLOODER, `${t.url}/openapi/v1/ping`)).status).toBe(418);
  }, 30_000);

  it('when the banned address presents the exempt key without a valid signature, then it is still refused with 418', async () => {
    const maker = findDemoMarketMakerKey(t.server.exchange, openSecretBox(t.dataDir));
    expect(maker).toBeDefined();
    const forged = await getFrom(FLOODER, `${t.url}/openapi/v1/openOrders?timestamp=${Date.now()}&signature=${'0'.repeat(64)}`, {
      'X-BH-APIKEY': maker?.apiKey ?? '',
    });
    expect(forged.status).toBe(418);
  });
});
