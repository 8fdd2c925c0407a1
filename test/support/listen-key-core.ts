import { emptyDerivedRows, type Command, type StampedCommand } from '../../src/core/types.js';
import { ListenKeyModule, type OpenListenKeyResult } from '../../src/exchange/listen-key-module.js';
import type { CommitInfo } from '../../src/exchange/sequencer.js';

/** An API key as the listenKey module sees it (a catalogue record has these fields and more). */
export interface KeyRecord {
  accountId: number;
  revoked: boolean;
}

/**
 * The listenKey module driven the way the sequencer drives the core, for tests of the edge's view
 * and the user stream: each command is stamped with the next seq and the clock's time and
 * committed as a batch of its own; a `revokeApiKey` does what the catalogue does. Names of new
 * listenKeys are counted, not drawn, so a test can predict them.
 */
export class ListenKeyCore {
  /** What the spot module holds of the trading config: a test may change the TTL between commands. */
  readonly settings = { rateLimits: { listenKeyTtlMs: 3_600_000 } };
  readonly listenKeys: ListenKeyModule;
  private seq = 0;
  private named = 0;

  constructor(
    readonly apiKeys: Map<string, KeyRecord>,
    private readonly clock: () => number,
  ) {
    this.listenKeys = new ListenKeyModule({ apiKey: (apiKey) => apiKeys.get(apiKey) }, this.settings);
  }

  /** Applies the commands in one batch, stamped now; a refusal (a BourseError) is thrown and leaves the batch out. */
  commit(commands: Command[]): CommitInfo {
    const ts = this.clock();
    const stamped: StampedCommand[] = [];
    const results: unknown[] = [];
    const rows = emptyDerivedRows();
    for (const command of commands) {
      const next: StampedCommand = { seq: this.seq + 1, ts, command };
      if (command.type === 'revokeApiKey') {
        const key = this.apiKeys.get(command.apiKey);
        if (key === undefined) throw new Error(`no API key ${command.apiKey}`);
        key.revoked = true;
        results.push({ apiKey: command.apiKey, revoked: true });
      } else {
        results.push(this.listenKeys.apply(command, { seq: next.seq, ts, rows, recordRows: true, recordFlows: true, touched: new Map() }));
      }
      this.seq = next.seq;
      stamped.push(next);
    }
    return { size: stamped.length, commitMs: 0, commands: stamped, rows, results };
  }

  /** A26 committed: the new listenKey and its batch. */
  open(accountId: number, apiKey: string): { listenKey: string; info: CommitInfo; result: OpenListenKeyResult } {
    const listenKey = this.nextName();
    this.named++;
    const info = this.commit([{ type: 'openListenKey', listenKey, accountId, apiKey }]);
    return { listenKey, info, result: info.results[0] as OpenListenKeyResult };
  }

  /** The name the next `open` gives: 64 characters, the count at the end. */
  nextName(): string {
    return `${this.named + 1}`.padStart(64, 'L');
  }
}
