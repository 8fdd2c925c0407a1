import { createPublicKey, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';
import type { WebhookDeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import type { WebhookEventRow } from '../../web/shared/webhook-event.js';
import type { Operator } from './fixtures.js';
import { MerchantClient } from './merchant-client.js';
import { Watch } from './watch.js';

/** One request as the receiver got it: exact bytes, headers, and whether the signature verified (docs/webhooks.md "Verifying the signature"). */
export interface Received {
  raw: Buffer;
  body: Record<string, unknown>;
  headers: http.IncomingHttpHeaders;
  verified: boolean;
  /** `Date.now()` when it arrived. */
  at: number;
}

/** What the receiver answers: a status and a body (and extra headers, e.g. `Location`), after an optional delay. */
export interface Reply {
  status: number;
  body?: string;
  delayMs?: number;
  /** Answered once this settles (a gate the test opens), after `delayMs` if both are given. */
  until?: Promise<void>;
  headers?: Record<string, string>;
}

/**
 * A real local HTTP receiver (docs/webhooks.md "Verifying the signature"): verifies every request's signature over the raw
 * bytes with the published key, never re-serialised JSON, and answers with `reply(request)`.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  reply: (r: Received) => Reply = () => ({ status: 200, body: '{"callbackStatus":"SUCCESS"}' });
  /** TCP connections accepted so far: 0 proves nothing reached this receiver, not even a TLS hello. */
  connections = 0;
  /** Requests not yet answered, per object (`orderId` or `txId`), and the most there ever were at once. */
  private readonly open = new Map<string, number>();
  private readonly peaks = new Map<string, number>();
  private openAll = 0;
  /** The most requests (of any objects) ever unanswered at once. */
  peakAll = 0;
  /** Requests whose answer came due (after its delay or gate): written, or dropped as the sender had gone. */
  answered = 0;
  private readonly watch = new Watch();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    private readonly publicKeyBase64: () => string,
  ) {}

  /** Listens on `host` (default 127.0.0.1; an IPv6 address such as `::1` gives a bracketed URL). */
  static async start(publicKeyBase64: string | (() => string), path = '/hook', host = '127.0.0.1'): Promise<WebhookReceiver> {
    const key = typeof publicKeyBase64 === 'string' ? () => publicKeyBase64 : publicKeyBase64;
    const made: { receiver?: WebhookReceiver } = {};
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => made.receiver?.take(Buffer.concat(chunks), req, res));
    });
    server.on('connection', () => {
      if (made.receiver !== undefined) made.receiver.connections++;
    });
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as AddressInfo;
    made.receiver = new WebhookReceiver(server, `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`, key);
    return made.receiver;
  }

  private take(raw: Buffer, req: http.IncomingMessage, res: http.ServerResponse): void {
    const signature = String(req.headers.signature ?? '');
    const publicKey = createPublicKey({ key: Buffer.from(this.publicKeyBase64(), 'base64'), format: 'der', type: 'spki' });
    const verified = /^[0-9a-f]+$/.test(signature) && verify('sha256', raw, publicKey, Buffer.from(signature, 'hex'));
    const got: Received = { raw, body: JSON.parse(raw.toString('utf8')) as Record<string, unknown>, headers: req.headers, verified, at: Date.now() };
    this.received.push(got);
    const object = String(got.body.orderId ?? got.body.txId ?? '');
    const open = (this.open.get(object) ?? 0) + 1;
    this.open.set(object, open);
    this.peaks.set(object, Math.max(this.peaks.get(object) ?? 0, open));
    this.peakAll = Math.max(this.peakAll, ++this.openAll);
    res.on('close', () => {
      this.open.set(object, (this.open.get(object) ?? 1) - 1);
      this.openAll--;
    });
    const reply = this.reply(got);
    const answer = (): void => {
      if (!res.destroyed) res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers }).end(reply.body ?? '');
      this.answered++;
      this.watch.changed();
    };
    const later = (): void => {
      if (reply.delayMs === undefined) answer();
      else setTimeout(answer, reply.delayMs);
    };
    if (reply.until === undefined) later();
    else void reply.until.then(later);
    this.watch.changed();
  }

  /** Resolves once `count` requests in all have arrived (fails the test after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<void> {
    return this.until(() => this.received.length >= count, () => `${count} webhook requests, got ${this.received.length}`, timeoutMs);
  }

  /** Resolves once `condition` holds, re-checked at each request and each answer (fails the test after `timeoutMs`). */
  until(condition: () => boolean, what: string | (() => string), timeoutMs?: number): Promise<void> {
    return this.watch.until(condition, what, timeoutMs);
  }

  /** Bodies of the events of one object, in arrival order. */
  of(objectId: string): Record<string, unknown>[] {
    return this.received.map((r) => r.body).filter((b) => b.orderId === objectId || b.txId === objectId);
  }

  /** The most requests of one object (`orderId` or `txId`) that were ever unanswered at once. */
  peakOf(objectId: string): number {
    return this.peaks.get(objectId) ?? 0;
  }

  /** Requests of one event, in arrival order. */
  ofEvent(eventId: string): Received[] {
    return this.received.filter((r) => r.body.eventId === eventId);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A B40 row (docs/webhooks.md "Registering"): the shape the console reads too. */
export type EventRow = WebhookEventRow;

/** B40 rows matching `params`, newest first. */
export async function webhookEvents(client: MerchantClient, params: Record<string, unknown> = {}): Promise<EventRow[]> {
  return (await client.ok<{ record: EventRow[] }>('GET', '/v2/webhook/events', { pageSize: 1000, ...params })).record;
}

/** The one B40 row of an event. */
export async function webhookEvent(client: MerchantClient, eventId: string): Promise<EventRow> {
  const row = (await webhookEvents(client)).find((r) => r.eventId === eventId);
  if (row === undefined) throw new Error(`event ${eventId} is not listed by B40`);
  return row;
}

/**
 * Waits until the delivery worker has no attempt in flight and starts none on its own (an outcome
 * committing pumps the worker, which may send the next event of the object at once).
 */
export async function settled(worker: WebhookDeliveryWorker): Promise<void> {
  for (;;) {
    await worker.idle();
    await new Promise((resolve) => setImmediate(resolve));
    if (worker.busy === 0) return;
  }
}

/** Moves the (faked) server clock to `ms`, lets the worker send what is due then, and waits for every outcome. */
export async function pumpAt(worker: WebhookDeliveryWorker, ms: number): Promise<void> {
  vi.setSystemTime(ms);
  worker.pump();
  await settled(worker);
}

/** A new token of the user from a new key (after the clock passed the old token's expiry). */
export async function reconnect(op: Operator, baseUrl: string, userId: string): Promise<MerchantClient> {
  const key = await op.newKey(userId);
  return MerchantClient.connect(baseUrl, key.apiKey, key.secretKey);
}
