/**
 * Story: an off-ramp whose payout fails. 100 USDT reach M (docs/merchant-payments.md "The simulator and the sandbox API" `crypto-deposits`); B30 sells 50.0000
 * USDT to a valid SPEI beneficiary at 19.0542 (docs/merchant-payments.md "Quotes and orders"): G 952.71, payout fee 5.00, fiatAmount 947.71
 * (docs/merchant-payments.md "Quotes and orders"). While the payout is in flight (40) M locks the crypto and the desk the gross; a failed
 * payout cancels the order (70) with the failure code, unlocks both and gives the limits back. Once
 * with `payout: manual` and a docs/merchant-payments.md "The simulator and the sandbox API" failure (-7000), once with `payout: fail` (default code -7001).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdings } from '../../support/account-reads.js';
import type { SpotClient } from '../../support/clients.js';
import { onboardedMerchant, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { flowMark, flowRows, limitsUsed, orderDetail, paymentsStory, systemFlows, systemHoldings, type PaymentsStory } from '../../support/payments-story.js';

describe('story: an off-ramp whose payout fails', () => {
  let s: PaymentsStory;
  let merchantId: number;
  let ledger: SpotClient;
  let beneficiaryId: number;
  let mark: number;

  const offRamp = (clientId: string): Record<string, unknown> => ({ merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '50.0000', userPaymentId: beneficiaryId, clientId });
  const usdtRow = async (): Promise<unknown> => (await s.client.ok<{ balances: { asset: string }[] }>('GET', '/v2/assets/account/assets', { merchantId })).balances.find((b) => b.asset === 'USDT');
  const noUsage = { monthUsed: '0.00', dayFiatUsed: '0.00', monthFiatUsed: '0.00', monthCryptoUsed: '0.00', 'MXN.buy': '0.00', 'MXN.sell': '0.00' };

  beforeAll(async () => {
    s = await paymentsStory();
    await exampleBooks(s.op);
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    ledger = await s.ledgerOf(1);
    beneficiaryId = (await s.client.ok<{ id: number; status: number }>('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Juan Perez', fieldJson: SPEI_BENEFICIARY })).id;
  });
  afterAll(async () => s.t.stop());

  it('1. 100 USDT reach M through the sandbox API crypto-deposits: area A and B11 see them', async () => {
    expect(await s.client.ok('POST', '/sandbox/v2/crypto-deposits', { merchantId, crypto: 'USDT', amount: '100' })).toEqual({ merchantId, crypto: 'USDT', amount: '100.0000' });
    expect(await holdings(ledger, ['USDT'])).toEqual({ USDT: '100/0' });
    expect(await flowRows(ledger, 'USDT')).toEqual([['DEPOSIT', '100', '100']]);
    expect(await usdtRow()).toEqual({ asset: 'USDT', assetId: 'USDT', assetName: 'USDT', total: '100.00000000', free: '100.00000000', locked: '0.00000000' });
    mark = flowMark(s);
  });

  it('2. with payout manual, B30 reaches 40 with docs/merchant-payments.md "Quotes and orders" amounts; M locks 50 USDT, the desk G = 952.71 MXN', async () => {
    await s.client.ok('PUT', '/sandbox/v2/modes', { payout: 'manual' });
    const { orderId } = await s.client.ok<{ orderId: number }>('POST', '/v2/order/crypto_to_fiat', offRamp('sell-0001'));
    const detail = await orderDetail(s.client, orderId);
    expect(detail).toMatchObject({
      orderId: String(orderId),
      clientId: 'sell-0001',
      orderType: 'crypto_to_fiat',
      merchantId,
      paymentId: 0,
      userPaymentId: beneficiaryId,
      country: 'Mexico',
      crypto: 'USDT',
      fiat: 'MXN',
      orderPrice: '19.0542',
      cryptoAmount: '50.0000',
      fiatAmount: '947.71',
      fiatFee: '5.00',
      orderStatus: 40,
      hasRefund: 0,
      traceNumber: '',
      paymentInfo: SPEI_BENEFICIARY,
      failCode: 0,
      failReason: '',
      completedTime: '',
    });
    expect(await holdings(ledger, ['USDT'])).toEqual({ USDT: '50/50' });
    expect(await usdtRow()).toMatchObject({ total: '100.00000000', free: '50.00000000', locked: '50.00000000' });
    expect(systemHoldings(s, 'desk', 'MXN')).toBe('19999047.29/952.71');
    const used = await limitsUsed(s.client, merchantId);
    expect(used).toMatchObject({ monthCryptoUsed: '50.00', 'MXN.sell': '947.71', 'MXN.buy': '0.00' });
    expect(used.monthUsed).not.toBe('0.00');
    await s.verified();

    const failed = await s.client.ok<Record<string, unknown>>('POST', `/sandbox/v2/orders/${orderId}/payout`, { result: 'fail', failCode: -7000 });
    expect(failed).toMatchObject({ orderId: String(orderId), orderStatus: 70, failCode: -7000, failReason: 'BANK_ORDER_CREATE_FAILED', traceNumber: '' });
    expect(failed.completedTime).toMatch(/^[0-9]{13}$/);
    expect(await holdings(ledger, ['USDT'])).toEqual({ USDT: '100/0' });
    expect(systemHoldings(s, 'desk', 'MXN')).toBe('20000000/0');
    expect(await limitsUsed(s.client, merchantId)).toEqual(noUsage);
    await s.verified();
  });

  it('3. with payout fail, B30 answers 10; the next read shows 70 with -7001: crypto unlocked, usage given back', async () => {
    expect(await s.client.ok('PUT', '/sandbox/v2/modes', { payout: 'fail' })).toMatchObject({ payout: 'fail', payoutFailCode: -7001 });
    const { orderId } = await s.client.ok<{ orderId: number }>('POST', '/v2/order/crypto_to_fiat', offRamp('sell-0002'));
    const detail = await orderDetail(s.client, orderId);
    expect(detail).toMatchObject({
      orderId: String(orderId),
      orderPrice: '19.0542',
      cryptoAmount: '50.0000',
      fiatAmount: '947.71',
      fiatFee: '5.00',
      orderStatus: 70,
      hasRefund: 0,
      traceNumber: '',
      failCode: -7001,
      failReason: 'RECEIVING_ACCOUNT_NUMBER_INCORRECT',
    });
    expect(detail.completedTime).toMatch(/^[0-9]{13}$/);
    expect(await usdtRow()).toEqual({ asset: 'USDT', assetId: 'USDT', assetName: 'USDT', total: '100.00000000', free: '100.00000000', locked: '0.00000000' });
    expect(await holdings(ledger, ['USDT'])).toEqual({ USDT: '100/0' });
    expect(await limitsUsed(s.client, merchantId)).toEqual(noUsage);
  });

  it('4. nothing moved: M has only its deposit, the desk and FEE have no flow, and verify holds', async () => {
    expect(await flowRows(ledger, 'USDT')).toEqual([['DEPOSIT', '100', '100']]);
    expect(await flowRows(ledger, 'MXN')).toEqual([]);
    for (const asset of ['MXN', 'USDT']) {
      expect(await systemFlows(s, 'desk', asset, mark)).toEqual([]);
      expect(await systemFlows(s, 'fee', asset, mark)).toEqual([]);
    }
    expect(systemHoldings(s, 'desk', 'MXN')).toBe('20000000/0');
    expect((await s.client.ok<{ total: number }>('GET', '/v2/orders', { orderStatus: 70 })).total).toBe(2);
    await s.verified();
  });
});
