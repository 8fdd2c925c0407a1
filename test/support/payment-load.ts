import { MerchantClient } from './merchant-client.js';
import { randomInt, seededRandom } from './prng.js';

/** What area B acknowledged (a 200 answer): arrivals by traceNumber and claims by clientId, → txId. */
export class PaymentAckLog {
  readonly arrivals = new Map<string, { txId: number; amount: string }>();
  readonly claims = new Map<string, { txId: number; amount: string }>();
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
