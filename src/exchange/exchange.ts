import type { Command } from '../core/types.js';
import type { MarketData } from '../market/market-data.js';
import type { Store } from '../store/store.js';
import type { CoreHost } from './core-host.js';
import type { ExchangeCore } from './exchange-core.js';
import type { VerifyReport } from './verify.js';

/**
 * What the edges see of the exchange: commands go to the one writer (durable before answered),
 * current state is read from the committed core, history from the store's read models.
 */
export class Exchange {
  constructor(
    private readonly host: CoreHost,
    readonly clock: () => number,
    readonly market: MarketData,
  ) {}

  get core(): ExchangeCore {
    return this.host.core;
  }

  get history(): Store {
    return this.host.history;
  }

  submit<T = unknown>(command: Command): Promise<T> {
    return this.host.submit(command) as Promise<T>;
  }

  /** The operator's check (docs/operating.md "Checking the ledger"), run by the writer on the state it holds. */
  verify(options: { replay?: boolean } = {}): Promise<VerifyReport> {
    return this.host.verify(options);
  }

  /** Test and diagnostic knob: caps the database at `pages` pages, or lifts the cap (null); see CoreHost. */
  limitDatabasePages(pages: number | null): Promise<number> {
    if (this.host.limitDatabasePages === undefined) return Promise.reject(new Error('this core host has no database page limit'));
    return this.host.limitDatabasePages(pages);
  }
}
