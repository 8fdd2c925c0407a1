import { createPublicKey, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver got it: exact bytes, headers, and whether the signature verified (§6.3). */
export interface Received {
  raw: Buffer;
  body: Record<string, unknown>;
  headers: http.IncomingHttpHeaders;
  verified: boolean;
  /** `Date.now()` when it arrived. */
  at: number;
}

/** What the receiver answers: a status and a body, after an optional delay. */
export interface Reply {
  status: number;
  body?: string;
  delayMs?: number;
}

/**
 * A real local HTTP receiver (§6.3 "Receiver"): verifies every request's signature over the raw
 * bytes with the published key, never re-serialised JSON, and answers with `reply(request)`.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  reply: (r: Received) => Reply = () => ({ status: 200, body: '{"callbackStatus":"SUCCESS"}' });
  private waiters: { count: number; resolve: () => void }[] = [];

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    private readonly publicKeyBase64: () => string,
  ) {}

  static async start(publicKeyBase64: string | (() => string), path = '/hook'): Promise<WebhookReceiver> {
    const key = typeof publicKeyBase64 === 'string' ? () => publicKeyBase64 : publicKeyBase64;
    let receiver: WebhookReceiver | undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => receiver?.take(Buffer.concat(chunks), req, res));
    });
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}${path}`, key);
    return receiver;
  }

  private take(raw: Buffer, req: http.IncomingMessage, res: http.ServerResponse): void {
    const signature = String(req.headers.signature ?? '');
    const publicKey = createPublicKey({ key: Buffer.from(this.publicKeyBase64(), 'base64'), format: 'der', type: 'spki' });
    const verified = /^[0-9a-f]+$/.test(signature) && verify('sha256', raw, publicKey, Buffer.from(signature, 'hex'));
    const got: Received = { raw, body: JSON.parse(raw.toString('utf8')) as Record<string, unknown>, headers: req.headers, verified, at: Date.now() };
    this.received.push(got);
    const reply = this.reply(got);
    const answer = (): void => {
      if (res.destroyed) return;
      res.writeHead(reply.status, { 'Content-Type': 'application/json' }).end(reply.body ?? '');
    };
    if (reply.delayMs === undefined) answer();
    else setTimeout(answer, reply.delayMs);
    this.waiters = this.waiters.filter((w) => {
      if (this.received.length < w.count) return true;
      w.resolve();
      return false;
    });
  }

  /** Resolves once `count` requests in all have arrived (fails the test after `timeoutMs`). */
  waitFor(count: number, timeoutMs = 10_000): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`waited for ${count} webhook requests, got ${this.received.length}`)), timeoutMs);
      this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /** Bodies of the events of one object, in arrival order. */
  of(objectId: string): Record<string, unknown>[] {
    return this.received.map((r) => r.body).filter((b) => b.orderId === objectId || b.txId === objectId);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
