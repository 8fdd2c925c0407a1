/**
 * Story: two off-ramps paid out, one released early and one by the hold. With `payout: success`,
 * order A (50.0000 USDT, G 952.71, fee 5.00, 947.71 paid) reaches 50 at the next read: the desk
 * paid 947.71 MXN out (WITHDRAW) and 5.00 to FEE, M's crypto is still locked; B32 ends the hold
 * early (60) and the crypto moves M → D. Order B (30.0000 USDT, G 571.62, 566.62 paid) waits in 50
 * until `releaseHoldMs` (30 min) has passed on the clock: the scheduler then releases it (60).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { holdings } from '../../support/account-reads.js';
import type { SpotClient } from '../../support/clients.js';
import { onboardedMerchant, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { flowMark, flowRows, limitsUsed, orderDetail, paymentsStory, systemFlows, systemHoldings, type PaymentsStory } from '../../support/payments-story.js';

const RELEASE_HOLD_MS = 1_800_000;

describe('story: off-ramps released early by confirm and by the hold', () => {
  let s: PaymentsStory;
  let merchantId: number;
  let ledger: SpotClient;
  let beneficiaryId: number;
  let mark: number;
  let orderA: number;
  let orderB: number;

  const offRamp = (cryptoAmount: string, clientId: string): Record<string, unknown> => ({ merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount, userPaymentId: beneficiaryId, clientId });

  beforeAll(async () => {
    s = await paymentsStory();
    await exampleBooks(s.op);
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    ledger = await s.ledgerOf(1);
    beneficiaryId = (await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Juan Perez', fieldJson: SPEI_BENEFICIARY })).id;
    await s.client.ok('POST', '/sandbox/v2/crypto-deposits', { merchantId, crypto: 'USDT', amount: '100.0000' });
    expect(await s.client.ok('GET', '/sandbox/v2/modes')).toMatchObject({ orderReview: 'approve', payout: 'success' });
    mark = flowMark(s);
  });
  afterAll(async () => {
    await s.t.stop();
    vi.useRealTimers();
  });

  it('1. order A is paid out at once (50): the desk pays 947.71 to the bank and 5.00 to FEE; M still locks the crypto', async () => {
    orderA = (await s.client.ok<{ orderId: number }>('POST', '/v2/order/crypto_to_fiat', offRamp('50.0000', 'sell-A'))).orderId;
    const detail = await orderDetail(s.client, orderA);
    expect(detail).toMatchObject({ orderStatus: 50, orderPrice: '19.0542', cryptoAmount: '50.0000', fiatAmount: '947.71', fiatFee: '5.00', failCode: 0, failReason: '', completedTime: '' });
    // traceNumber is the payout's id.
    expect(detail.traceNumber).toMatch(/^\S+$/);
    expect(await holdings(ledger, ['USDT'])).toEqual({ USDT: '50/50' });
    expect(await systemFlows(s, 'desk', 'MXN', mark)).toEqual([
      ['WITHDRAW', '-947.71', '19999052.29'],
      ['OTC_FEE', '-5', '19999047.29'],
    ]);
    expect(systemHoldings(s, 'desk', 'MXN')).toBe('19999047.29/0');
    expect((await systemFlows(s, 'fee', 'MXN', mark)).map((r) => r.slice(0, 2))).toEqual([['OTC_FEE', '5']]);
    expect(await systemFlows(s, 'desk', 'USDT', mark)).toEqual([]);
    await s.verified();
  });

  it('2. B32 on order A in 50 releases it early: 60, the crypto goes M → D', async () => {
    expect(await s.client.ok('POST', '/v2/order/confirm', { orderId: orderA, orderType: 'crypto_to_fiat' })).toBe(true);
    const detail = await orderDetail(s.client, orderA);
    expect(detail).toMatchObject({ orderStatus: 60, failCode: 0 });
    expect(detail.completedTime).toMatch(/^[0-9]{13}$/);
    expect(await holdings(ledger, ['USDT'])).toEqual({ USDT: '50/0' });
    expect(await flowRows(ledger, 'USDT')).toEqual([
      ['DEPOSIT', '100', '100'],
      ['OTC_SELL_COIN', '-50', '50'],
    ]);
    expect(await systemFlows(s, 'desk', 'USDT', mark)).toEqual([['OTC_BUY_COIN', '50', '1000050']]);
    await s.verified();
  });

  it('3. order B waits in 50 until releaseHoldMs has passed; then the scheduler releases it (60)', async () => {
    orderB = (await s.client.ok<{ orderId: number }>('POST', '/v2/order/crypto_to_fiat', offRamp('30.0000', 'sell-B'))).orderId;
    const paid = await orderDetail(s.client, orderB);
    expect(paid).toMatchObject({ orderStatus: 50, cryptoAmount: '30.0000', fiatAmount: '566.62', fiatFee: '5.00' });
    const paidAt = Number(paid.updateTime);
    expect(await holdings(ledger, ['USDT'])).toEqual({ USDT: '20/30' });

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(paidAt + RELEASE_HOLD_MS - 1);
    await s.t.server.deadlines.fireDue();
    expect(await orderDetail(s.client, orderB)).toMatchObject({ orderStatus: 50, completedTime: '' });

    vi.setSystemTime(paidAt + RELEASE_HOLD_MS + 1);
    await s.t.server.deadlines.fireDue();
    const released = await orderDetail(s.client, orderB);
    expect(released).toMatchObject({ orderStatus: 60, failCode: 0 });
    expect(Number(released.completedTime)).toBeGreaterThanOrEqual(paidAt + RELEASE_HOLD_MS);
    expect(await holdings(ledger, ['USDT'])).toEqual({ USDT: '20/0' });
    // A second pass finds nothing due.
    await s.t.server.deadlines.fireDue();
    expect(await orderDetail(s.client, orderB)).toEqual(released);
  });

  it('4. the ledger: OTC_SELL_COIN out of M, OTC_BUY_COIN into D, WITHDRAW and OTC_FEE from D; limits keep the settled orders', async () => {
    expect(await flowRows(ledger, 'USDT')).toEqual([
      ['DEPOSIT', '100', '100'],
      ['OTC_SELL_COIN', '-50', '50'],
      ['OTC_SELL_COIN', '-30', '20'],
    ]);
    expect(await flowRows(ledger, 'MXN')).toEqual([]);
    expect(await systemFlows(s, 'desk', 'USDT', mark)).toEqual([
      ['OTC_BUY_COIN', '50', '1000050'],
      ['OTC_BUY_COIN', '30', '1000080'],
    ]);
    expect(await systemFlows(s, 'desk', 'MXN', mark)).toEqual([
      ['WITHDRAW', '-947.71', '19999052.29'],
      ['OTC_FEE', '-5', '19999047.29'],
      ['WITHDRAW', '-566.62', '19998480.67'],
      ['OTC_FEE', '-5', '19998475.67'],
    ]);
    expect(systemHoldings(s, 'desk', 'MXN')).toBe('19998475.67/0');
    expect(systemHoldings(s, 'desk', 'USDT')).toBe('1000080/0');
    expect((await systemFlows(s, 'fee', 'MXN', mark)).map((r) => r.slice(0, 2))).toEqual([
      ['OTC_FEE', '5'],
      ['OTC_FEE', '5'],
    ]);
    expect(await limitsUsed(s.client, merchantId)).toMatchObject({ monthCryptoUsed: '80.00', 'MXN.sell': '1514.33', 'MXN.buy': '0.00' });
    expect((await s.client.ok<{ total: number }>('GET', '/v2/orders', { orderType: 'crypto_to_fiat', orderStatus: 60 })).total).toBe(2);
    await s.verified();
  });
});
