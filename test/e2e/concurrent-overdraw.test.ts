/**
 * Concurrency: many requests racing for the same balance never overdraw it. 50 transfers and orders
 * (and, in the second test, user transfers and withdrawals) are sent at once over real HTTP against
 * one main account; the sequencer applies them one by one, so each either takes its amount or is
 * refused with -1131, and the final balance is exactly the deposit minus what the acknowledged ones
 * moved or locked. OVRUSDT is listed for this file with no seller, so buy orders only rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balance } from '../support/account-reads.js';
import type { HttpAnswer, SpotClient } from '../support/clients.js';
import { MAIN_TO_SUB, Operator } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface Racer {
  /** USDT the request takes from the main account's free balance if acknowledged. */
  costAtoms: bigint;
  /** Of that, what stays locked in the main account (orders, pending withdrawals). */
  lockedAtoms: bigint;
  /** What arrives in the sub-account. */
  toSubAtoms: bigint;
  /** What arrives in another user's main account. */
  toOtherAtoms: bigint;
  send: () => Promise<HttpAnswer>;
}
interface Flow {
  flowType: string;
  change: string;
  total: string;
}

const ATOMS = 100_000_000n; // USDT precision 8
const INSUFFICIENT = { code: -1131, msg: 'Balance insufficient' };

const atomsOf = (text: string): bigint => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole) * ATOMS + BigInt(fraction.padEnd(8, '0'));
};

