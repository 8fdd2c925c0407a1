import type { Journal } from '../store/store.js';
import type { ExchangeCore } from './exchange-core.js';
import { snapshotOf } from './recovery.js';

/**
 * When the journal's writer snapshots: once `every` commands have passed the last snapshot, and at
 * a clean stop, so that the next start replays at most `every` commands. The state is serialised at
 * once; a store that saves asynchronously (PostgreSQL) is waited for only at the stop.
 */
export class SnapshotSchedule {
  private saving: Promise<void> | undefined;

  constructor(
    private readonly core: ExchangeCore,
    private readonly store: Journal,
    private readonly every: number,
    private lastSeq: number,
    /** A snapshot saved asynchronously failed: a shortcut lost, not a record (the journal has everything). */
    private readonly onSaveError: (error: unknown) => void = () => undefined,
  ) {}

  afterCommit(): void {
    // One save at a time: a store still writing the last one is not handed a second state to hold.
    if (this.saving === undefined && this.core.lastSeq - this.lastSeq >= this.every) this.take();
  }

  async atStop(): Promise<void> {
    await this.saving;
    if (this.core.lastSeq > this.lastSeq) this.take();
    await this.saving;
  }

  private take(): void {
    const snapshot = snapshotOf(this.core);
    const saved = this.store.saveSnapshot(snapshot);
    this.lastSeq = snapshot.seq;
    if (saved === undefined) return;
    this.saving = saved.then(
      () => {
        this.saving = undefined;
      },
      (error: unknown) => {
        this.saving = undefined;
        this.onSaveError(error);
      },
    );
  }
}
