import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { InvalidArgumentError, type Command } from 'commander';
import { verifyBody } from '../webhooks/signature.js';
import { publicKeyFingerprint } from '../webhooks/webhook-key.js';
import { adminPath } from './client.js';
import type { CommandContext } from './command-context.js';
import { AdminApiError, CliError } from './errors.js';
import { formatTable } from './format.js';

/** A receiver reads at most this much of a request: webhook bodies are small, flat JSON. */
const MAX_BODY_BYTES = 1024 * 1024;
const EVENT_TYPES = ['ORDER_WEBHOOK', 'GLOBAL_PAYMENT_WEBHOOK', 'FUNDING_WEBHOOK'];
const EVENT_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'];

interface Delivery {
  attempt: number;
  time: string;
  httpStatus: number;
  result: string;
  error: string;
}

interface EventRow {
  eventId: string;
  eventType: string;
  userId: string;
  objectId: string;
  objectStatus: string;
  status: string;
  attempts: number;
  createTime: string;
  updateTime: string;
  deliveries: Delivery[];
}

function integer(min: number, max: number): (text: string) => number {
  return (text) => {
    if (!/^[0-9]+$/.test(text) || Number(text) < min || Number(text) > max) throw new InvalidArgumentError(`an integer from ${min} to ${max}`);
    return Number(text);
  };
}

function choice(values: readonly string[]): (text: string) => string {
  return (text) => {
    const found = values.find((v) => v === text.toUpperCase());
    if (found === undefined) throw new InvalidArgumentError(`one of ${values.join(', ')}`);
    return found;
  };
}

const clockTime = (ms: string | number): string => (ms === '' ? '' : new Date(Number(ms)).toISOString());

function lastAttempt(row: EventRow): string {
  const last = row.deliveries[0];
  if (last === undefined) return '';
  return `#${last.attempt} ${last.result}${last.error === '' ? '' : ` (${last.error})`}`;
}

/**
 * `bourse webhooks …`: the webhook debugger (docs/webhooks.md) for people integrating: a local receiver
 * that verifies signatures, the delivery history (live with `--follow`), and resend.
 */
