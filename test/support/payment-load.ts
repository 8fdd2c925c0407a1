import { MerchantClient } from './merchant-client.js';
import { randomInt, seededRandom } from './prng.js';

/** What area B acknowledged (a 200 answer): arrivals by traceNumber and claims by clientId, → txId. */
export class PaymentAckLog {
  readonly arrivals = new Map<string, { txId: number; amount: string }>();
  readonly claims = new Map<string, { txId: number; amount: string }>();
  /** On-ramp orders by id → the last status an answer showed (10 when created, 60 when paid). */
  readonly orders = new Map<number, number>();
}

export interface PaymentLoadOptions {
  client: MerchantClient;
  merchantId: number;
  beneficiaryId: number;
  loops: number;
  seed: number;
  round: number;
  log: PaymentAckLog;
}

export interface PaymentLoad {
  stop(): void;
  done: Promise<{ acknowledged: number; connectionErrors: number; serverErrors: number }>;
}

/**
 * An on-ramp order from the pending fund's merchant, paid by the bank half of the time: the
 * acknowledged statuses are logged (10 at creation, 60 once paid). Answers how many were acknowledged.
 */
async function orderStep(options: PaymentLoadOptions, clientId: string, random: () => number): Promise<number> {
  const fiatAmount = `${randomInt(random, 100, 900)}.00`;
  const created = await options.client.call<{ orderId: number }>('POST', '/v2/order/fiat_to_crypto', { merchantId: options.merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount, paymentId: 58, clientId });
  if (created.code !== 200) return 0;
  const orderId = created.data.orderId;
  options.log.orders.set(orderId, 10);
  if (randomInt(random, 0, 1) === 0) return 1;
  const paid = await options.client.call<{ result: string }>('POST', `/sandbox/v2/orders/${orderId}/pay`, { traceNumber: `pay-${clientId}` });
  if (paid.code !== 200 || paid.data.result !== 'ORDER_PAID') return 1;
  options.log.orders.set(orderId, 60);
  return 2;
}

/**
 * Concurrent bank arrivals (§7 `/deposits`, unique traceNumbers) and claims to a beneficiary (B18,
 * unique clientIds) against one merchant, each acknowledged one logged. A connection cut off by a
 * kill is an unknown outcome: not logged, and a later check must find it applied at most once.
 */
export function startPaymentLoad(options: PaymentLoadOptions): PaymentLoad {
  let stopped = false;
  let acknowledged = 0;
  let connectionErrors = 0;
  let serverErrors = 0;
  const loop = async (index: number): Promise<void> => {
    const random = seededRandom(options.seed * 100 + index);
    for (let i = 0; !stopped; i++) {
      const key = `r${options.round}-l${index}-${i}`;
      if (i % 4 === 3) {
        await orderStep(options, key, random).then(
          (acked) => (acknowledged += acked),
          () => connectionErrors++,
        );
        continue;
      }
      const claim = i % 3 === 2;
      const amount = `${randomInt(random, 1, claim ? 20 : 400)}.${String(randomInt(random, 0, 99)).padStart(2, '0')}`;
      try {
        const answer = claim
          ? await options.client.call<{ txId: number }>('POST', '/v2/merchant/claimfunds', { merchantId: options.merchantId, clientId: key, fiat: 'MXN', amount, userPaymentId: options.beneficiaryId })
          : await options.client.call<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId: options.merchantId, fiat: 'MXN', amount, traceNumber: key });
        if (answer.code === 200) {
          acknowledged++;
          (claim ? options.log.claims : options.log.arrivals).set(key, { txId: answer.data.txId, amount });
        } else if (answer.status >= 500) {
          serverErrors++;
        }
      } catch {
        connectionErrors++;
      }
    }
  };
  const done = Promise.all(Array.from({ length: options.loops }, (_, i) => loop(i))).then(() => ({ acknowledged, connectionErrors, serverErrors }));
  return {
    stop: () => {
      stopped = true;
    },
    done,
  };
}
