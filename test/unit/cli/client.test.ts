import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPath, createAdminClient } from '../../../src/cli/client.js';
import { CliError } from '../../../src/cli/errors.js';
import { startFakeAdmin, type FakeAdmin } from './fake-admin.js';

let fake: FakeAdmin;
beforeAll(async () => {
  fake = await startFakeAdmin();
});
afterAll(() => fake.close());

describe('admin client', () => {
  it('when segments hold reserved characters, then adminPath escapes each one', () => {
    expect(adminPath('users', '1/../2', 'api-keys')).toBe('/admin/v1/users/1%2F..%2F2/api-keys');
  });

  it('when BOURSE_URL ends with a slash or a path, then requests go below it', async () => {
    fake.requests.length = 0;
    fake.answer = () => ({ body: {} });
    const client = createAdminClient({ baseUrl: `${fake.url}/bourse/`, token: 't' });
    await client.send('GET', '/admin/v1/verify');
    expect(fake.requests[0].url).toBe('/bourse/admin/v1/verify');
  });

  it('when the server answers 204 with no body, then the answer is an empty object', async () => {
    fake.answer = () => ({ status: 204, body: '' });
    const answer = await createAdminClient({ baseUrl: fake.url, token: 't' }).send('DELETE', '/admin/v1/bans/1.2.3.4');
    expect(answer).toEqual({ status: 204, body: {}, raw: '{}' });
  });

  it('when the server does not answer within the timeout, then it is a connection failure (exit 2)', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const failure = await createAdminClient({ baseUrl: url, token: 't', timeoutMs: 50 })
        .send('GET', '/admin/v1/verify')
        .catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(CliError);
      expect(failure).toMatchObject({
        exitCode: 2,
        message: `cannot reach the Bourse server at ${url} (no answer within 50 ms); is it running? BOURSE_URL sets the address`,
      });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe('admin client connection failures', () => {
  it('when fetch refuses the URL itself, then the reason from its cause is reported', async () => {
    const failure = await createAdminClient({ baseUrl: 'http://127.0.0.1:1', token: 't' })
      .send('GET', '/admin/v1/verify')
      .catch((err: unknown) => err);
    expect(failure).toMatchObject({
      exitCode: 2,
      message: 'cannot reach the Bourse server at http://127.0.0.1:1 (bad port); is it running? BOURSE_URL sets the address',
    });
  });
});