export function addWebhookCommands(program: Command, ctx: CommandContext, asJson: () => boolean): void {
  const webhooks = program.command('webhooks').description('the webhook debugger: receive, list and resend deliveries (area B)');
  const out = (text: string): void => void ctx.io.stdout.write(text);
  const get = async <T>(path: string): Promise<T> => (await (await ctx.client()).send('GET', path)).body as T;

  webhooks
    .command('receive')
    .description('run a local receiver that verifies each signature with the deployment key and prints the event (until Ctrl-C)')
    .requiredOption('--port <n>', 'port to listen on (0: any free port)', integer(0, 65535))
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--public-key <base64>', "the deployment's publicKey (default: asked of the server)")
    .option('--status <code>', 'HTTP status to answer verified events with (e.g. 500 to watch the retries)', integer(100, 599), 200)
    .action(async (opts: { port: number; host: string; publicKey?: string; status: number }) => {
      const publicKey = opts.publicKey ?? (await get<{ publicKey: string }>(adminPath('webhooks', 'public-key'))).publicKey;
      const server = createServer((req, res) => receive(req, res, publicKey, opts.status, (line) => out(line), asJson()));
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(opts.port, opts.host, resolve);
      });
      const { port } = server.address() as AddressInfo;
      const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
      out(`listening on http://${host}:${port}/ (key sha256 ${publicKeyFingerprint(publicKey)}); register it with POST /v2/webhook {"eventType":…,"url":"http://${host}:${port}/"}; Ctrl-C stops\n`);
      await untilStopped(ctx.stop);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

  webhooks
    .command('events')
    .description('list webhook events and their attempts, newest first; --follow prints attempts as they happen')
    .option('--follow', 'keep printing new events and attempts (until Ctrl-C)')
    .option('--user <id>', 'only this user')
    .option('--status <status>', `only ${EVENT_STATUSES.join(', ')}`, choice(EVENT_STATUSES))
    .option('--type <eventType>', `only ${EVENT_TYPES.join(', ')}`, choice(EVENT_TYPES))
    .option('--object <id>', 'only this order or funding record')
    .option('--limit <n>', 'at most this many (1–1000)', integer(1, 1000), 20)
    .option('--interval <ms>', 'how often --follow asks the server', integer(100, 60_000), 1000)
    .action(async (opts: { follow?: boolean; user?: string; status?: string; type?: string; object?: string; limit: number; interval: number }) => {
      const filters = new URLSearchParams();
      if (opts.user !== undefined) filters.set('userId', opts.user);
      if (opts.status !== undefined) filters.set('status', opts.status);
      if (opts.type !== undefined) filters.set('eventType', opts.type);
      if (opts.object !== undefined) filters.set('objectId', opts.object);
      const list = async (extra: Record<string, string>): Promise<EventRow[]> => {
        const query = new URLSearchParams([...filters, ...Object.entries(extra)]);
        return (await get<{ events: EventRow[] }>(`${adminPath('webhooks', 'events')}?${query.toString()}`)).events;
      };
      const rows = await list({ limit: String(opts.limit) });
      if (opts.follow !== true) {
        if (asJson()) out(`${JSON.stringify(rows)}\n`);
        else out(rows.length === 0 ? '(none)\n' : `${eventTable(rows).join('\n')}\n`);
        return;
      }
      await follow(ctx.stop, rows, list, opts.interval, { print: (line) => out(line), notice: (line) => void ctx.io.stderr.write(`${line}\n`) }, asJson());
    });

  webhooks
    .command('resend <eventId>')
    .description('send one event again now, with the same id and body (as B41, for any user)')
    .action(async (eventId: string) => {
      const answer = await (await ctx.client()).send('POST', adminPath('webhooks', 'events', eventId, 'resend'));
      out(asJson() ? `${answer.raw.trim()}\n` : `${eventTable([answer.body as EventRow]).join('\n')}\n`);
    });
}

function eventTable(rows: readonly EventRow[]): string[] {
  return formatTable(
    rows.map((r) => ({
      created: clockTime(r.createTime),
      eventId: r.eventId,
      eventType: r.eventType,
      user: r.userId,
      object: `${r.objectId} → ${r.objectStatus}`,
      status: r.status,
      attempts: r.attempts,
      last: lastAttempt(r),
    })),
  );
}

function untilStopped(stop: AbortSignal): Promise<void> {
  if (stop.aborted) return Promise.resolve();
  return new Promise((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }));
}

function receive(req: IncomingMessage, res: ServerResponse, publicKey: string, status: number, print: (line: string) => void, json: boolean): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  });
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const signature = String(req.headers.signature ?? '');
    let verified = false;
    try {
      verified = size <= MAX_BODY_BYTES && verifyBody(publicKey, raw, signature);
    } catch {
      verified = false;
    }
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    } catch {
      // printed as text below
    }
    const attempt = String(req.headers['x-bh-delivery-attempt'] ?? '');
    if (json) {
      print(`${JSON.stringify({ verified, attempt: Number(attempt), eventId: req.headers['x-bh-event-id'] ?? '', eventType: req.headers['x-bh-event-type'] ?? '', body: Object.keys(body).length > 0 ? body : raw.toString('utf8') })}\n`);
    } else {
      const object = body.eventType === 'FUNDING_WEBHOOK' ? `record ${String(body.txId)} (${String(body.type)}) → ${String(body.status)}` : `order ${String(body.orderId)} → ${String(body.orderStatus)}`;
      print(`${new Date().toISOString()}  ${String(req.headers['x-bh-event-type'] ?? '?')}  event ${String(req.headers['x-bh-event-id'] ?? '?')}  attempt ${attempt}  ${object}  ${verified ? 'signature ok' : 'SIGNATURE INVALID'}\n  ${raw.toString('utf8')}\n`);
    }
    // An unverified request is refused: a real receiver must not act on it either.
    const code = verified ? status : 401;
    res.writeHead(code, { 'Content-Type': 'application/json' }).end(JSON.stringify({ callbackStatus: verified && code < 300 ? 'SUCCESS' : 'FAIL' }));
  });
}

