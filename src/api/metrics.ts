import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ExchangeCore } from '../exchange/exchange-core.js';
import type { CommitInfo } from '../exchange/sequencer.js';

/** Prometheus metrics of `/metrics` (docs/running.md "Observability"). */
export class Metrics {
  readonly registry = new Registry();
  private readonly commands: Counter;
  private readonly batchSize: Histogram;
  private readonly commitLatency: Histogram;
  readonly connections: Gauge;

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
  }

  onCommit(info: CommitInfo): void {
    this.commands.inc(info.size);
    this.batchSize.observe(info.size);
    this.commitLatency.observe(info.commitMs / 1000);
  }
}
