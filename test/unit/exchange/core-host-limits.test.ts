/**
 * The core hosts (inline and worker) under the two conditions that used to end badly: more
 * commands than the core can take (the queue grew until the process died) and a full disk (the
 * first failing commit exited the process). Both placements must refuse, with 503, what they
 * cannot take, keep what they acknowledged, and serve the committed state meanwhile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BourseError } from '../../../src/core/errors.js';
import type { Command } from '../../../src/core/types.js';
import { startInlineCore, type CoreHost, type CoreHostOptions, type WriteEvent } from '../../../src/exchange/core-host.js';
import { startWorkerCore } from '../../../src/exchange/core-thread/worker-core.js';
import { recover } from '../../../src/exchange/recovery.js';
import { stateHash } from '../../../src/exchange/snapshot.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { CORE_THREADS } from '../../support/server.js';
import { demoCatalogue, limit } from '../../support/core-harness.js';

v8.setFlagsFromString('--expose-gc');
/** A full collection, so that heap figures count only what is still held. */
const collectGarbage = vm.runInNewContext('gc') as () => void;

/** Waits until `condition` holds (vitest polls it every 20 ms: the host's queues have no event to await), at most `ms`. */
async function until(condition: () => boolean, ms: number): Promise<void> {
  await vi.waitUntil(condition, { timeout: ms, interval: 20 });
}

/** The error name a submission was refused with, or 'accepted'. */
function outcomeOf(submission: Promise<unknown>): Promise<string> {
  return submission.then(
    () => 'accepted',
    (error: unknown) => {
      if (error instanceof BourseError) return error.errorName;
      throw error;
    },
  );
}

