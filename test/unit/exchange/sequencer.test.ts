import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BourseError } from '../../../src/core/errors.js';
import { emptyDerivedRows, type Command, type DerivedRows, type StampedCommand } from '../../../src/core/types.js';
import { Sequencer, type Applier, type CommitInfo, type Outcome } from '../../../src/exchange/sequencer.js';
import { openSqliteStore, type SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { codeOf } from '../../support/rejections.js';
import { flowRowOf } from '../../../src/ledger/flow-posting.js';

/** Counts accepted deposits, deriving one flow row each; a withdraw is always short of balance. */
class CounterApplier implements Applier {
  count = 0;

  apply(stamped: StampedCommand, rows: DerivedRows): number {
    const command = stamped.command;
    if (command.type === 'withdraw') throw new BourseError('INSUFFICIENT_BALANCE');
    if (command.type !== 'deposit') throw new Error(`unexpected ${command.type}`);
    this.count++;
    rows.flows.push({
      flowId: this.count,
      accountId: command.accountId,
      asset: command.asset,
      flowType: 4,
      changeAtoms: BigInt(command.amount),
      totalAtoms: BigInt(this.count),
      precision: 0,
      created: stamped.ts,
      seq: stamped.seq,
    });
    return this.count;
  }
}

function deposit(amount = '1'): Command {
  return { type: 'deposit', accountId: 1, asset: 'USDT', amount, txId: `tx-${amount}` };
}

const withdraw: Command = {
  type: 'withdraw',
  accountId: 1,
  asset: 'USDT',
  amount: '5',
  address: 'TXYZ',
  addressExt: '',
  chainType: 'TRC20',
  clientOrderId: 'w-1',
};


const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('Sequencer', () => {
  let store: SqliteStore;
  let applier: CounterApplier;
  /** Seqs of each committed batch, in commit order. */
  let commits: number[][];
  let events: string[];

  beforeEach(() => {
    store = openSqliteStore({ path: ':memory:', synchronous: 'NORMAL' });
    applier = new CounterApplier();
    commits = [];
    events = [];
    const append = store.appendBatch.bind(store);
    store.appendBatch = (commands, rows) => {
      append(commands, rows);
      commits.push(commands.map((c) => c.seq));
      events.push(`committed ${commands.map((c) => c.seq).join(',')}`);
    };
  });
  afterEach(() => {
    store.close();
  });

  function sequencer(options: Partial<ConstructorParameters<typeof Sequencer>[0]> = {}): Sequencer {
    return new Sequencer({ store, applier, clock: () => 1000, ...options });
  }

  it('when some commands are rejected, then accepted ones get contiguous seqs and only they are journaled', async () => {
    const seq = sequencer();
    const replies = [deposit('1'), withdraw, deposit('2'), withdraw, deposit('3')].map((c) =>
      seq.submit(c).catch((error: BourseError) => error.code),
    );

    expect(await Promise.all(replies)).toEqual([1, -1131, 2, -1131, 3]);
    const journal = [...store.readJournal(0)];
    expect(journal.map((s) => [s.seq, s.command.type])).toEqual([
      [1, 'deposit'],
      [2, 'deposit'],
      [3, 'deposit'],
    ]);
    expect(store.listFlows({ accountId: 1, limit: 10 }).map((f) => [f.flowId, f.seq, f.change])).toEqual([
      [1, 1, '1'],
      [2, 2, '2'],
      [3, 3, '3'],
    ]);
    expect(seq.lastSeq).toBe(3);
  });

  it('when the store already holds commands, then seqs continue after its last one', async () => {
    store.appendBatch([{ seq: 1, ts: 500, command: deposit() }], emptyDerivedRows());
    applier.count = 1;
    const seq = sequencer();

    await seq.submit(deposit('2'));

    expect([...store.readJournal(1)].map((s) => s.seq)).toEqual([2]);
    expect(seq.lastSeq).toBe(2);
  });

  it('when a command is accepted or rejected, then its submitter hears only after the batch commit', async () => {
    const seq = sequencer();
    const accepted = seq.submit(deposit('1')).then((r) => events.push(`resolved ${String(r)}`));
    const rejected = seq.submit(withdraw).catch(() => events.push('rejected'));

    await Promise.all([accepted, rejected]);

    expect(events).toEqual(['committed 1', 'resolved 1', 'rejected']);
  });

  it('when commands are submitted in one turn, then they form one batch, and the next turn another', async () => {
    const seq = sequencer();
    await Promise.all([seq.submit(deposit('1')), seq.submit(deposit('2')), seq.submit(deposit('3'))]);
    await Promise.all([seq.submit(deposit('4')), seq.submit(deposit('5'))]);

    expect(commits).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('when more than maxBatch commands wait, then they are split into batches of maxBatch in order', async () => {
    const seq = sequencer({ maxBatch: 4 });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => seq.submit(deposit(String(i + 1)))));

    expect(commits).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10],
    ]);
    expect(results).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('when every command of a batch is rejected, then nothing is committed', async () => {
    const committed: CommitInfo[] = [];
    const seq = sequencer({ onCommit: (info) => committed.push(info) });

    expect(await codeOf(seq.submit(withdraw))).toBe(-1131);
    expect(commits).toEqual([]);
    expect(committed).toEqual([]);
  });

  it('when the applier wrote rows before rejecting, then those rows are dropped', async () => {
    const leaky: Applier = {
      apply: (stamped, rows) => {
        const result = applier.apply(stamped, rows);
        if (stamped.command.type === 'deposit' && stamped.command.amount === '2') {
          rows.orders.push({
            orderId: 1,
            accountId: 1,
            symbol: 'BTCUSDT',
            clientOrderId: 'x',
            side: 'BUY',
            type: 'LIMIT',
            timeInForce: 'GTC',
            price: '1',
            origQty: '1',
            executedQty: '0',
            cummulativeQuoteQty: '0',
            status: 'NEW',
            stopPrice: '0',
            icebergQty: '0',
            isWorking: true,
            time: 0,
            updateTime: 0,
          });
          rows.events.push({ kind: 'balance', seq: stamped.seq, time: 0, accountId: 1, balances: [] });
          throw new BourseError('INSUFFICIENT_BALANCE');
        }
        return result;
      },
    };
    const infos: CommitInfo[] = [];
    const seq = sequencer({ applier: leaky, onCommit: (info) => infos.push(info) });
    const replies = [seq.submit(deposit('1')), codeOf(seq.submit(deposit('2'))), seq.submit(deposit('3'))];

    expect(await Promise.all(replies)).toEqual([1, -1131, 3]);
    expect(infos.flatMap((info) => info.rows.events)).toEqual([]);
    expect(store.listFlows({ accountId: 1, limit: 10 }).map((f) => f.flowId)).toEqual([1, 3]);
    expect(store.getOrder(1, 1)).toBeUndefined();
  });

  it('when a batch commits, then onCommit reports its commands, rows, results and commit time', async () => {
    const infos: CommitInfo[] = [];
    const seq = sequencer({ onCommit: (info) => infos.push(info) });
    await Promise.all([seq.submit(deposit('7')), seq.submit(withdraw).catch(() => undefined), seq.submit(deposit('8'))]);

    expect(infos).toHaveLength(1);
    const [info] = infos;
    expect(info.size).toBe(2);
    expect(info.commands).toEqual([
      { seq: 1, ts: 1000, command: deposit('7') },
      { seq: 2, ts: 1000, command: deposit('8') },
    ]);
    expect(info.rows.flows.map(flowRowOf).map((f) => f.change)).toEqual(['7', '8']);
    expect(info.results).toEqual([1, 2]);
    expect(info.commitMs).toBeGreaterThan(0);
  });

  it('when the commit fails, then onFatal hears it and every submitter is refused, none answered', async () => {
    const fatal: unknown[] = [];
    store.appendBatch = () => {
      throw new Error('disk I/O error');
    };
    const seq = sequencer({ maxBatch: 2, onFatal: (error) => fatal.push(error) });
    // Two in the failing batch, the third waiting for the next one.
    const codes = Promise.all([seq.submit(deposit('1')), seq.submit(withdraw), seq.submit(deposit('3'))].map(codeOf));

    expect(await codes).toEqual([-1001, -1001, -1016]);
    expect(fatal).toEqual([new Error('disk I/O error')]);
    expect(await codeOf(seq.submit(deposit('4')))).toBe(-1016);
    expect(await codeOf(seq.flush())).toBe(-1001);
    expect(store.lastSeq()).toBe(0);
    expect(seq.lastSeq).toBe(0);
  });

  it('when the applier throws something other than a BourseError, then the batch is not committed and it is fatal', async () => {
    const fatal: unknown[] = [];
    const broken: Applier = {
      apply: (stamped, rows) => {
        if (stamped.seq === 2) throw new TypeError('bug');
        return applier.apply(stamped, rows);
      },
    };
    const seq = sequencer({ applier: broken, onFatal: (error) => fatal.push(error) });
    const codes = Promise.all([seq.submit(deposit('1')), seq.submit(deposit('2'))].map(codeOf));

    expect(await codes).toEqual([-1001, -1001]);
    expect(fatal).toEqual([new TypeError('bug')]);
    expect(commits).toEqual([]);
  });

  it('when onCommit throws, then the batch stays answered and durable, and it is fatal', async () => {
    const fatal: unknown[] = [];
    const seq = sequencer({
      onCommit: () => {
        throw new Error('fan-out broke');
      },
      onFatal: (error) => fatal.push(error),
    });

    expect(await seq.submit(deposit('1'))).toBe(1);
    expect(store.lastSeq()).toBe(1);
    expect(fatal).toEqual([new Error('fan-out broke')]);
    expect(await codeOf(seq.submit(deposit('2')))).toBe(-1016);
  });

  it('when the clock goes backwards, then time stamps never do', async () => {
    const readings = [1000, 900, 1100, 1050, 1200];
    const seq = sequencer({ clock: () => readings.shift() ?? 0 });
    await Promise.all([seq.submit(deposit('1')), seq.submit(deposit('2')), seq.submit(deposit('3'))]);
    await seq.submit(deposit('4'));
    await seq.submit(deposit('5'));

    expect([...store.readJournal(0)].map((s) => s.ts)).toEqual([1000, 1000, 1100, 1100, 1200]);
  });

  it('when the clock is behind the journal after a restart, then stamps continue from the journal', async () => {
    store.appendBatch([{ seq: 1, ts: 5000, command: deposit() }], emptyDerivedRows());
    const seq = sequencer({ clock: () => 100 });

    await seq.submit(deposit('2'));

    expect([...store.readJournal(1)].map((s) => s.ts)).toEqual([5000]);
  });

  it('when closed, then new commands are refused with -1016 and pending ones are committed', async () => {
    const seq = sequencer();
    const pending = [seq.submit(deposit('1')), seq.submit(deposit('2'))];

    const closed = seq.close();
    const refused = codeOf(seq.submit(deposit('3')));
    await closed;

    expect(store.lastSeq()).toBe(2);
    expect(await Promise.all(pending)).toEqual([1, 2]);
    expect(await refused).toBe(-1016);
  });

  it('when flushed, then it resolves once everything submitted before is committed', async () => {
    const seq = sequencer();
    await seq.flush();
    const pending = seq.submit(deposit('1')).then(() => events.push('answered'));

    await seq.flush().then(() => events.push('flushed'));
    await pending;

    expect(events).toEqual(['committed 1', 'answered', 'flushed']);
  });

  describe('with maxBatchDelayMs', () => {
    it('when commands arrive in separate turns within the delay, then they share one batch', async () => {
      const seq = sequencer({ maxBatchDelayMs: 50 });
      const first = seq.submit(deposit('1'));
      await nextTurn();
      const second = seq.submit(deposit('2'));

      expect(await Promise.all([first, second])).toEqual([1, 2]);
      expect(commits).toEqual([[1, 2]]);
    });

    it('when maxBatch commands are waiting, then the batch goes without waiting for the delay', async () => {
      const seq = sequencer({ maxBatch: 2, maxBatchDelayMs: 600_000 });

      expect(await Promise.all([seq.submit(deposit('1')), seq.submit(deposit('2'))])).toEqual([1, 2]);
      expect(commits).toEqual([[1, 2]]);
    });

    it('when flushed, then a batch held for the delay goes at once', async () => {
      const seq = sequencer({ maxBatchDelayMs: 600_000 });
      const reply = seq.submit(deposit('1'));

      await seq.close();

      expect(await reply).toBe(1);
    });
  });

  it('when options are out of range, then the sequencer is not built', () => {
    expect(() => sequencer({ maxBatch: 0 })).toThrow(RangeError);
    expect(() => sequencer({ maxBatchDelayMs: -1 })).toThrow(RangeError);
  });
});

