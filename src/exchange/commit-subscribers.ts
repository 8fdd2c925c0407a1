import type { CommitInfo } from './sequencer.js';

/** What follows a commit (read models, streams, metrics, deadlines, …): fed committed batches in seq order. */
export interface CommitSubscriber {
  onCommit(info: CommitInfo): void;
}

/**
 * The list of commit subscribers (the fan-out of committed batches), called in the order they were added: a
 * read model added before a stream has taken the batch when the stream sends it. None can change
 * state except by submitting a command.
 */
export class CommitSubscribers implements CommitSubscriber {
  private readonly subscribers: CommitSubscriber[] = [];

  add(...subscribers: CommitSubscriber[]): void {
    this.subscribers.push(...subscribers);
  }

  onCommit(info: CommitInfo): void {
    for (const subscriber of this.subscribers) subscriber.onCommit(info);
  }
}