describe.each(CORE_THREADS)('core host (%s)', (placement) => {
  let dir: string;
  let hosts: CoreHost[];
  let fatals: unknown[];
  let events: WriteEvent[];

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bourse-core-limits-'));
    hosts = [];
    fatals = [];
    events = [];
  });
  afterEach(async () => {
    await Promise.allSettled(hosts.map((host) => host.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(options: Partial<CoreHostOptions> = {}): Promise<CoreHost> {
    const full: CoreHostOptions = {
      dbPath: path.join(dir, 'bourse.db'),
      synchronous: 'NORMAL',
      snapshotEveryCommands: 100_000,
      clock: Date.now,
      onCommit: () => undefined,
      onFatal: (error) => fatals.push(error),
      onWriteEvent: (event) => events.push(event),
      writeProbeMs: 50,
      ...options,
    };
    const host = placement === 'worker' ? await startWorkerCore(full) : startInlineCore(full);
    hosts.push(host);
    return host;
  }

  /** The demo catalogue and one user with USDT: its account id. */
  async function setUp(host: CoreHost): Promise<number> {
    for (const command of demoCatalogue()) await host.submit(command);
    const { accountId } = (await host.submit({ type: 'createUser', email: 'trader@example.com', userType: 'user' })) as { accountId: number };
    await host.submit({ type: 'deposit', accountId, asset: 'USDT', amount: '1000000', txId: 'tx-seed' });
    return accountId;
  }

  let nextTx = 0;
  function deposit(accountId: number): Command {
    return { type: 'deposit', accountId, asset: 'USDT', amount: '1', txId: `tx-${++nextTx}-${'x'.repeat(200)}` };
  }

  it('when 100,000 commands arrive in one turn with a bound of 1,000, then the overload is answered with 503 -1003 at once while memory stays bounded, and the admitted commit', async () => {
    const host = await start({ maxPendingCommands: 1000 });
    const accountId = await setUp(host);
    const seqBefore = host.core.lastSeq;
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    const tally = new Map<string, number>();
    const submissions: Promise<void>[] = [];

    for (let i = 0; i < 100_000; i++) {
      const submission = outcomeOf(host.submit(limit(accountId, 'BTCUSDT', 'BUY', '1000', '0.001'))).then((outcome) => {
        tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
      });
      // Only the admitted are kept: a refused one is settled and let go.
      if (i < 1000) submissions.push(submission);
    }
    // The refusals' reactions run (microtasks only: the first batch has not run yet).
    for (let tick = 0; tick < 5; tick++) await Promise.resolve();
    collectGarbage();
    const heldBytes = process.memoryUsage().heapUsed - heapBefore;

    // Unbounded, the same burst held about 70 MiB (some 740 bytes a command) until it drained.
    expect(heldBytes).toBeLessThan(16 * 2 ** 20);
    expect(tally.get('ENGINE_BUSY')).toBe(99_000);
    await Promise.all(submissions);
    // 200 rest (the per-symbol cap of open orders); the rest are refused by the core, not by the bound.
    expect(Object.fromEntries(tally)).toEqual({ ENGINE_BUSY: 99_000, accepted: 200, MAX_NUM_ORDERS: 800 });
    expect(host.core.lastSeq).toBe(seqBefore + 200);
    expect(await outcomeOf(host.submit(deposit(accountId)))).toBe('accepted');
    expect(fatals).toEqual([]);
  });

  it('when the disk fills, then the batch is refused with 503 -1016 and the state is the committed one; writes are refused, reads served, and they resume by themselves once there is room', async () => {
    // Snapshots often, so that some are attempted (and skipped) while there is no room.
    const host = await start({ snapshotEveryCommands: 25 });
    const accountId = await setUp(host);
    const resting = (await host.submit(limit(accountId, 'BTCUSDT', 'BUY', '1000', '0.5'))) as { order: { orderId: number } };
    // Room for a few more pages (about 80 KiB) than the file has now.
    const size = await host.limitDatabasePages!(1);
    await host.limitDatabasePages!(size + 20);

    // Deposits, one batch of ten a turn, until a batch finds no room.
    let acknowledged = 0;
    let committedHash = stateHash(host.core);
    let refusedBatch: string[] = [];
    for (let round = 0; round < 2000 && refusedBatch.length === 0; round++) {
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => outcomeOf(host.submit(deposit(accountId)))));
      if (outcomes.every((o) => o === 'accepted')) {
        acknowledged += 10;
        committedHash = stateHash(host.core);
      } else {
        refusedBatch = outcomes;
      }
    }

    // One batch: all of it refused, none of it applied.
    expect(refusedBatch).toEqual(Array(10).fill('WRITES_SUSPENDED'));
    expect(acknowledged).toBeGreaterThan(0);
    expect(stateHash(host.core)).toBe(committedHash);
    expect(events.filter((e) => e.type !== 'snapshotSkipped')).toEqual([{ type: 'writesSuspended', seq: host.core.lastSeq, reason: 'database or disk is full' }]);
    expect(fatals).toEqual([]);

    // Suspended: every write is refused at once and changes nothing; reads see the committed state.
    expect(await outcomeOf(host.submit(deposit(accountId)))).toBe('WRITES_SUSPENDED');
    expect(await outcomeOf(host.submit({ type: 'cancelOrder', accountId, orderId: resting.order.orderId }))).toBe('WRITES_SUSPENDED');
    expect(stateHash(host.core)).toBe(committedHash);
    expect(host.core.ledger.account(accountId).balances.get('USDT')).toEqual({ free: (1_000_000n - 500n + BigInt(acknowledged)) * 10n ** 8n, locked: 500n * 10n ** 8n });
    const whileSuspended = await host.verify({ replay: true });
    expect([whileSuspended.ok, whileSuspended.replay?.stateHash]).toEqual([true, committedHash]);

    await host.limitDatabasePages!(null);
    await until(() => events.some((e) => e.type === 'writesResumed'), 5000);
    expect(await outcomeOf(host.submit(deposit(accountId)))).toBe('accepted');
    const seqAfter = host.core.lastSeq;
    const report = await host.verify({ replay: true });
    expect(report.ok).toBe(true);
    expect(fatals).toEqual([]);

    // What a restart recovers: every acknowledged command, nothing refused.
    const finalHash = stateHash(host.core);
    await host.close();
    hosts = [];
    const store = openSqliteStore({ path: path.join(dir, 'bourse.db'), synchronous: 'NORMAL' });
    try {
      const recovered = recover(store, { ignoreSnapshots: true });
      expect([recovered.core.lastSeq, stateHash(recovered.core)]).toEqual([seqAfter, finalHash]);
      expect(recovered.core.ledger.account(accountId).balances.get('USDT')?.free).toBe((1_000_000n - 500n + BigInt(acknowledged) + 1n) * 10n ** 8n);
    } finally {
      store.close();
    }
  });

  it('when the store is capped at start, then the first write is refused, not fatal, and lifting the cap lets it through', async () => {
    const host = await start();
    const accountId = await setUp(host);
    const cap = await host.limitDatabasePages!(1);
    expect(cap).toBeGreaterThan(1);

    // A large batch needs new pages at once.
    const outcomes = await Promise.all(Array.from({ length: 200 }, () => outcomeOf(host.submit(deposit(accountId)))));
    expect(new Set(outcomes)).toEqual(new Set(['WRITES_SUSPENDED']));
    expect(fatals).toEqual([]);

    await host.limitDatabasePages!(null);
    await until(() => events.some((e) => e.type === 'writesResumed'), 5000);
    const again = await Promise.all(Array.from({ length: 200 }, () => outcomeOf(host.submit(deposit(accountId)))));
    expect(new Set(again)).toEqual(new Set(['accepted']));
  });
});
