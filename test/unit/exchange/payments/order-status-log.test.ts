/**
 * A payment order's status log (src/payments/orders.ts `statusLog`): every status it entered, with
 * the sequence number and time of the command that moved it, from creation on; carried whole by a
 * snapshot, rebuilt whole by a replay, empty (so incomplete) when restored from an image of version
 * 6, which had none.
 */
import { describe, expect, it } from 'vitest';
import type { Command } from '../../../../src/core/types.js';
import { restoreSnapshot, serializeCore, stateHash } from '../../../../src/exchange/snapshot.js';
import { IMAGE_VERSION } from '../../../../src/exchange/snapshot-image.js';
import { MAX_STATUS_LOG, statusLogComplete, type PaymentOrder, type StatusLogEntry } from '../../../../src/payments/orders.js';
import { CoreHarness } from '../../../support/core-harness.js';
import { PaymentsCore } from '../../../support/payments-core.js';

const FILE = { name: 'invoice.pdf', size: 10, sha256: '0'.repeat(64), contentType: 'application/pdf' };

/** A merchant user with 1000 USDT in M, an MXN beneficiary, a funded desk, a fixed price and manual decisions. */
async function offRampWorld() {
  const h = new PaymentsCore();
  const { userId } = await h.setUp();
  const merchantId = await h.merchant(userId, 'Acme MX');
  const desk = h.core.payments.state.deskAccountId;
  const merchantAccount = h.core.payments.state.merchants.get(merchantId)?.accountId ?? 0;
  const setUp: Command[] = [
    { type: 'setSandboxModes', userId, modes: { orderReview: 'manual', payout: 'manual' } },
    { type: 'deposit', accountId: desk, asset: 'MXN', amount: '1000000', txId: 'desk-mxn' },
    { type: 'deposit', accountId: merchantAccount, asset: 'USDT', amount: '1000', txId: 'm-usdt' },
    { type: 'setPriceOverride', userId, from: 'USDT', to: 'MXN', price: '19.0000' },
  ];
  for (const command of setUp) await h.submit(command);
  const { userPaymentId } = await h.submit<{ userPaymentId: number }>({
    type: 'addBeneficiary',
    userId,
    merchantId,
    paymentId: 58,
    country: 'Mexico',
    fiat: 'MXN',
    realName: 'Juan Perez',
    fieldList: {},
    accountKey: '012180000000000001',
    remark: '',
  });
  const order = (orderId: number): PaymentOrder => h.core.payments.state.orders.get(orderId) ?? expect.fail(`no order ${orderId}`);
  /** Submits a command that moves an order and answers the log entry it must have made: its stamp, with `status`. */
  const stamped = async (command: Command, status: number): Promise<StatusLogEntry> => {
    await h.submit(command);
    return { status, time: h.core.lastTs, seq: h.core.lastSeq };
  };
  const create = (toPendingFund = false): Promise<{ orderId: number }> =>
    h.createOrder(userId, { kind: 'crypto_to_fiat', merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '10.0000', userPaymentId: toPendingFund ? 70 : userPaymentId });
  return { h, userId, order, stamped, create };
}

/** A c2f through every step a bank payout takes: 10 → 11 → 12 → 40 → 50 → 60, each stamp as expected. */
async function offRampStory(w: Awaited<ReturnType<typeof offRampWorld>>): Promise<{ orderId: number; expected: StatusLogEntry[] }> {
  const { orderId } = await w.create();
  const expected = [{ status: 10, time: w.h.core.lastTs, seq: w.h.core.lastSeq }];
  expected.push(await w.stamped({ type: 'reviewOrder', userId: 0, orderId, decision: 'rfi' }, 11));
  expected.push(await w.stamped({ type: 'attachDocuments', userId: w.userId, orderId, files: [FILE] }, 12));
  expected.push(await w.stamped({ type: 'reviewOrder', userId: 0, orderId, decision: 'approve' }, 40));
  expected.push(await w.stamped({ type: 'orderPayout', userId: 0, orderId, result: 'success' }, 50));
  expected.push(await w.stamped({ type: 'releaseOrder', userId: 0, orderId }, 60));
  return { orderId, expected };
}

/** The image of a core as version 6 wrote it: the same, without any order's status log. */
function version6Image(text: string): string {
  const image = JSON.parse(text) as { version: number; modules: { payments: { orders: Record<string, unknown>[] } } };
  for (const order of image.modules.payments.orders) delete order.statusLog;
  return JSON.stringify({ ...image, version: 6 });
}

