import type { OrderKind } from '../../src/payments/orders.js';
import { MerchantClient, type Envelope } from './merchant-client.js';
import { mayMove, TERMINAL } from './order-statuses.js';
import { randomInt, seededRandom } from './prng.js';
import { Watch } from './watch.js';

/** A payment order as the acknowledged answers left it: its kind, the last status one showed, and the round of that answer. */
export interface AckedPaymentOrder {
  kind: OrderKind;
  status: number;
  round: number;
}

/** What area B acknowledged (a 200 answer): arrivals by traceNumber and claims by clientId, → txId; payment orders by id. */
export class PaymentAckLog {
  readonly arrivals = new Map<string, { txId: number; amount: string }>();
  readonly claims = new Map<string, { txId: number; amount: string }>();
  /**
   * Payment orders by id → the last status an acknowledged answer showed: 10 or 30 at creation, a docs/merchant-payments.md "The simulator and the sandbox API"
   * action's B33 object, or a B33 read right after a write that answers no status (create, B32, B35, pay).
   */
  readonly orders = new Map<number, AckedPaymentOrder>();
  /** `kind:status` of every status some acknowledged answer showed: what the load reached. */
  readonly statuses = new Set<string>();
  /** Answers that showed an order back along docs/merchant-payments.md "Order statuses" (a committed status undone): each one a bug. */
  readonly conflicts: string[] = [];
  private readonly acked = new Watch();

  ackOrder(orderId: number, kind: OrderKind, status: number, round: number, what: string): void {
    const known = this.orders.get(orderId);
    if (!mayMove(kind, known?.status, status)) this.conflicts.push(`${kind} order ${orderId}: ${what} showed ${status} after ${known?.status ?? 'creation'}`);
    this.orders.set(orderId, { kind, status, round });
    this.statuses.add(`${kind}:${status}`);
    this.acked.changed();
  }

  /** Resolves once `condition` holds, re-checked at each acknowledged order status (rejects after `timeoutMs`). */
  until(condition: () => boolean, what: string, timeoutMs?: number): Promise<void> {
    return this.acked.until(condition, what, timeoutMs);
  }
}

export interface PaymentLoadOptions {
  client: MerchantClient;
  merchantId: number;
  beneficiaryId: number;
  loops: number;
  seed: number;
  round: number;
  log: PaymentAckLog;
  /** Payment order stories beside the arrivals and claims: concurrent loops, and the USD WIRE beneficiary global payments pay out to. */
  orders?: { loops: number; usdBeneficiaryId: number };
}

export interface PaymentLoad {
  stop(): void;
  done: Promise<{ acknowledged: number; connectionErrors: number; serverErrors: number }>;
}

interface Counters {
  acknowledged: number;
  connectionErrors: number;
  serverErrors: number;
}

