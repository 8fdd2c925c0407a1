import { gunzipSync } from 'node:zlib';
import type WebSocket from 'ws';
import { DEFAULT_WAIT_MS, QueuedSocket } from './ws-client.js';

export type { Closure } from './ws-client.js';

/** One frame from the server: text, or a binary frame holding gzip-compressed text. */
export interface MarketMessage {
  binary: boolean;
  /** The frame's JSON, parsed (a binary frame is gunzipped first). */
  body: unknown;
}

/**
 * A market stream (W2) client for tests, on the shared frame queue: every frame is queued as it
 * arrives, a binary one gunzipped first.
 */
export class MarketProbe extends QueuedSocket<MarketMessage> {
  private constructor(ws: WebSocket) {
    super(ws, (data, isBinary) => {
      const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      const text = isBinary ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
      return { binary: isBinary, body: JSON.parse(text) as unknown };
    });
  }

  /** Opens `url`; rejects when the handshake is refused. */
  static open(url: string): Promise<MarketProbe> {
    return QueuedSocket.connect(url, (ws) => new MarketProbe(ws));
  }

  /** The next frame. */
  nextMessage(waitMs = DEFAULT_WAIT_MS): Promise<MarketMessage> {
    return this.nextFrame(waitMs);
  }

  /** The next frame's JSON; it must be a text frame. */
  async next(waitMs = DEFAULT_WAIT_MS): Promise<unknown> {
    const message = await this.nextMessage(waitMs);
    if (message.binary) throw new Error(`expected a text frame, got a binary one: ${JSON.stringify(message.body)}`);
    return message.body;
  }

  /** Sends a request and answers the next frame. */
  async ask(request: object | string, waitMs = DEFAULT_WAIT_MS): Promise<unknown> {
    this.send(request);
    return this.next(waitMs);
  }
}

/** `http://…` → `ws://…` + path. */
export function wsUrl(httpUrl: string, path: string): string {
  return `${httpUrl.replace(/^http/, 'ws')}${path}`;
}