describe('Sequencer.enqueue', () => {
  let store: SqliteStore;
  let applier: CounterApplier;

  beforeEach(() => {
    store = openSqliteStore({ path: ':memory:', synchronous: 'NORMAL' });
    applier = new CounterApplier();
  });
  afterEach(() => {
    store.close();
  });

  /** Settles `command` through enqueue; the outcome, once the batch is done. */
  function enqueued(seq: Sequencer, command: Command, receivedAt?: number): Promise<Outcome> {
    return new Promise((resolve) => seq.enqueue(command, resolve, receivedAt));
  }

  it('when a command is accepted, then settle hears its stamp and result; when refused, the BourseError', async () => {
    const seq = new Sequencer({ store, applier, clock: () => 1000 });

    const [accepted, refused] = await Promise.all([enqueued(seq, deposit('4')), enqueued(seq, withdraw)]);

    expect(accepted).toEqual({ accepted: true, stamped: { seq: 1, ts: 1000, command: deposit('4') }, result: 1, followUps: [] });
    expect(refused.accepted).toBe(false);
    if (refused.accepted) return;
    expect(refused.error).toBeInstanceOf(BourseError);
    expect(refused.error.wireName).toBe('A:INSUFFICIENT_BALANCE');
    expect([...store.readJournal(0)].map((s) => s.seq)).toEqual([1]);
  });

  it('when submit and enqueue callers share a batch, then each hears its own outcome, in submission order, after the commit', async () => {
    const seq = new Sequencer({ store, applier, clock: () => 1000 });
    const heard: string[] = [];
    const submitted = seq.submit(deposit('1')).then((result) => heard.push(`submit ${String(result)} at ${store.lastSeq()}`));
    const enqueuedRefusal = enqueued(seq, withdraw).then((outcome) => heard.push(`enqueue refused ${String(!outcome.accepted)}`));
    const refused = seq.submit(withdraw).catch((error: unknown) => heard.push(`submit refused ${error instanceof BourseError ? error.wireName : String(error)}`));
    const enqueuedDeposit = enqueued(seq, deposit('2')).then((outcome) => heard.push(`enqueue ${outcome.accepted ? outcome.stamped.seq : 'refused'}`));

    await Promise.all([submitted, enqueuedRefusal, refused, enqueuedDeposit]);

    expect(heard).toEqual(['submit 1 at 2', 'enqueue refused true', 'submit refused A:INSUFFICIENT_BALANCE', 'enqueue 2']);
  });

  it('when settle is called, then the batch is already committed', async () => {
    const seq = new Sequencer({ store, applier, clock: () => 1000 });
    let journaledAtSettle = -1;

    await new Promise<void>((resolve) =>
      seq.enqueue(deposit('1'), () => {
        journaledAtSettle = store.lastSeq();
        resolve();
      }),
    );

    expect(journaledAtSettle).toBe(1);
  });

  it('when receivedAt is later than the clock, then it is the stamp', async () => {
    const seq = new Sequencer({ store, applier, clock: () => 1000 });

    const outcome = await enqueued(seq, deposit('1'), 1500);

    expect(outcome.accepted && outcome.stamped.ts).toBe(1500);
    expect(store.lastTs()).toBe(1500);
  });

  it('when receivedAt is before the last stamp, then the time stamp does not go back', async () => {
    const seq = new Sequencer({ store, applier, clock: () => 1000 });
    await enqueued(seq, deposit('1'), 1500);

    const [earlier, clocked] = await Promise.all([enqueued(seq, deposit('2'), 1200), enqueued(seq, deposit('3'))]);

    expect(earlier.accepted && earlier.stamped.ts).toBe(1500);
    // The clock (1000) is behind too: a command without receivedAt keeps the stamp where it was.
    expect(clocked.accepted && clocked.stamped.ts).toBe(1500);
    expect([...store.readJournal(0)].map((s) => s.ts)).toEqual([1500, 1500, 1500]);
  });

  it('when closed, then enqueue settles at once with SERVICE_UNAVAILABLE', async () => {
    const seq = new Sequencer({ store, applier, clock: () => 1000 });
    await seq.close();
    const outcomes: Outcome[] = [];

    seq.enqueue(deposit('1'), (outcome) => outcomes.push(outcome));

    expect(outcomes).toHaveLength(1);
    expect(outcomes[0].accepted === false && outcomes[0].error.code).toBe(-1016);
    expect(store.lastSeq()).toBe(0);
  });
});

