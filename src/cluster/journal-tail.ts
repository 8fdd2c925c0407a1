/**
 * A follower's reading of the journal as it grows (docs/deployment.md "Roles"): woken by the
 * leader's NOTIFY on each commit, and polling at most `pollMs` apart as a backstop (a notification
 * is lost while the listening connection is down). Each page read is handed over in seq order.
 */

import pg from 'pg';
import type { StampedCommand } from '../core/types.js';
// The store notifies it with the last committed seq, inside each append's transaction.
import { JOURNAL_CHANNEL } from '../store/postgres/postgres-store.js';

export interface JournalSource {
  readJournalPage(afterSeq: number, limit: number): Promise<StampedCommand[]>;
}

export interface JournalTailOptions {
  url: string;
  source: JournalSource;
  /** The seq of the last command applied. */
  appliedSeq: () => number;
  /** Applies one page (consecutive seqs after `appliedSeq()`); throws to stop the tail (`onError`). */
  apply: (page: StampedCommand[]) => void;
  clock: () => number;
  /** Most commands applied per page (default 1000): one page is one turn of the event loop. */
  pageSize?: number;
  /** The backstop poll (default 100 ms). */
  pollMs?: number;
  /** A page could not be applied: the follower's state is not the journal's. */
  onError: (error: unknown) => void;
}

export class JournalTail {
  private readonly pageSize: number;
  private readonly pollMs: number;
  private timer: NodeJS.Timeout | undefined;
  private listener: pg.Client | undefined;
  private reading: Promise<void> | undefined;
  private again = false;
  private running = false;
  /** When a read last reached the journal's end (this node's clock); 0: never yet. */
  private caughtUpAt = 0;
  /** The largest committed seq this node has heard of (notifications, reads). */
  private knownSeq = 0;
  private waiters: { seq: number; resolve: (reached: boolean) => void; timer: NodeJS.Timeout }[] = [];

  constructor(private readonly options: JournalTailOptions) {
    this.pageSize = options.pageSize ?? 1000;
    this.pollMs = options.pollMs ?? 100;
    if (!Number.isSafeInteger(this.pageSize) || this.pageSize < 1) throw new RangeError(`pageSize must be ≥ 1: ${this.pageSize}`);
    if (!Number.isSafeInteger(this.pollMs) || this.pollMs < 1) throw new RangeError(`pollMs must be ≥ 1: ${this.pollMs}`);
  }

  /** Starts listening and polling; resolves once a first read reached the journal's end. */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    void this.listen();
    await this.catchUp();
  }

  /** Stops listening and polling; resolves once a read in progress has ended. */
  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.timer);
    this.timer = undefined;
    const listener = this.listener;
    this.listener = undefined;
    if (listener !== undefined) {
      listener.removeAllListeners('end');
      listener.on('error', () => undefined);
      await listener.end().catch(() => undefined);
    }
    await this.reading;
  }

  /** Reads and applies until a read finds nothing more (used by a follower about to lead, with the tail stopped). */
  async catchUp(): Promise<void> {
    // One read at a time: two would apply the same page twice.
    for (let inFlight = this.reading; inFlight !== undefined; inFlight = this.reading) await inFlight.catch(() => undefined);
    const read = this.readToEnd();
    this.reading = read;
    try {
      await read;
    } finally {
      if (this.reading === read) this.reading = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    }
  }

  /**
   * How far behind this node is, in ms: 0 while its last read, at most two polls ago, found the
   * journal's end; otherwise the time since a read last did (a follower cut off from the database
   * sees this grow).
   */
  lagMs(): number {
    if (this.caughtUpAt === 0) return Number.MAX_SAFE_INTEGER;
    const since = this.options.clock() - this.caughtUpAt;
    return since <= 2 * this.pollMs && this.options.appliedSeq() >= this.knownSeq ? 0 : Math.max(0, since);
  }

  /** Resolves true once `seq` is applied here, false after `timeoutMs`. */
  waitForSeq(seq: number, timeoutMs: number): Promise<boolean> {
    if (this.options.appliedSeq() >= seq) return Promise.resolve(true);
    this.knownSeq = Math.max(this.knownSeq, seq);
    this.wake();
    return new Promise((resolve) => {
      const waiter = {
        seq,
        resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** Tells the waiters whose seq is now applied (also called by the leader's commits). */
  applied(): void {
    if (this.waiters.length === 0) return;
    const seq = this.options.appliedSeq();
    const still: typeof this.waiters = [];
    for (const waiter of this.waiters) {
      if (waiter.seq <= seq) {
        clearTimeout(waiter.timer);
        waiter.resolve(true);
      } else {
        still.push(waiter);
      }
    }
    this.waiters = still;
  }

  private wake(): void {
    if (!this.running) return;
    if (this.reading !== undefined) {
      this.again = true;
      return;
    }
    this.reading = this.readToEnd()
      .catch(() => {
        // The database is out of reach: the lag grows until a read succeeds again.
      })
      .finally(() => {
        this.reading = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async readToEnd(): Promise<void> {
    for (;;) {
      const page = await this.options.source.readJournalPage(this.options.appliedSeq(), this.pageSize);
      if (page.length > 0) {
        try {
          this.options.apply(page);
        } catch (error) {
          this.running = false;
          clearInterval(this.timer);
          this.options.onError(error);
          return;
        }
        this.knownSeq = Math.max(this.knownSeq, page[page.length - 1].seq);
        this.applied();
      }
      if (page.length < this.pageSize) {
        this.caughtUpAt = this.options.clock();
        return;
      }
    }
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.url, keepAlive: true, application_name: 'bourse-follower' });
    const reconnect = (): void => {
      if (this.listener !== client) return;
      this.listener = undefined;
      client.removeAllListeners('end');
      void client.end().catch(() => undefined);
      // The poll carries on meanwhile; listening again a poll interval later.
      if (this.running) setTimeout(() => void this.listen(), this.pollMs * 10).unref();
    };
    client.on('error', reconnect);
    client.on('end', reconnect);
    client.on('notification', (message) => {
      const seq = Number(message.payload);
      if (Number.isSafeInteger(seq)) this.knownSeq = Math.max(this.knownSeq, seq);
      this.wake();
    });
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${JOURNAL_CHANNEL}`);
      if (!this.running) reconnect();
    } catch {
      reconnect();
    }
  }
}
