import { WebSocket } from 'ws';

/**
 * A reader that lets more than its bound wait to be sent is cut off: 1008 (policy violation, as
 * for the message limit of docs/websocket.md "Market stream") with this reason. The client may reconnect at once; a
 * reader that keeps falling behind will be cut off again.
 */
export const SLOW_READER_CLOSE_CODE = 1008;
export const SLOW_READER_REASON = 'reader too slow: send buffer over its limit';

export interface BacklogWatchOptions {
  /** Bytes a socket may have waiting to be sent; over this it is cut off. */
  maxBufferedBytes: number;
  /** How often every watched socket's backlog is checked, so a quiet stream notices too. */
  checkIntervalMs: number;
  /**
   * After the close frame is queued (behind the backlog), how long the client has to read up to it
   * and answer; then the socket is dropped without one.
   */
  closeGraceMs: number;
  /** Once per socket cut off, with the backlog that did it: for the log line. */
  onCutOff(ws: WebSocket, bufferedBytes: number): void;
  /** Just before a socket that did not take its close frame within the grace is dropped. */
  onDrop?(ws: WebSocket): void;
}

/** Defaults shared by W1 and W2: a check a second, two seconds to take the close frame. */
export const BACKLOG_CHECK_INTERVAL_MS = 1000;
export const SLOW_READER_CLOSE_GRACE_MS = 2000;

/**
 * Bounds the send buffer of a set of sockets (Tiger Style: a limit on every buffer). The bound is
 * checked before each send and by one timer for all sockets: a stream that sends nothing would
 * otherwise notice a stuck reader only at its next frame, which may be half a minute away. A
 * socket over its bound gets a close frame with a code and reason; if it cannot take it within
 * the grace, it is dropped. One timer, unref'd; a check reads each socket's `bufferedAmount` once.
 */
export class BacklogWatch {
  private readonly sockets = new Set<WebSocket>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: BacklogWatchOptions) {
    if (!(options.maxBufferedBytes > 0 && options.checkIntervalMs > 0 && options.closeGraceMs > 0)) {
      throw new Error(`BacklogWatch: bounds must be positive, got ${JSON.stringify({ ...options, onCutOff: undefined })}`);
    }
    this.timer = setInterval(() => this.checkAll(), options.checkIntervalMs);
    this.timer.unref();
  }

  /** Watches `ws` until it closes. */
  watch(ws: WebSocket): void {
    this.sockets.add(ws);
    ws.once('close', () => this.sockets.delete(ws));
  }

  /** True when a frame may be queued on `ws`: it is open and within its bound (else it is being cut off). */
  admits(ws: WebSocket): boolean {
    return ws.readyState === WebSocket.OPEN && !this.cutOffIfOver(ws);
  }

  /** Checks every watched socket now (the timer's work; tests call it to skip the wait). */
  checkAll(): void {
    for (const ws of this.sockets) {
      if (ws.readyState === WebSocket.OPEN) this.cutOffIfOver(ws);
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

  private cutOffIfOver(ws: WebSocket): boolean {
    const bufferedBytes = ws.bufferedAmount;
    if (bufferedBytes <= this.options.maxBufferedBytes) return false;
    this.options.onCutOff(ws, bufferedBytes);
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
