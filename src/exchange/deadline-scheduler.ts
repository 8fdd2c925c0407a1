import type { Command } from '../core/types.js';
import type { CommitSubscriber } from './commit-subscribers.js';
import type { Deadline } from './core-module.js';

/** The longest a Node timer can wait; a later deadline is re-armed when this one fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * A due command the core refused is tried again only after this long: a deadline whose command
 * cannot apply (a bug, or a state no command reaches) must not spin the event loop.
 */
export const REFUSED_RETRY_MS = 5000;

export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const NODE_TIMERS: Timers = {
  set: (callback, ms) => setTimeout(callback, ms).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface DeadlineSchedulerOptions {
  /** The committed core's deadlines, earliest first. */
  deadlines: () => readonly Deadline[];
  /**
   * Changes whenever a commit may have changed the deadlines: a batch that leaves it as it was
   * (area A trading) costs the scheduler nothing.
   */
  epoch: () => number;
  submit: (command: Command) => Promise<unknown>;
  clock: () => number;
  timers?: Timers;
  /** A due command the core refused or could not take (a stale one is refused by its guard). */
  onRefused?: (command: Command, error: unknown) => void;
}

/**
 * Submits time-driven transitions (commands, since the core reads no clock) outside the core: after every commit, and
 * at start, it arms one timer for the earliest deadline in state; when it fires, every due command
 * goes through the sequencer. A deadline that passed while the server was down is due at start,
 * and fires once: its command changes the object, which then carries no such deadline, and a
 * repeated submission is refused by the status the command expects.
 */
export class DeadlineScheduler implements CommitSubscriber {
  private readonly timers: Timers;
  private timer: unknown;
  private armedAt: number | undefined;
  /** Commands submitted and not yet settled, by their JSON: never submitted twice at once. */
  private readonly inFlight = new Set<string>();
  /** Commands refused, by their JSON, → the time before which they are not submitted again. */
  private readonly retryAt = new Map<string, number>();
  private stopped = false;
  private seenEpoch = Number.NaN;

  constructor(private readonly options: DeadlineSchedulerOptions) {
    this.timers = options.timers ?? NODE_TIMERS;
  }

  /** Arms from the state recovered at start (or, on a node that now leads, from the state it holds). */
  start(): void {
    this.stopped = false;
    this.rearm();
  }

  onCommit(): void {
    if (this.options.epoch() === this.seenEpoch) return;
    this.rearm();
  }

  /** Submits every command due now; what the timer calls, and what tests call with a driven clock. */
  fireDue(): Promise<void> {
    const now = this.options.clock();
    const settled: Promise<unknown>[] = [];
    for (const deadline of this.options.deadlines()) {
      if (deadline.at > now) break;
      const key = JSON.stringify(deadline.command);
      if (this.inFlight.has(key) || (this.retryAt.get(key) ?? 0) > now) continue;
      this.inFlight.add(key);
      settled.push(
        this.options
          .submit(deadline.command)
          .then(
            () => this.retryAt.delete(key),
            (error: unknown) => {
              this.retryAt.set(key, this.options.clock() + REFUSED_RETRY_MS);
              this.options.onRefused?.(deadline.command, error);
            },
          )
          .finally(() => this.inFlight.delete(key)),
      );
    }
    return Promise.all(settled).then(() => undefined);
  }

  stop(): void {
    this.stopped = true;
    this.disarm();
  }

  private rearm(): void {
    if (this.stopped) return;
    this.seenEpoch = this.options.epoch();
    let nextAt: number | undefined;
    const keys = new Set<string>();
    for (const deadline of this.options.deadlines()) {
      const key = JSON.stringify(deadline.command);
      keys.add(key);
      if (this.inFlight.has(key)) continue;
      const at = Math.max(deadline.at, this.retryAt.get(key) ?? 0);
      if (nextAt === undefined || at < nextAt) nextAt = at;
    }
    // A deadline gone from the state takes its retry time with it.
    for (const key of this.retryAt.keys()) if (!keys.has(key)) this.retryAt.delete(key);
    if (nextAt === undefined) {
      this.disarm();
      return;
    }
    if (this.armedAt === nextAt) return;
    this.disarm();
    this.armedAt = nextAt;
    const waitMs = Math.min(MAX_TIMER_MS, Math.max(0, nextAt - this.options.clock()));
    this.timer = this.timers.set(() => {
      this.timer = undefined;
      this.armedAt = undefined;
      void this.fireDue().then(() => this.rearm());
    }, waitMs);
  }

  private disarm(): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
    this.armedAt = undefined;
  }
}
