/**
 * O32's status history (src/api/admin/desk-order-trail.ts `statusHistory`): an order's status log
 * when it is complete, whatever its webhook events say; for an order restored from a snapshot older
 * than the log, the statuses its webhook events recorded, then the current one.
 */
import { describe, expect, it } from 'vitest';
import { statusHistory } from '../../../../src/api/admin/desk-order-trail.js';
import type { PaymentOrder } from '../../../../src/payments/orders.js';
import { PaymentsCore } from '../../../support/payments-core.js';

/** An on-ramp on a bank rail, reviewed by hand: created in 10, then approved to 40. */
async function approvedOnRamp(): Promise<PaymentOrder> {
  const h = new PaymentsCore();
  const { userId } = await h.setUp();
  const merchantId = await h.merchant(userId, 'Acme MX');
  await h.submit({ type: 'setSandboxModes', userId, modes: { orderReview: 'manual' } });
  await h.submit({ type: 'deposit', accountId: h.core.payments.state.deskAccountId, asset: 'USDT', amount: '1000', txId: 'desk-usdt' });
  await h.submit({ type: 'setPriceOverride', userId, from: 'USDT', to: 'MXN', price: '19.0000' });
  const { orderId } = await h.createOrder(userId, { kind: 'fiat_to_crypto', merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '500.00', paymentId: 58 });
  await h.submit({ type: 'reviewOrder', userId: 0, orderId, decision: 'approve' });
  return h.core.payments.state.orders.get(orderId) ?? expect.fail('no order');
}

const event = (status: number, time: number): Record<string, unknown> => ({ objectStatus: String(status), createTime: String(time) });

describe('O32 status history', () => {
  it('when the order has its whole log, then the history is the log, complete, even with no webhook event', async () => {
    const order = await approvedOnRamp();
    const [created, approved] = order.statusLog;
    expect(statusHistory(order, [])).toEqual({
      history: [
        { status: 10, time: created.time },
        { status: 40, time: approved.time },
      ],
      historyComplete: true,
    });
  });

  it('when the order came from a version 6 snapshot with an empty log, then the history is its webhook events and the current status', async () => {
    const live = await approvedOnRamp();
    const order = { ...live, statusLog: [] };
    expect(statusHistory(order, [])).toEqual({ history: [{ status: 40, time: live.updateTime }], historyComplete: false });
    expect(statusHistory(order, [event(10, live.createTime), event(40, live.updateTime)])).toEqual({
      history: [
        { status: 10, time: live.createTime },
        { status: 40, time: live.updateTime },
      ],
      historyComplete: true,
    });
  });

  it('when a log was begun after such a restore, then it is not taken as the whole history', async () => {
    const live = await approvedOnRamp();
    const order = { ...live, statusLog: live.statusLog.slice(1) };
    expect(statusHistory(order, [])).toEqual({ history: [{ status: 40, time: live.updateTime }], historyComplete: false });
  });
});
