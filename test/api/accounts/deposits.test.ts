/**
 * A21 deposit list and A22 deposit address (area A §3.4), over real HTTP against a fresh server.
 * Deposits arrive only through the operator (§5.3), so every test credits them with
 * `POST /admin/v1/deposits` and then reads them back as the account's key.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, SpotClient, type HttpAnswer } from '../../support/clients.js';
import { startTestServer, type TestServer } from '../../support/server.js';

interface Member {
  userId: string;
  accountId: string;
  client: SpotClient;
}
interface DepositRecord {
  time: string;
  orderId: string;
  accountId: string;
  token: string;
  address: string;
  quantity: string;
  txid: string;
}

/** A22's address, computed here independently of the server (§3.4). */
function expectedAddress(accountId: string, tokenId: string, chainType: string): string {
  const digest = createHash('sha256').update(`${accountId}:${tokenId}:${chainType}`).digest('hex');
  return `bourse:${chainType.toLowerCase()}:${digest.slice(0, 40)}`;
}

/** Resolves once the server's clock (the same machine's) has moved past `ms`, so the next command gets a later time. */
async function clockPast(ms: number): Promise<void> {
  while (Date.now() <= ms) await new Promise((resolve) => setImmediate(resolve));
}

function refused(answer: HttpAnswer, code: number, msg: string): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { code, msg } });
}

