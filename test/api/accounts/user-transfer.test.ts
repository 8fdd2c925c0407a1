/**
 * A32 user transfer (docs/spot-api.md "Sub-accounts and transfers", docs/spot-api.md "Accounts and balances"): a main key moves funds from its main account to another
 * user's main account, named by `targetUserId` or by an A22 address; both rows carry the
 * `businessType` as flow type; `clientOrderId` makes a retry safe (same values → same answer,
 * moved once; other values → -1174).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance, depositAddress, flows } from '../../support/account-reads.js';
import { refused } from '../../support/answers.js';
import type { HttpAnswer } from '../../support/clients.js';
import { Operator, type Member } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

const USER_TRANSFER = '/openapi/v1/user/transfer';

function succeeded(answer: HttpAnswer): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { ret: 0 } });
}

describe('A32 user transfer', () => {
  let t: TestServer;
  let op: Operator;

  const send = (from: Member, params: Record<string, string | number>): Promise<HttpAnswer> => from.client.signed('POST', USER_TRANSFER, params);
  const free = async (who: Member, asset: string): Promise<string> => (await balance(who.client, asset)).free;

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
  });
  afterAll(async () => t.stop());

  it('when sent by targetUserId, then the amount moves main to main and both rows carry flow type 3 TRANSFER', async () => {
    const alice = await op.member({ USDT: '100' });
    const bob = await op.member();
    succeeded(await send(alice, { targetUserId: bob.userId, clientOrderId: 'gift-1', tokenId: 'USDT', amount: '12.5', businessType: 3 }));
    expect([await free(alice, 'USDT'), await free(bob, 'USDT')]).toEqual(['87.5', '12.5']);
    const transfer = { tokenId: 'USDT', flowTypeValue: 3, flowType: 'TRANSFER', flowName: 'Transfer' };
    expect((await flows(alice.client)).at(-1)).toMatchObject({ ...transfer, accountId: alice.accountId, change: '-12.5', total: '87.5' });
    expect(await flows(bob.client)).toMatchObject([{ ...transfer, accountId: bob.accountId, change: '12.5', total: '12.5' }]);
  });

  it.each([
    [67, 'ACTIVITY_AWARD', 'Campaign reward'],
    [68, 'INVITATION_REFERRAL_BONUS', 'Referral bonus'],
    [69, 'REGISTER_BONUS', 'Registration reward'],
    [70, 'AIRDROP', 'Airdrop'],
    [71, 'MINE_REWARD', 'Mining reward'],
  ])('when businessType is %i, then both rows are %s (%s)', async (businessType, flowType, flowName) => {
    const alice = await op.member({ ETH: '1' });
    const bob = await op.member();
    succeeded(await send(alice, { targetUserId: bob.userId, clientOrderId: 'c-1', tokenId: 'ETH', amount: '0.1', businessType, subBusinessType: 9 }));
    expect((await flows(alice.client)).at(-1)).toMatchObject({ flowTypeValue: businessType, flowType, flowName, change: '-0.1' });
    expect(await flows(bob.client)).toMatchObject([{ flowTypeValue: businessType, flowType, flowName, change: '0.1' }]);
  });

  it("when sent by the target's A22 address (any chain; addressExt ignored), then the target's main account receives", async () => {
    const alice = await op.member({ USDT: '100' });
    const bob = await op.member();
    const served = await bob.client.signed('GET', '/openapi/v1/depositAddress', { tokenId: 'USDT', chainType: 'BEP20' });
    const address = (served.body as { address: string }).address;
    expect(address).toBe(depositAddress(bob.accountId, 'USDT', 'BEP20'));
    succeeded(await send(alice, { address, addressExt: 'memo', clientOrderId: 'a-1', tokenId: 'USDT', amount: '3', businessType: 3 }));
    // An address of another asset names the same user.
    succeeded(await send(alice, { address: depositAddress(bob.accountId, 'BTC', 'BTC'), clientOrderId: 'a-2', tokenId: 'USDT', amount: '4', businessType: 3 }));
    expect(await free(bob, 'USDT')).toBe('7');
  });

  it('when sent with targetUserId and an address that agree, then it moves; when they disagree, then -1130', async () => {
    const alice = await op.member({ USDT: '100' });
    const bob = await op.member();
    const carol = await op.member();
    const bobsAddress = depositAddress(bob.accountId, 'ETH', 'ETH');
    succeeded(await send(alice, { targetUserId: bob.userId, address: bobsAddress, clientOrderId: 'b-1', tokenId: 'USDT', amount: '1', businessType: 3 }));
    refused(
      await send(alice, { targetUserId: carol.userId, address: bobsAddress, clientOrderId: 'b-2', tokenId: 'USDT', amount: '1', businessType: 3 }),
      -1130,
      "Data sent for paramter 'address' is not valid.",
    );
    expect([await free(bob, 'USDT'), await free(carol, 'USDT')]).toEqual(['1', '0']);
  });

  it("when sent to the A22 address of the target's sub-account, then that address names its user and the user's main account receives", async () => {
    const alice = await op.member({ USDT: '100' });
    const bob = await op.member();
    const sub = await op.subAccount(bob.userId);
    succeeded(await send(alice, { address: depositAddress(sub.accountId, 'USDT', 'TRC20'), clientOrderId: 's-1', tokenId: 'USDT', amount: '5', businessType: 3 }));
    expect(await free(bob, 'USDT')).toBe('5');
  });

  describe('idempotency', () => {
    it('when the same clientOrderId comes again with the same values, then {"ret":0} again and the amount moved once', async () => {
      const alice = await op.member({ USDT: '100' });
      const bob = await op.member();
      const params = { targetUserId: bob.userId, clientOrderId: 'once', tokenId: 'USDT', amount: '2.5', businessType: 70 };
      succeeded(await send(alice, params));
      succeeded(await send(alice, { ...params, amount: '2.50' }));
      // The same target named by its address is the same request.
      const { targetUserId: _, ...rest } = params;
      succeeded(await send(alice, { ...rest, address: depositAddress(bob.accountId, 'USDT', 'TRC20') }));
      expect([await free(alice, 'USDT'), await free(bob, 'USDT')]).toEqual(['97.5', '2.5']);
      expect(await flows(bob.client)).toHaveLength(1);
    });

    it.each([
      ['another amount', (): Record<string, string> => ({ amount: '3' })],
      ['another asset', (): Record<string, string> => ({ tokenId: 'BTC', amount: '0.001' })],
      ['another businessType', (): Record<string, string> => ({ businessType: '3' })],
      ['another target', (carol: Member): Record<string, string> => ({ targetUserId: carol.userId })],
    ])('when the same clientOrderId comes with %s, then -1174 and nothing more moves', async (_what, change) => {
      const alice = await op.member({ USDT: '100', BTC: '1' });
      const bob = await op.member();
      const carol = await op.member();
      const params = { targetUserId: bob.userId, clientOrderId: 'once', tokenId: 'USDT', amount: '2.5', businessType: '70' };
      succeeded(await send(alice, params));
      const retry = { ...params, ...change(carol) };
      refused(await send(alice, retry), -1174, 'Repeated submit request.');
      expect([await free(alice, 'USDT'), await free(alice, 'BTC'), await free(bob, 'USDT'), await free(carol, 'USDT')]).toEqual(['97.5', '1', '2.5', '0']);
    });

    it('when a refused request is retried with the same clientOrderId after funding, then it goes through: a refusal leaves no trace', async () => {
      const alice = await op.member({ USDT: '1' });
      const bob = await op.member();
      const params = { targetUserId: bob.userId, clientOrderId: 'late', tokenId: 'USDT', amount: '5', businessType: 3 };
      refused(await send(alice, params), -1131, 'Balance insufficient');
      await op.deposit(alice.accountId, 'USDT', '4');
      succeeded(await send(alice, params));
      expect([await free(alice, 'USDT'), await free(bob, 'USDT')]).toEqual(['0', '5']);
    });

    it('when two users use the same clientOrderId, then each is its own request', async () => {
      const alice = await op.member({ USDT: '10' });
      const bob = await op.member({ USDT: '10' });
      succeeded(await send(alice, { targetUserId: bob.userId, clientOrderId: 'shared', tokenId: 'USDT', amount: '1', businessType: 3 }));
      succeeded(await send(bob, { targetUserId: alice.userId, clientOrderId: 'shared', tokenId: 'USDT', amount: '2', businessType: 3 }));
      expect([await free(alice, 'USDT'), await free(bob, 'USDT')]).toEqual(['11', '9']);
    });
  });

  describe('refusals', () => {
    it.each([
      ['neither targetUserId nor address', -1102, { targetUserId: '' }, "Param 'targetUserId' or 'address' must be sent, but both were empty/null!"],
      ['an unknown targetUserId', -1153, { targetUserId: '999999' }, 'User does not exist.'],
      ['the system user that holds the FEE account', -1153, { targetUserId: '1' }, 'User does not exist.'],
      ['an unknown address', -1153, { targetUserId: '', address: 'bourse:trc20:0000000000000000000000000000000000000000' }, 'User does not exist.'],
      ['businessType 4 (DEPOSIT)', -1130, { businessType: '4' }, "Data sent for paramter 'businessType' is not valid."],
      ['businessType 51 (USER_ACCOUNT_TRANSFER)', -1130, { businessType: '51' }, "Data sent for paramter 'businessType' is not valid."],
      ['no businessType', -1102, { businessType: '' }, "Mandatory parameter 'businessType' was not sent, was empty/null, or malformed."],
      ['no clientOrderId', -1102, { clientOrderId: '' }, "Mandatory parameter 'clientOrderId' was not sent, was empty/null, or malformed."],
      ['no tokenId', -1102, { tokenId: '' }, "Mandatory parameter 'tokenId' was not sent, was empty/null, or malformed."],
      ['no amount', -1102, { amount: '' }, "Mandatory parameter 'amount' was not sent, was empty/null, or malformed."],
      ['an unknown asset', -1130, { tokenId: 'DOGE' }, "Data sent for paramter 'tokenId' is not valid."],
      ['a zero amount', -1130, { amount: '0' }, "Data sent for paramter 'amount' is not valid."],
      ['more than the free balance', -1131, { amount: '100.00000001' }, 'Balance insufficient'],
    ])('when sent with %s, then %i and nothing moves', async (_what, code, change, msg) => {
      const alice = await op.member({ USDT: '100' });
      const bob = await op.member();
      const params: Record<string, string> = { targetUserId: bob.userId, clientOrderId: 'r-1', tokenId: 'USDT', amount: '1', businessType: '3', ...change };
      for (const [name, value] of Object.entries(params)) if (value === '') delete params[name];
      refused(await send(alice, params), code, msg);
      expect([await free(alice, 'USDT'), await free(bob, 'USDT')]).toEqual(['100', '0']);
    });

    it('when sent to oneself, by user id or by own address, then -1130', async () => {
      const alice = await op.member({ USDT: '100' });
      refused(
        await send(alice, { targetUserId: alice.userId, clientOrderId: 'self', tokenId: 'USDT', amount: '1', businessType: 3 }),
        -1130,
        "Data sent for paramter 'targetUserId' is not valid.",
      );
      const ownAddress = depositAddress(alice.accountId, 'USDT', 'TRC20');
      const byAddress = await send(alice, { address: ownAddress, clientOrderId: 'self', tokenId: 'USDT', amount: '1', businessType: 3 });
      expect(byAddress.status).toBe(400);
      expect(byAddress.body).toEqual({ code: -1130, msg: expect.stringMatching(/^Data sent for paramter '(address|targetUserId)' is not valid\.$/) as string });
      expect(await free(alice, 'USDT')).toBe('100');
    });

    it('when a sub-account key sends, then -1005 before any parameter is looked at', async () => {
      const alice = await op.member({ USDT: '100' });
      const bob = await op.member();
      await op.subAccount(alice.userId);
      const sub: Member = { ...alice, client: await op.keyOf(alice.userId, { accountIndex: 1 }) };
      const params = { targetUserId: bob.userId, clientOrderId: 'x', tokenId: 'USDT', amount: '1', businessType: 3 };
      refused(await send(sub, params), -1005, 'No permission for this action.');
      refused(await send(sub, {}), -1005, 'No permission for this action.');
    });

    it('when the key lacks TRANSFER, then -2015', async () => {
      const alice = await op.member({ USDT: '100' }, { permissions: ['USER_DATA', 'ACCOUNT_TRANSFER'] });
      const bob = await op.member();
      refused(
        await send(alice, { targetUserId: bob.userId, clientOrderId: 'x', tokenId: 'USDT', amount: '1', businessType: 3 }),
        -2015,
        'Invalid API-key, IP, or permissions for action.',
      );
    });
  });
});
