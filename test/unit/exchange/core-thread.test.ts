/**
 * The core worker (BOURSE_CORE_THREAD=worker): the one writer runs on a thread of its own and this
 * thread keeps a replica fed the committed stamps. Whatever the placement, a client must see the
 * same answers, the same state and the same journal as with the inline core; these tests drive
 * both with the same commands and the same clock and compare.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BourseError } from '../../../src/core/errors.js';
import type { Command, DerivedRows, StampedCommand } from '../../../src/core/types.js';
import { startInlineCore, type CoreHost, type CoreHostOptions } from '../../../src/exchange/core-host.js';
import { startWorkerCore } from '../../../src/exchange/core-thread/worker-core.js';
import type { PlaceOrderResult } from '../../../src/exchange/order-commands.js';
import { RecoveryError } from '../../../src/exchange/recovery.js';
import type { CommitInfo } from '../../../src/exchange/sequencer.js';
import { stateHash } from '../../../src/exchange/snapshot.js';
import { openSqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { demoCatalogue, limit } from '../../support/core-harness.js';
import { codeOf } from '../../support/rejections.js';

// Every worker the code under test spawns, so that a test can tell whether one is still running
// (a worker's threadId turns -1 once it has exited); nothing else about Worker changes.
const spawned = vi.hoisted((): Worker[] => []);
vi.mock('node:worker_threads', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:worker_threads')>();
  class RecordedWorker extends actual.Worker {
    constructor(...args: ConstructorParameters<typeof actual.Worker>) {
      super(...args);
      spawned.push(this);
    }
  }
  return { ...actual, Worker: RecordedWorker };
});

const T0 = 1_700_000_000_000;
const INSUFFICIENT_BALANCE = -1131;
const INTERNAL = -1001;
const SERVICE_UNAVAILABLE = -1016;

/** The injected clock: every host of a test reads it, and only the test moves it. */
let now = T0;

/** What a host told its owner. */
class Recorder {
  readonly commits: CommitInfo[] = [];
  readonly fatals: unknown[] = [];
  /** Resolves with the first fatal error. */
  readonly firstFatal: Promise<unknown>;
  private seeFatal: (error: unknown) => void = () => undefined;

  constructor(private readonly onCommitHook: (info: CommitInfo) => void = () => undefined) {
    this.firstFatal = new Promise((resolve) => (this.seeFatal = resolve));
  }

  options(dbPath: string, snapshotEveryCommands = 100_000): CoreHostOptions {
    return {
      dbPath,
      synchronous: 'NORMAL',
      snapshotEveryCommands,
      clock: () => now,
      onCommit: (info) => {
        this.commits.push(info);
        this.onCommitHook(info);
      },
      onFatal: (error) => {
        this.fatals.push(error);
        this.seeFatal(error);
      },
    };
  }

  /** Every committed command, in the order onCommit heard of them. */
  get stamped(): StampedCommand[] {
    return this.commits.flatMap((info) => info.commands);
  }
}

/** How a submission ended, readable synchronously once it has. */
interface Tracked {
  state: 'pending' | 'resolved' | 'rejected';
  value?: unknown;
  error?: unknown;
}

function track(promise: Promise<unknown>): Tracked {
  const tracked: Tracked = { state: 'pending' };
  promise.then(
    (value) => Object.assign(tracked, { state: 'resolved', value }),
    (error: unknown) => Object.assign(tracked, { state: 'rejected', error }),
  );
  return tracked;
}

/** Only the replica will believe the buyer is broke; the worker still sees the USDT it holds. */
function starveInReplica(host: CoreHost, buyer: number): void {
  const balance = host.core.ledger.account(buyer).balances.get('USDT');
  if (balance === undefined) throw new Error('the buyer holds no USDT');
  balance.free = 0n;
}

/** A refusal as a client sees it. */
async function refusalOf(promise: Promise<unknown>): Promise<{ code: number; errorName: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof BourseError)) throw error;
    return { code: error.code, errorName: error.errorName, message: error.message };
  }
  throw new Error('expected a refusal');
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Resolves once the worker has exited (at once if it already has). */
function exited(worker: Worker): Promise<void> {
  if (worker.threadId === -1) return Promise.resolve();
  return new Promise((resolve) => worker.once('exit', () => resolve()));
}

function running(workers: readonly Worker[]): Worker[] {
  return workers.filter((worker) => worker.threadId !== -1);
}

interface Traders {
  seller: number;
  buyer: number;
}

