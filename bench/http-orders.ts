/**
 * Signed order traffic for bench/http.ts. Two funded demo accounts take turns: the demo user only
 * buys, the merchant only sells, each 0.0001 BTC on BTCUSDT. Every BUY is priced above every SELL
 * (60000.00..60000.03 against 59999.96..59999.99), so an order crosses whatever rests on the other
 * side: about half the orders rest and the next one of the other account fills them, and the book
 * near the mid stays a handful of orders deep. As no account ever meets its own resting order, no
 * order is cancelled by self-trade prevention (docs/spot-api.md "Matching and self-trade prevention"), whatever the interleaving: every run
 * answers the same mix of NEW and FILLED. The balances drift one way; `ORDER_FLOW_FUNDS` covers it.
 */

import { createHmac } from 'node:crypto';
import type { Request, RequestParams } from 'autocannon';

export const ORDER_PATH = '/openapi/v1/order';
export const SYMBOL = 'BTCUSDT';
const QUANTITY = '0.0001';
const BUY_PRICES = ['60000', '60000.01', '60000.02', '60000.03'] as const;
const SELL_PRICES = ['59999.99', '59999.98', '59999.97', '59999.96'] as const;
/** The depth ladder sits this far from the traded prices, so the order flow never reaches it. */
const LADDER_BEST_BID = 59_000;
const LADDER_BEST_ASK = 61_000;
const LADDER_STEP = 10;
const LADDER_QUANTITY = '0.001';

/**
 * What the buyer and the seller get on top of the demo balances before the flow: a million orders'
 * worth each way (0.0001 BTC at about 60,000 USDT), far more than a run at any rate this API reaches.
 */
export const ORDER_FLOW_FUNDS = { buyerUsdt: '6000000', sellerBtc: '100' } as const;

/** An API key with every permission and the account it trades for. */
export interface Trader {
  apiKey: string;
  secretKey: string;
}

/** A form body signed as docs/spot-api.md "Signing" reads it: no query, so `totalParams` is the body before `&signature`. */
export function signedForm(secretKey: string, params: string, timestampMs: number): string {
  const payload = `${params}&timestamp=${timestampMs}`;
  return `${payload}&signature=${createHmac('sha256', secretKey).update(payload).digest('hex')}`;
}

export function formHeaders(apiKey: string): Record<string, string> {
  return { 'Content-Type': 'application/x-www-form-urlencoded', 'X-BH-APIKEY': apiKey };
}

function limitOrder(side: 'BUY' | 'SELL', price: string, quantity: string): string {
  return `symbol=${SYMBOL}&side=${side}&type=LIMIT&timeInForce=GTC&quantity=${quantity}&price=${price}`;
}

/** Answers of one run by kind: `200 <order status>` (or `200` where the body says none), `<HTTP status> <code>` otherwise. */
export class AnswerTally {
  private readonly counts = new Map<string, number>();

  add(status: number, body: string): void {
    const key = status === 200 ? `200${orderStatusSuffix(body)}` : `${status}${errorCodeSuffix(body)}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  entries(): [string, number][] {
    return [...this.counts].sort(([a], [b]) => a.localeCompare(b));
  }

  clear(): void {
    this.counts.clear();
  }
}

const STATUS_FIELD = '"status":"';

/** The order record's status, read without parsing: every 200 is parsed JSON's worth of client CPU otherwise. */
function orderStatusSuffix(body: string): string {
  const start = body.indexOf(STATUS_FIELD);
  if (start < 0) return '';
  const from = start + STATUS_FIELD.length;
  return ` ${body.slice(from, body.indexOf('"', from))}`;
}

function errorCodeSuffix(body: string): string {
  try {
    const code = (JSON.parse(body) as { code?: unknown }).code;
    return typeof code === 'number' ? ` ${code}` : '';
  } catch {
    return '';
  }
}

/** The endless order cycle as one autocannon request, signed afresh (timestamp + HMAC) before each send. */
export class OrderFlow {
  readonly tally = new AnswerTally();
  private sent = 0;

  constructor(
    private readonly demo: Trader,
    private readonly merchant: Trader,
    private readonly now: () => number = Date.now,
  ) {}

  request(): Request {
    return {
      method: 'POST',
      path: ORDER_PATH,
      setupRequest: (request) => this.next(request),
      onResponse: (status, body) => this.tally.add(status, body),
    };
  }

  private next(request: RequestParams): RequestParams {
    const n = this.sent++;
    const buys = (n & 1) === 0;
    const trader = buys ? this.demo : this.merchant;
    const level = (n >>> 1) & 3;
    const params = buys ? limitOrder('BUY', BUY_PRICES[level], QUANTITY) : limitOrder('SELL', SELL_PRICES[level], QUANTITY);
    request.headers = { ...request.headers, ...formHeaders(trader.apiKey) };
    request.body = signedForm(trader.secretKey, params, this.now());
    return request;
  }
}

/**
 * Rests `levels` bids of the demo user below the traded prices and as many asks of the merchant
 * above them, one order per price, so that depth answers carry a full book.
 */
export async function placeDepthLadder(baseUrl: string, demo: Trader, merchant: Trader, levels: number): Promise<void> {
  for (let level = 0; level < levels; level++) {
    await placeOrder(baseUrl, demo, limitOrder('BUY', String(LADDER_BEST_BID - level * LADDER_STEP), LADDER_QUANTITY));
    await placeOrder(baseUrl, merchant, limitOrder('SELL', String(LADDER_BEST_ASK + level * LADDER_STEP), LADDER_QUANTITY));
  }
}

/** The account a key trades for, from A19. */
export async function accountIdOf(baseUrl: string, trader: Trader): Promise<number> {
  const query = signedForm(trader.secretKey, 'recvWindow=5000', Date.now());
  const response = await fetch(`${baseUrl}/openapi/v1/account?${query}`, { headers: { 'X-BH-APIKEY': trader.apiKey } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`account → ${response.status} ${text}`);
  return Number((JSON.parse(text) as { accountId: string }).accountId);
}

/** One signed order that must rest (answer NEW). */
export async function placeOrder(baseUrl: string, trader: Trader, params: string): Promise<void> {
  const response = await fetch(`${baseUrl}${ORDER_PATH}`, {
    method: 'POST',
    headers: formHeaders(trader.apiKey),
    body: signedForm(trader.secretKey, params, Date.now()),
  });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('"status":"NEW"')) throw new Error(`ladder order ${params} → ${response.status} ${text}`);
}
