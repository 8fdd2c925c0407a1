import type { MarketMakerLogger } from '../../../src/demo/market-maker.js';
import type { OpenOrder } from '../../../src/demo/reconcile.js';
import type { FetchLike } from '../../../src/demo/spot-http-client.js';

/** Resolves waiters as soon as an appended item makes their predicate true. */
class Watched<T> {
  readonly items: T[] = [];
  private waiters: { predicate: (items: readonly T[]) => boolean; resolve: () => void }[] = [];

  push(item: T): void {
    this.items.push(item);
    const ready = this.waiters.filter((w) => w.predicate(this.items));
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const waiter of ready) waiter.resolve();
  }

  until(predicate: (items: readonly T[]) => boolean): Promise<void> {
    if (predicate(this.items)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ predicate, resolve }));
  }
}

export interface FakeCall {
  method: string;
  path: string;
  params: Record<string, string>;
}

export function errorReply(status: number, code: number, msg = 'refused'): Response {
  return new Response(JSON.stringify({ code, msg }), { status });
}

/** The three spot endpoints the market maker calls, in memory. */
export class FakeSpotApi {
  readonly calls = new Watched<FakeCall>();
  readonly open: OpenOrder[] = [];
  /** Answers a call instead of the fake when it returns a reply. */
  intercept: ((call: FakeCall, index: number) => Response | Promise<Response> | undefined) | undefined;
  private nextOrderId = 1;

  readonly fetch: FetchLike = async (url, init) => {
    const parsed = new URL(url);
    const params = Object.fromEntries(parsed.searchParams.entries());
    const call: FakeCall = { method: init.method ?? 'GET', path: parsed.pathname, params };
    const index = this.calls.items.length;
    this.calls.push(call);
    const intercepted = await this.intercept?.(call, index);
    if (intercepted !== undefined) return intercepted;
    return this.answer(call);
  };

  private answer(call: FakeCall): Response {
    const { method, path, params } = call;
    if (method === 'GET' && path === '/openapi/v1/openOrders') return Response.json(this.open);
    if (method === 'POST' && path === '/openapi/v1/order') {
      if (params.type !== 'LIMIT_MAKER' || (params.side !== 'BUY' && params.side !== 'SELL')) return errorReply(400, -1100);
      const order: OpenOrder = {
        orderId: String(this.nextOrderId++),
        symbol: params.symbol,
        side: params.side,
        price: params.price,
        origQty: params.quantity,
        executedQty: '0',
      };
      this.open.push(order);
      return Response.json({ ...order, status: 'NEW' });
    }
    if (method === 'DELETE' && path === '/openapi/v1/order') {
      const at = this.open.findIndex((o) => o.orderId === params.orderId);
      if (at < 0) return errorReply(400, -2013, 'Order does not exist.');
      const [order] = this.open.splice(at, 1);
      return Response.json({ ...order, status: 'CANCELED' });
    }
    return errorReply(404, -1000);
  }

  /** Calls other than reading open orders, as "METHOD side price quantity" or "DELETE id". */
  changes(): string[] {
    return this.calls.items
      .filter((c) => c.path === '/openapi/v1/order')
      .map((c) => (c.method === 'POST' ? `${c.params.symbol} ${c.params.side} ${c.params.price} ${c.params.quantity}` : `DELETE ${c.params.orderId}`));
  }
}

export interface LogEntry {
  level: 'debug' | 'warn';
  details: Record<string, unknown>;
  message: string;
}

export class RecordingLogger implements MarketMakerLogger {
  readonly entries = new Watched<LogEntry>();

  debug(details: object, message: string): void {
    this.entries.push({ level: 'debug', details: { ...details }, message });
  }

  warn(details: object, message: string): void {
    this.entries.push({ level: 'warn', details: { ...details }, message });
  }

  warnings(): LogEntry[] {
    return this.entries.items.filter((e) => e.level === 'warn');
  }

  /** The end-of-tick line of each tick so far. */
  ticks(): Record<string, unknown>[] {
    return this.entries.items.filter((e) => e.message === 'demo market maker tick').map((e) => e.details);
  }

  untilTicks(count: number): Promise<void> {
    return this.entries.until(() => this.ticks().length >= count);
  }
}