describe('A21 deposit list and A22 deposit address', () => {
  let t: TestServer;
  let admin: AdminClient;

  const adminOk = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await admin.send(method, path, body);
    expect(answer.status, answer.text).toBe(200);
    return answer.body as T;
  };
  const newMember = async (): Promise<Member> => {
    const user = await adminOk<{ userId: string; accountId: string }>('POST', '/users', {});
    const key = await adminOk<{ apiKey: string; secretKey: string }>('POST', `/users/${user.userId}/api-keys`, {});
    return { ...user, client: new SpotClient(t.url, key.apiKey, key.secretKey) };
  };
  const deposit = async (accountId: string, asset: string, amount: string, txId?: string): Promise<string> =>
    (await adminOk<{ depositId: string }>('POST', '/deposits', { accountId, asset, amount, ...(txId === undefined ? {} : { txId }) })).depositId;
  const list = async (who: Member, params: Record<string, string | number> = {}): Promise<DepositRecord[]> => {
    const answer = await who.client.signed('GET', '/openapi/v1/depositOrders', params);
    expect(answer.status, answer.text).toBe(200);
    return answer.body as DepositRecord[];
  };

  beforeAll(async () => {
    t = await startTestServer();
    admin = new AdminClient(t.url, t.adminToken);
  });
  afterAll(async () => t.stop());

  describe('A21', () => {
    it('when the operator credits a crypto deposit, then A21 lists the full record with the first chain address and the txId', async () => {
      const alice = await newMember();
      const before = Date.now();
      const depositId = await deposit(alice.accountId, 'USDT', '1000.50', 'chain-tx-1');
      const after = Date.now();
      const [record, ...rest] = await list(alice);
      expect(rest).toEqual([]);
      expect(record).toEqual({
        time: record.time,
        orderId: depositId,
        accountId: alice.accountId,
        token: 'USDT',
        tokenId: 'USDT',
        tokenName: 'USDT',
        address: expectedAddress(alice.accountId, 'USDT', 'TRC20'),
        addressTag: '',
        fromAddress: '',
        fromAddressTag: '',
        quantity: '1000.5',
        status: 2,
        statusCode: 'DEPOSIT_CAN_WITHDRAW',
        requiredConfirmNum: 0,
        confirmNum: 0,
        txid: 'chain-tx-1',
        txidUrl: '',
      });
      expect(record.time).toMatch(/^[0-9]+$/);
      expect(Number(record.time)).toBeGreaterThanOrEqual(before);
      expect(Number(record.time)).toBeLessThanOrEqual(after);
    });

    it('when a fiat deposit has no txId, then its address is "" and its txid is 64 random hex digits', async () => {
      const alice = await newMember();
      await deposit(alice.accountId, 'MXN', '2500');
      const [record] = await list(alice);
      expect(record.address).toBe('');
      expect(record.quantity).toBe('2500');
      expect(record.txid).toMatch(/^[0-9a-f]{64}$/);
    });

    it('when the account has several deposits, then the newest `limit` come oldest first, and fromId gives the first `limit` above it', async () => {
      const alice = await newMember();
      const ids: string[] = [];
      for (const amount of ['1', '2', '3', '4', '5']) ids.push(await deposit(alice.accountId, 'BTC', amount));
      expect((await list(alice)).map((r) => r.orderId)).toEqual(ids);
      expect((await list(alice, { limit: 2 })).map((r) => r.quantity)).toEqual(['4', '5']);
      expect((await list(alice, { fromId: ids[1], limit: 2 })).map((r) => r.quantity)).toEqual(['3', '4']);
      // `0` is absent for optional ids and limits (§1.3): the Java SDK sends them.
      expect((await list(alice, { fromId: 0, limit: 0 })).map((r) => r.orderId)).toEqual(ids);
    });

    it('when filtered by token (or its alias tokenId, any case), then only that asset is listed', async () => {
      const alice = await newMember();
      await deposit(alice.accountId, 'BTC', '0.5');
      await deposit(alice.accountId, 'ETH', '3');
      await deposit(alice.accountId, 'BTC', '0.25');
      expect((await list(alice, { token: 'BTC' })).map((r) => r.quantity)).toEqual(['0.5', '0.25']);
      expect((await list(alice, { tokenId: 'eth' })).map((r) => [r.token, r.quantity])).toEqual([['ETH', '3']]);
      refused(await alice.client.signed('GET', '/openapi/v1/depositOrders', { token: 'DOGE' }), -1130, "Data sent for paramter 'token' is not valid.");
    });

    it('when bounded by startTime and endTime, then only deposits in [startTime, endTime] come; startTime > endTime is -1128', async () => {
      const alice = await newMember();
      await deposit(alice.accountId, 'USDT', '10');
      const [first] = await list(alice);
      await clockPast(Number(first.time));
      await deposit(alice.accountId, 'USDT', '20');
      const all = await list(alice);
      expect(all.map((r) => r.quantity)).toEqual(['10', '20']);
      expect((await list(alice, { endTime: first.time })).map((r) => r.quantity)).toEqual(['10']);
      expect((await list(alice, { startTime: all[1].time })).map((r) => r.quantity)).toEqual(['20']);
      refused(
        await alice.client.signed('GET', '/openapi/v1/depositOrders', { startTime: 2, endTime: 1 }),
        -1128,
        'Combination of optional parameters invalid.',
      );
    });

    it('when read by POST, under the /openapi and /openapi/account/v1 aliases or with a trailing slash, then the same list comes', async () => {
      const alice = await newMember();
      await deposit(alice.accountId, 'ETH', '1.25');
      const expected = await list(alice);
      for (const [method, path] of [
        ['POST', '/openapi/v1/depositOrders'],
        ['GET', '/openapi/depositOrders'],
        ['POST', '/openapi/account/v1/depositOrders'],
        ['GET', '/openapi/v1/depositOrders/'],
      ]) {
        const answer = await alice.client.signed(method, path, {}, { place: method === 'POST' ? 'body' : 'query' });
        expect({ path, status: answer.status, body: answer.body }).toEqual({ path, status: 200, body: expected });
      }
    });

    it("when another user or a sub-account of the same user reads A21, then it never sees this account's deposits", async () => {
      const alice = await newMember();
      const bob = await newMember();
      await deposit(alice.accountId, 'USDT', '77');
      await adminOk('POST', `/users/${alice.userId}/sub-accounts`, {});
      const subKey = await adminOk<{ apiKey: string; secretKey: string }>('POST', `/users/${alice.userId}/api-keys`, { accountIndex: 1 });
      const sub = new SpotClient(t.url, subKey.apiKey, subKey.secretKey);
      expect(await list(bob)).toEqual([]);
      const subAnswer = await sub.signed('GET', '/openapi/v1/depositOrders');
      expect(subAnswer.body).toEqual([]);
    });
  });

  describe('A22', () => {
    it('when asked for USDT without chainType, then the first chain (TRC20) answers with the documented body', async () => {
      const alice = await newMember();
      const answer = await alice.client.signed('GET', '/openapi/v1/depositAddress', { tokenId: 'USDT' });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        allowDeposit: true,
        address: expectedAddress(alice.accountId, 'USDT', 'TRC20'),
        addressExt: '',
        minQuantity: '0',
        needAddressTag: false,
        requiredConfirmNum: 0,
        canWithdrawConfirmNum: 0,
        tokenType: 'TRX_TOKEN',
      });
    });

    it.each([
      ['USDT', 'ERC20', 'ERC20_TOKEN'],
      ['USDT', 'bep20', 'BEP20_TOKEN'],
      ['USDT', 'POL', 'POL_TOKEN'],
      ['btc', 'BTC', 'BTC'],
      ['ETH', 'eth', 'ETH'],
    ])('when asked for %s on chain %s, then the address is bourse:<chain>:sha256 and tokenType is %s', async (tokenId, chainType, tokenType) => {
      const alice = await newMember();
      const answer = await alice.client.signed('GET', '/openapi/v1/depositAddress', { tokenId, chainType });
      const body = answer.body as { address: string; tokenType: string };
      expect({ address: body.address, tokenType: body.tokenType }).toEqual({
        address: expectedAddress(alice.accountId, tokenId.toUpperCase(), chainType.toUpperCase()),
        tokenType,
      });
    });

    it('when asked twice, by GET and by POST, then the address is the same; a sub-account key gets its own account\'s address', async () => {
      const alice = await newMember();
      const first = await alice.client.signed('GET', '/openapi/v1/depositAddress', { tokenId: 'BTC' });
      const second = await alice.client.signed('POST', '/openapi/v1/depositAddress', { tokenId: 'BTC' }, { place: 'body' });
      expect(second.body).toEqual(first.body);
      const { accountId } = await adminOk<{ accountId: string }>('POST', `/users/${alice.userId}/sub-accounts`, {});
      const subKey = await adminOk<{ apiKey: string; secretKey: string }>('POST', `/users/${alice.userId}/api-keys`, { accountIndex: 1 });
      const sub = new SpotClient(t.url, subKey.apiKey, subKey.secretKey);
      const subAnswer = await sub.signed('GET', '/openapi/account/v1/depositAddress', { tokenId: 'BTC' });
      expect((subAnswer.body as { address: string }).address).toBe(expectedAddress(accountId, 'BTC', 'BTC'));
      expect((subAnswer.body as { address: string }).address).not.toBe((first.body as { address: string }).address);
    });

    it.each([
      ['tokenId missing', -1102, {}, "Mandatory parameter 'tokenId' was not sent, was empty/null, or malformed."],
      ['a fiat asset', -1130, { tokenId: 'MXN' }, "Data sent for paramter 'tokenId' is not valid."],
      ['an unknown asset', -1130, { tokenId: 'DOGE' }, "Data sent for paramter 'tokenId' is not valid."],
      ['a chain the asset does not have', -1130, { tokenId: 'USDT', chainType: 'BTC' }, "Data sent for paramter 'chainType' is not valid."],
      ['an unknown chain', -1130, { tokenId: 'BTC', chainType: 'LIGHTNING' }, "Data sent for paramter 'chainType' is not valid."],
    ])('when asked with %s, then it is refused with %i', async (_what, code, params, msg) => {
      const alice = await newMember();
      refused(await alice.client.signed('GET', '/openapi/v1/depositAddress', params), code, msg);
    });
  });
});
