/**
 * Story: a SPEI arrival becomes a DEPOSIT record, and a repeated traceNumber is ignored. The bank
 * (docs/merchant-payments.md "The simulator and the sandbox API" `/deposits`) sends 5000.00 MXN to the merchant: a completed DEPOSIT record (B21), the
 * pending fund (B16 `balance`) and M's area A balance and DEPOSIT flow show it; the same traceNumber
 * again is -1174 with the first txId and changes nothing; with `deposit: manual` the next arrival
 * waits in 1 and is credited only when docs/merchant-payments.md "The simulator and the sandbox API" completes it; a canceled one credits nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpotClient } from '../../support/clients.js';
import { onboardedMerchant } from '../../support/merchant-client.js';
import { flowRows, mxnOf, paymentsStory, type PaymentsStory } from '../../support/payments-story.js';

describe('story: a SPEI arrival becomes a DEPOSIT record', () => {
  let s: PaymentsStory;
  let merchantId: number;
  let ledger: SpotClient;
  let firstTxId: number;

  const arrival = { fiat: 'MXN', amount: '5000.00', traceNumber: 'BNK-778899', payerName: 'CENTAURE SA DE CV', payerAccount: '684180168000000000', taxId: 'CCN2203099WA', description: 'Payment' };
  const balance = async (): Promise<unknown> => (await s.client.ok<{ data: { balance: string }[] }>('GET', '/v2/merchant/accounts', { merchantId, fiat: 'MXN' })).data[0]?.balance;

  beforeAll(async () => {
    s = await paymentsStory();
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    ledger = await s.ledgerOf(1);
  });
  afterAll(async () => s.t.stop());

  it('1. the arrival is a completed DEPOSIT record and credits the pending fund and M', async () => {
    const result = await s.client.ok<{ result: string; orderId: string; txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, ...arrival });
    expect(result).toMatchObject({ result: 'DEPOSIT', orderId: '' });
    firstTxId = result.txId;
    const records = await s.client.ok<{ total: number; data: Record<string, unknown>[] }>('GET', '/v2/merchant/funding/records', { merchantId });
    expect(records.total).toBe(1);
    expect(records.data[0]).toEqual({
      txId: firstTxId,
      merchantId,
      merchantName: 'Acme MX',
      clientId: '',
      orderId: '',
      fiat: 'MXN',
      totalAmount: '5000.00',
      amount: '5000.00',
      fee: '0.00',
      userPaymentId: 0,
      type: 'DEPOSIT',
      status: 2,
      createTime: expect.stringMatching(/^[0-9]{13}$/) as unknown,
      updateTime: expect.stringMatching(/^[0-9]{13}$/) as unknown,
    });
    expect(await balance()).toBe('5000.00');
    expect(await mxnOf(ledger)).toBe('5000/0');
    expect(await flowRows(ledger, 'MXN')).toEqual([['DEPOSIT', '5000', '5000']]);
  });

  it('2. the same traceNumber again is -1174 with the first txId, and nothing changes', async () => {
    const again = await s.client.call('POST', '/sandbox/v2/deposits', { merchantId, ...arrival, amount: '1.00' });
    expect([again.status, again.code, again.data]).toEqual([409, -1174, { txId: firstTxId }]);
    expect(await balance()).toBe('5000.00');
    expect((await s.client.ok<{ total: number }>('GET', '/v2/merchant/funding/records', { merchantId })).total).toBe(1);
  });

  it('3. with deposit=manual, an arrival waits in 1 until completed; a canceled one is returned', async () => {
    await s.client.ok('PUT', '/sandbox/v2/modes', { deposit: 'manual' });
    const pending = await s.client.ok<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '250.50' });
    const returned = await s.client.ok<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '99.99' });
    expect(await balance()).toBe('5000.00');
    const list = await s.client.ok<{ data: { txId: number; status: number }[] }>('GET', '/v2/merchant/funding/records', { status: 1 });
    expect(list.data.map((r) => r.txId)).toEqual([returned.txId, pending.txId]);
    expect(await s.client.ok('POST', `/sandbox/v2/funding/${pending.txId}/complete`)).toMatchObject({ txId: pending.txId, status: 2, amount: '250.50' });
    expect(await s.client.ok('POST', `/sandbox/v2/funding/${returned.txId}/cancel`)).toMatchObject({ txId: returned.txId, status: 3 });
    expect(await s.client.refused('POST', `/sandbox/v2/funding/${returned.txId}/complete`)).toEqual([400, -5104]);
    expect(await balance()).toBe('5250.50');
    expect(await mxnOf(ledger)).toBe('5250.5/0');
    await s.verified();
  });

  it('4. an arrival for a fiat without an active account is -5070', async () => {
    expect(await s.client.refused('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'USD', amount: '10.00' })).toEqual([400, -5070]);
  });
});
