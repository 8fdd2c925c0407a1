/**
 * Story: pending funds move between two merchants of one user, with the fee. B19 tells the fee
 * (MXN fixed 2.00; USD a fraction 0.001); B20 moves 10.00 MXN: 12.00 leaves the sender, 10.00
 * reaches the receiver (TRANSFER flows), 2.00 goes to FEE (OTC_FEE); B21 shows TRANSFER_OUT and
 * TRANSFER_IN records; a repeated clientId answers -1174 with both ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpotClient } from '../../support/clients.js';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { flowRows, mxnOf, paymentsStory, type PaymentsStory } from '../../support/payments-story.js';

describe('story: a transfer between two merchants with its fee', () => {
  let s: PaymentsStory;
  let from: number;
  let to: number;
  let fromLedger: SpotClient;
  let toLedger: SpotClient;

  beforeAll(async () => {
    s = await paymentsStory();
    from = await onboardedMerchant(s.client, 'Acme North');
    to = await onboardedMerchant(s.client, 'Acme South');
    fromLedger = await s.ledgerOf(1);
    toLedger = await s.ledgerOf(2);
    await s.client.ok('POST', '/sandbox/v2/deposits', { merchantId: from, fiat: 'MXN', amount: '100.00' });
  });
  afterAll(async () => s.t.stop());

  it('1. B19 tells the fee of each fiat', async () => {
    expect(await s.client.ok('GET', '/v2/merchant/transfer_fee', { fiat: 'MXN' })).toEqual({ fiat: 'MXN', feeType: 0, fee: '2.00' });
    expect(await s.client.ok('GET', '/v2/merchant/transfer_fee', { fiat: 'USD' })).toEqual({ fiat: 'USD', feeType: 1, fee: '0.001' });
    expect(await s.client.refused('GET', '/v2/merchant/transfer_fee', { fiat: 'GBP' })).toEqual([400, -5045]);
  });

  it('2. B20 moves 10.00 MXN for a fee of 2.00 and both ledgers show it', async () => {
    const moved = await s.client.ok<Record<string, unknown>>('POST', '/v2/merchant/transfer', { clientId: 'tr-0001', fromMerchantId: from, toMerchantId: to, fiat: 'MXN', paymentId: 70, fiatAmount: '10.00' });
    expect(moved).toEqual({ clientId: 'tr-0001', fromId: expect.any(Number) as unknown, toId: expect.any(Number) as unknown, fiat: 'MXN', fiatAmount: '10.00', totalFiatAmount: '12.00', fee: '2.00', createTime: expect.any(Number) as unknown });
    expect([await mxnOf(fromLedger), await mxnOf(toLedger)]).toEqual(['88/0', '10/0']);
    expect(await flowRows(fromLedger, 'MXN')).toEqual([
      ['DEPOSIT', '100', '100'],
      ['TRANSFER', '-10', '90'],
      ['OTC_FEE', '-2', '88'],
    ]);
    expect(await flowRows(toLedger, 'MXN')).toEqual([['TRANSFER', '10', '10']]);
    const records = await s.client.ok<{ data: Record<string, unknown>[] }>('GET', '/v2/merchant/funding/records', { clientId: 'tr-0001' });
    expect(records.data.map((r) => [r.txId, r.merchantId, r.type, r.totalAmount, r.amount, r.fee, r.status])).toEqual([
      [moved.toId, to, 'TRANSFER_IN', '10.00', '10.00', '0.00', 2],
      [moved.fromId, from, 'TRANSFER_OUT', '12.00', '10.00', '2.00', 2],
    ]);
    const again = await s.client.call('POST', '/v2/merchant/transfer', { clientId: 'tr-0001', fromMerchantId: from, toMerchantId: to, fiat: 'MXN', paymentId: 70, fiatAmount: '1.00' });
    expect([again.status, again.code, again.data]).toEqual([409, -1174, { fromId: moved.fromId, toId: moved.toId }]);
    await s.verified();
  });

  it('3. refusals: same merchant (-4010), another rail (-5018), more than the pending fund (-5100), no clientId (-4010)', async () => {
    const base = { fromMerchantId: from, toMerchantId: to, fiat: 'MXN', paymentId: 70, fiatAmount: '1.00' };
    expect(await s.client.refused('POST', '/v2/merchant/transfer', { ...base, clientId: 'a', toMerchantId: from })).toEqual([400, -4010]);
    expect(await s.client.refused('POST', '/v2/merchant/transfer', { ...base, clientId: 'b', paymentId: 83 })).toEqual([400, -5018]);
    expect(await s.client.refused('POST', '/v2/merchant/transfer', { ...base, clientId: 'c', fiatAmount: '86.01' })).toEqual([400, -5100]);
    expect(await s.client.refused('POST', '/v2/merchant/transfer', base)).toEqual([400, -4010]);
    expect(await mxnOf(fromLedger)).toBe('88/0');
  });
});
