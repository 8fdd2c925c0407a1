/**
 * A30 internal transfer (docs/spot-api.md "Sub-accounts and transfers"): a main key moves funds between its main account and
 * any sub-account, either way, naming both sides by type and index; a sub key leaves the four
 * type/index parameters empty and always sends to its main account. Every transfer writes one
 * USER_ACCOUNT_TRANSFER row per side.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flows, holdings, type Flow } from '../../support/account-reads.js';
import { refused } from '../../support/answers.js';
import type { HttpAnswer, SpotClient } from '../../support/clients.js';
import { Operator, type Family } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

const TRANSFER = '/openapi/v1/transfer';
const MAIN_TO_SUB = { fromAccountType: '1', fromAccountIndex: '0', toAccountType: '1', toAccountIndex: '1' };
const SUB_TO_MAIN = { fromAccountType: '1', fromAccountIndex: '1', toAccountType: '1', toAccountIndex: '0' };

function succeeded(answer: HttpAnswer): void {
  expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { success: true } });
}

describe('A30 internal transfer', () => {
  let t: TestServer;
  let op: Operator;

  const family = (funds: Record<string, string> = {}, mainPermissions?: string[]): Promise<Family> =>
    op.family(funds, { subName: 'bot-a', mainKey: { permissions: mainPermissions } });
  /** Free and locked of one asset as A19 shows it to `who`. */
  const holding = async (who: SpotClient, asset: string): Promise<string> => (await holdings(who, [asset]))[asset];
  /** A31 rows of the family's account at `accountIndex`, read by the main key. */
  const flowsOf = (f: Family, accountIndex: number): Promise<Flow[]> => flows(f.main, { accountIndex });

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
  });
  afterAll(async () => t.stop());

  it('when a main key sends to its sub-account, then both balances move and each side gets a USER_ACCOUNT_TRANSFER row', async () => {
    const f = await family({ USDT: '1000' });
    succeeded(await f.main.signed('POST', TRANSFER, { ...MAIN_TO_SUB, tokenId: 'USDT', amount: '250.25' }));
    expect(await holding(f.main, 'USDT')).toBe('749.75/0');
    expect(await holding(f.sub, 'USDT')).toBe('250.25/0');
    const transfer = { tokenId: 'USDT', flowTypeValue: 51, flowType: 'USER_ACCOUNT_TRANSFER', flowName: 'Transfer' };
    expect((await flowsOf(f, 0)).at(-1)).toMatchObject({ ...transfer, accountId: f.mainId, change: '-250.25', total: '749.75' });
    expect(await flowsOf(f, 1)).toMatchObject([{ ...transfer, accountId: f.subId, change: '250.25', total: '250.25' }]);
  });

  it('when a main key sends from the sub-account back to main, then the funds return', async () => {
    const f = await family({ BTC: '2' });
    succeeded(await f.main.signed('POST', TRANSFER, { ...MAIN_TO_SUB, tokenId: 'BTC', amount: '1.5' }));
    succeeded(await f.main.signed('POST', TRANSFER, { ...SUB_TO_MAIN, tokenId: 'btc', amount: '0.5' }));
    expect(await holding(f.main, 'BTC')).toBe('1/0');
    expect(await holding(f.sub, 'BTC')).toBe('1/0');
    expect((await flowsOf(f, 1)).map((row) => [row.change, row.total])).toEqual([
      ['1.5', '1.5'],
      ['-0.5', '1'],
    ]);
  });

  it('when a sub key leaves the four type/index parameters empty, then it sends to its main account (also at /openapi/v1/subAccount/transfer)', async () => {
    const f = await family({ USDT: '100' });
    succeeded(await f.main.signed('POST', TRANSFER, { ...MAIN_TO_SUB, tokenId: 'USDT', amount: '60' }));
    succeeded(await f.sub.signed('POST', TRANSFER, { tokenId: 'USDT', amount: '10' }));
    succeeded(
      await f.sub.signed('POST', '/openapi/v1/subAccount/transfer', {
        fromAccountType: '',
        fromAccountIndex: '',
        toAccountType: '',
        toAccountIndex: '',
        tokenId: 'USDT',
        amount: '15',
      }),
    );
    expect(await holding(f.sub, 'USDT')).toBe('35/0');
    expect(await holding(f.main, 'USDT')).toBe('65/0');
  });

  it('when a sub key sends type/index values anyway, then they are ignored and the funds still go to its main account', async () => {
    const f = await family({ USDT: '100' });
    succeeded(await f.main.signed('POST', TRANSFER, { ...MAIN_TO_SUB, tokenId: 'USDT', amount: '50' }));
    // As sent, this would read "main → sub-account 1"; a sub key's values are ignored (docs/spot-api.md "Sub-accounts and transfers").
    succeeded(await f.sub.signed('POST', TRANSFER, { ...MAIN_TO_SUB, tokenId: 'USDT', amount: '20' }));
    expect(await holding(f.sub, 'USDT')).toBe('30/0');
    expect(await holding(f.main, 'USDT')).toBe('70/0');
  });

  it('when fiat moves between main and a sub-account of a plain user, then it is allowed', async () => {
    const f = await family({ MXN: '5000' });
    succeeded(await f.main.signed('POST', TRANSFER, { ...MAIN_TO_SUB, tokenId: 'MXN', amount: '1234.56' }));
    expect(await holding(f.sub, 'MXN')).toBe('1234.56/0');
  });

  it.each([
    ['fromAccountType 4', -1130, { fromAccountType: '4' }, "Data sent for paramter 'fromAccountType' is not valid."],
    ['toAccountType 0', -1130, { toAccountType: '0' }, "Data sent for paramter 'toAccountType' is not valid."],
    ['an unknown asset', -1130, { tokenId: 'DOGE' }, "Data sent for paramter 'tokenId' is not valid."],
    ['a zero amount', -1130, { amount: '0' }, "Data sent for paramter 'amount' is not valid."],
    ['an amount beyond the asset precision', -1130, { amount: '0.000000001' }, "Data sent for paramter 'amount' is not valid."],
    ['fromAccountType 2 (options)', -1171, { fromAccountType: '2' }, 'Account does not exist.'],
    ['toAccountType 3 (contracts)', -1171, { toAccountType: '3' }, 'Account does not exist.'],
    ['an index the user does not have', -1171, { toAccountIndex: '2' }, 'Account does not exist.'],
    ['from = to', -1172, { toAccountIndex: '0' }, 'Balance transfer failed: the source and the target are the same account'],
    ['no fromAccountType', -1102, { fromAccountType: '' }, "Mandatory parameter 'fromAccountType' was not sent, was empty/null, or malformed."],
    ['no toAccountIndex', -1102, { toAccountIndex: '' }, "Mandatory parameter 'toAccountIndex' was not sent, was empty/null, or malformed."],
    ['no tokenId', -1102, { tokenId: '' }, "Mandatory parameter 'tokenId' was not sent, was empty/null, or malformed."],
    ['no amount', -1102, { amount: '' }, "Mandatory parameter 'amount' was not sent, was empty/null, or malformed."],
    ['more than the free balance', -1131, { amount: '100.00000001' }, 'Balance insufficient'],
  ])('when a main key sends %s, then %i and nothing moves', async (_what, code, change, msg) => {
    const f = await family({ USDT: '100' });
    const params: Record<string, string> = { ...MAIN_TO_SUB, tokenId: 'USDT', amount: '1', ...change };
    for (const [name, value] of Object.entries(params)) if (value === '') delete params[name];
    refused(await f.main.signed('POST', TRANSFER, params), code, msg);
    expect(await holding(f.main, 'USDT')).toBe('100/0');
    expect((await flowsOf(f, 0)).map((row) => row.flowType)).toEqual(['DEPOSIT']);
  });

  it('when a main key names two sub-accounts, then -1172: one side must be the main account', async () => {
    const f = await family({ USDT: '100' });
    await op.subAccount(f.userId);
    succeeded(await f.main.signed('POST', TRANSFER, { ...MAIN_TO_SUB, tokenId: 'USDT', amount: '40' }));
    refused(
      await f.main.signed('POST', TRANSFER, { ...SUB_TO_MAIN, toAccountIndex: '2', tokenId: 'USDT', amount: '1' }),
      -1172,
      'Balance transfer failed: either side must be the main account',
    );
    expect(await holding(f.sub, 'USDT')).toBe('40/0');
  });

  it('when a sub key sends more than its free balance, then -1131 and nothing moves', async () => {
    const f = await family({ USDT: '100' });
    succeeded(await f.main.signed('POST', TRANSFER, { ...MAIN_TO_SUB, tokenId: 'USDT', amount: '5' }));
    refused(await f.sub.signed('POST', TRANSFER, { tokenId: 'USDT', amount: '5.00000001' }), -1131, 'Balance insufficient');
    expect(await holding(f.sub, 'USDT')).toBe('5/0');
    expect(await holding(f.main, 'USDT')).toBe('95/0');
  });

  it('when the key lacks ACCOUNT_TRANSFER, then -2015', async () => {
    const f = await family({ USDT: '100' }, ['USER_DATA', 'BALANCE_FLOW']);
    refused(await f.main.signed('POST', TRANSFER, { ...MAIN_TO_SUB, tokenId: 'USDT', amount: '1' }), -2015, 'Invalid API-key, IP, or permissions for action.');
  });

  it('when A30 is sent by GET, then 404 -1000: it is a POST route', async () => {
    const f = await family();
    const answer = await f.main.signed('GET', TRANSFER, { ...MAIN_TO_SUB, tokenId: 'USDT', amount: '1' });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 404, body: { code: -1000, msg: 'Unknown path or method.' } });
  });
});
