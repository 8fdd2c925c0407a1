/**
 * Story: a global payment whose payout fails is refunded in full to the refund account. The merchant
 * sets a valid SPEI beneficiary as its MXN refund account (B28). With `payout: manual`, B31 for
 * 20000.00 MXN → USD is paid by the bank (51); docs/merchant-payments.md "The simulator and the sandbox API" fails the payout: 72 with -7001, the desk gives
 * its USD reservation back and returns 19999.00, FEE returns the 1.00 pay-in fee, a REFUND record
 * of 20000.00 (2) is written and `hasRefund` is 1; at once an automatic WITHDRAW of 20000.00, fee
 * 0.00, to the refund account follows (1, locked in M); docs/merchant-payments.md "The simulator and the sandbox API" completes it: the money leaves M.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdings } from '../../support/account-reads.js';
import type { SpotClient } from '../../support/clients.js';
import { onboardedMerchant, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { flowMark, flowRows, fundingRecords, limitsUsed, orderDetail, paymentsStory, systemFlows, systemHoldings, WIRE_BENEFICIARY, type PaymentsStory } from '../../support/payments-story.js';

describe('story: a global payment whose payout fails, refunded to the refund account', () => {
  let s: PaymentsStory;
  let merchantId: number;
  let ledger: SpotClient;
  let speiId: number;
  let wireId: number;
  let orderId: number;
  let withdrawTxId: number;
  let mark: number;

  const pendingFund = async (): Promise<unknown> => (await s.client.ok<{ data: { balance: string }[] }>('GET', '/v2/merchant/accounts', { merchantId, fiat: 'MXN' })).data[0]?.balance;

  beforeAll(async () => {
    s = await paymentsStory();
    await exampleBooks(s.op);
    merchantId = await onboardedMerchant(s.client, 'Acme MX', ['MXN', 'USD']);
    ledger = await s.ledgerOf(1);
    speiId = (await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Juan Perez', fieldJson: SPEI_BENEFICIARY })).id;
    wireId = (await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 83, country: 'United States', fiat: 'USD', realName: 'John Smith', fieldJson: WIRE_BENEFICIARY })).id;
    await s.client.ok('PUT', '/sandbox/v2/modes', { payout: 'manual' });
    mark = flowMark(s);
  });
  afterAll(async () => s.t.stop());

  it('1. B28 makes the SPEI beneficiary the MXN refund account', async () => {
    expect(await s.client.ok('POST', '/openapi/v2/payment/refund_account', { merchantId, userPaymentId: speiId })).toBe(true);
    const list = await s.client.ok<{ record: { id: number; hasRefundAccount: number }[] }>('GET', '/v2/payments', { merchantId });
    expect(list.record.map((b) => [b.id, b.hasRefundAccount]).sort((a, b) => a[0] - b[0])).toEqual([
      [speiId, 1],
      [wireId, 0],
    ]);
  });

  it('2. B31 for 20000.00 MXN is approved (41) and paid by the bank (51)', async () => {
    orderId = (await s.client.ok<{ orderId: number }>('POST', '/v2/order/fiat_to_fiat', {
      onRampCountry: 'Mexico',
      onRampFiat: 'MXN',
      onRampFiatAmount: '20000.00',
      onRampPaymentId: 58,
      offRampCountry: 'United States',
      offRampFiat: 'USD',
      offRampPaymentId: wireId,
      clientId: 'gp-refund-0001',
    })).orderId;
    expect(await orderDetail(s.client, orderId)).toMatchObject({ orderStatus: 41, offRampFiatAmount: '1037.08', offArriveRampFiatAmount: '1022.08' });
    expect(await s.client.ok('POST', `/sandbox/v2/orders/${orderId}/pay`, { traceNumber: 'SPEI-GP-0099' })).toEqual({ result: 'ORDER_PAID', orderId: String(orderId), txId: 0 });
    expect(await orderDetail(s.client, orderId)).toMatchObject({ orderStatus: 51, hasRefund: 0 });
    expect(systemHoldings(s, 'desk', 'USD')).toBe('998962.92/1037.08');
    expect(await limitsUsed(s.client, merchantId)).toMatchObject({ monthUsed: '1000.00', 'MXN.buy': '20000.00', 'USD.sell': '1037.08' });
    await s.verified();
  });

  it('3. the payout fails (docs/merchant-payments.md "The simulator and the sandbox API"): 72 with -7001, hasRefund 1, the order ended with its limits given back', async () => {
    const failed = await s.client.ok<Record<string, unknown>>('POST', `/sandbox/v2/orders/${orderId}/payout`, { result: 'fail' });
    expect(failed).toMatchObject({
      orderId: String(orderId),
      orderType: 'fiat_to_fiat',
      onRampFiatAmount: '20000.00',
      onRampFiatFee: '1.00',
      offRampFiatAmount: '1037.08',
      offArriveRampFiatAmount: '1022.08',
      orderStatus: 72,
      hasRefund: 1,
      failCode: -7001,
      failReason: 'RECEIVING_ACCOUNT_NUMBER_INCORRECT',
    });
    expect(failed.completedTime).toMatch(/^[0-9]{13}$/);
    expect(await orderDetail(s.client, orderId)).toEqual(failed);
    expect(await limitsUsed(s.client, merchantId)).toEqual({ monthUsed: '0.00', dayFiatUsed: '0.00', monthFiatUsed: '0.00', monthCryptoUsed: '0.00', 'MXN.buy': '0.00', 'MXN.sell': '0.00', 'USD.buy': '0.00', 'USD.sell': '0.00' });
  });

  it('4. a REFUND record of 20000.00 (2), then an automatic WITHDRAW of 20000.00, fee 0.00, to the refund account (1)', async () => {
    const records = await fundingRecords(s.client, { merchantId });
    expect(records.map((r) => [r.type, r.status])).toEqual([
      ['WITHDRAW', 1],
      ['REFUND', 2],
    ]);
    expect(records[1]).toMatchObject({ merchantId, merchantName: 'Acme MX', orderId: String(orderId), fiat: 'MXN', totalAmount: '20000.00', amount: '20000.00', fee: '0.00', userPaymentId: 0, type: 'REFUND', status: 2 });
    expect(records[0]).toMatchObject({ merchantId, fiat: 'MXN', totalAmount: '20000.00', amount: '20000.00', fee: '0.00', userPaymentId: speiId, type: 'WITHDRAW', status: 1 });
    withdrawTxId = records[0].txId as number;
    expect(await pendingFund()).toBe('0.00');
    expect(await holdings(ledger, ['MXN'])).toEqual({ MXN: '0/20000' });
  });

  it('5. the ledger: the desk and FEE returned everything to M; the desk keeps no USD reserved', async () => {
    expect(await flowRows(ledger, 'MXN')).toEqual([
      ['DEPOSIT', '20000', '20000'],
      ['OTC_FEE', '-1', '19999'],
      ['OTC_TRADE', '-19999', '0'],
      ['OTC_TRADE', '19999', '19999'],
      ['OTC_FEE', '1', '20000'],
    ]);
    expect(await systemFlows(s, 'desk', 'MXN', mark)).toEqual([
      ['OTC_TRADE', '19999', '20019999'],
      ['OTC_TRADE', '-19999', '20000000'],
    ]);
    expect((await systemFlows(s, 'fee', 'MXN', mark)).map((r) => r.slice(0, 2))).toEqual([
      ['OTC_FEE', '1'],
      ['OTC_FEE', '-1'],
    ]);
    expect(await systemFlows(s, 'desk', 'USD', mark)).toEqual([]);
    expect(systemHoldings(s, 'desk', 'USD')).toBe('1000000/0');
    expect(systemHoldings(s, 'desk', 'MXN')).toBe('20000000/0');
    await s.verified();
  });

  it('6. the sandbox API completes the refund payout: 20000.00 leaves M as a WITHDRAW, no fee', async () => {
    expect(await s.client.ok('POST', `/sandbox/v2/funding/${withdrawTxId}/complete`)).toMatchObject({ txId: withdrawTxId, type: 'WITHDRAW', status: 2, totalAmount: '20000.00', amount: '20000.00', fee: '0.00', userPaymentId: speiId });
    expect(await holdings(ledger, ['MXN'])).toEqual({ MXN: '0/0' });
    expect((await flowRows(ledger, 'MXN')).slice(5)).toEqual([['WITHDRAW', '-20000', '0']]);
    expect(await systemFlows(s, 'fee', 'MXN', mark)).toHaveLength(2);
    expect(await pendingFund()).toBe('0.00');
    expect(await orderDetail(s.client, orderId)).toMatchObject({ orderStatus: 72, hasRefund: 1 });
    await s.verified();
  });
});
