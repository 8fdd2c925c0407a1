import type { Duplex } from 'node:stream';

/** Counts the writes `socket` hands the kernel from here on: one per `_write` or `_writev` (tests and bench/ws-write-check). */
export function countSocketWrites(socket: Duplex, counter: { writes: number }): void {
  const writable = socket as unknown as Record<'_write' | '_writev', (...args: unknown[]) => void>;
  for (const method of ['_write', '_writev'] as const) {
    const original = writable[method].bind(socket);
    writable[method] = (...args) => {
      counter.writes++;
      original(...args);
    };
  }
}
