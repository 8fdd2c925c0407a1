import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ExchangeCore } from '../exchange/exchange-core.js';
import type { PlaceOrderResult } from '../exchange/order-commands.js';
import type { CommitInfo } from '../exchange/sequencer.js';

/** The `route` label of requests no route matched: every route's label is a template starting with `/`. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Answers of one route template, by method and HTTP status, in plain integers: a request costs two
 * Map lookups and no allocation; the labels are built when `/metrics` is scraped.
 */
export class RouteAnswers {
  readonly byMethod = new Map<string, Map<number, number>>();

  constructor(readonly route: string) {}

  count(method: string, status: number): void {
    let byStatus = this.byMethod.get(method);
    if (byStatus === undefined) {
      byStatus = new Map();
      this.byMethod.set(method, byStatus);
    }
    tally(byStatus, status);
  }
}

/** Adds one to `key`'s count. */
function tally<K>(counts: Map<K, number>, key: K): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Prometheus metrics of `/metrics` (docs/running.md "Observability"). */
export class Metrics {
  readonly registry = new Registry();
  private readonly commands: Counter;
  private readonly batchSize: Histogram;
  private readonly commitLatency: Histogram;
  readonly connections: Gauge;
  /** By route template; the labels stay bounded whatever paths clients send. */
  private readonly routes = new Map<string, RouteAnswers>();
  private readonly tradesBySymbol = new Map<string, number>();
  /** New orders by their status once placed: NEW or PARTIALLY_FILLED (resting), FILLED, CANCELED (nothing rests). */
  private readonly ordersByOutcome = new Map<string, number>();

  constructor(core: () => ExchangeCore) {
    collectDefaultMetrics({ register: this.registry });
    this.commands = new Counter({
      name: 'bourse_commands_total',
      help: 'Commands journaled (rate() of it is commands/s)',
      registers: [this.registry],
    });
    this.batchSize = new Histogram({
      name: 'bourse_batch_size',
      help: 'Commands per committed batch',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096],
      registers: [this.registry],
    });
    this.commitLatency = new Histogram({
      name: 'bourse_commit_latency_seconds',
      help: 'Time to commit one batch to the journal',
      buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
      registers: [this.registry],
    });
    new Gauge({
      name: 'bourse_open_orders',
      help: 'Orders resting in the books',
      registers: [this.registry],
      collect() {
        this.set(core().spot.liveOrders.size);
      },
    });
    this.connections = new Gauge({ name: 'bourse_connections', help: 'Open client connections', registers: [this.registry] });
    const { routes, tradesBySymbol, ordersByOutcome } = this;
    // The counts live in plain integers (above); each scrape restates them as the counters' values.
    new Counter({
      name: 'bourse_http_requests_total',
      help: 'HTTP requests answered, by method, route template (not the path sent) and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const answers of routes.values()) {
          for (const [method, byStatus] of answers.byMethod) {
            for (const [status, count] of byStatus) this.inc({ method, route: answers.route, status: String(status) }, count);
          }
        }
      },
    });
    new Counter({
      name: 'bourse_trades_total',
      help: 'Trades executed, by symbol',
      labelNames: ['symbol'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [symbol, count] of tradesBySymbol) this.inc({ symbol }, count);
      },
    });
    new Counter({
      name: 'bourse_orders_total',
      help: 'New orders accepted, by outcome: the status they had once placed (NEW, PARTIALLY_FILLED, FILLED, CANCELED)',
      labelNames: ['outcome'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [outcome, count] of ordersByOutcome) this.inc({ outcome }, count);
      },
    });
  }

  /** The answers of `route` (a template such as `/openapi/v1/order`), counted by the caller. */
  routeAnswers(route: string): RouteAnswers {
    let answers = this.routes.get(route);
    if (answers === undefined) {
      answers = new RouteAnswers(route);
      this.routes.set(route, answers);
    }
    return answers;
  }

  onCommit(info: CommitInfo): void {
    this.commands.inc(info.size);
    this.batchSize.observe(info.size);
    this.commitLatency.observe(info.commitMs / 1000);
    // Each trade has two rows, the buyer's and the seller's: the buyer's counts it once.
    for (const trade of info.rows.trades) if (trade.isBuyer) tally(this.tradesBySymbol, trade.symbol);
    for (let i = 0; i < info.commands.length; i++) {
      if (info.commands[i].command.type !== 'placeOrder') continue;
      const placed = info.results[i] as PlaceOrderResult | undefined;
      if (placed !== undefined) tally(this.ordersByOutcome, placed.order.status);
    }
  }
}
