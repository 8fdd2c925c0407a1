/**
 * Story: a sub-account is funded, trades, and transfers back. Over real HTTP: the operator gives
 * Carol a sub-account "bot-a" and a key bound to it; Carol's main key funds it with 200 USDT; the
 * bot buys 1 SOL at 120 from Dave at default fees; the bot's key then sends everything back to
 * main with the four type/index parameters left empty. SOLUSDT is listed for this story only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flows, holdings } from '../../support/account-reads.js';
import { ok } from '../../support/answers.js';
import type { SpotClient } from '../../support/clients.js';
import { MAIN_TO_SUB, Operator, type UserRef } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

describe('story: sub-account funded, trades, transfers back', () => {
  let t: TestServer;
  let op: Operator;
  let carol: UserRef;
  let botAccountId: string;
  let main: SpotClient;
  let bot: SpotClient;
  let dave: SpotClient;

  const solAndUsdt = (client: SpotClient): Promise<Record<string, string>> => holdings(client, ['SOL', 'USDT']);
  const flowRows = async (client: SpotClient, params: Record<string, string | number>): Promise<string[][]> =>
    (await flows(client, params)).map((f) => [f.accountId, f.flowType, f.change, f.total]);

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    await op.listUsdtMarket({ asset: 'SOL', precision: 8, chains: ['SOL'], withdrawFee: '0.01', minWithdraw: '0.1' });
    dave = (await op.member({ SOL: '10' })).client;
  });
  afterAll(async () => t.stop());

  it('1. the operator creates the sub-account and its key; the main key lists both accounts', async () => {
    carol = await op.user();
    const created = await op.subAccount(carol.userId, 'bot-a');
    expect(created.accountIndex).toBe(1);
    botAccountId = created.accountId;
    main = await op.keyOf(carol.userId);
    bot = await op.keyOf(carol.userId, { accountIndex: 1 });
    await op.deposit(carol.accountId, 'USDT', '500');
    expect(ok(await main.signed('POST', '/openapi/v1/subAccount/query'))).toEqual([
      { accountId: carol.accountId, accountName: '', accountType: 1, accountIndex: 0 },
      { accountId: botAccountId, accountName: 'bot-a', accountType: 1, accountIndex: 1 },
    ]);
    const refused = await bot.signed('POST', '/openapi/v1/subAccount/query');
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 400, body: { code: -1005, msg: 'No permission for this action.' } });
  });

  it('2. the main key funds the sub-account with 200 USDT', async () => {
    expect(ok(await main.signed('POST', '/openapi/v1/transfer', { ...MAIN_TO_SUB, tokenId: 'USDT', amount: '200' }))).toEqual({ success: true });
    expect(await solAndUsdt(main)).toEqual({ SOL: '0/0', USDT: '300/0' });
    expect(await solAndUsdt(bot)).toEqual({ SOL: '0/0', USDT: '200/0' });
  });

  it('3. the bot buys 1 SOL at 120 from Dave; only the sub-account pays and receives', async () => {
    const offer = await dave.signed('POST', '/openapi/v1/order', { symbol: 'SOLUSDT', side: 'SELL', type: 'LIMIT', price: '120', quantity: '1' });
    expect(ok<{ status: string }>(offer).status).toBe('NEW');
    const order = ok<{ accountId: string; status: string; fills: { commission: string; commissionAsset: string }[] }>(
      await bot.signed('POST', '/openapi/v1/order', { symbol: 'SOLUSDT', side: 'BUY', type: 'LIMIT', price: '120', quantity: '1' }),
    );
    expect([order.accountId, order.status, order.fills.map((f) => `${f.commission} ${f.commissionAsset}`)]).toEqual([botAccountId, 'FILLED', ['0.001 SOL']]);
    expect(await solAndUsdt(bot)).toEqual({ SOL: '0.999/0', USDT: '80/0' });
    expect(await solAndUsdt(main)).toEqual({ SOL: '0/0', USDT: '300/0' });
  });

  it('4. the bot sends everything back to main, the four type/index parameters left empty', async () => {
    expect(ok(await bot.signed('POST', '/openapi/v1/transfer', { tokenId: 'SOL', amount: '0.999' }))).toEqual({ success: true });
    expect(
      ok(
        await bot.signed('POST', '/openapi/v1/subAccount/transfer', {
          fromAccountType: '',
          fromAccountIndex: '',
          toAccountType: '',
          toAccountIndex: '',
          tokenId: 'USDT',
          amount: '80',
        }),
      ),
    ).toEqual({ success: true });
    expect(await solAndUsdt(bot)).toEqual({ SOL: '0/0', USDT: '0/0' });
    expect(await solAndUsdt(main)).toEqual({ SOL: '0.999/0', USDT: '380/0' });
  });

  it("5. the sub-account's flow tells the story, the same read by the main key and by the bot; verify holds", async () => {
    const expectedSol = [
      [botAccountId, 'TRADE', '1', '1'],
      [botAccountId, 'FEE', '-0.001', '0.999'],
      [botAccountId, 'USER_ACCOUNT_TRANSFER', '-0.999', '0'],
    ];
    const expectedUsdt = [
      [botAccountId, 'USER_ACCOUNT_TRANSFER', '200', '200'],
      [botAccountId, 'TRADE', '-120', '80'],
      [botAccountId, 'USER_ACCOUNT_TRANSFER', '-80', '0'],
    ];
    expect(await flowRows(main, { accountIndex: 1, tokenId: 'SOL' })).toEqual(expectedSol);
    expect(await flowRows(main, { accountIndex: 1, tokenId: 'USDT' })).toEqual(expectedUsdt);
    expect(await flowRows(bot, { tokenId: 'SOL' })).toEqual(expectedSol);
    expect(await flowRows(bot, { tokenId: 'USDT' })).toEqual(expectedUsdt);
    expect(await flowRows(main, { tokenId: 'USDT' })).toEqual([
      [carol.accountId, 'DEPOSIT', '500', '500'],
      [carol.accountId, 'USER_ACCOUNT_TRANSFER', '-200', '300'],
      [carol.accountId, 'USER_ACCOUNT_TRANSFER', '80', '380'],
    ]);
    expect(await flowRows(main, { tokenId: 'SOL' })).toEqual([[carol.accountId, 'USER_ACCOUNT_TRANSFER', '0.999', '0.999']]);
    const report = await op.ok<{ ok: boolean; replay: { ok: boolean } }>('GET', '/verify?replay=1');
    expect([report.ok, report.replay.ok]).toEqual([true, true]);
  });
});
