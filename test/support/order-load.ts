import { formatUnits } from '../../src/core/decimal.js';
import { asOrderRecord, isFinalStatus, type AckLog } from './ack-log.js';
import { SpotClient, type HttpAnswer } from './clients.js';
import { randomInt, seededRandom } from './prng.js';

/** A funded account's API key; clients are made per server, whose address changes on restart. */
export interface Trader {
  name: string;
  apiKey: string;
  secretKey: string;
}

export interface LoadOptions {
  url: string;
  traders: readonly Trader[];
  /** Concurrent client loops; loop i trades for trader i mod traders.length. */
  loops: number;
  seed: number;
  round: number;
  log: AckLog;
  /**
   * With it, every new order carries the client id `<prefix>-<loop>-<n>`, unique per load: an order
   * the server receives twice (a write resent after a takeover) is then refused with -1141 instead
   * of being placed twice, and shows in `errorAnswers`.
   */
  clientOrderIdPrefix?: string;
}

export interface LoadOutcome {
  requests: number;
  acknowledged: number;
  connectionErrors: number;
  /** Non-200 answers by "<http status> <code>". */
  errorAnswers: Map<string, number>;
  /** Answers that are neither 200 nor a {code,msg} error. */
  malformed: string[];
}

export interface Load {
  /** Loops send no new request after this; those in flight finish. */
  stop(): void;
  /** Resolves once this many commands were answered 200 (or the load has ended). */
  acknowledged(count: number): Promise<void>;
  done: Promise<LoadOutcome>;
}

interface Market {
  symbol: string;
  midTicks: number;
  tickDecimals: number;
  /** Base quantity = lots × 10^-lotDecimals. */
  lotDecimals: number;
  maxLots: number;
}

/** Prices a few ticks around the middle on both sides, so orders rest and cross all the time. */
const MARKETS: readonly Market[] = [
  { symbol: 'BTCUSDT', midTicks: 3_000_000, tickDecimals: 2, lotDecimals: 4, maxLots: 20 },
  { symbol: 'ETHUSDT', midTicks: 200_000, tickDecimals: 2, lotDecimals: 3, maxLots: 50 },
];
const SPREAD_TICKS = 3;
/** recvWindow at its maximum: a loaded machine must not turn into timestamp errors. */
const RECV_WINDOW_MS = '60000';
/** Own open orders a loop remembers for cancelling (older ones are left to cancel-alls and fills). */
const MAX_REMEMBERED_OPEN = 64;

type Action = { kind: 'place'; params: Record<string, string> } | { kind: 'cancel'; orderId: string } | { kind: 'cancelAll'; symbol: string };

function nextAction(random: () => number, open: string[]): Action {
  const market = MARKETS[randomInt(random, 0, MARKETS.length - 1)];
  const roll = random();
  const side = random() < 0.5 ? 'BUY' : 'SELL';
  const quantity = formatUnits(BigInt(randomInt(random, 1, market.maxLots)), market.lotDecimals);
  if (roll < 0.22 && open.length > 0) {
    const [orderId] = open.splice(randomInt(random, 0, open.length - 1), 1);
    return { kind: 'cancel', orderId };
  }
  if (roll < 0.24) return { kind: 'cancelAll', symbol: market.symbol };
  if (roll < 0.32) {
    // A MARKET BUY's quantity is the quote amount (docs/spot-api.md "MARKET BUY amount").
    const marketQuantity = side === 'BUY' ? String(randomInt(random, 5, 100)) : quantity;
    return { kind: 'place', params: { symbol: market.symbol, side, type: 'MARKET', quantity: marketQuantity } };
  }
  const price = formatUnits(BigInt(market.midTicks + randomInt(random, -SPREAD_TICKS, SPREAD_TICKS)), market.tickDecimals);
  const timeInForce = roll < 0.38 ? 'IOC' : 'GTC';
  return { kind: 'place', params: { symbol: market.symbol, side, type: 'LIMIT', timeInForce, price, quantity } };
}

function send(client: SpotClient, action: Action): Promise<HttpAnswer> {
  switch (action.kind) {
    case 'place':
      return client.signed('POST', '/openapi/v1/order', { ...action.params, recvWindow: RECV_WINDOW_MS });
    case 'cancel':
      return client.signed('DELETE', '/openapi/v1/order', { orderId: action.orderId, recvWindow: RECV_WINDOW_MS });
    case 'cancelAll':
      return client.signed('DELETE', '/openapi/v1/openOrders', { symbol: action.symbol, recvWindow: RECV_WINDOW_MS });
  }
}

/** An error answer of area A: `{code, msg}`. */
export function isErrorBody(body: unknown): body is { code: number; msg: string } {
  return typeof body === 'object' && body !== null && typeof (body as { code: unknown }).code === 'number' && typeof (body as { msg: unknown }).msg === 'string';
}

/**
 * Concurrent clients placing crossing and resting LIMIT orders, some IOC and MARKET orders, cancels
 * and cancel-alls on BTCUSDT and ETHUSDT; every 200 goes into the log. A loop ends at its first
 * connection error (the server is gone) or when stopped.
 */
export function startOrderLoad(options: LoadOptions): Load {
  const outcome: LoadOutcome = { requests: 0, acknowledged: 0, connectionErrors: 0, errorAnswers: new Map(), malformed: [] };
  let stopped = false;
  let ended = false;
  let waiters: { count: number; resolve: () => void }[] = [];
  const wake = (): void => {
    const ready = waiters.filter((w) => ended || outcome.acknowledged >= w.count);
    waiters = waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve();
  };

  const acknowledge = (trader: Trader, answer: HttpAnswer, action: Action, open: string[]): void => {
    const records = action.kind === 'cancelAll' ? (answer.body as unknown[]) : [answer.body];
    if (!Array.isArray(records)) throw new Error(`cancel-all answered ${answer.text}`);
    for (const value of records) {
      const record = asOrderRecord(value);
      options.log.record(trader.name, options.round, record);
      if (action.kind === 'place' && !isFinalStatus(record.status) && open.length < MAX_REMEMBERED_OPEN) open.push(record.orderId);
    }
    options.log.commands++;
    outcome.acknowledged++;
    wake();
  };

  const loop = async (index: number): Promise<void> => {
    const trader = options.traders[index % options.traders.length];
    const client = new SpotClient(options.url, trader.apiKey, trader.secretKey);
    const random = seededRandom(options.seed * 1000 + index);
    const open: string[] = [];
    for (let n = 1; !stopped; n++) {
      const action = nextAction(random, open);
      if (action.kind === 'place' && options.clientOrderIdPrefix !== undefined) action.params.newClientOrderId = `${options.clientOrderIdPrefix}-${index}-${n}`;
      let answer: HttpAnswer;
      outcome.requests++;
      try {
        answer = await send(client, action);
      } catch {
        outcome.connectionErrors++;
        return;
      }
      if (answer.status === 200) {
        acknowledge(trader, answer, action, open);
      } else if (isErrorBody(answer.body)) {
        const key = `${answer.status} ${answer.body.code}`;
        outcome.errorAnswers.set(key, (outcome.errorAnswers.get(key) ?? 0) + 1);
      } else {
        outcome.malformed.push(`${answer.status} ${answer.text.slice(0, 200)}`);
      }
    }
  };

  const done = Promise.all(Array.from({ length: options.loops }, (_, i) => loop(i))).then(() => {
    ended = true;
    wake();
    return outcome;
  });
  return {
    stop: () => {
      stopped = true;
    },
    acknowledged: (count) =>
      new Promise<void>((resolve) => {
        waiters.push({ count, resolve });
        wake();
      }),
    done,
  };
}
