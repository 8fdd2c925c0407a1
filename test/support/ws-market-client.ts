import { gunzipSync } from 'node:zlib';
import WebSocket from 'ws';

/** One frame from the server: text, or a binary frame holding gzip-compressed text. */
export interface MarketMessage {
  binary: boolean;
  /** The frame's JSON, parsed (a binary frame is gunzipped first). */
  body: unknown;
}

export interface Closure {
  code: number;
  reason: string;
}

const DEFAULT_WAIT_MS = 5000;

/**
 * A market stream (W2) client for tests: every frame is queued as it arrives, so a test awaits
 * the next one instead of sleeping; a wait that runs out fails saying so.
 */
export class MarketProbe {
  private readonly queue: MarketMessage[] = [];
  private readonly waiters: ((message: MarketMessage) => void)[] = [];
  readonly closed: Promise<Closure>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      const text = isBinary ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
      const message = { binary: isBinary, body: JSON.parse(text) as unknown };
      const waiter = this.waiters.shift();
      if (waiter !== undefined) waiter(message);
      else this.queue.push(message);
    });
    this.closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
  }

  /** Opens `url`; rejects when the handshake is refused. */
  static open(url: string): Promise<MarketProbe> {
    const ws = new WebSocket(url);
    const probe = new MarketProbe(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(probe));
      ws.once('unexpected-response', (_request, response) => {
        reject(new Error(`handshake refused with ${response.statusCode}`));
        ws.terminate();
      });
      ws.on('error', reject);
    });
  }

  /** The next frame. */
  nextMessage(waitMs = DEFAULT_WAIT_MS): Promise<MarketMessage> {
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(deliver), 1);
        reject(new Error(`no frame within ${waitMs} ms`));
      }, waitMs);
      const deliver = (message: MarketMessage): void => {
        clearTimeout(timer);
        resolve(message);
      };
      this.waiters.push(deliver);
    });
  }

  /** The next frame's JSON; it must be a text frame. */
  async next(waitMs = DEFAULT_WAIT_MS): Promise<unknown> {
    const message = await this.nextMessage(waitMs);
    if (message.binary) throw new Error(`expected a text frame, got a binary one: ${JSON.stringify(message.body)}`);
    return message.body;
  }

  /** Frames received and not read yet. */
  get pending(): number {
    return this.queue.length;
  }

  /** Sends a request object as JSON, or a text as is. */
  send(request: object | string): void {
    this.ws.send(typeof request === 'string' ? request : JSON.stringify(request));
  }

  /** Sends a request and answers the next frame. */
  async ask(request: object | string, waitMs = DEFAULT_WAIT_MS): Promise<unknown> {
    this.send(request);
    return this.next(waitMs);
  }

  async close(): Promise<Closure> {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close();
    return this.closed;
  }
}

/** `http://…` → `ws://…` + path. */
export function wsUrl(httpUrl: string, path: string): string {
  return `${httpUrl.replace(/^http/, 'ws')}${path}`;
}
