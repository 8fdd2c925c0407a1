import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { BacklogWatch, SLOW_READER_CLOSE_CODE, SLOW_READER_REASON, type Backlog } from '../../../../src/api/ws/backlog-watch.js';

/**
 * The bound on what a client has not read (docs/websocket.md "Limits"): every frame sent is
 * counted, a protocol ping carrying the count goes out after each eighth of the bound, and the
 * client's pong with that payload is its read receipt.
 */

const BOUND = 8000;

/** What BacklogWatch uses of a `ws` socket; `bufferedAmount` is what the process still holds. */
class FakeSocket extends EventEmitter {
  readyState = 1;
  bufferedAmount = 0;
  sent: (Buffer | string)[] = [];
  pings: string[] = [];
  closedWith: [number, string] | undefined;

  send(data: Buffer | string): void {
    this.sent.push(data);
  }

  ping(data: string): void {
    this.pings.push(data);
  }

  close(code: number, reason: string): void {
    this.closedWith = [code, reason];
    this.readyState = 2;
  }

  terminate(): void {
    this.readyState = 3;
    this.emit('close');
  }

  /** The client's WebSocket stack answering a ping: same payload. */
  pong(payload: string): void {
    this.emit('pong', Buffer.from(payload, 'latin1'));
  }
}

let cutOffs: Backlog[];
let watch: BacklogWatch;
let socket: FakeSocket;
const ws = (): WebSocket => socket as unknown as WebSocket;

beforeEach(() => {
  cutOffs = [];
  watch = new BacklogWatch({ maxBufferedBytes: BOUND, checkIntervalMs: 60_000, closeGraceMs: 60_000, onCutOff: (_ws, backlog) => cutOffs.push(backlog) });
  socket = new FakeSocket();
  watch.watch(ws());
});

afterEach(() => {
  socket.terminate();
  watch.stop();
});

describe('BacklogWatch', () => {
  it('when frames are sent, then their bytes are counted (strings as UTF-8) and a ping carrying the count follows each eighth of the bound', () => {
    expect(watch.send(ws(), Buffer.alloc(600))).toBe(true);
    expect(socket.pings).toEqual([]);
    expect(watch.send(ws(), 'é'.repeat(200))).toBe(true);
    expect(socket.pings).toEqual(['1000']);
    watch.send(ws(), Buffer.alloc(999));
    expect(socket.pings).toEqual(['1000']);
    watch.send(ws(), Buffer.alloc(1));
    expect(socket.pings).toEqual(['1000', '2000']);
  });

  it('when the client answers the pings, then it may be sent many times the bound without being cut off', () => {
    for (let i = 0; i < 100; i++) {
      expect(watch.send(ws(), Buffer.alloc(1000))).toBe(true);
      const last = socket.pings[socket.pings.length - 1];
      if (last !== undefined) socket.pong(last);
    }
    expect(socket.sent).toHaveLength(100);
    expect(cutOffs).toEqual([]);
  });

  it('when the client does not answer, then the send after the bound is passed is refused and the socket is closed with 1008', () => {
    for (let i = 0; i < 8; i++) expect(watch.send(ws(), Buffer.alloc(1000))).toBe(true);
    expect(watch.send(ws(), Buffer.alloc(1))).toBe(true);
    expect(watch.send(ws(), Buffer.alloc(1))).toBe(false);
    expect(cutOffs).toEqual([{ queuedBytes: 8001, bufferedBytes: 0 }]);
    expect(socket.closedWith).toEqual([SLOW_READER_CLOSE_CODE, SLOW_READER_REASON]);
    expect(socket.sent).toHaveLength(9);
  });

  it('when a receipt names more than was sent, or is not a count, then it is ignored', () => {
    for (let i = 0; i < 8; i++) watch.send(ws(), Buffer.alloc(1000));
    watch.send(ws(), Buffer.alloc(1));
    socket.pong('99999999');
    socket.pong('8001x');
    socket.pong('');
    watch.checkAll();
    expect(cutOffs).toEqual([{ queuedBytes: 8001, bufferedBytes: 0 }]);
  });

  it('when a client sends receipts without reading, then what the process holds still cuts it off', () => {
    for (let i = 0; i < 9; i++) {
      watch.send(ws(), Buffer.alloc(1000));
      socket.pong(String((i + 1) * 1000));
    }
    socket.bufferedAmount = 8500;
    watch.checkAll();
    expect(cutOffs).toEqual([{ queuedBytes: 8500, bufferedBytes: 8500 }]);
  });

  it('when a socket over its bound sends nothing more, then the periodic check cuts it off', () => {
    for (let i = 0; i < 9; i++) watch.send(ws(), Buffer.alloc(1000));
    expect(cutOffs).toEqual([]);
    watch.checkAll();
    expect(cutOffs).toEqual([{ queuedBytes: 9000, bufferedBytes: 0 }]);
  });
});