/** Events `--follow` remembers (to print each attempt once); the oldest are forgotten first. */
const FOLLOW_MEMORY = 10_000;

/** A poll that failed because the server is away (stopped, restarting, draining), not because it refused the request. */
function serverAway(error: unknown): boolean {
  return (error instanceof AdminApiError && error.status === 503) || (error instanceof CliError && error.exitCode === 2);
}

interface FollowOutput {
  /** Events and attempts, on stdout (JSON lines with --json). */
  print: (line: string) => void;
  /** What happens to the server, on stderr, so that stdout stays the events only. */
  notice: (line: string) => void;
}

/**
 * Polls the events changed since the last change seen (server times) and prints each new event,
 * each attempt and each end once, in the order they happened. A server that goes away (a restart)
 * is waited for, said once when it goes and once when it is back: the events are kept in its
 * journal, so nothing is missed meanwhile.
 */
async function follow(stop: AbortSignal, initial: EventRow[], list: (extra: Record<string, string>) => Promise<EventRow[]>, intervalMs: number, output: FollowOutput, json: boolean): Promise<void> {
  const seen = new Map<string, { attempts: number; status: string }>();
  let cursor = 0;
  let away = false;
  const line = (readable: string, record: Record<string, unknown>): void => output.print(json ? `${JSON.stringify(record)}\n` : `${readable}\n`);
  const show = (row: EventRow): void => {
    const before = seen.get(row.eventId);
    if (before === undefined) line(`${clockTime(row.createTime)}  new ${row.eventType} ${row.eventId}  user ${row.userId}  object ${row.objectId} → ${row.objectStatus}`, { kind: 'event', eventId: row.eventId, eventType: row.eventType, userId: row.userId, objectId: row.objectId, objectStatus: row.objectStatus });
    // Attempts not printed yet, oldest first; attempt 0 is the entry a deleted webhook leaves.
    const fresh = row.deliveries.filter((d) => before === undefined || d.attempt > before.attempts || (d.attempt === 0 && before.status !== row.status)).reverse();
    for (const d of fresh) line(`${clockTime(d.time)}  ${row.eventId}  attempt ${d.attempt}  ${d.result}${d.error === '' ? '' : ` (${d.error})`}  HTTP ${d.httpStatus}`, { kind: 'attempt', eventId: row.eventId, ...d });
    if (before !== undefined && before.status !== row.status) line(`${row.eventId}  now ${row.status}`, { kind: 'status', eventId: row.eventId, status: row.status });
    seen.delete(row.eventId);
    seen.set(row.eventId, { attempts: row.attempts, status: row.status });
    if (seen.size > FOLLOW_MEMORY) seen.delete(seen.keys().next().value as string);
    cursor = Math.max(cursor, Number(row.updateTime));
  };
  for (const row of [...initial].reverse()) show(row);
  while (!stop.aborted) {
    // The timer's abort listener is removed when it fires: one poll, one listener, none left behind.
    await delay(intervalMs, undefined, { signal: stop }).catch(() => undefined);
    if (stop.aborted) break;
    let rows: EventRow[];
    try {
      rows = await list({ changedSince: String(cursor), limit: '1000' });
    } catch (error) {
      if (!serverAway(error)) throw error;
      if (!away) output.notice(`the server is away: ${(error as Error).message}. Still following: waiting for it to come back (Ctrl-C stops)`);
      away = true;
      continue;
    }
    if (away) output.notice('the server is back; following again');
    away = false;
    for (const row of rows) show(row);
  }
}
