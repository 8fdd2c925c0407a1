import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/api/app.js';
import { DEFAULT_RATE_LIMITS, RateLimiter } from '../../../src/api/auth/rate-limiter.js';
import { openSecretBox } from '../../../src/api/auth/secret-box.js';
import { Metrics } from '../../../src/api/metrics.js';
import { ListenKeys } from '../../../src/api/ws/listen-keys.js';
import { request } from '../../support/clients.js';
import { expectError } from '../../support/merchant.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/**
 * While the server drains, area B answers -1016 in its envelope and area A keeps its own format
 * (docs/merchant-payments.md "Error codes", docs/spot-api.md "Errors"). A second app over the same exchange is built already draining, so the
 * state is held for as long as the test needs it.
 */
describe('while the server is stopping', () => {
  let t: TestServer;
  let app: FastifyInstance;
  let url: string;
  let listenKeys: ListenKeys;

  beforeAll(async () => {
    t = await startTestServer();
    listenKeys = new ListenKeys({ core: t.server.exchange.core, clock: Date.now });
    ({ app } = buildApp({
      exchange: t.server.exchange,
      limiter: new RateLimiter({ ...DEFAULT_RATE_LIMITS }, Date.now),
      secretBox: openSecretBox(t.dataDir),
      adminToken: t.adminToken,
      metrics: new Metrics(() => t.server.exchange.core),
      logger: pino({ level: 'silent' }),
      accepting: () => false,
      listenKeys,
      engineTimeoutMs: 10_000,
      upgradeRoutes: [],
      sandbox: true,
      publicBaseUrl: () => '',
    }));
    url = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    listenKeys?.stop();
    await app?.close();
    await t?.stop();
  });

  it.each(['/v2/base/fiats', '/v2/token/generate', '/v2/unknown', '/openapi/v2/payment/refund_account', '/sandbox/v2/modes'])(
    'when %s is called, then 503 -1016 SERVICE_SHUTTING_DOWN in the area B envelope',
    async (path) => {
      expectError(await request(`${url}${path}`), 503, -1016, 'SERVICE_SHUTTING_DOWN');
    },
  );

  it('when an area A path is called, then area A answers its own 503 -1016', async () => {
    const answer = await request(`${url}/openapi/v1/ping`);
    expect([answer.status, answer.body]).toEqual([503, { code: -1016, msg: 'This service is no longer available.' }]);
  });
});