/** A small PDF, accepted by B35 by its content. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1');
const BOUNDARY = 'bourse-load-boundary';

/** B35 with 1–2 PDF parts, as multipart/form-data. */
async function upload(client: MerchantClient, orderId: number, kind: OrderKind, files: number): Promise<Envelope> {
  const parts = [`--${BOUNDARY}\r\nContent-Disposition: form-data; name="orderId"\r\n\r\n${orderId}\r\n`, `--${BOUNDARY}\r\nContent-Disposition: form-data; name="orderType"\r\n\r\n${kind}\r\n`];
  const chunks: Buffer[] = [Buffer.from(parts.join(''), 'utf8')];
  for (let i = 0; i < files; i++) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="invoice-${i}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`, 'utf8'), PDF, Buffer.from('\r\n', 'utf8'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`, 'utf8'));
  const response = await fetch(`${client.baseUrl}/v2/order/invoice`, {
    method: 'POST',
    headers: { 'X-BH-TOKEN': client.token, 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: new Uint8Array(Buffer.concat(chunks)),
  });
  const body = (await response.json()) as { code: number; msg: string; detail?: string; data: unknown };
  return { status: response.status, code: body.code, msg: body.msg, detail: body.detail ?? '', data: body.data };
}

/** What a story may create: a kind, its create body, and how often (out of the sum of weights). */
const ORDER_SHAPES: readonly { kind: OrderKind; weight: number; body: (o: PaymentLoadOptions, random: () => number) => Record<string, unknown> }[] = [
  { kind: 'fiat_to_crypto', weight: 3, body: (o, r) => ({ merchantId: o.merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: `${randomInt(r, 100, 900)}.00`, paymentId: 58 }) },
  { kind: 'fiat_to_crypto', weight: 2, body: (o, r) => ({ merchantId: o.merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: `${randomInt(r, 100, 900)}.00`, paymentId: 70 }) },
  {
    kind: 'crypto_to_fiat',
    weight: 4,
    body: (o, r) => ({ merchantId: o.merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: `${randomInt(r, 6, 40)}.${String(randomInt(r, 0, 9999)).padStart(4, '0')}`, userPaymentId: o.beneficiaryId }),
  },
  { kind: 'crypto_to_fiat', weight: 1, body: (o, r) => ({ merchantId: o.merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: `${randomInt(r, 6, 40)}.0000`, userPaymentId: 70 }) },
  {
    kind: 'fiat_to_fiat',
    weight: 6,
    body: (o, r) => ({
      onRampMerchantId: o.merchantId,
      onRampCountry: 'Mexico',
      onRampFiat: 'MXN',
      // The WIRE payout fee (15.00 USD) must leave something to arrive: at about 0.052 USD per MXN, over 300 MXN.
      onRampFiatAmount: `${randomInt(r, 400, 900)}.00`,
      onRampPaymentId: 58,
      offRampCountry: 'United States',
      offRampFiat: 'USD',
      offRampPaymentId: o.orders?.usdBeneficiaryId ?? 0,
    }),
  },
];

function pickShape(random: () => number): (typeof ORDER_SHAPES)[number] {
  let left = randomInt(random, 0, ORDER_SHAPES.reduce((sum, s) => sum + s.weight, 0) - 1);
  for (const shape of ORDER_SHAPES) {
    left -= shape.weight;
    if (left < 0) return shape;
  }
  return ORDER_SHAPES[0];
}

/** The statuses a story may aim at, by kind and rail: where it leaves its order (docs/merchant-payments.md "Quotes and orders"), waiting or ended. */
const TARGETS: Readonly<Record<string, readonly number[]>> = {
  'fiat_to_crypto bank': [10, 11, 12, 30, 31, 40, 60, 70],
  // From the pending fund, 40 pays at once: the order goes on to 60.
  'fiat_to_crypto fund': [10, 11, 12, 30, 31, 60, 70],
  // A sent payout's order waits in 50 until released (the load's release or B32, the hold): aimed at twice as often.
  'crypto_to_fiat bank': [10, 11, 12, 30, 31, 40, 50, 50, 60, 70],
  // To the pending fund, 40 pays out at once and releases: 60.
  'crypto_to_fiat fund': [10, 11, 12, 30, 31, 60, 70],
  // 51 holds only with payouts manual: aimed at twice as often.
  fiat_to_fiat: [10, 11, 12, 30, 31, 41, 51, 51, 60, 71, 72],
};

/**
 * Payment order stories of one loop. Each creates an order of a random kind (B29–B31, or docs/merchant-payments.md "The simulator and the sandbox API"
 * place-on-behalf into 30) and drives it with docs/merchant-payments.md "The simulator and the sandbox API" and merchant actions towards a random status of
 * that kind (review decisions, uploads, confirms, pay-ins, payouts, releases, expiries; now and then
 * a pay-in of a wrong amount first, which is refunded), leaving it there: orders wait in every
 * status when a kill comes (in the rounds with manual review and payouts; automatic modes move some
 * on by themselves). Now and then it also moves one of the loop's earlier open orders a step (earlier
 * rounds' included, so that orders recovered after a kill are acted on). Every answer that shows a
 * status is logged.
 */
async function orderStory(options: PaymentLoadOptions, index: number, key: string, random: () => number, counters: Counters): Promise<void> {
  const { client, log, round } = options;
  const loops = options.orders?.loops ?? 1;
  /** A call: its envelope, counted; undefined when cut off (the server is gone). */
  const call = async <T>(method: string, path: string, params: Record<string, unknown> = {}): Promise<Envelope<T> | undefined> => {
    try {
      const answer = await client.call<T>(method, path, params);
      if (answer.code === 200) counters.acknowledged++;
      else if (answer.status >= 500) counters.serverErrors++;
      return answer;
    } catch {
      counters.connectionErrors++;
      return undefined;
    }
  };
  /** After a write that answers no status: B33 shows the committed one. */
  const read = async (orderId: number, kind: OrderKind, what: string): Promise<void> => {
    const detail = await call<{ orderStatus: number }>('GET', '/v2/order/detail', { orderId });
    if (detail?.code === 200) log.ackOrder(orderId, kind, detail.data.orderStatus, round, `B33 after ${what}`);
  };
  const shown = (orderId: number, kind: OrderKind, answer: Envelope<{ orderStatus: number }> | undefined, what: string): void => {
    if (answer?.code === 200) log.ackOrder(orderId, kind, answer.data.orderStatus, round, what);
  };
  const review = async (orderId: number, kind: OrderKind, decision: string): Promise<void> => shown(orderId, kind, await call('POST', `/sandbox/v2/orders/${orderId}/review`, { decision }), `review ${decision}`);
  const action = async (orderId: number, kind: OrderKind, what: 'expire' | 'release'): Promise<void> => shown(orderId, kind, await call('POST', `/sandbox/v2/orders/${orderId}/${what}`), what);
  const payout = async (orderId: number, kind: OrderKind, result: 'success' | 'fail'): Promise<void> => shown(orderId, kind, await call('POST', `/sandbox/v2/orders/${orderId}/payout`, { result }), `payout ${result}`);
  const confirm = async (orderId: number, kind: OrderKind): Promise<void> => {
    const confirmed = await call('POST', '/v2/order/confirm', { orderId, orderType: kind, ...(kind === 'fiat_to_fiat' ? { direction: 'on_ramp' } : {}) });
    if (confirmed?.code === 200) await read(orderId, kind, 'confirm');
  };
  const pay = async (orderId: number, kind: OrderKind, trace: string, wrong: boolean): Promise<void> => {
    // A wrong amount is refunded to the pending fund (docs/merchant-payments.md "Bank arrivals and refunds" rule 3); the order still waits.
    const paid = await call<{ result: string }>('POST', `/sandbox/v2/orders/${orderId}/pay`, { traceNumber: trace, ...(wrong ? { amount: '99.99' } : {}) });
    if (paid?.code === 200) await read(orderId, kind, `pay (${paid.data.result})`);
  };
  const uploadTo = async (orderId: number, kind: OrderKind): Promise<void> => {
    const answer = await upload(client, orderId, kind, randomInt(random, 1, 2)).catch(() => undefined);
    if (answer === undefined) counters.connectionErrors++;
    else if (answer.code === 200) {
      counters.acknowledged++;
      await read(orderId, kind, 'upload');
    } else if (answer.status >= 500) counters.serverErrors++;
  };

  /** One step of `orderId` from `status` towards `target` (a terminal target is reached by a rejection, an expiry or a failed payout). */
  const stepTowards = async (orderId: number, kind: OrderKind, status: number, target: number, trace: string): Promise<void> => {
    const paying = kind === 'fiat_to_fiat' ? 41 : 40;
    const ends = target >= 70;
    switch (status) {
      case 10:
        if (target === 11 || target === 12) return review(orderId, kind, 'rfi');
        if (target === 31) return review(orderId, kind, 'documents');
        return review(orderId, kind, ends && random() < 0.5 ? 'reject' : 'approve');
      case 11:
        return ends && random() < 0.5 ? action(orderId, kind, 'expire') : uploadTo(orderId, kind);
      case 12:
        return review(orderId, kind, ends && random() < 0.5 ? 'reject' : 'approve');
      case 30:
        return ends && random() < 0.5 ? action(orderId, kind, 'expire') : confirm(orderId, kind);
      case 31:
        return ends && random() < 0.5 ? action(orderId, kind, 'expire') : uploadTo(orderId, kind);
      case 50:
        return random() < 0.5 ? action(orderId, kind, 'release') : confirm(orderId, kind);
      case 51:
        return payout(orderId, kind, target === 72 ? 'fail' : 'success');
      default:
        if (status !== paying) return;
        if (kind === 'crypto_to_fiat') return payout(orderId, kind, target === 70 ? 'fail' : 'success');
        if (target === 70 || target === 71) return action(orderId, kind, 'expire');
        return pay(orderId, kind, trace, random() < 0.15);
    }
  };

  const shape = pickShape(random);
  const body = shape.body(options, random);
  const route = shape.kind === 'fiat_to_fiat' ? shape.kind : `${shape.kind} ${body.paymentId === 70 || body.userPaymentId === 70 ? 'fund' : 'bank'}`;
  const targets = TARGETS[route];
  const target = targets[randomInt(random, 0, targets.length - 1)];
  // Into 30 when it is the target, and now and then on the way to later statuses.
  const onBehalf = target === 30 || (target > 31 && random() < 0.25);
  const created = await call<{ orderId: number }>('POST', onBehalf ? `/sandbox/v2/orders/${shape.kind}` : `/v2/order/${shape.kind}`, { ...body, clientId: key });
  if (created?.code !== 200) return;
  const orderId = created.data.orderId;
  log.ackOrder(orderId, shape.kind, onBehalf ? 30 : 10, round, 'create');
  await read(orderId, shape.kind, 'create');
  for (let step = 0, stalls = 0; step < 8 && stalls < 2; step++) {
    const status = log.orders.get(orderId)?.status;
    if (status === undefined || status === target || TERMINAL.has(status)) break;
    await stepTowards(orderId, shape.kind, status, target, `pay-${key}-${step}`);
    // A step that moved nothing: a refunded wrong amount, or refused (an automatic mode or a timer got there first), or cut off.
    if (log.orders.get(orderId)?.status === status) stalls++;
  }

  // Now and then, a step for an earlier open order of this loop (orders are split between loops by id, so no two act on one).
  if (random() < 0.3) {
    const open = [...log.orders].filter(([id, o]) => id % loops === index && id !== orderId && !TERMINAL.has(o.status));
    if (open.length === 0) return;
    const [earlierId, earlier] = open[randomInt(random, 0, open.length - 1)];
    const choices = TARGETS[earlier.kind === 'fiat_to_fiat' ? earlier.kind : `${earlier.kind} bank`].filter((t) => t >= 40);
    await stepTowards(earlierId, earlier.kind, earlier.status, choices[randomInt(random, 0, choices.length - 1)], `pay-${key}-earlier`);
  }
}

/**
 * Concurrent bank arrivals (docs/merchant-payments.md "The simulator and the sandbox API" `/deposits`, unique traceNumbers) and claims to a beneficiary (B18,
 * unique clientIds) against one merchant, each acknowledged one logged; with `orders`, concurrent
 * payment order stories too (`orderStory`). A connection cut off by a kill is an unknown outcome:
 * not logged, and a later check must find it applied at most once.
 */
export function startPaymentLoad(options: PaymentLoadOptions): PaymentLoad {
  let stopped = false;
  const counters: Counters = { acknowledged: 0, connectionErrors: 0, serverErrors: 0 };
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
          counters.acknowledged++;
          (claim ? options.log.claims : options.log.arrivals).set(key, { txId: answer.data.txId, amount });
        } else if (answer.status >= 500) {
          counters.serverErrors++;
        }
      } catch {
        counters.connectionErrors++;
      }
    }
  };
  const orderLoop = async (index: number): Promise<void> => {
    const random = seededRandom(options.seed * 1000 + 500 + index);
    for (let i = 0; !stopped; i++) await orderStory(options, index, `o${options.round}-l${index}-${i}`, random, counters);
  };
  const loops = [...Array.from({ length: options.loops }, (_, i) => loop(i)), ...Array.from({ length: options.orders?.loops ?? 0 }, (_, i) => orderLoop(i))];
  const done = Promise.all(loops).then(() => ({ ...counters }));
  return {
    stop: () => {
      stopped = true;
    },
    done,
  };
}