/** A deposit of "10" makes a deposit of "1" and a withdraw due at once; the withdraw is refused. */
class FollowUpApplier extends CounterApplier {
  override apply(stamped: StampedCommand, rows: DerivedRows): number {
    const result = super.apply(stamped, rows);
    if (stamped.command.type === 'deposit' && stamped.command.amount === '10') rows.followUps.push(withdraw, deposit('1'));
    return result;
  }
}

describe('Sequencer follow-ups (area B automatic decisions)', () => {
  it('when a command makes others due, then each accepted one is journaled right after it with the same stamp, and a refused one is dropped', async () => {
    const store = openSqliteStore({ path: ':memory:', synchronous: 'NORMAL' });
    const seq = new Sequencer({ store, applier: new FollowUpApplier(), clock: () => 1000 });
    const outcomes: Outcome[] = [];
    seq.enqueue(deposit('10'), (outcome) => outcomes.push(outcome));
    seq.enqueue(deposit('2'), (outcome) => outcomes.push(outcome));
    await seq.flush();
    expect([...store.readJournal(0)].map((s) => [s.seq, s.ts, s.command.type === 'deposit' ? s.command.amount : s.command.type])).toEqual([
      [1, 1000, '10'],
      [2, 1000, '1'],
      [3, 1000, '2'],
    ]);
    expect(outcomes.map((o) => (o.accepted ? [o.stamped.seq, o.followUps.map((f) => f.seq)] : 'refused'))).toEqual([
      [1, [2]],
      [3, []],
    ]);
    // The refused withdraw left no rows: one flow per accepted deposit.
    expect(store.flowSums()).toEqual([{ accountId: 1, asset: 'USDT', sum: '13' }]);
    store.close();
  });
});
