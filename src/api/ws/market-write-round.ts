import type { Writable } from 'node:stream';

/** Sockets one round may hold corked: every market socket there can be, with room to spare. */
const MAX_HELD_SOCKETS = 1_000_000;

/**
 * Coalesces what a publish round queues on each socket into one write. A socket handed to `hold`
 * while a round runs stays corked until the round ends, so its frames (each still its own WebSocket
 * frame, in the order sent; `ws` corks around a frame's header and payload, which nests) reach the
 * kernel in one writev instead of a write each. On loopback a write costs tens of µs of kernel time
 * whatever its size: bench/ws, 1,000 subscribers, the writes were most of the main thread's fan-out time.
 */
export class WriteRound {
  private readonly held = new Set<Writable>();
  private running = false;

  /** Runs `publish` as one round; a round started inside another joins it. */
  run(publish: () => void): void {
    if (this.running) {
      publish();
      return;
    }
    this.running = true;
    try {
      publish();
    } finally {
      this.running = false;
      // Uncorking a socket destroyed meanwhile is harmless: a destroyed stream writes nothing.
      for (const socket of this.held) socket.uncork();
      this.held.clear();
    }
  }

  /** Before a frame is queued on `socket`: inside a round, corks it until the round ends; outside, nothing. */
  hold(socket: Writable): void {
    if (!this.running || this.held.has(socket)) return;
    if (this.held.size >= MAX_HELD_SOCKETS) throw new Error(`WriteRound: more than ${MAX_HELD_SOCKETS} sockets in one round`);
    socket.cork();
    this.held.add(socket);
  }
}
