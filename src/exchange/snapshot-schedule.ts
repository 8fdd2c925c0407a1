import type { Store } from '../store/store.js';
import type { ExchangeCore } from './exchange-core.js';
import { takeSnapshot } from './recovery.js';

/**
 * When the journal's writer snapshots: once `every` commands have passed the last snapshot, and at
 * a clean stop, so that the next start replays at most `every` commands.
 */
export class SnapshotSchedule {
  constructor(
    private readonly core: ExchangeCore,
    private readonly store: Store,
    private readonly every: number,
    private lastSeq: number,
  ) {}

  afterCommit(): void {
    if (this.core.lastSeq - this.lastSeq >= this.every) this.lastSeq = takeSnapshot(this.core, this.store).seq;
  }

  atStop(): void {
    if (this.core.lastSeq > this.lastSeq) this.lastSeq = takeSnapshot(this.core, this.store).seq;
  }
}
