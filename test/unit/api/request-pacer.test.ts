import { describe, expect, it } from 'vitest';
import { RequestPacer } from '../../../src/api/request-pacer.js';

/** One event-loop turn: immediates queued before this one run first. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('RequestPacer', () => {
  it('when the server is idle, then a request starts at once', () => {
    const pacer = new RequestPacer({ requestsPerTurn: 2, maxAcceptTurns: 4 });
    const started: number[] = [];
    pacer.admit(() => started.push(1));
    expect(started).toEqual([1]);
    expect(pacer.waitingCount).toBe(0);
  });

  it('when more requests arrive in a turn than it may start, then the rest start in later turns, oldest first', async () => {
    const pacer = new RequestPacer({ requestsPerTurn: 2, maxAcceptTurns: 4 });
    const started: number[] = [];
    for (let i = 1; i <= 5; i++) pacer.admit(() => started.push(i));
    expect(started).toEqual([1, 2]);
    await nextTurn();
    expect(started).toEqual([1, 2, 3, 4]);
    // A request arriving now waits behind the one already waiting.
    pacer.admit(() => started.push(6));
    await nextTurn();
    expect(started).toEqual([1, 2, 3, 4, 5, 6]);
    await nextTurn();
    expect(pacer.waitingCount).toBe(0);
    // Idle again: the next one starts at once.
    await nextTurn();
    pacer.admit(() => started.push(7));
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('when connections keep arriving while requests wait, then turns go to accepting, and the waiting requests then start with one more per connection', async () => {
    const pacer = new RequestPacer({ requestsPerTurn: 2, maxAcceptTurns: 10 });
    const started: number[] = [];
    for (let i = 1; i <= 8; i++) pacer.admit(() => started.push(i));
    expect(started).toEqual([1, 2]);
    // Three turns in a row each accept a connection: no request starts in them.
    for (let turn = 0; turn < 3; turn++) {
      pacer.onConnection();
      await nextTurn();
      expect(started).toEqual([1, 2]);
    }
    // A turn without a new connection: this turn's two plus one per accepted connection.
    await nextTurn();
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    await nextTurn();
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('when a connection arrives in a busy turn with nothing waiting, then the next turn still goes to accepting', async () => {
    const pacer = new RequestPacer({ requestsPerTurn: 4, maxAcceptTurns: 8 });
    const started: number[] = [];
    pacer.admit(() => started.push(1));
    pacer.onConnection();
    await nextTurn();
    // Arriving during the accept turn, it waits for the turn after.
    pacer.admit(() => started.push(2));
    expect(started).toEqual([1]);
    await nextTurn();
    expect(started).toEqual([1, 2]);
  });

  it('when connections never stop arriving, then requests still start after maxAcceptTurns', async () => {
    const pacer = new RequestPacer({ requestsPerTurn: 1, maxAcceptTurns: 3 });
    const started: number[] = [];
    for (let i = 1; i <= 6; i++) pacer.admit(() => started.push(i));
    expect(started).toEqual([1]);
    for (let turn = 0; turn < 3; turn++) {
      pacer.onConnection();
      await nextTurn();
    }
    expect(started).toEqual([1]);
    pacer.onConnection();
    await nextTurn();
    // 1 + 3 connections accepted while holding.
    expect(started).toEqual([1, 2, 3, 4, 5]);
  });

  it('when connections arrive at an idle server, then nothing is held for them', async () => {
    const pacer = new RequestPacer({ requestsPerTurn: 2, maxAcceptTurns: 4 });
    for (let i = 0; i < 100; i++) pacer.onConnection();
    await nextTurn();
    const started: number[] = [];
    for (let i = 1; i <= 3; i++) pacer.admit(() => started.push(i));
    await nextTurn();
    expect(started).toEqual([1, 2, 3]);
  });

  it('when one request throws as it starts, then the others of its turn start all the same', async () => {
    const pacer = new RequestPacer({ requestsPerTurn: 1, maxAcceptTurns: 0 });
    const started: number[] = [];
    const uncaught: unknown[] = [];
    const listeners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', (error) => uncaught.push(error));
    try {
      pacer.admit(() => started.push(1));
      pacer.admit(() => {
        throw new Error('boom');
      });
      pacer.admit(() => started.push(3));
      await nextTurn();
      await nextTurn();
      await nextTurn();
    } finally {
      process.removeAllListeners('uncaughtException');
      for (const listener of listeners) process.on('uncaughtException', listener);
    }
    expect(started).toEqual([1, 3]);
    expect(uncaught).toEqual([new Error('boom')]);
  });

  it('when the options are out of range, then the constructor refuses them', () => {
    expect(() => new RequestPacer({ requestsPerTurn: 0, maxAcceptTurns: 1 })).toThrow(RangeError);
    expect(() => new RequestPacer({ requestsPerTurn: 1, maxAcceptTurns: -1 })).toThrow(RangeError);
  });
});
