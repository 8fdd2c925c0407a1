import { describe, expect, it } from 'vitest';
import type { Command } from '../../../src/core/types.js';
import type { Deadline } from '../../../src/exchange/core-module.js';
import { DeadlineScheduler, REFUSED_RETRY_MS, type Timers } from '../../../src/exchange/deadline-scheduler.js';

/** Timers driven by hand: `armed` lists the waiting ones; calling one's callback fires it. */
function manualTimers(): Timers & { armed: { callback: () => void; ms: number }[] } {
  const armed: { callback: () => void; ms: number }[] = [];
  return {
    armed,
    set: (callback, ms) => {
      const entry = {
        callback: () => {
          armed.splice(armed.indexOf(entry), 1);
          callback();
        },
        ms,
      };
      armed.push(entry);
      return entry;
    },
    clear: (handle) => {
      const i = armed.indexOf(handle as (typeof armed)[number]);
      if (i >= 0) armed.splice(i, 1);
    },
  };
}

const expire = (id: number): Command => ({ type: 'revokeApiKey', apiKey: `due-${id}` });

function setUp(initial: Deadline[], now: number) {
  let deadlines = [...initial];
  let epoch = 0;
  let clock = now;
  const submitted: Command[] = [];
  const settle: (() => void)[] = [];
  const timers = manualTimers();
  const scheduler = new DeadlineScheduler({
    deadlines: () => [...deadlines].sort((a, b) => a.at - b.at),
    epoch: () => epoch,
    submit: (command) => {
      submitted.push(command);
      // The command changes the object: its deadline is gone once it is applied.
      return new Promise<void>((resolve) =>
        settle.push(() => {
          deadlines = deadlines.filter((d) => d.command !== command);
          epoch++;
          resolve();
        }),
      );
    },
    clock: () => clock,
    timers,
  });
  return {
    scheduler,
    submitted,
    timers,
    settleAll: () => settle.splice(0).forEach((f) => f()),
    setClock: (ms: number) => (clock = ms),
    setDeadlines: (d: Deadline[]) => {
      deadlines = d;
      epoch++;
    },
  };
}

describe('deadline scheduler (time-driven transitions are commands)', () => {
  it('when a deadline passed while the server was down, then it is due at start and submitted once, however often it fires', async () => {
    const t = setUp([{ at: 1_000, command: expire(1) }], 5_000);
    t.scheduler.start();
    expect(t.timers.armed.map((a) => a.ms)).toEqual([0]);
    void t.scheduler.fireDue();
    void t.scheduler.fireDue();
    expect(t.submitted).toEqual([expire(1)]);
    t.settleAll();
    await t.scheduler.fireDue();
    expect(t.submitted).toEqual([expire(1)]);
  });

  it('when the earliest deadline is in the future, then one timer waits exactly until it', () => {
    const t = setUp(
      [
        { at: 9_000, command: expire(2) },
        { at: 7_500, command: expire(1) },
      ],
      5_000,
    );
    t.scheduler.start();
    expect(t.timers.armed.map((a) => a.ms)).toEqual([2_500]);
    t.scheduler.onCommit();
    expect(t.timers.armed).toHaveLength(1);
  });

  it('when the timer fires, then only the due commands are submitted and the next deadline is armed after they settle', async () => {
    const t = setUp(
      [
        { at: 6_000, command: expire(1) },
        { at: 8_000, command: expire(2) },
      ],
      5_000,
    );
    t.scheduler.start();
    t.setClock(6_000);
    t.timers.armed[0].callback();
    expect(t.submitted).toEqual([expire(1)]);
    t.settleAll();
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.timers.armed.map((a) => a.ms)).toEqual([2_000]);
  });

  it('when a commit removes the last deadline, then the timer is disarmed; after stop nothing is armed', () => {
    const t = setUp([{ at: 9_000, command: expire(1) }], 5_000);
    t.scheduler.start();
    t.setDeadlines([]);
    t.scheduler.onCommit();
    expect(t.timers.armed).toEqual([]);
    t.setDeadlines([{ at: 9_000, command: expire(1) }]);
    t.scheduler.stop();
    t.scheduler.onCommit();
    expect(t.timers.armed).toEqual([]);
  });
});

describe('deadline scheduler, refused due commands', () => {
  it('when the core refuses a due command, then it is not submitted again before REFUSED_RETRY_MS have passed', async () => {
    let clock = 5_000;
    const submitted: Command[] = [];
    const timers = manualTimers();
    const command = expire(1);
    const scheduler = new DeadlineScheduler({
      deadlines: () => [{ at: 1_000, command }],
      epoch: () => 0,
      submit: (c) => {
        submitted.push(c);
        return Promise.reject(new Error('refused'));
      },
      clock: () => clock,
      timers,
    });
    scheduler.start();
    timers.armed[0].callback();
    await new Promise((resolve) => setImmediate(resolve));
    expect(submitted).toHaveLength(1);
    // Re-armed for the retry time, not at once: no tight loop of refusals.
    expect(timers.armed.map((a) => a.ms)).toEqual([REFUSED_RETRY_MS]);
    await scheduler.fireDue();
    expect(submitted).toHaveLength(1);
    clock += REFUSED_RETRY_MS;
    await scheduler.fireDue();
    expect(submitted).toHaveLength(2);
  });
});

describe('deadline scheduler, commits that change no deadline', () => {
  it('when the epoch is unchanged (an area A batch), then the deadlines are not read again', () => {
    let reads = 0;
    let epoch = 1;
    const scheduler = new DeadlineScheduler({
      deadlines: () => {
        reads++;
        return [];
      },
      epoch: () => epoch,
      submit: () => Promise.resolve(),
      clock: () => 0,
      timers: manualTimers(),
    });
    scheduler.start();
    scheduler.onCommit();
    scheduler.onCommit();
    expect(reads).toBe(1);
    epoch++;
    scheduler.onCommit();
    expect(reads).toBe(2);
  });
});
