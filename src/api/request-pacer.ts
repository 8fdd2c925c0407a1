/**
 * Fair service of new connections under load. Since libuv 1.45 (Node 20; libuv pull request 3696,
 * "don't accept() connections in a loop"), a listening socket accepts one connection per
 * event-loop turn, while a turn starts every request that arrived on the open connections. Under load a turn is long, so a burst of new connections (a reconnect
 * storm after a restart) waits one long turn per connection: measured, 200 new connections against
 * 64 busy keep-alive ones waited 1–2.7 s for their first answer while open connections were
 * answered within tens of ms.
 *
 * So a turn starts at most `requestsPerTurn` requests, first come first served; the rest wait for
 * the next turn (`setImmediate`: after the next poll, which accepts). And while connections keep
 * arriving at a busy server, whole turns go to the accept queue (up to `maxAcceptTurns` in a row,
 * each one accept and no request); the turn after starts the waiting requests plus one per
 * connection so accepted, so a stream of one-request connections is never starved either.
 * Without load nothing waits: a request starts in the turn it arrived in.
 */

export interface RequestPacerOptions {
  /** Requests started per turn once they queue up. */
  requestsPerTurn: number;
  /** Turns in a row that may go to accepting while requests wait. */
  maxAcceptTurns: number;
}

/** Defaults: a turn of a few ms of request work at most; up to 64 accepts before requests go on. */
export const DEFAULT_REQUEST_PACING: Readonly<RequestPacerOptions> = { requestsPerTurn: 32, maxAcceptTurns: 64 };

export class RequestPacer {
  /**
   * Requests not started yet, oldest first, from `head` on. Bounded by the connections: each entry
   * is a request Node has already read, and Node stops reading a connection whose answers back up.
   */
  private waiting: (() => void)[] = [];
  private head = 0;
  private startedThisTurn = 0;
  private acceptedThisTurn = 0;
  private acceptTurns = 0;
  private acceptedWhileWaiting = 0;
  private turnScheduled = false;

  constructor(private readonly options: RequestPacerOptions = DEFAULT_REQUEST_PACING) {
    if (!(Number.isSafeInteger(options.requestsPerTurn) && options.requestsPerTurn >= 1)) throw new RangeError(`requestsPerTurn must be ≥ 1: ${options.requestsPerTurn}`);
    if (!(Number.isSafeInteger(options.maxAcceptTurns) && options.maxAcceptTurns >= 0)) throw new RangeError(`maxAcceptTurns must be ≥ 0: ${options.maxAcceptTurns}`);
  }

  /** Requests waiting for a turn. */
  get waitingCount(): number {
    return this.waiting.length - this.head;
  }

  /** Call on every accepted connection (the server's `connection` event). */
  onConnection(): void {
    // Only while busy (a turn is due): an idle server's connections say nothing about the next burst.
    if (this.turnScheduled) this.acceptedThisTurn++;
  }

  /** Starts the request now if this turn has room and none waits before it, else in a later turn. */
  admit(start: () => void): void {
    if (this.waitingCount === 0 && this.startedThisTurn < this.options.requestsPerTurn) {
      this.startedThisTurn++;
      this.scheduleTurn();
      start();
      return;
    }
    this.waiting.push(start);
    this.scheduleTurn();
  }

  private scheduleTurn(): void {
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    setImmediate(() => this.turn());
  }

  /** Runs once per turn while there is work: gives the turn to the accept queue or starts the next requests. */
  private turn(): void {
    this.turnScheduled = false;
    const waiting = this.waitingCount;
    const busy = waiting > 0 || this.startedThisTurn > 0;
    if (busy && this.acceptedThisTurn > 0 && this.acceptTurns < this.options.maxAcceptTurns) {
      // A connection was accepted this turn, so more may be queued in the kernel: the next turn
      // accepts one more before any request starts. Requests arriving meanwhile wait their turn.
      this.acceptTurns++;
      this.acceptedWhileWaiting += this.acceptedThisTurn;
      this.acceptedThisTurn = 0;
      this.startedThisTurn = this.options.requestsPerTurn;
      this.scheduleTurn();
      return;
    }
    const share = this.options.requestsPerTurn + this.acceptedWhileWaiting;
    this.acceptTurns = 0;
    this.acceptedWhileWaiting = 0;
    this.acceptedThisTurn = 0;
    const count = Math.min(share, waiting);
    const batch = this.waiting.slice(this.head, this.head + count);
    this.head += count;
    if (this.head === this.waiting.length) {
      this.waiting = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    this.startedThisTurn = count;
    // The next turn resets the count (or starts what still waits); an idle server schedules nothing.
    if (count > 0) this.scheduleTurn();
    for (const start of batch) {
      try {
        start();
      } catch (error) {
        // One request's failure must not keep the others of the batch from starting; it still surfaces.
        process.nextTick(() => {
          throw error;
        });
      }
    }
  }
}