describe('concurrent requests against one balance', () => {
  let t: TestServer;
  let op: Operator;

  const usdt = async (client: SpotClient): Promise<{ free: bigint; locked: bigint }> => {
    const b = await balance(client, 'USDT');
    return { free: atomsOf(b.free), locked: atomsOf(b.locked) };
  };
  const transfer = (main: SpotClient, amount: string): Racer => ({
    costAtoms: atomsOf(amount),
    lockedAtoms: 0n,
    toSubAtoms: atomsOf(amount),
    toOtherAtoms: 0n,
    send: () => main.signed('POST', '/openapi/v1/transfer', { ...MAIN_TO_SUB, tokenId: 'USDT', amount }),
  });
  const buy = (main: SpotClient, price: string, clientOrderId: string): Racer => ({
    costAtoms: atomsOf(price),
    lockedAtoms: atomsOf(price),
    toSubAtoms: 0n,
    toOtherAtoms: 0n,
    send: () =>
      main.signed('POST', '/openapi/v1/order', { symbol: 'OVRUSDT', side: 'BUY', type: 'LIMIT', price, quantity: '1', newClientOrderId: clientOrderId }),
  });

  /** Fires every racer at once; the acknowledged ones, after checking each answer is a success or exactly -1131. */
  const race = async (racers: Racer[]): Promise<{ acked: Racer[]; refused: Racer[] }> => {
    const answers = await Promise.all(racers.map((r) => r.send()));
    const acked: Racer[] = [];
    const refused: Racer[] = [];
    answers.forEach((answer, i) => {
      if (answer.status === 200) acked.push(racers[i]);
      else {
        expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: INSUFFICIENT });
        refused.push(racers[i]);
      }
    });
    return { acked, refused };
  };
  const sum = (racers: Racer[], pick: (r: Racer) => bigint): bigint => racers.reduce((total, r) => total + pick(r), 0n);

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    await op.tradingConfig({ ordersPerSecond: 1000, requestWeightPerMinute: 100000 });
    await op.listUsdtMarket({ asset: 'OVR', precision: 8, chains: ['OVR'] });
  });
  afterAll(async () => t.stop());

  it('when 25 transfers and 25 orders of 7 USDT each race for 100 USDT, then exactly 14 are acknowledged and 2 USDT stay free', async () => {
    const { main, sub } = await op.family({ USDT: '100' });
    const racers: Racer[] = [];
    for (let i = 0; i < 25; i++) racers.push(transfer(main, '7'), buy(main, '7', `b-${i}`));
    const { acked, refused } = await race(racers);
    expect([acked.length, refused.length]).toEqual([14, 36]);
    const mainAfter = await usdt(main);
    expect(mainAfter).toEqual({ free: 2n * ATOMS, locked: sum(acked, (r) => r.lockedAtoms) });
    expect(await usdt(sub)).toEqual({ free: sum(acked, (r) => r.toSubAtoms), locked: 0n });
    const open = (await main.signed('GET', '/openapi/v1/openOrders', { symbol: 'OVRUSDT' })).body as unknown[];
    expect(open).toHaveLength(acked.filter((r) => r.lockedAtoms > 0n).length);
    // Every transfer wrote one row; the running total only went down by 7 and never below 0.
    const rows = (await main.signed('GET', '/openapi/v1/balance_flow', { tokenId: 'USDT' })).body as Flow[];
    const transfers = acked.filter((r) => r.toSubAtoms > 0n).length;
    expect(rows.map((r) => r.flowType)).toEqual(['DEPOSIT', ...Array<string>(transfers).fill('USER_ACCOUNT_TRANSFER')]);
    rows.slice(1).forEach((row, k) => expect([row.change, row.total]).toEqual(['-7', String(100 - 7 * (k + 1))]));
    const report = await op.ok<{ ok: boolean; replay: { ok: boolean } }>('GET', '/verify?replay=1');
    expect([report.ok, report.replay.ok]).toEqual([true, true]);
  });

  it('when 50 mixed transfers, user transfers, withdrawals and orders race, then the acknowledged ones add up and every refusal was short', async () => {
    const { main, sub } = await op.family({ USDT: '100' });
    const other = await op.user();
    const otherKey = await op.keyOf(other.userId);
    const racers: Racer[] = [];
    for (let i = 0; i < 50; i++) {
      switch (i % 4) {
        case 0:
          racers.push(transfer(main, '6.5'));
          break;
        case 1:
          racers.push(buy(main, '9.99', `m-${i}`));
          break;
        case 2:
          racers.push({
            costAtoms: 5n * ATOMS,
            lockedAtoms: 0n,
            toSubAtoms: 0n,
            toOtherAtoms: 5n * ATOMS,
            send: () => {
              const params = { targetUserId: other.userId, clientOrderId: `u-${i}`, tokenId: 'USDT', amount: '5', businessType: 3 };
              return main.signed('POST', '/openapi/v1/user/transfer', params);
            },
          });
          break;
        default:
          // 10 plus the withdrawal fee of 1 is locked until the operator settles it.
          racers.push({
            costAtoms: 11n * ATOMS,
            lockedAtoms: 11n * ATOMS,
            toSubAtoms: 0n,
            toOtherAtoms: 0n,
            send: () =>
              main.signed('POST', '/openapi/v1/withdraw', { tokenId: 'USDT', clientOrderId: `w-${i}`, address: 'TRaceWallet', withdrawQuantity: '10' }),
          });
      }
    }
    const { acked, refused } = await race(racers);
    expect(acked.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    const mainAfter = await usdt(main);
    expect(mainAfter).toEqual({ free: 100n * ATOMS - sum(acked, (r) => r.costAtoms), locked: sum(acked, (r) => r.lockedAtoms) });
    expect(mainAfter.free >= 0n).toBe(true);
    // Nothing ever credits the main account here, so its free balance only fell: each refusal saw at least this little.
    for (const r of refused) expect(mainAfter.free < r.costAtoms).toBe(true);
    expect(await usdt(sub)).toEqual({ free: sum(acked, (r) => r.toSubAtoms), locked: 0n });
    expect(await usdt(otherKey)).toEqual({ free: sum(acked, (r) => r.toOtherAtoms), locked: 0n });
    const report = await op.ok<{ ok: boolean; replay: { ok: boolean } }>('GET', '/verify?replay=1');
    expect([report.ok, report.replay.ok]).toEqual([true, true]);
  });
});
