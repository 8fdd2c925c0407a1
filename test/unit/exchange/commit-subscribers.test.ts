import { describe, expect, it } from 'vitest';
import { emptyDerivedRows } from '../../../src/core/types.js';
import { CommitSubscribers } from '../../../src/exchange/commit-subscribers.js';
import type { CommitInfo } from '../../../src/exchange/sequencer.js';

describe('commit subscribers (the fan-out of committed batches)', () => {
  it('when a batch commits, then every subscriber gets it, in the order they were added', () => {
    const seen: string[] = [];
    const subscribers = new CommitSubscribers();
    subscribers.add({ onCommit: (info) => seen.push(`read-model:${info.size}`) }, { onCommit: (info) => seen.push(`stream:${info.size}`) });
    subscribers.add({ onCommit: (info) => seen.push(`deadlines:${info.size}`) });
    const info: CommitInfo = { size: 2, commitMs: 0, commands: [], rows: emptyDerivedRows(), results: [] };
    subscribers.onCommit(info);
    expect(seen).toEqual(['read-model:2', 'stream:2', 'deadlines:2']);
  });
});
