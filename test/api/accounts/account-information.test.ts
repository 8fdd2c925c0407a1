/**
 * A19 account information as the account side moves funds (area A §3.4, §4.8, §5): withdrawal
 * locks, internal transfers seen from both keys, and a sub-account's fee rates. The plain A19 shape
 * and its trading cases are in test/api/account.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, SpotClient } from '../../support/clients.js';
import { startTestServer, type TestServer } from '../../support/server.js';

interface AccountBody {
  accountId: string;
  updateTime: string;
  makerFeeRate: string;
  takerFeeRate: string;
  balances: { asset: string; total: string; free: string; locked: string }[];
}

describe('A19 account information on the account side', () => {
  let t: TestServer;
  let admin: AdminClient;

  const adminOk = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await admin.send(method, path, body);
    expect(answer.status, answer.text).toBe(200);
    return answer.body as T;
  };
  const keyOf = async (userId: string, accountIndex = 0): Promise<SpotClient> => {
    const key = await adminOk<{ apiKey: string; secretKey: string }>('POST', `/users/${userId}/api-keys`, { accountIndex });
    return new SpotClient(t.url, key.apiKey, key.secretKey);
  };
  const account = async (client: SpotClient, method = 'GET', path = '/openapi/v1/account'): Promise<AccountBody> => {
    const answer = await client.signed(method, path, {}, { place: method === 'POST' ? 'body' : 'query' });
    expect(answer.status, answer.text).toBe(200);
    return answer.body as AccountBody;
  };
  /** `total/free/locked` of one asset. */
  const holding = (body: AccountBody, asset: string): string => {
    const b = body.balances.find((x) => x.asset === asset);
    return `${b?.total}/${b?.free}/${b?.locked}`;
  };

  beforeAll(async () => {
    t = await startTestServer();
    admin = new AdminClient(t.url, t.adminToken);
  });
  afterAll(async () => t.stop());

  it('when a withdrawal waits for the operator, then quantity plus fee is locked and the total is unchanged; a rejection frees it', async () => {
    const user = await adminOk<{ userId: string; accountId: string }>('POST', '/users', {});
    await adminOk('POST', '/deposits', { accountId: user.accountId, asset: 'BTC', amount: '0.01' });
    const client = await keyOf(user.userId);
    const answer = await client.signed('POST', '/openapi/v1/withdraw', { tokenId: 'BTC', clientOrderId: 'w-1', address: 'bc1qxyz', withdrawQuantity: '0.002' });
    expect(answer.status, answer.text).toBe(200);
    expect(holding(await account(client), 'BTC')).toBe('0.01/0.0075/0.0025');
    await adminOk('POST', `/withdrawals/${(answer.body as { orderId: string }).orderId}/reject`, {});
    expect(holding(await account(client), 'BTC')).toBe('0.01/0.01/0');
  });

  it('when a main key funds its sub-account, then each key sees only its own account, by GET and POST and under the aliases', async () => {
    const user = await adminOk<{ userId: string; accountId: string }>('POST', '/users', {});
    const sub = await adminOk<{ accountId: string }>('POST', `/users/${user.userId}/sub-accounts`, {});
    await adminOk('POST', '/deposits', { accountId: user.accountId, asset: 'USDT', amount: '100' });
    const main = await keyOf(user.userId);
    const subClient = await keyOf(user.userId, 1);
    const before = Date.now();
    const transfer = await main.signed('POST', '/openapi/v1/transfer', {
      fromAccountType: 1,
      fromAccountIndex: 0,
      toAccountType: 1,
      toAccountIndex: 1,
      tokenId: 'USDT',
      amount: '30',
    });
    expect(transfer.status, transfer.text).toBe(200);
    const after = Date.now();
    const mainView = await account(main);
    const subView = await account(subClient);
    expect([mainView.accountId, holding(mainView, 'USDT')]).toEqual([user.accountId, '70/70/0']);
    expect([subView.accountId, holding(subView, 'USDT')]).toEqual([sub.accountId, '30/30/0']);
    expect(Number(subView.updateTime)).toBeGreaterThanOrEqual(before);
    expect(Number(subView.updateTime)).toBeLessThanOrEqual(after);
    expect(subView.updateTime).toBe(mainView.updateTime);
    for (const [method, path] of [
      ['POST', '/openapi/v1/account'],
      ['GET', '/openapi/account'],
      ['POST', '/openapi/account/v1/account/'],
    ]) {
      expect(await account(subClient, method, path)).toEqual(subView);
    }
  });

  it("when a sub-account is created, then it starts with its main account's fee rates", async () => {
    const user = await adminOk<{ userId: string; accountId: string }>('POST', '/users', {});
    await adminOk('PATCH', `/accounts/${user.accountId}`, { makerFeeRate: '0.0002', takerFeeRate: '0.00075' });
    await adminOk('POST', `/users/${user.userId}/sub-accounts`, {});
    const view = await account(await keyOf(user.userId, 1));
    expect([view.makerFeeRate, view.takerFeeRate]).toEqual(['0.0002', '0.00075']);
  });
});