describe('the status log of a payment order', () => {
  it('when an off-ramp goes from review through documents, approval, payout and release, then its log holds every status with the seq and time of its command', async () => {
    const w = await offRampWorld();
    const { orderId, expected } = await offRampStory(w);
    const order = w.order(orderId);
    expect(order.statusLog).toEqual(expected);
    expect(new Set(expected.map((e) => e.seq)).size).toBe(expected.length);
    expect([order.statusLog[0].time, order.statusLog.at(-1)?.time]).toEqual([order.createTime, order.completedTime]);
    expect(statusLogComplete(order)).toBe(true);
    // The journal holds each logged command at its seq with its stamp.
    for (const entry of expected) {
      const [journaled] = [...w.h.store.readJournal(entry.seq - 1, 1)];
      expect([journaled.seq, journaled.ts]).toEqual([entry.seq, entry.time]);
    }
  });

  it('when one command passes several statuses (the pending fund credited at approval), then each is logged with that one command stamp', async () => {
    const w = await offRampWorld();
    const { orderId } = await w.create(true);
    const created = { status: 10, time: w.h.core.lastTs, seq: w.h.core.lastSeq };
    await w.h.submit({ type: 'reviewOrder', userId: 0, orderId, decision: 'approve' });
    const approval = { time: w.h.core.lastTs, seq: w.h.core.lastSeq };
    expect(w.order(orderId).statusLog).toEqual([created, { status: 40, ...approval }, { status: 50, ...approval }, { status: 60, ...approval }]);
  });

  it('when the core is snapshotted and restored, or the journal replayed, then the logs and the state hash are the same', async () => {
    const w = await offRampWorld();
    const { orderId, expected } = await offRampStory(w);
    const open = (await w.create()).orderId;
    const text = serializeCore(w.h.core);
    const restored = restoreSnapshot(text);
    expect(restored.current).toBe(true);
    expect(serializeCore(restored.core)).toBe(text);
    expect(stateHash(restored.core)).toBe(stateHash(w.h.core));
    expect(restored.core.payments.state.orders.get(orderId)?.statusLog).toEqual(expected);
    expect(w.h.replayHash()).toBe(stateHash(w.h.core));

    // The same move on the live and the restored core logs the same entry; it arms a deadline the
    // order had none of when imaged (JSON leaves an undefined one out), and the images still agree.
    expect(w.order(open).deadline).toBeUndefined();
    const next: Command = { type: 'reviewOrder', userId: 0, orderId: open, decision: 'rfi' };
    await w.h.submit(next);
    const after = new CoreHarness(restored.core);
    after.now = w.h.core.lastTs;
    after.ok(next);
    expect(w.order(open).deadline).toMatchObject({ action: 'expire' });
    expect(restored.core.payments.state.orders.get(open)?.statusLog).toEqual(w.order(open).statusLog);
    expect(serializeCore(restored.core)).toBe(serializeCore(w.h.core));
  });

  it('when a snapshot is of version 6, from before the log, then its orders load with an empty log that reads incomplete, and moves from there are appended', async () => {
    const w = await offRampWorld();
    const { orderId } = await offRampStory(w);
    const open = (await w.create()).orderId;
    const restored = restoreSnapshot(version6Image(serializeCore(w.h.core)));
    expect(restored.current).toBe(false);
    const orders = [...restored.core.payments.state.orders.values()];
    expect(orders.map((o) => o.statusLog)).toEqual(orders.map(() => []));
    expect(orders.some((o) => statusLogComplete(o))).toBe(false);
    // Everything else is as it was: with the live logs emptied, the images are equal.
    const live = JSON.parse(serializeCore(w.h.core)) as { modules: { payments: { orders: { statusLog: unknown[] }[] } } };
    for (const order of live.modules.payments.orders) order.statusLog = [];
    expect(JSON.parse(serializeCore(restored.core))).toEqual({ ...live, version: IMAGE_VERSION });
    expect(restored.core.payments.state.orders.get(orderId)).toMatchObject({ status: 60 });

    const after = new CoreHarness(restored.core);
    after.ok({ type: 'reviewOrder', userId: 0, orderId: open, decision: 'approve' });
    const moved = restored.core.payments.state.orders.get(open) ?? expect.fail('no order');
    expect(moved.statusLog).toEqual([{ status: 40, time: restored.core.lastTs, seq: restored.core.lastSeq }]);
    expect(statusLogComplete(moved)).toBe(false);
    // A replay of the whole journal knows the whole story again.
    expect(w.h.replayHash()).toBe(stateHash(w.h.core));
  });

  it('when an order loops between 11 and 12 past the cap (uploads of no file, which the API refuses), then its log stops at the cap and reads incomplete', async () => {
    const w = await offRampWorld();
    const { orderId } = await w.create();
    for (let round = 0; round < MAX_STATUS_LOG / 2; round++) {
      await w.h.submit({ type: 'reviewOrder', userId: 0, orderId, decision: 'rfi' });
      await w.h.submit({ type: 'attachDocuments', userId: w.userId, orderId, files: [] });
    }
    const order = w.order(orderId);
    expect(order.status).toBe(12);
    expect(order.statusLog).toHaveLength(MAX_STATUS_LOG);
    expect(order.statusLog.slice(0, 3).map((e) => e.status)).toEqual([10, 11, 12]);
    expect(statusLogComplete(order)).toBe(false);
    expect(w.h.replayHash()).toBe(stateHash(w.h.core));
  });
});