/** The catalogue, a seller with 2 BTC and a buyer with 100000 USDT; each step in a turn of its own. */
async function setUp(host: CoreHost, results: unknown[] = []): Promise<Traders> {
  now = T0;
  results.push(...(await Promise.all(demoCatalogue().map((command) => host.submit(command)))));
  now = T0 + 1_000;
  const users = (await Promise.all([
    host.submit({ type: 'createUser', email: 'seller@example.com', userType: 'user' }),
    host.submit({ type: 'createUser', email: 'buyer@example.com', userType: 'user' }),
  ])) as { accountId: number }[];
  results.push(...users);
  const traders = { seller: users[0].accountId, buyer: users[1].accountId };
  now = T0 + 2_000;
  results.push(
    ...(await Promise.all([
      host.submit({ type: 'deposit', accountId: traders.seller, asset: 'BTC', amount: '2', txId: 'tx-seller' }),
      host.submit({ type: 'deposit', accountId: traders.buyer, asset: 'USDT', amount: '100000', txId: 'tx-buyer' }),
      host.submit({ type: 'setFeeRates', accountId: traders.buyer, makerFeeRate: '0', takerFeeRate: '0.001' }),
    ])),
  );
  return traders;
}

/** `setUp`, then a resting ask, a buy that trades part of it, a resting bid and its cancel: every result. */
async function trade(host: CoreHost): Promise<unknown[]> {
  const results: unknown[] = [];
  const { seller, buyer } = await setUp(host, results);
  now = T0 + 3_000;
  results.push(await host.submit(limit(seller, 'BTCUSDT', 'SELL', '30000', '1')));
  now = T0 + 4_000;
  const buys = await Promise.all([
    host.submit(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.25')),
    host.submit(limit(buyer, 'BTCUSDT', 'BUY', '29000', '0.5')),
  ]);
  results.push(...buys);
  now = T0 + 5_000;
  results.push(await host.submit({ type: 'cancelOrder', accountId: buyer, orderId: (buys[1] as PlaceOrderResult).order.orderId }));
  return results;
}

describe('startWorkerCore', () => {
  let dir: string;
  /** Hosts still to close after the test. */
  let hosts: CoreHost[];

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bourse-core-thread-'));
    hosts = [];
    now = T0;
  });
  afterEach(async () => {
    await Promise.allSettled(hosts.map((host) => host.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  function dbPath(name: string): string {
    return path.join(dir, `${name}.db`);
  }

  async function worker(recorder: Recorder, name = 'worker', snapshotEveryCommands?: number): Promise<CoreHost> {
    const host = await startWorkerCore(recorder.options(dbPath(name), snapshotEveryCommands));
    hosts.push(host);
    return host;
  }

  function inline(recorder: Recorder, name = 'inline'): CoreHost {
    const host = startInlineCore(recorder.options(dbPath(name)));
    hosts.push(host);
    return host;
  }

  /** The newest worker spawned since `before` (a count of `spawned`). */
  function spawnedSince(before: number): Worker[] {
    return spawned.slice(before);
  }

  describe('when a command makes follow-up decisions due (area B automatic modes)', () => {
    /** A merchant user, a merchant (KYC decided by two follow-ups) and its MXN account (two more). */
    async function merchantStory(host: CoreHost): Promise<unknown[]> {
      now = T0;
      const results: unknown[] = [];
      for (const command of demoCatalogue()) results.push(await host.submit(command));
      results.push(await host.submit({ type: 'paymentsSetUp', sandbox: true }));
      const { userId } = (await host.submit({ type: 'createUser', email: 'ops@acme.mx', userType: 'merchant' })) as { userId: number };
      now = T0 + 1_000;
      results.push(
        await host.submit({ type: 'createMerchant', userId, merchantName: 'Acme', email: 'pay@acme.mx', merchantType: 'BUSINESS', callbackUrl: 'https://acme.example', languageCode: 'en', remark: '', kycToken: 'k' }),
      );
      results.push(await host.submit({ type: 'activateMerchantAccount', userId, merchantId: 1, fiat: 'MXN', fieldList: {}, verifyToken: '' }));
      return results;
    }

    it('then the worker journals them right after it, the replica applies them too, and both placements agree', async () => {
      const inlineRecorder = new Recorder();
      const inlineHost = inline(inlineRecorder);
      const inlineResults = await merchantStory(inlineHost);
      const workerRecorder = new Recorder();
      const workerHost = await worker(workerRecorder);
      const workerResults = await merchantStory(workerHost);

      expect(workerResults).toEqual(inlineResults);
      // The create answer shows the merchant's first state; the decisions follow as their own commands.
      expect(workerResults.at(-1)).toMatchObject({ status: 1 });
      expect(workerHost.core.payments.state.merchants.get(1)?.status).toBe(2);
      expect(workerHost.core.payments.state.merchantAccounts.get('1:MXN')?.status).toBe(2);
      expect(workerRecorder.stamped.slice(-5).map((s) => s.command.type)).toEqual(['createMerchant', 'merchantKyc', 'merchantKyc', 'activateMerchantAccount', 'reviewMerchantAccount']);
      expect(workerRecorder.stamped).toEqual(inlineRecorder.stamped);
      expect(stateHash(workerHost.core)).toBe(stateHash(inlineHost.core));
      expect((await workerHost.verify({ replay: true })).ok).toBe(true);
    });
  });

  describe('when the same commands reach a worker core and an inline core at the same clock times', () => {
    it('then every result and the state hash are the same', async () => {
      const inlineHost = inline(new Recorder());
      const inlineResults = await trade(inlineHost);
      const workerHost = await worker(new Recorder());
      const workerResults = await trade(workerHost);

      expect(workerResults).toEqual(inlineResults);
      expect(workerHost.core.lastSeq).toBe(inlineHost.core.lastSeq);
      expect(stateHash(workerHost.core)).toBe(stateHash(inlineHost.core));
      // The story did trade: equal hashes of two empty books would prove little.
      expect(workerHost.core.lastSeq).toBe(demoCatalogue().length + 2 + 3 + 4);
    });

    it('then onCommit hears the stamped commands in seq order with trades and events but no flows, which the journal holds', async () => {
      const inlineRecorder = new Recorder();
      const inlineHost = inline(inlineRecorder);
      await trade(inlineHost);
      const workerRecorder = new Recorder();
      const workerHost = await worker(workerRecorder);
      await trade(workerHost);

      const stamped = workerRecorder.stamped;
      expect(stamped.map((s) => s.seq)).toEqual(Array.from({ length: workerHost.core.lastSeq }, (_, i) => i + 1));
      expect(stamped).toEqual(inlineRecorder.stamped);
      const rowsOf = (recorder: Recorder, key: keyof DerivedRows): unknown[] => recorder.commits.flatMap((info): unknown[] => info.rows[key]);
      // One trade: a row for its buyer and one for its seller.
      expect(rowsOf(workerRecorder, 'trades')).toHaveLength(2);
      expect(rowsOf(workerRecorder, 'trades')).toEqual(rowsOf(inlineRecorder, 'trades'));
      expect(rowsOf(workerRecorder, 'events').length).toBeGreaterThan(0);
      expect(rowsOf(workerRecorder, 'events')).toEqual(rowsOf(inlineRecorder, 'events'));
      expect(rowsOf(workerRecorder, 'orders')).toEqual(rowsOf(inlineRecorder, 'orders'));
      expect(rowsOf(workerRecorder, 'deposits')).toEqual(rowsOf(inlineRecorder, 'deposits'));
      expect(rowsOf(workerRecorder, 'flows')).toEqual([]);
      expect(rowsOf(inlineRecorder, 'flows').length).toBeGreaterThan(0);
      expect(workerRecorder.commits.flatMap((info) => info.results)).toEqual(inlineRecorder.commits.flatMap((info) => info.results));

      await workerHost.close();
      await inlineHost.close();
      const workerJournal = openSqliteStore({ path: dbPath('worker'), synchronous: 'NORMAL' });
      const inlineJournal = openSqliteStore({ path: dbPath('inline'), synchronous: 'NORMAL' });
      try {
        const seller = (workerRecorder.commits[1].results[0] as { accountId: number }).accountId;
        const buyer = (workerRecorder.commits[1].results[1] as { accountId: number }).accountId;
        expect(workerJournal.flowSums()).toEqual(inlineJournal.flowSums());
        // 2 deposited, 0.25 sold: the flows the replica left out were written by the worker.
        expect(workerJournal.flowSums().find((s) => s.accountId === seller && s.asset === 'BTC')?.sum).toBe('1.75');
        expect(workerJournal.listTrades({ accountId: buyer, limit: 10 })).toEqual(inlineJournal.listTrades({ accountId: buyer, limit: 10 }));
        expect(workerJournal.listTrades({ accountId: buyer, limit: 10 })).toHaveLength(1);
        expect([...workerJournal.readJournal(0)]).toEqual(inlineRecorder.stamped);
      } finally {
        workerJournal.close();
        inlineJournal.close();
      }
    });
  });

  describe('when a command is refused', () => {
    it('then it rejects with the code and message the inline core gives, and is not journaled', async () => {
      const refusals = async (host: CoreHost): Promise<unknown[]> => {
        const { buyer } = await setUp(host);
        now = T0 + 3_000;
        return Promise.all([
          // 300000 USDT for a buyer who holds 100000.
          refusalOf(host.submit(limit(buyer, 'BTCUSDT', 'BUY', '30000', '10'))),
          host.submit({ type: 'deposit', accountId: buyer, asset: 'USDT', amount: '1', txId: 'tx-between' }),
          // A message with a formatted argument, which must cross the thread boundary as formatted.
          refusalOf(host.submit({ type: 'transfer', fromAccountId: buyer, toAccountId: buyer, asset: 'USDT', amount: '1', flowType: 'TRANSFER' })),
        ]);
      };
      const inlineOutcomes = await refusals(inline(new Recorder()));
      const recorder = new Recorder();
      const host = await worker(recorder);
      const outcomes = await refusals(host);

      expect(outcomes).toEqual(inlineOutcomes);
      expect(outcomes[0]).toEqual({ code: INSUFFICIENT_BALANCE, errorName: 'INSUFFICIENT_BALANCE', message: 'Balance insufficient' });
      expect(outcomes[2]).toEqual({
        code: -1172,
        errorName: 'TRANSFER_FAILED',
        message: 'Balance transfer failed: the source and the target are the same account',
      });
      const lastBatch = recorder.commits.at(-1);
      expect(lastBatch?.commands.map((s) => s.command.type)).toEqual(['deposit']);
      const lastSeq = host.core.lastSeq;
      expect(lastBatch?.commands[0].seq).toBe(lastSeq);

      await host.close();
      const journal = openSqliteStore({ path: dbPath('worker'), synchronous: 'NORMAL' });
      try {
        expect(journal.lastSeq()).toBe(lastSeq);
        expect([...journal.readJournal(0)].filter((s) => s.command.type === 'placeOrder' || s.command.type === 'transfer')).toEqual([]);
      } finally {
        journal.close();
      }
    });
  });

  describe('when the injected clock moves', () => {
    it('then each stamp is the clock at submit, and never goes backwards when the clock does', async () => {
      const recorder = new Recorder();
      const host = await worker(recorder);
      const { buyer } = await setUp(host);
      const deposit = (txId: string): Command => ({ type: 'deposit', accountId: buyer, asset: 'USDT', amount: '1', txId });

      now = T0 + 5_000;
      const first = host.submit(deposit('tx-a'));
      // Still the same turn, so the same batch: the stamp is the time the command came in, not the batch's.
      now = T0 + 5_007;
      const second = host.submit(deposit('tx-b'));
      now = T0 + 9_999;
      await Promise.all([first, second]);
      now = T0 + 4_000;
      await host.submit(deposit('tx-c'));
      now = T0 + 6_000;
      await host.submit(deposit('tx-d'));

      expect(recorder.stamped.slice(-4).map((s) => [(s.command as { txId: string }).txId, s.ts])).toEqual([
        ['tx-a', T0 + 5_000],
        ['tx-b', T0 + 5_007],
        ['tx-c', T0 + 5_007],
        ['tx-d', T0 + 6_000],
      ]);
    });
  });

  describe('when closed', () => {
    it('then the worker snapshots at the last seq, a restart replays nothing and reaches the same state, and submits are refused', async () => {
      const host = await worker(new Recorder());
      const workerThread = spawned[spawned.length - 1];
      await trade(host);
      const lastSeq = host.core.lastSeq;
      const hash = stateHash(host.core);

      await host.close();

      expect(workerThread.threadId).toBe(-1);
      expect(await codeOf(host.submit({ type: 'createUser', email: 'late@example.com', userType: 'user' }))).toBe(SERVICE_UNAVAILABLE);
      const store = openSqliteStore({ path: dbPath('worker'), synchronous: 'NORMAL' });
      try {
        expect(store.loadLatestSnapshot()).toMatchObject({ seq: lastSeq, hash });
      } finally {
        store.close();
      }
      const restarted = await worker(new Recorder());
      expect({ snapshotSeq: restarted.snapshotSeq, replayed: restarted.replayed, lastSeq: restarted.core.lastSeq }).toEqual({
        snapshotSeq: lastSeq,
        replayed: 0,
        lastSeq,
      });
      expect(stateHash(restarted.core)).toBe(hash);
      // And it takes commands where the first left off.
      now = T0 + 60_000;
      await restarted.submit({ type: 'createUser', email: 'next@example.com', userType: 'user' });
      expect(restarted.core.lastSeq).toBe(lastSeq + 1);
    });

    it('then commands submitted before close are still committed and answered', async () => {
      const recorder = new Recorder();
      const host = await worker(recorder);
      const replies = demoCatalogue().map((command) => host.submit(command));

      await host.close();

      expect(await Promise.all(replies)).toHaveLength(demoCatalogue().length);
      expect(recorder.stamped).toHaveLength(demoCatalogue().length);
      const store = openSqliteStore({ path: dbPath('worker'), synchronous: 'NORMAL' });
      try {
        expect(store.lastSeq()).toBe(demoCatalogue().length);
      } finally {
        store.close();
      }
    });
  });

  describe('when snapshotEveryCommands commands have committed', () => {
    it('then the worker snapshots without waiting for a stop', async () => {
      const host = await worker(new Recorder(), 'worker', 5);
      await Promise.all(demoCatalogue().map((command) => host.submit(command)));

      // The main thread's own connection to the file the worker writes.
      expect(host.history.loadLatestSnapshot()).toMatchObject({ seq: demoCatalogue().length, hash: stateHash(host.core) });
    });
  });

  describe('when verify runs with replay', () => {
    it('then it is ok and the writer, replay and replica hashes are one', async () => {
      const host = await worker(new Recorder());
      await trade(host);
      now = T0 + 70_000;

      const report = await host.verify({ replay: true });

      expect(report.ok).toBe(true);
      expect(report.checkedAt).toBe(T0 + 70_000);
      expect(report.details.filter((d) => d.mismatch !== undefined)).toEqual([]);
      const hash = stateHash(host.core);
      expect(report.replay).toEqual({ ok: true, stateHash: hash, replayHash: hash, replicaHash: hash });
    });

    it('then a command submitted in the same turn does not make the hashes disagree', async () => {
      const host = await worker(new Recorder());
      const { buyer } = await setUp(host);

      const deposited = host.submit({ type: 'deposit', accountId: buyer, asset: 'USDT', amount: '5', txId: 'tx-in-flight' });
      const report = await host.verify({ replay: true });
      await deposited;

      expect(report.ok).toBe(true);
      expect(report.replay?.replicaHash).toBe(report.replay?.stateHash);
    });

    it('then a replica that differs from the writer makes the report not ok', async () => {
      const host = await worker(new Recorder());
      const { buyer } = await setUp(host);
      starveInReplica(host, buyer);

      const report = await host.verify({ replay: true });

      expect(report.ok).toBe(false);
      expect(report.replay?.ok).toBe(false);
      expect(report.replay?.replicaHash).toBe(stateHash(host.core));
      expect(report.replay?.stateHash).toBe(report.replay?.replayHash);
      expect(report.replay?.replicaHash).not.toBe(report.replay?.stateHash);
    });
  });

  describe('when the replica refuses a command the worker committed', () => {
    it('then onFatal hears it once, the submission is INTERNAL, later submits are SERVICE_UNAVAILABLE, and close ends the worker', async () => {
      const recorder = new Recorder();
      const host = await worker(recorder);
      const workerThread = spawned[spawned.length - 1];
      const { buyer } = await setUp(host);
      starveInReplica(host, buyer);
      const seqBefore = host.core.lastSeq;
      now = T0 + 3_000;

      const order = track(host.submit(limit(buyer, 'BTCUSDT', 'BUY', '30000', '1')));
      const fatal = await recorder.firstFatal;
      // fail() answers every submitter before it calls onFatal: by the next turn, none may be pending.
      await nextTurn();

      expect(String(fatal)).toContain(`the replica refused committed seq ${seqBefore + 1} (placeOrder)`);
      expect(order.state).toBe('rejected');
      expect(order.error).toBeInstanceOf(BourseError);
      expect((order.error as BourseError).code).toBe(INTERNAL);
      expect(await codeOf(host.submit({ type: 'createUser', email: 'late@example.com', userType: 'user' }))).toBe(SERVICE_UNAVAILABLE);
      expect(await codeOf(host.verify({ replay: true }))).toBe(SERVICE_UNAVAILABLE);

      await host.close();
      await exited(workerThread);
      // The worker's exit, which follows the failure, must not be reported as a second one.
      expect(recorder.fatals).toHaveLength(1);
      expect(recorder.commits.flatMap((info) => info.commands).map((s) => s.seq)).not.toContain(seqBefore + 1);
    });

    it('then close resolves only once the worker has exited', async () => {
      const recorder = new Recorder();
      const host = await worker(recorder);
      const workerThread = spawned[spawned.length - 1];
      const { buyer } = await setUp(host);
      starveInReplica(host, buyer);
      now = T0 + 3_000;
      const order = host.submit(limit(buyer, 'BTCUSDT', 'BUY', '30000', '1'));
      order.catch(() => undefined);

      await recorder.firstFatal;
      await host.close();

      expect(workerThread.threadId).toBe(-1);
    });

    it('then every submission of that batch is answered, none left pending', async () => {
      const recorder = new Recorder();
      const host = await worker(recorder);
      const { buyer, seller } = await setUp(host);
      starveInReplica(host, buyer);
      now = T0 + 3_000;

      // One turn, one batch: one applied on the replica before the divergence, one after it.
      const before = track(host.submit({ type: 'deposit', accountId: seller, asset: 'BTC', amount: '1', txId: 'tx-before' }));
      const diverging = track(host.submit(limit(buyer, 'BTCUSDT', 'BUY', '30000', '1')));
      const after = track(host.submit({ type: 'deposit', accountId: seller, asset: 'BTC', amount: '1', txId: 'tx-after' }));
      await recorder.firstFatal;
      await nextTurn();

      expect([before.state, diverging.state, after.state].filter((state) => state === 'pending')).toEqual([]);
      for (const outcome of [diverging, after]) expect((outcome.error as BourseError | undefined)?.code).toBe(INTERNAL);
      // Committed by the worker, so its result is true; INTERNAL ("may or may not be") is true too.
      if (before.state === 'rejected') expect((before.error as BourseError).code).toBe(INTERNAL);
    });
  });

  describe('when onCommit throws', () => {
    it('then the submitter is still answered, onFatal hears the error once and later submits are SERVICE_UNAVAILABLE', async () => {
      const broken = new Error('fan-out broke');
      let breakNext = false;
      const recorder = new Recorder(() => {
        if (breakNext) throw broken;
      });
      const host = await worker(recorder);
      const workerThread = spawned[spawned.length - 1];
      await Promise.all(demoCatalogue().map((command) => host.submit(command)));
      breakNext = true;

      const created = await host.submit({ type: 'createUser', email: 'a@example.com', userType: 'user' });

      expect(created).toEqual({ userId: 2, accountId: 2 });
      expect(await recorder.firstFatal).toBe(broken);
      expect(await codeOf(host.submit({ type: 'createUser', email: 'b@example.com', userType: 'user' }))).toBe(SERVICE_UNAVAILABLE);
      await host.close();
      await exited(workerThread);
      expect(recorder.fatals).toEqual([broken]);
    });
  });

  describe('when the latest snapshot is corrupt', () => {
    it('then the start fails with a RecoveryError and leaves no worker running', async () => {
      const seeded = startInlineCore(new Recorder().options(dbPath('corrupt')));
      await Promise.all(demoCatalogue().map((command) => seeded.submit(command)));
      await seeded.close();
      const db = new Database(dbPath('corrupt'));
      try {
        const changed = db.prepare(`UPDATE snapshots SET state = replace(state, '"lastSeq":', '"lastSeq": ')`).run().changes;
        expect(changed).toBe(1);
      } finally {
        db.close();
      }
      const before = spawned.length;

      const start = startWorkerCore(new Recorder().options(dbPath('corrupt')));

      await expect(start).rejects.toThrow(RecoveryError);
      await expect(start).rejects.toThrow(/is corrupt/);
      expect(spawnedSince(before)).toHaveLength(1);
      expect(running(spawnedSince(before))).toEqual([]);
      // Nothing holds the file: SQLite removes the WAL when its last connection closes.
      expect(existsSync(`${dbPath('corrupt')}-wal`)).toBe(false);
      const fresh = inline(new Recorder(), 'fresh');
      expect(await fresh.submit({ type: 'createUser', email: 'a@example.com', userType: 'user' })).toEqual({ userId: 2, accountId: 2 });
      const freshWorker = await worker(new Recorder(), 'fresh-worker');
      expect(await freshWorker.submit({ type: 'createUser', email: 'a@example.com', userType: 'user' })).toEqual({ userId: 2, accountId: 2 });
    });
  });
});
