/**
 * Story: deposit, trade, withdraw, reconcile. Over real HTTP, each step building on the last:
 * the operator credits Alice 1000 USDT and Bob 5 SOL; Bob sells 2 SOL at 150 and Alice takes it at
 * default fees (0.001); Alice withdraws 1.5 SOL (fee 0.01) and the operator approves it; then the
 * balance flow of each side adds up to its balances and the operator's verify holds, replay included.
 * SOL and SOLUSDT are listed for this story, so no other order can trade into it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flows, holdings } from '../../support/account-reads.js';
import { ok } from '../../support/answers.js';
import { Operator, type Member } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

describe('story: deposit, trade, withdraw, reconcile', () => {
  let t: TestServer;
  let op: Operator;
  let alice: Member;
  let bob: Member;
  let withdrawalId: string;

  /** `free/locked` per asset of interest. */
  const solAndUsdt = (who: Member): Promise<Record<string, string>> => holdings(who.client, ['SOL', 'USDT']);
  const flowRows = async (who: Member, tokenId: string): Promise<string[][]> =>
    (await flows(who.client, { tokenId })).map((f) => [f.flowType, f.change, f.total]);

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    await op.listUsdtMarket({ asset: 'SOL', precision: 8, chains: ['SOL'], withdrawFee: '0.01', minWithdraw: '0.1' });
    alice = await op.member();
    bob = await op.member();
  });
  afterAll(async () => t.stop());

  it('1. the operator credits the deposits and each account lists its own', async () => {
    const usdtDepositId = await op.deposit(alice.accountId, 'USDT', '1000', 'tx-alice');
    await op.deposit(bob.accountId, 'SOL', '5', 'tx-bob');
    const listed = ok<{ orderId: string; token: string; quantity: string; txid: string }[]>(await alice.client.signed('GET', '/openapi/v1/depositOrders'));
    expect(listed.map((d) => [d.orderId, d.token, d.quantity, d.txid])).toEqual([[usdtDepositId, 'USDT', '1000', 'tx-alice']]);
    expect(await solAndUsdt(alice)).toEqual({ SOL: '0/0', USDT: '1000/0' });
    expect(await solAndUsdt(bob)).toEqual({ SOL: '5/0', USDT: '0/0' });
  });

  it('2. Bob offers 2 SOL at 150: the order rests and locks 2 SOL', async () => {
    const order = ok<{ status: string; fills: unknown[] }>(
      await bob.client.signed('POST', '/openapi/v1/order', { symbol: 'SOLUSDT', side: 'SELL', type: 'LIMIT', price: '150', quantity: '2' }),
    );
    expect([order.status, order.fills]).toEqual(['NEW', []]);
    expect(await solAndUsdt(bob)).toEqual({ SOL: '3/2', USDT: '0/0' });
  });

  it('3. Alice buys 2 SOL at 150: one fill, fees in the asset each receives', async () => {
    const order = ok<{ status: string; executedQty: string; cummulativeQuoteQty: string; fills: Record<string, string>[] }>(
      await alice.client.signed('POST', '/openapi/v1/order', { symbol: 'SOLUSDT', side: 'BUY', type: 'LIMIT', price: '150', quantity: '2' }),
    );
    expect([order.status, order.executedQty, order.cummulativeQuoteQty]).toEqual(['FILLED', '2', '300']);
    expect(order.fills).toEqual([{ price: '150', qty: '2', commission: '0.002', commissionAsset: 'SOL', tradeId: order.fills[0].tradeId }]);
    expect(await solAndUsdt(alice)).toEqual({ SOL: '1.998/0', USDT: '700/0' });
    expect(await solAndUsdt(bob)).toEqual({ SOL: '3/0', USDT: '299.7/0' });
  });

  it('4. Alice withdraws 1.5 SOL: quantity plus fee wait locked, the record is auditing', async () => {
    const answer = ok<{ status: number; success: boolean; needBrokerAudit: boolean; orderId: string }>(
      await alice.client.signed('POST', '/openapi/v1/withdraw', {
        tokenId: 'SOL',
        clientOrderId: 'alice-w1',
        address: 'So1anaAddr9',
        withdrawQuantity: '1.5',
        chainType: 'SOL',
      }),
    );
    withdrawalId = answer.orderId;
    expect(answer).toEqual({ status: 0, success: true, needBrokerAudit: true, orderId: withdrawalId });
    expect(await solAndUsdt(alice)).toEqual({ SOL: '0.488/1.51', USDT: '700/0' });
    const listed = ok<{ orderId: string; status: number; statusCode: string; quantity: string; fee: string }[]>(
      await alice.client.signed('GET', '/openapi/v1/withdrawalOrders'),
    );
    expect(listed.map((w) => [w.orderId, w.status, w.statusCode, w.quantity, w.fee])).toEqual([[withdrawalId, 1, 'BROKER_AUDITING_STATUS', '1.5', '0.01']]);
  });

  it('5. the operator approves with the chain transaction id: status 6, the lock is spent', async () => {
    await op.ok('POST', `/withdrawals/${withdrawalId}/approve`, { txId: 'sol-tx-0001' });
    const record = ok<{ status: number; statusCode: string; txid: string; walletHandleTime: string }>(
      await alice.client.signed('GET', '/openapi/v1/withdraw/detail', { clientOrderId: 'alice-w1' }),
    );
    expect([record.status, record.statusCode, record.txid]).toEqual([6, 'WITHDRAWAL_SUCCESS_STATUS', 'sol-tx-0001']);
    expect(record.walletHandleTime).not.toBe('0');
    expect(await solAndUsdt(alice)).toEqual({ SOL: '0.488/0', USDT: '700/0' });
  });

  it("6. reconcile: each account's balance flow adds up to its balances, and the operator's verify holds with replay", async () => {
    expect(await flowRows(alice, 'USDT')).toEqual([
      ['DEPOSIT', '1000', '1000'],
      ['TRADE', '-300', '700'],
    ]);
    expect(await flowRows(alice, 'SOL')).toEqual([
      ['TRADE', '2', '2'],
      ['FEE', '-0.002', '1.998'],
      ['WITHDRAW', '-1.5', '0.498'],
      ['WITHDRAWAL_FEE', '-0.01', '0.488'],
    ]);
    expect(await flowRows(bob, 'SOL')).toEqual([
      ['DEPOSIT', '5', '5'],
      ['TRADE', '-2', '3'],
    ]);
    expect(await flowRows(bob, 'USDT')).toEqual([
      ['TRADE', '300', '300'],
      ['FEE', '-0.3', '299.7'],
    ]);
    const report = await op.ok<{ ok: boolean; details: Record<string, string>[]; replay: { ok: boolean } }>('GET', '/verify?replay=1');
    expect([report.ok, report.replay.ok]).toEqual([true, true]);
    // 5 SOL in, 1.5 out: Alice 0.488 + Bob 3 + the FEE account's 0.002 and 0.01.
    expect(report.details.find((d) => d.asset === 'SOL')).toEqual({ asset: 'SOL', total: '3.5', deposits: '5', withdrawals: '1.5' });
  });
});
