import WebSocket from 'ws';

export interface Closure {
  code: number;
  reason: string;
}

export interface RefusedHandshake {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

export const DEFAULT_WAIT_MS = 5000;

/**
 * A WebSocket client for tests that queues every frame as it arrives (after `decode`; a frame it
 * answers `undefined` for is dropped), so a test awaits the next one instead of sleeping; a wait
 * that runs out fails with what was expected. WsProbe (W1) and MarketProbe (W2) build on it.
 */
export abstract class QueuedSocket<F> {
  private readonly queue: F[] = [];
  private readonly waiters: ((frame: F) => void)[] = [];
  /** Resolves with the close code and reason once the socket is closed. */
  readonly closed: Promise<Closure>;

  protected constructor(
    readonly ws: WebSocket,
    decode: (data: WebSocket.RawData, isBinary: boolean) => F | undefined,
  ) {
    ws.on('message', (data, isBinary) => {
      const frame = decode(data, isBinary);
      if (frame === undefined) return;
      const waiter = this.waiters.shift();
      if (waiter !== undefined) waiter(frame);
      else this.queue.push(frame);
    });
    this.closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
  }

  /** Opens `url` and wraps it with `wrap`; rejects when the server refuses the handshake. */
  protected static connect<P>(url: string, wrap: (ws: WebSocket) => P): Promise<P> {
    const ws = new WebSocket(url);
    const probe = wrap(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(probe));
      ws.once('unexpected-response', (_request, response) => {
        reject(new Error(`handshake refused with ${response.statusCode}`));
        ws.terminate();
      });
      // After the open, errors end in 'close', which `closed` reports.
      ws.on('error', reject);
    });
  }

  /** The next queued frame. */
  protected nextFrame(waitMs = DEFAULT_WAIT_MS): Promise<F> {
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(deliver), 1);
        reject(new Error(`no frame within ${waitMs} ms`));
      }, waitMs);
      const deliver = (frame: F): void => {
        clearTimeout(timer);
        resolve(frame);
      };
      this.waiters.push(deliver);
    });
  }

  /** Frames received and not yet read. */
  get pending(): number {
    return this.queue.length;
  }

  /** Sends a request object as JSON, or a text as is. */
  send(request: object | string): void {
    this.ws.send(typeof request === 'string' ? request : JSON.stringify(request));
  }

  /** Closes from the client side and waits for the end. */
  async close(): Promise<Closure> {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close();
    return this.closed;
  }
}

/** A user stream (W1) client for tests: text frames are queued, binary frames are ignored. */
export class WsProbe extends QueuedSocket<string> {
  private constructor(ws: WebSocket) {
    super(ws, (data, isBinary) => {
      if (isBinary) return undefined;
      return Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
    });
  }

  /** Opens `url`; rejects when the server refuses the handshake. */
  static open(url: string): Promise<WsProbe> {
    return QueuedSocket.connect(url, (ws) => new WsProbe(ws));
  }

  /** The next text frame, parsed. */
  async next(waitMs = DEFAULT_WAIT_MS): Promise<unknown> {
    return JSON.parse(await this.nextText(waitMs)) as unknown;
  }

  nextText(waitMs = DEFAULT_WAIT_MS): Promise<string> {
    return this.nextFrame(waitMs);
  }
}

/** Tries a handshake that the server must refuse; answers its HTTP status, headers and JSON body. */
export function refusedHandshake(url: string): Promise<RefusedHandshake> {
  const ws = new WebSocket(url);
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.terminate();
      reject(new Error(`handshake to ${url} was accepted`));
    });
    ws.on('error', () => undefined);
    ws.once('unexpected-response', (_request, response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
      });
    });
  });
}
