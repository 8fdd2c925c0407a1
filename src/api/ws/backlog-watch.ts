import { WebSocket, type RawData } from 'ws';

/**
 * A reader that lets more than its bound go unread is cut off: 1008 (policy violation, as for the
 * message limit of docs/websocket.md "Market stream") with this reason. The client may reconnect at
 * once; a reader that keeps falling behind will be cut off again.
 */
export const SLOW_READER_CLOSE_CODE = 1008;
export const SLOW_READER_REASON = 'reader too slow: send buffer over its limit';

export interface BacklogWatchOptions {
  /** Bytes a socket may have sent and not yet read by its client; over this it is cut off. */
  maxBufferedBytes: number;
  /** How often every watched socket's backlog is checked, so a quiet stream notices too. */
  checkIntervalMs: number;
  /**
   * After the close frame is queued (behind the backlog), how long the client has to read up to it
   * and answer; then the socket is dropped without one.
   */
  closeGraceMs: number;
  /** Once per socket cut off, with what it had not read and what of that the process still held: for the log line. */
  onCutOff(ws: WebSocket, backlog: Backlog): void;
  /** Just before a socket that did not take its close frame within the grace is dropped. */
  onDrop?(ws: WebSocket): void;
}

/** A socket's backlog when it was cut off. */
export interface Backlog {
  /** Sent to the socket and not yet confirmed read by its client: what the bound counts. */
  queuedBytes: number;
  /** Of those, still in this process (`ws`'s `bufferedAmount`); the rest is in the kernels or on the wire. */
  bufferedBytes: number;
}

/** Defaults shared by W1 and W2: a check a second, two seconds to take the close frame. */
export const BACKLOG_CHECK_INTERVAL_MS = 1000;
export const SLOW_READER_CLOSE_GRACE_MS = 2000;
/** A read receipt is asked for after each eighth of the bound: a reading client's count stays well below it. */
const PROBES_PER_BOUND = 8;
/** A receipt names a byte count: decimal digits, below 2^53. */
const RECEIPT_PATTERN = /^[0-9]{1,15}$/;

/** Bytes of one socket: sent, confirmed read, and where the last read receipt was asked for. */
interface SendLedger {
  sentBytes: number;
  readBytes: number;
  probedBytes: number;
}

/**
 * Bounds what a socket's client has not read (Tiger Style: a limit on every buffer), whichever
 * path queued the bytes: every frame goes through `send`, which counts it. `ws`'s `bufferedAmount`
 * alone is not that count: the kernel takes up to its send buffer (several MiB on Linux) before
 * anything waits in the process, so a reader that stops would pass the bound only after megabytes
 * more. Instead, after each eighth of the bound sent, the socket is sent a protocol ping whose
 * payload is the byte count so far; a client's WebSocket stack answers it with a pong carrying the
 * same payload once it has read everything before it (RFC 6455, section 5.5.2), so the pong is a read
 * receipt. The backlog is what was sent after the last receipt, or `bufferedAmount` if larger (a
 * client forging receipts still cannot make the process hold more than the bound).
 *
 * The bound is checked before each send and by one timer for all sockets: a stream that sends
 * nothing would otherwise notice a stuck reader only at its next frame. A socket over its bound
 * gets a close frame with a code and reason; if it cannot take it within the grace, it is dropped.
 */
export class BacklogWatch {
  private readonly sockets = new Map<WebSocket, SendLedger>();
  private readonly timer: NodeJS.Timeout;
  private readonly probeEveryBytes: number;

  constructor(private readonly options: BacklogWatchOptions) {
    if (!(options.maxBufferedBytes > 0 && options.checkIntervalMs > 0 && options.closeGraceMs > 0)) {
      throw new Error(`BacklogWatch: bounds must be positive, got ${JSON.stringify({ ...options, onCutOff: undefined })}`);
    }
    this.probeEveryBytes = Math.max(1, Math.floor(options.maxBufferedBytes / PROBES_PER_BOUND));
    this.timer = setInterval(() => this.checkAll(), options.checkIntervalMs);
    this.timer.unref();
  }

  /** Watches `ws` until it closes; every frame to it must then go through `send`. */
  watch(ws: WebSocket): void {
    const ledger: SendLedger = { sentBytes: 0, readBytes: 0, probedBytes: 0 };
    this.sockets.set(ws, ledger);
    ws.on('pong', (payload: RawData) => {
      const text = Buffer.isBuffer(payload) ? payload.toString('latin1') : '';
      if (!RECEIPT_PATTERN.test(text)) return;
      const readBytes = Number(text);
      // A receipt for more than was sent is no receipt.
      if (readBytes <= ledger.sentBytes && readBytes > ledger.readBytes) ledger.readBytes = readBytes;
    });
    ws.once('close', () => this.sockets.delete(ws));
  }

  /**
   * Queues one frame on `ws` (a Buffer is sent as it is, so many sockets may share it) and counts
   * its bytes; false, and nothing sent, when `ws` is not open or is over its bound (then it is cut off).
   */
  send(ws: WebSocket, data: Buffer | string, binary = false): boolean {
    if (ws.readyState !== WebSocket.OPEN) return false;
    const ledger = this.sockets.get(ws);
    if (ledger === undefined) throw new Error('BacklogWatch.send: an open socket that is not watched');
    if (this.cutOffIfOver(ws, ledger)) return false;
    ws.send(data, { binary });
    ledger.sentBytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    if (ledger.sentBytes - ledger.probedBytes >= this.probeEveryBytes) {
      ledger.probedBytes = ledger.sentBytes;
      ws.ping(String(ledger.sentBytes));
    }
    return true;
  }

  /** Checks every watched socket now (the timer's work; tests call it to skip the wait). */
  checkAll(): void {
    for (const [ws, ledger] of this.sockets) {
      if (ws.readyState === WebSocket.OPEN) this.cutOffIfOver(ws, ledger);
    }
  }

  /** Sockets watched (open or closing). */
  get size(): number {
    return this.sockets.size;
  }

  /** Stops the timer; sockets already cut off still get their grace. */
  stop(): void {
    clearInterval(this.timer);
  }

  private cutOffIfOver(ws: WebSocket, ledger: SendLedger): boolean {
    const bufferedBytes = ws.bufferedAmount;
    const queuedBytes = Math.max(ledger.sentBytes - ledger.readBytes, bufferedBytes);
    if (queuedBytes <= this.options.maxBufferedBytes) return false;
    this.options.onCutOff(ws, { queuedBytes, bufferedBytes });
    ws.close(SLOW_READER_CLOSE_CODE, SLOW_READER_REASON);
    const drop = setTimeout(() => {
      this.options.onDrop?.(ws);
      ws.terminate();
    }, this.options.closeGraceMs);
    drop.unref();
    ws.once('close', () => clearTimeout(drop));
    return true;
  }
}
