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

const DEFAULT_WAIT_MS = 5000;

/**
 * A WebSocket client for tests: every text frame is queued as it arrives, so a test awaits the
 * next one instead of sleeping; a wait that runs out fails with what was expected.
 */
export class WsProbe {
  private readonly queue: string[] = [];
  private readonly waiters: ((text: string) => void)[] = [];
  /** Resolves with the close code and reason once the socket is closed. */
  readonly closed: Promise<Closure>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const text = Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
      const waiter = this.waiters.shift();
      if (waiter !== undefined) waiter(text);
      else this.queue.push(text);
    });
    this.closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
  }

  /** Opens `url`; rejects when the server refuses the handshake. */
  static open(url: string): Promise<WsProbe> {
    const ws = new WebSocket(url);
    const probe = new WsProbe(ws);
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

  /** The next text frame, parsed. */
  async next(waitMs = DEFAULT_WAIT_MS): Promise<unknown> {
    return JSON.parse(await this.nextText(waitMs)) as unknown;
  }

  nextText(waitMs = DEFAULT_WAIT_MS): Promise<string> {
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(deliver), 1);
        reject(new Error(`no frame within ${waitMs} ms`));
      }, waitMs);
      const deliver = (text: string): void => {
        clearTimeout(timer);
        resolve(text);
      };
      this.waiters.push(deliver);
    });
  }

  /** Frames received and not yet read. */
  get pending(): number {
    return this.queue.length;
  }

  send(text: string): void {
    this.ws.send(text);
  }

  /** Closes from the client side and waits for the end. */
  async close(): Promise<Closure> {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close();
    return this.closed;
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
