import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { WriteRound } from '../../../../src/api/ws/market-write-round.js';

/** A stream that records each write it is handed: one entry per `_write` or `_writev`, with its chunks. */
function recording(): { stream: Writable; writes: string[][] } {
  const writes: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      writes.push([chunk.toString()]);
      callback();
    },
    writev(chunks, callback) {
      writes.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
      callback();
    },
  });
  return { stream, writes };
}

describe('WriteRound', () => {
  it('when a round writes several chunks to each of two sockets, then each socket gets them in one write, in order', () => {
    const round = new WriteRound();
    const a = recording();
    const b = recording();
    round.run(() => {
      for (const text of ['1', '2', '3']) {
        for (const { stream } of [a, b]) {
          round.hold(stream);
          stream.write(`${text}`);
        }
      }
      expect([a.writes, b.writes]).toEqual([[], []]);
    });
    expect(a.writes).toEqual([['1', '2', '3']]);
    expect(b.writes).toEqual([['1', '2', '3']]);
    expect([a.stream.writableCorked, b.stream.writableCorked]).toEqual([0, 0]);
  });

  it('when a socket is held outside a round, then its writes go at once', () => {
    const round = new WriteRound();
    const a = recording();
    round.hold(a.stream);
    a.stream.write('x');
    expect(a.writes).toEqual([['x']]);
    expect(a.stream.writableCorked).toBe(0);
  });

  it('when a round starts inside another, then it joins it: the socket is written once the outer round ends', () => {
    const round = new WriteRound();
    const a = recording();
    round.run(() => {
      round.run(() => {
        round.hold(a.stream);
        a.stream.write('inner');
      });
      expect(a.writes).toEqual([]);
      round.hold(a.stream);
      a.stream.write('outer');
    });
    expect(a.writes).toEqual([['inner', 'outer']]);
  });

  it('when a round throws, then its sockets are still uncorked and written, and the next round starts afresh', () => {
    const round = new WriteRound();
    const a = recording();
    expect(() =>
      round.run(() => {
        round.hold(a.stream);
        a.stream.write('before');
        throw new Error('publish failed');
      }),
    ).toThrow('publish failed');
    expect(a.writes).toEqual([['before']]);
    round.run(() => {
      round.hold(a.stream);
      a.stream.write('next');
    });
    expect(a.writes).toEqual([['before'], ['next']]);
    expect(a.stream.writableCorked).toBe(0);
  });
});
