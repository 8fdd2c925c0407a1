import type { PaymentsConfig } from '../../payments/config.js';
import { ORDER, type PaymentOrder } from '../../payments/orders.js';
import { decideLater, modesOf, type PaymentsContext } from './payments-context.js';

/**
 * The windows an order waits out: the config's length and what the deadline scheduler submits
 * once it passes (docs/merchant-payments.md "Order statuses").
 */
const WINDOWS = {
  acceptWindow: { ms: 'acceptWindowMs', action: 'expire' },
  documentsWindow: { ms: 'documentsWindowMs', action: 'expire' },
  paymentWindow: { ms: 'paymentWindowMs', action: 'expire' },
  releaseHold: { ms: 'releaseHoldMs', action: 'release' },
} as const satisfies Record<string, { ms: keyof PaymentsConfig; action: NonNullable<PaymentOrder['deadline']>['action'] }>;

/**
 * What an order waits for in a status (docs/merchant-payments.md "Order statuses"): a deadline
 * stored on the order (the deadline scheduler submits its command once passed), or the simulator's
 * decision, due at once as a follow-up unless the user's mode for it is manual.
 */
export type Wait = 'reviewDecision' | 'payoutDecision' | keyof typeof WINDOWS;

/** The key of an automatic decision on the order (`review:10000001`). */
export function orderKey(order: PaymentOrder, what: 'review' | 'payout'): string {
  return `${what}:${order.orderId}`;
}

/** Arms what the order now waits for. */
export function arm(p: PaymentsContext, order: PaymentOrder, wait: Wait): void {
  if (wait === 'reviewDecision') return reviewDecision(p, order);
  if (wait === 'payoutDecision') return payoutDecision(p, order);
  const window = WINDOWS[wait];
  order.deadline = { at: p.ctx.ts + p.state.config[window.ms], action: window.action };
}

/** 10 or 12: the review mode decides; after an upload, any automatic mode but reject approves. */
function reviewDecision(p: PaymentsContext, order: PaymentOrder): void {
  const mode = modesOf(p.state, order.userId).orderReview;
  if (mode === 'manual') return;
  const decision = order.status === ORDER.RFI_UPLOADED && mode !== 'reject' ? 'approve' : mode;
  decideLater(p, orderKey(order, 'review'), { type: 'reviewOrder', userId: 0, orderId: order.orderId, decision });
}

/** c2f 40, f2f 51: the payout mode decides the payout's outcome. */
function payoutDecision(p: PaymentsContext, order: PaymentOrder): void {
  const modes = modesOf(p.state, order.userId);
  if (modes.payout === 'manual') return;
  decideLater(p, orderKey(order, 'payout'), {
    type: 'orderPayout',
    userId: 0,
    orderId: order.orderId,
    result: modes.payout,
    ...(modes.payout === 'fail' ? { failCode: modes.payoutFailCode } : {}),
  });
}
