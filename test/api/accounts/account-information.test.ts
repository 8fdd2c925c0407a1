/**
 * A19 account information as the account side moves funds (docs/spot-api.md "Deposits and withdrawals", docs/spot-api.md "Locks, fees and rounding", docs/spot-api.md "Accounts and balances"): withdrawal
 * locks, internal transfers seen from both keys, and a sub-account's fee rates. The plain A19 shape
 * and its trading cases are in test/api/account.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Balance } from '../../support/account-reads.js';
import { ok } from '../../support/answers.js';
import type { SpotClient } from '../../support/clients.js';
import { Operator } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

interface AccountBody {
  accountId: string;
  updateTime: string;
  makerFeeRate: string;
  takerFeeRate: string;
  balances: Balance[];
}

describe('A19 account information on the account side', () => {
  let t: TestServer;
  let op: Operator;

  const account = async (client: SpotClient, method = 'GET', path = '/openapi/v1/account'): Promise<AccountBody> =>
    ok<AccountBody>(await client.signed(method, path, {}, { place: method === 'POST' ? 'body' : 'query' }));
  /** `total/free/locked` of one asset. */
  const holding = (body: AccountBody, asset: string): string => {
    const b = body.balances.find((x) => x.asset === asset);
    return `${b?.total}/${b?.free}/${b?.locked}`;
  };

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
  });
  afterAll(async () => t.stop());

  it('when a withdrawal waits for the operator, then quantity plus fee is locked and the total is unchanged; a rejection frees it', async () => {
    const { client } = await op.member({ BTC: '0.01' });
    const answer = await client.signed('POST', '/openapi/v1/withdraw', { tokenId: 'BTC', clientOrderId: 'w-1', address: 'bc1qxyz', withdrawQuantity: '0.002' });
    expect(answer.status, answer.text).toBe(200);
    expect(holding(await account(client), 'BTC')).toBe('0.01/0.0075/0.0025');
    await op.ok('POST', `/withdrawals/${(answer.body as { orderId: string }).orderId}/reject`, {});
    expect(holding(await account(client), 'BTC')).toBe('0.01/0.01/0');
  });

  it('when a main key funds its sub-account, then each key sees only its own account, by GET and POST and under the aliases', async () => {
    const { mainId, subId, main, sub: subClient } = await op.family({ USDT: '100' });
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
    expect([mainView.accountId, holding(mainView, 'USDT')]).toEqual([mainId, '70/70/0']);
    expect([subView.accountId, holding(subView, 'USDT')]).toEqual([subId, '30/30/0']);
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
    const user = await op.user();
    await op.ok('PATCH', `/accounts/${user.accountId}`, { makerFeeRate: '0.0002', takerFeeRate: '0.00075' });
    await op.subAccount(user.userId);
    const view = await account(await op.keyOf(user.userId, { accountIndex: 1 }));
    expect([view.makerFeeRate, view.takerFeeRate]).toEqual(['0.0002', '0.00075']);
  });
});
