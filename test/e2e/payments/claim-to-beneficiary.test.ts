/**
 * Story: pending funds claimed to a beneficiary; the payout succeeds, then one fails. With
 * `payout: manual`, B18 locks amount + the rail's payout fee (5.00 MXN) in M; docs/merchant-payments.md "The simulator and the sandbox API" completes it: the
 * amount leaves as a WITHDRAW, the fee goes to FEE as OTC_FEE. With `payout: fail`, a claim is
 * canceled at once and its funds unlocked. Idempotency (-1174), balance (-5100), rail 70 (-5017).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpotClient } from '../../support/clients.js';
import { onboardedMerchant, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { flowRows, mxnOf, paymentsStory, type PaymentsStory } from '../../support/payments-story.js';

describe('story: a claim to a beneficiary, paid out and then failed', () => {
  let s: PaymentsStory;
  let merchantId: number;
  let ledger: SpotClient;
  let beneficiaryId: number;
  let txId: number;

  beforeAll(async () => {
    s = await paymentsStory();
    merchantId = await onboardedMerchant(s.client, 'Acme MX');
    ledger = await s.ledgerOf(1);
    await s.client.ok('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '1000.00' });
    beneficiaryId = (await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Juan Perez', fieldJson: SPEI_BENEFICIARY })).id;
    await s.client.ok('PUT', '/sandbox/v2/modes', { payout: 'manual' });
  });
  afterAll(async () => s.t.stop());

  it('1. B18 answers a pending WITHDRAW of 505.00 (500.00 + fee 5.00) and locks it in M', async () => {
    const claim = await s.client.ok<Record<string, unknown>>('POST', '/v2/merchant/claimfunds', { merchantId, clientId: 'claim-0001', fiat: 'MXN', amount: '500.00', userPaymentId: beneficiaryId });
    txId = claim.txId as number;
    expect(claim).toEqual({ txId, merchantId, clientId: 'claim-0001', fiat: 'MXN', totalAmount: '505.00', amount: '500.00', fee: '5.00', userPaymentId: beneficiaryId, status: 1, createTime: expect.stringMatching(/^[0-9]{13}$/) as unknown });
    expect(await mxnOf(ledger)).toBe('495/505');
    const again = await s.client.call('POST', '/v2/merchant/claimfunds', { merchantId, clientId: 'claim-0001', fiat: 'MXN', amount: '1.00', userPaymentId: beneficiaryId });
    expect([again.status, again.code, again.data]).toEqual([409, -1174, { txId }]);
    expect(await s.client.refused('DELETE', `/v2/payments/${beneficiaryId}`)).toEqual([400, -5003]);
    await s.verified();
  });

  it('2. the payout succeeds: 500.00 leaves as WITHDRAW, 5.00 goes to FEE, nothing stays locked', async () => {
    expect(await s.client.ok('POST', `/sandbox/v2/funding/${txId}/complete`)).toMatchObject({ txId, type: 'WITHDRAW', status: 2, userPaymentId: beneficiaryId });
    expect(await mxnOf(ledger)).toBe('495/0');
    expect(await flowRows(ledger, 'MXN')).toEqual([
      ['DEPOSIT', '1000', '1000'],
      ['WITHDRAW', '-500', '500'],
      ['OTC_FEE', '-5', '495'],
    ]);
    await s.verified();
  });

  it('3. with payout=fail, the next claim is canceled at once and unlocked; over the pending fund is -5100', async () => {
    await s.client.ok('PUT', '/sandbox/v2/modes', { payout: 'fail' });
    const claim = await s.client.ok<{ txId: number; status: number }>('POST', '/v2/merchant/claimfunds', { merchantId, fiat: 'MXN', amount: '490.00', userPaymentId: beneficiaryId });
    expect(claim.status).toBe(1);
    const records = await s.client.ok<{ data: { txId: number; status: number }[] }>('GET', '/v2/merchant/funding/records', { type: 'WITHDRAW' });
    expect(records.data.map((r) => [r.txId, r.status])).toEqual([
      [claim.txId, 3],
      [txId, 2],
    ]);
    expect(await mxnOf(ledger)).toBe('495/0');
    expect(await s.client.refused('POST', '/v2/merchant/claimfunds', { merchantId, fiat: 'MXN', amount: '490.01', userPaymentId: beneficiaryId })).toEqual([400, -5100]);
    expect(await s.client.refused('POST', '/v2/merchant/claimfunds', { merchantId, fiat: 'MXN', amount: '1.00', userPaymentId: 70 })).toEqual([400, -5017]);
    expect(await s.client.refused('POST', '/v2/merchant/claimfunds', { merchantId, fiat: 'MXN', amount: '1.001', userPaymentId: beneficiaryId })).toEqual([400, -4010]);
    await s.verified();
  });
});
