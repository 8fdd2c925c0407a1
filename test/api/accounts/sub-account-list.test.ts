/**
 * A29 sub-account list (docs/spot-api.md "Sub-accounts and transfers"): a main key lists its user's accounts, main first then
 * sub-accounts by index; a sub key is refused with -1005. Sub-accounts come from the operator (docs/operating.md "Trading settings and listings").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refused } from '../../support/answers.js';
import { Operator } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

const QUERY = '/openapi/v1/subAccount/query';

describe('A29 sub-account list', () => {
  let t: TestServer;
  let op: Operator;

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
  });
  afterAll(async () => t.stop());

  it('when the user has no sub-account, then only the main account is listed', async () => {
    const user = await op.user();
    const answer = await (await op.keyOf(user.userId)).signed('POST', QUERY);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([{ accountId: user.accountId, accountName: '', accountType: 1, accountIndex: 0 }]);
  });

  it('when the operator created sub-accounts, then the main account comes first and the subs follow by index with their names', async () => {
    const user = await op.user();
    const botA = await op.subAccount(user.userId, 'bot-a');
    const second = await op.subAccount(user.userId);
    expect([botA.accountIndex, second.accountIndex]).toEqual([1, 2]);
    const answer = await (await op.keyOf(user.userId)).signed('POST', QUERY);
    expect(answer.body).toEqual([
      { accountId: user.accountId, accountName: '', accountType: 1, accountIndex: 0 },
      { accountId: botA.accountId, accountName: 'bot-a', accountType: 1, accountIndex: 1 },
      // The default name is sub<index> (docs/operating.md "Trading settings and listings").
      { accountId: second.accountId, accountName: 'sub2', accountType: 1, accountIndex: 2 },
    ]);
  });

  it('when read by GET, by POST with a form body, or under the aliases, then the same list comes', async () => {
    const user = await op.user();
    await op.subAccount(user.userId, 'x');
    const client = await op.keyOf(user.userId);
    const expected = (await client.signed('POST', QUERY)).body;
    for (const [method, path, place] of [
      ['GET', QUERY, 'query'],
      ['POST', QUERY, 'body'],
      ['POST', '/openapi/subAccount/query', 'query'],
      ['GET', '/openapi/account/v1/subAccount/query/', 'query'],
    ] as const) {
      const answer = await client.signed(method, path, {}, { place });
      expect({ method, path, status: answer.status, body: answer.body }).toEqual({ method, path, status: 200, body: expected });
    }
  });

  it("when another user's sub-accounts exist, then they are not listed", async () => {
    const alice = await op.user();
    const bob = await op.user();
    await op.subAccount(bob.userId);
    const answer = await (await op.keyOf(alice.userId)).signed('GET', QUERY);
    expect(answer.body).toEqual([{ accountId: alice.accountId, accountName: '', accountType: 1, accountIndex: 0 }]);
  });

  it('when a sub-account key asks, by GET or POST, then -1005', async () => {
    const user = await op.user();
    await op.subAccount(user.userId);
    const sub = await op.keyOf(user.userId, { accountIndex: 1 });
    refused(await sub.signed('POST', QUERY), -1005, 'No permission for this action.');
    refused(await sub.signed('GET', QUERY), -1005, 'No permission for this action.');
  });

  it('when the key lacks SUB_ACCOUNT_LIST, then -2015', async () => {
    const user = await op.user();
    const client = await op.keyOf(user.userId, { permissions: ['USER_DATA', 'TRADE', 'ACCOUNT_TRANSFER', 'BALANCE_FLOW', 'TRANSFER', 'WITHDRAW'] });
    refused(await client.signed('POST', QUERY), -2015, 'Invalid API-key, IP, or permissions for action.');
  });

  it('when the request is not signed, then -1102 names the signature', async () => {
    const user = await op.user();
    const client = await op.keyOf(user.userId);
    const answer = await client.signed('POST', QUERY, {}, { signature: '' });
    refused(answer, -1102, "Mandatory parameter 'signature' was not sent, was empty/null, or malformed.");
  });
});
