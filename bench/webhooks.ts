/**
 * Webhooks benchmark (docs/webhooks.md): deliveries to a local receiver while payment flows run, against
 * the rate at which one core signs webhook bodies, measured in the same run (the RSA-2048 signature
 * the spec demands is a delivery's largest cost, so it is the ceiling).
 *
 *   deliveries    merchant users with ORDER_WEBHOOK and FUNDING_WEBHOOK registered (B36) on one
 *                 local receiver, each user on its own path of it (as each merchant has its own
 *                 URL in the field: the cap of docs/webhooks.md "Answering, retries, order", 16
 *                 requests at once to one URL, holds per merchant, not for all of them), run
 *                 on-ramp flows (bench/payments-setup.ts: quote, on-ramp, sandbox pay → 60),
 *                 each of which commits four order events (10, 40, 50, 60); paid the exact
 *                 amount, an order makes no funding record, so FUNDING_WEBHOOK, registered all
 *                 the same, sends nothing here (the events are counted by type). Figures:
 *                 deliveries/s (signature-verified requests at the receiver per second of flows),
 *                 and commit to receipt: the receiver's clock at the request's end minus the body's
 *                 `updateTime`, the time stamp of the command that made the change (the
 *                 sequencer's clock, ms; same machine, same clock), per event, first receipt.
 *   flows         the same flows' own rate and latency; and, as a peer, flows of merchant users
 *                 without webhooks: the server CPU a flow costs with and without its deliveries
 *                 tells what a delivery costs.
 *   signing       bench/webhook-signing.ts: the server's own key (read from its data directory)
 *                 signs bodies the receiver got, one after another on this process's main thread.
 * After a warm-up each, the targets' measured segments run in turns (as bench/http.ts's), so that
 * load from other processes falls on all of them alike. When a webhook segment's flows stop, the
 * outbox is drained (O20 shows no PENDING event) before the next segment, unmeasured: every event
 * of the segment is then received and in the latencies, and no leftover delivery work runs beside
 * another target's segment. That makes each webhook segment start from an empty outbox, so the
 * segments are few and long (ROUNDS) against the 1 s latency target. Only events committed inside
 * a measured segment count for the latencies. The backlog a segment leaves and how fast it drains
 * with no flows running are printed, and so is where commit to receipt went for the last events
 * (O20's attempt records: waiting in the outbox, then signing and sending). The quote limit of docs/merchant-payments.md "Rate limits" per
 * user is met as bench/payments.ts meets it, with users set up between segments as the rate needs.
 *
 * Processes (the machine this targets has 2 cores): the Bourse server runs in a child process, as in
 * bench/payments.ts; with the core inline (the default) its HTTP thread does the flows, the
 * commits and the delivery worker's signing and sending, and needs a core of its own. The load
 * generator (the flow loops) and the receiver share this process and the other core: a third process would compete for that same core, and the receiver here hands
 * its receipts to the checks without any IPC. The cost is that receipts are time-stamped on a loop
 * the flow loops also use: the bench's event-loop delay is printed next to the latencies, to show
 * how much of them it can be. Signing runs only while the rest is idle.
 *
 * The receiver is a plain node:http server: it verifies the docs/webhooks.md "Verifying the signature" signature over the raw bytes with
 * the deployment's public key (O22; every B36 answer must show the same), answers 200
 * {"callbackStatus":"SUCCESS"} at once (401 if the signature fails), and records the receipt.
 * At the end it checks that every request verified, that no eventId came with two different
 * bodies and no object's status went backwards (these flows only move statuses up), and the
 * server's count of events still PENDING, FAILED and DELIVERED (O20).
 *
 *   node --import tsx bench/webhooks.ts
 *
 * BENCH_WEBHOOKS_SECONDS (default 12, at least 3) measured per target, BENCH_WEBHOOKS_LOOPS (default
 * 32) concurrent flows, BENCH_WEBHOOKS_USERS (default 64) merchant users at least per set;
 * BENCH_WEBHOOKS_PROFILE=<dir> runs the Bourse child under `--cpu-prof` and writes its profile there.
 */

import { createPrivateKey, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { CpuMeter } from './cpu-meter.js';
import { startChildServer, type ChildServer } from './http-child.js';
import { adminRequest, BOURSE_ENTRY, bourseEnv, positiveIntegerFromEnv, WARMUP_SECONDS } from './http.js';
import {
  addMerchantUsers,
  closeFlowConnections,
  flowNotes,
  MerchantPool,
  newFlowTally,
  preparePaymentsBourse,
  REQUESTS_PER_FLOW,
  QUOTES_PER_USER_MINUTE,
  runFlows,
  type MerchantUser,
  type MerchantUserOptions,
  type UserCall,
} from './payments-setup.js';
import { elapsedNs, formatCount, formatNs, summarizeLatencies, table } from './stats.js';
import { signFor } from './webhook-signing.js';
import { WEBHOOK_KEY_FILE } from '../src/webhooks/webhook-key.js';

const DEFAULT_SECONDS = 12;
/** Segments per target: few, as each webhook segment starts from an empty outbox (see above). */
const ROUNDS = 3;
const DEFAULT_LOOPS = 32;
const DEFAULT_USERS = 64;
const EVENT_TYPES = ['ORDER_WEBHOOK', 'FUNDING_WEBHOOK'] as const;
const RECEIVER_PATH = '/bourse-webhooks';
const SUCCESS_REPLY = '{"callbackStatus":"SUCCESS"}';
/** How long a drain may take before the bench goes on and reports what was left. */
const DRAIN_TIMEOUT_MS = 20_000;
const DRAIN_POLL_MS = 100;
/** A drain rate is shown only for a backlog this large: smaller ones drain within a poll or two. */
const MIN_BACKLOG_FOR_RATE = 100;
/** Before a segment, the users must have quotes left this minute for this many times its flows at the best rate seen so far. */
const QUOTA_MARGIN = 3;
/** O20 answers at most this many events: the last segment's, for the breakdown of commit to receipt. */
const BREAKDOWN_EVENTS = 1000;

/** Bodies the receiver keeps for the signing target to sign. */
const SIGNING_SAMPLES = 64;

const TARGET_SHARE_OF_SIGNING = 0.5;
const TARGET_P99_MS = 1000;

interface Settings {
  seconds: number;
  loops: number;
  users: number;
  profileDir: string | undefined;
}

function settingsFromEnv(): Settings {
  const profile = process.env.BENCH_WEBHOOKS_PROFILE;
  return {
    seconds: positiveIntegerFromEnv('BENCH_WEBHOOKS_SECONDS', DEFAULT_SECONDS, ROUNDS),
    loops: positiveIntegerFromEnv('BENCH_WEBHOOKS_LOOPS', DEFAULT_LOOPS, 1),
    users: positiveIntegerFromEnv('BENCH_WEBHOOKS_USERS', DEFAULT_USERS, 1),
    profileDir: profile === undefined || profile === '' ? undefined : resolve(profile),
  };
}

/** One event as the receiver first got it. */
interface Receipt {
  /** The exact body, to compare later copies with. */
  body: string;
  eventType: string;
  /** The body's `updateTime`: when the change committed. */
  commitMs: number;
  /** `Date.now()` when the first copy had arrived whole. */
  receivedMs: number;
}

/** The local receiver of docs/webhooks.md "Verifying the signature": verifies, answers at once, records. */
class WebhookReceiver {
  readonly receipts = new Map<string, Receipt>();
  requests = 0;
  /** Requests whose signature verified: the deliveries. */
  verified = 0;
  unverified = 0;
  /** The same eventId again with the same bytes: allowed (at-least-once), not expected from a healthy receiver. */
  repeats = 0;
  /** The same eventId with other bytes: never allowed. */
  differentBodies = 0;
  /** Not JSON with eventId and updateTime, or X-BH-Event-Id not the body's eventId. */
  malformed = 0;
  /** First receipts of an object's status lower than one it had already sent. */
  outOfOrder = 0;
  /** The first bodies received, for the signing target. */
  readonly samples: Buffer[] = [];
  private readonly highestStatus = new Map<string, number>();
  private readonly server: Server;
  private readonly publicKey: KeyObject;
  url = '';

  private constructor(publicKeyBase64: string) {
    // Parsed once: crypto.verify with a KeyObject costs a tenth of one that parses the DER each time.
    this.publicKey = createPublicKey({ key: Buffer.from(publicKeyBase64, 'base64'), format: 'der', type: 'spki' });
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => this.take(Buffer.concat(chunks), req, res));
    });
    // The sender keeps its connections alive; so does the receiver, for longer than a drain.
    this.server.keepAliveTimeout = 60_000;
  }

  static async start(publicKeyBase64: string): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(publicKeyBase64);
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}${RECEIVER_PATH}`;
    return receiver;
  }

  private take(raw: Buffer, req: IncomingMessage, res: ServerResponse): void {
    const receivedMs = Date.now();
    this.requests++;
    const signature = req.headers.signature;
    const ok = typeof signature === 'string' && /^[0-9a-f]+$/.test(signature) && verify('sha256', raw, this.publicKey, Buffer.from(signature, 'hex'));
    // Answer first, work afterwards (docs/webhooks.md "Answering, retries, order").
    if (ok) res.writeHead(200, { 'Content-Type': 'application/json' }).end(SUCCESS_REPLY);
    else res.writeHead(401).end();
    if (!ok) {
      this.unverified++;
      return;
    }
    this.verified++;
    if (this.samples.length < SIGNING_SAMPLES) this.samples.push(raw);
    const body = raw.toString('utf8');
    let fields: Record<string, unknown>;
    try {
      fields = JSON.parse(body) as Record<string, unknown>;
    } catch {
      this.malformed++;
      return;
    }
    const { eventId, eventType, updateTime } = fields;
    if (typeof eventId !== 'string' || typeof eventType !== 'string' || typeof updateTime !== 'string' || req.headers['x-bh-event-id'] !== eventId) {
      this.malformed++;
      return;
    }
    const seen = this.receipts.get(eventId);
    if (seen !== undefined) {
      if (seen.body === body) this.repeats++;
      else this.differentBodies++;
      return;
    }
    this.receipts.set(eventId, { body, eventType, commitMs: Number(updateTime), receivedMs });
    const object = `${eventType}:${String(fields.orderId ?? fields.txId)}`;
    const status = Number(fields.orderStatus ?? fields.status);
    if (status < (this.highestStatus.get(object) ?? -Infinity)) this.outOfOrder++;
    else this.highestStatus.set(object, status);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

interface FlowFigures {
  label: string;
  flowsPerSecond: number;
  flows: number;
  failed: number;
  p50Ns: number;
  p99Ns: number;
  maxNs: number;
  serverCores: number | undefined;
  httpThreadCores: number | undefined;
  benchCores: number;
  notes: string[];
}

/**
 * Flows from one set of users, measured in segments. The 60 quotes of docs/merchant-payments.md "Rate limits" a user a clock minute are
 * fixed, so before each segment (unmeasured) more users are set up, with `addUsers`, until those
 * there have quotes left this minute for QUOTA_MARGIN times the segment at the best rate seen.
 */
class FlowTarget {
  readonly tally = newFlowTally();
  readonly cpu: CpuMeter;
  private peakRate = 0;

  constructor(
    readonly label: string,
    private readonly server: ChildServer,
    readonly pool: MerchantPool,
    private readonly loops: number,
    private readonly addUsers: (count: number) => Promise<void>,
  ) {
    this.cpu = new CpuMeter(server);
  }

  /** Unmeasured (on the users set up first); answers the flows completed. */
  async warmUp(seconds: number): Promise<number> {
    const tally = newFlowTally();
    await runFlows(this.server.url, this.pool, this.loops, seconds, tally);
    // Per second of flows asked for, not of wall time: a warm-up that used the users' minute up and
    // waited for the next would otherwise read as a slow server, and no users would be added.
    this.peakRate = tally.samplesNs.length / seconds;
    // Only the measured segments' waits make a rate the bench's rather than the server's.
    this.pool.waits = 0;
    return tally.samplesNs.length;
  }

  /** `measuring` is called right before the measured flows start (after any set-up). */
  async runSegment(seconds: number, measuring?: () => void): Promise<void> {
    const short = QUOTA_MARGIN * this.peakRate * seconds - this.pool.quotesLeft();
    if (short > 0) await this.addUsers(this.pool.users.length + Math.ceil(short / QUOTES_PER_USER_MINUTE));
    measuring?.();
    const flowsBefore = this.tally.samplesNs.length;
    await this.cpu.measure(() => runFlows(this.server.url, this.pool, this.loops, seconds, this.tally));
    this.peakRate = Math.max(this.peakRate, (this.tally.samplesNs.length - flowsBefore) / seconds);
  }

  result(): FlowFigures {
    const { samplesNs, failures } = this.tally;
    if (samplesNs.length === 0) throw new Error(`${this.label}: no flow completed; failures: ${JSON.stringify([...failures])}`);
    const latency = summarizeLatencies(Float64Array.from(samplesNs));
    const { failed, notes } = flowNotes(this.pool, this.tally, 'BENCH_WEBHOOKS_USERS');
    const cores = this.cpu.cores();
    return {
      label: this.label,
      flowsPerSecond: samplesNs.length / this.cpu.wallSeconds,
      flows: samplesNs.length,
      failed,
      ...latency,
      serverCores: cores.server,
      httpThreadCores: cores.httpThread,
      benchCores: cores.bench,
      notes,
    };
  }
}

interface DeliveryFigures {
  deliveriesPerSecond: number;
  deliveries: number;
  /** Events committed inside the measured segments, all received (drained) unless `undrained`. */
  events: number;
  eventsByType: Map<string, number>;
  p50Ns: number;
  p99Ns: number;
  maxNs: number;
  backlogs: number[];
  drainMs: number[];
  undrained: number;
  benchLoopDelayP99Ns: number;
  benchLoopDelayMaxNs: number;
  drainServerCores: number | undefined;
  drainHttpThreadCores: number | undefined;
}

/** The webhook users' flows plus what the receiver got while they ran. */
class DeliveryTarget {
  readonly flows: FlowTarget;
  private deliveries = 0;
  private readonly windows: { fromMs: number; toMs: number }[] = [];
  private readonly backlogs: number[] = [];
  private readonly drainMs: number[] = [];
  private undrained = 0;
  /** The bench's event-loop delay, worst segment's. */
  private loopDelayP99Ns = 0;
  private loopDelayMaxNs = 0;
  /** The server's CPU while the measured segments' backlogs drained, no flows running. */
  private readonly drainCpu: CpuMeter;

  constructor(
    server: ChildServer,
    pool: MerchantPool,
    loops: number,
    private readonly receiver: WebhookReceiver,
    private readonly pending: () => Promise<number>,
    addUsers: (count: number) => Promise<void>,
  ) {
    this.flows = new FlowTarget('flows, webhooks', server, pool, loops, addUsers);
    this.drainCpu = new CpuMeter(server);
  }

  async warmUp(seconds: number): Promise<number> {
    const flows = await this.flows.warmUp(seconds);
    await this.drain();
    return flows;
  }

  async runSegment(seconds: number): Promise<void> {
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    let verifiedBefore = 0;
    let fromMs = 0;
    await this.flows.runSegment(seconds, () => {
      verifiedBefore = this.receiver.verified;
      fromMs = Date.now();
      loopDelay.enable();
    });
    loopDelay.disable();
    this.windows.push({ fromMs, toMs: Date.now() });
    this.loopDelayP99Ns = Math.max(this.loopDelayP99Ns, loopDelay.percentile(99));
    this.loopDelayMaxNs = Math.max(this.loopDelayMaxNs, loopDelay.max);
    this.deliveries += this.receiver.verified - verifiedBefore;
    const { backlog, ms, left } = await this.drainCpu.measure(() => this.drain());
    this.backlogs.push(backlog);
    this.drainMs.push(ms);
    this.undrained += left;
  }

  /** Waits until no event is pending (or DRAIN_TIMEOUT_MS); `backlog` is the first count. */
  private async drain(): Promise<{ backlog: number; ms: number; left: number }> {
    const started = Date.now();
    const backlog = await this.pending();
    for (let left = backlog; ; left = await this.pending()) {
      if (left === 0 || Date.now() - started >= DRAIN_TIMEOUT_MS) return { backlog, ms: Date.now() - started, left };
      await sleep(DRAIN_POLL_MS);
    }
  }

  result(): DeliveryFigures {
    const inWindow = (ms: number): boolean => this.windows.some((w) => ms >= w.fromMs && ms <= w.toMs);
    const latenciesNs: number[] = [];
    const eventsByType = new Map<string, number>();
    for (const receipt of this.receiver.receipts.values()) {
      if (!inWindow(receipt.commitMs)) continue;
      latenciesNs.push(1e6 * (receipt.receivedMs - receipt.commitMs));
      eventsByType.set(receipt.eventType, (eventsByType.get(receipt.eventType) ?? 0) + 1);
    }
    if (latenciesNs.length === 0) throw new Error('no webhook event committed in a measured segment was received');
    const latency = summarizeLatencies(Float64Array.from(latenciesNs));
    return {
      deliveriesPerSecond: this.deliveries / this.flows.cpu.wallSeconds,
      deliveries: this.deliveries,
      events: latenciesNs.length,
      eventsByType,
      ...latency,
      backlogs: this.backlogs,
      drainMs: this.drainMs,
      undrained: this.undrained,
      benchLoopDelayP99Ns: this.loopDelayP99Ns,
      benchLoopDelayMaxNs: this.loopDelayMaxNs,
      drainServerCores: this.drainCpu.cores().server,
      drainHttpThreadCores: this.drainCpu.cores().httpThread,
    };
  }
}

/** One core's signing rate: the server's key over received bodies, on this thread, in segments taken in turns with the flows. */
class SigningTarget {
  private signatures = 0;
  private seconds = 0;
  private cpuSeconds = 0;

  constructor(
    private readonly privateKey: KeyObject,
    private readonly receiver: WebhookReceiver,
  ) {}

  /** Unmeasured: the first signatures pay for loading the key's code paths. */
  warmUp(seconds: number): void {
    signFor(this.privateKey, this.receiver.samples, seconds);
  }

  runSegment(seconds: number): void {
    const tally = signFor(this.privateKey, this.receiver.samples, seconds);
    this.signatures += tally.signatures;
    this.seconds += tally.seconds;
    this.cpuSeconds += tally.cpuSeconds;
  }

  result(): SigningFigures {
    return { signaturesPerSecond: this.signatures / this.seconds, signatures: this.signatures, cpuPerSignatureUs: (1e6 * this.cpuSeconds) / this.signatures, cores: this.cpuSeconds / this.seconds, bodies: this.receiver.samples.length };
  }
}

interface SigningFigures {
  /** Per second of wall time: the ceiling, taken as the deliveries are, on a machine shared alike. */
  signaturesPerSecond: number;
  signatures: number;
  /** This process's CPU per signature (the loop is its only work meanwhile). */
  cpuPerSignatureUs: number;
  /** CPU over wall time: below 1.00 when other processes took part of the core. */
  cores: number;
  /** Distinct bodies signed in turn. */
  bodies: number;
}

/** Where commit to receipt went, ms, from O20's attempt records of the last events delivered. */
interface Breakdown {
  events: number;
  /** Commit to the attempt's start (the worker's clock when it took the event up, before signing it): waiting for the object's previous event, a free slot, a pump. */
  waitNs: ReturnType<typeof summarizeLatencies>;
  /** Attempt start to receipt: signing, the pump's other events, the request. */
  sendNs: ReturnType<typeof summarizeLatencies>;
  /** The attempt's `durationMs`: request sent to reply read. */
  replyNs: ReturnType<typeof summarizeLatencies>;
}

interface O20Event {
  eventId: string;
  createTime: string;
  deliveries: { attempt: number; time: string; durationMs: number }[];
}

async function breakdown(url: string, adminToken: string, receiver: WebhookReceiver): Promise<Breakdown | undefined> {
  const { events } = (await adminRequest(url, adminToken, 'GET', `/webhooks/events?status=DELIVERED&limit=${BREAKDOWN_EVENTS}`)) as { events: O20Event[] };
  const wait: number[] = [];
  const send: number[] = [];
  const reply: number[] = [];
  for (const event of events) {
    const last = event.deliveries[0];
    const receipt = receiver.receipts.get(event.eventId);
    if (last === undefined || receipt === undefined) continue;
    wait.push(1e6 * (Number(last.time) - Number(event.createTime)));
    send.push(1e6 * (receipt.receivedMs - Number(last.time)));
    reply.push(1e6 * last.durationMs);
  }
  if (wait.length === 0) return undefined;
  const summary = (samples: number[]): ReturnType<typeof summarizeLatencies> => summarizeLatencies(Float64Array.from(samples));
  return { events: wait.length, waitNs: summary(wait), sendNs: summary(send), replyNs: summary(reply) };
}

/** The server's side at the end, from O20. */
interface OutboxCounts {
  pending: number;
  failed: number;
  delivered: number;
}

async function outboxCount(url: string, adminToken: string, status: 'PENDING' | 'FAILED' | 'DELIVERED'): Promise<number> {
  return ((await adminRequest(url, adminToken, 'GET', `/webhooks/events?status=${status}&limit=1`)) as { total: number }).total;
}

export interface WebhooksBenchResult {
  deliveries: DeliveryFigures;
  withWebhooks: FlowFigures;
  withoutWebhooks: FlowFigures;
  signing: SigningFigures;
  receiver: Pick<WebhookReceiver, 'requests' | 'verified' | 'unverified' | 'repeats' | 'differentBodies' | 'malformed' | 'outOfOrder'> & { distinct: number };
  outbox: OutboxCounts;
  breakdown: Breakdown | undefined;
  notes: string[];
}

async function runAll(server: ChildServer, dataDir: string, settings: Settings): Promise<WebhooksBenchResult> {
  const { url } = server;
  const { adminToken } = await preparePaymentsBourse(server, dataDir);
  const { publicKey } = (await adminRequest(url, adminToken, 'GET', '/webhooks/public-key')) as { publicKey: string };
  const receiver = await WebhookReceiver.start(publicKey);
  try {
    let registered = 0;
    const registerWebhooks = async (call: UserCall): Promise<void> => {
      // Each merchant its own URL, as in the field: the per-URL cap is per merchant.
      const url = `${receiver.url}/${registered++}`;
      for (const eventType of EVENT_TYPES) {
        const hook = await call<{ publicKey: string }>('POST', '/v2/webhook', { eventType, url });
        if (hook.publicKey !== publicKey) throw new Error(`B36 showed another public key than O22: ${hook.publicKey}`);
      }
    };
    const hooked: MerchantUser[] = [];
    const plain: MerchantUser[] = [];
    const hookedOptions: MerchantUserOptions = { prefix: 'hooked', extra: registerWebhooks };
    const plainOptions: MerchantUserOptions = { prefix: 'plain' };
    const setUpStarted = process.hrtime.bigint();
    await addMerchantUsers(url, adminToken, hooked, settings.users, hookedOptions);
    await addMerchantUsers(url, adminToken, plain, settings.users, plainOptions);
    console.log(`  ${hooked.length} merchant users with both webhooks and ${plain.length} without set up in ${formatNs(elapsedNs(setUpStarted))}`);

    const pending = (): Promise<number> => outboxCount(url, adminToken, 'PENDING');
    const delivery = new DeliveryTarget(server, new MerchantPool(hooked), settings.loops, receiver, pending, (count) => addMerchantUsers(url, adminToken, hooked, count, hookedOptions));
    const bare = new FlowTarget('flows, no webhooks', server, new MerchantPool(plain), settings.loops, (count) => addMerchantUsers(url, adminToken, plain, count, plainOptions));
    // The key the server signs with: its data directory's (it made it on first start).
    const signing = new SigningTarget(createPrivateKey(readFileSync(join(dataDir, WEBHOOK_KEY_FILE))), receiver);

    const hookedRate = (await delivery.warmUp(WARMUP_SECONDS)) / WARMUP_SECONDS;
    const plainRate = (await bare.warmUp(WARMUP_SECONDS)) / WARMUP_SECONDS;
    console.log(`  warm-up: ${formatCount(hookedRate)} flows/s with webhooks, ${formatCount(plainRate)} without`);
    signing.warmUp(WARMUP_SECONDS / 4);

    for (let round = 0; round < ROUNDS; round++) {
      await delivery.runSegment(settings.seconds / ROUNDS);
      await bare.runSegment(settings.seconds / ROUNDS);
      signing.runSegment(settings.seconds / ROUNDS);
    }

    const outbox: OutboxCounts = { pending: await pending(), failed: await outboxCount(url, adminToken, 'FAILED'), delivered: await outboxCount(url, adminToken, 'DELIVERED') };
    const verifyLedger = (await adminRequest(url, adminToken, 'GET', '/verify')) as { ok?: unknown };
    const { requests, verified, unverified, repeats, differentBodies, malformed, outOfOrder } = receiver;
    return {
      deliveries: delivery.result(),
      withWebhooks: delivery.flows.result(),
      withoutWebhooks: bare.result(),
      signing: signing.result(),
      receiver: { requests, verified, unverified, repeats, differentBodies, malformed, outOfOrder, distinct: receiver.receipts.size },
      outbox,
      breakdown: await breakdown(url, adminToken, receiver),
      notes: [`ledger verify at the end: ${verifyLedger.ok === true ? 'ok' : JSON.stringify(verifyLedger)}`],
    };
  } finally {
    await receiver.close();
  }
}

const { header, row } = table([
  { title: 'run', width: 18, align: 'left' },
  { title: 'ok/s', width: 7, align: 'right' },
  { title: 'p50', width: 8, align: 'right' },
  { title: 'p99', width: 8, align: 'right' },
  { title: 'max', width: 8, align: 'right' },
  { title: 'ok', width: 8, align: 'right' },
  { title: 'failed', width: 6, align: 'right' },
  { title: 'server', width: 6, align: 'right' },
  { title: 'http', width: 5, align: 'right' },
  { title: 'µs/op', width: 5, align: 'right' },
  { title: 'bench', width: 5, align: 'right' },
  { title: '÷sign', width: 6, align: 'right' },
]);

const cores = (value: number | undefined): string => (value === undefined ? '-' : value.toFixed(2));
const share = (perSecond: number, signing: SigningFigures): string => `${((100 * perSecond) / signing.signaturesPerSecond).toFixed(1)}%`;
/** Server CPU per operation, µs. */
const cpuPerOp = (serverCores: number | undefined, perSecond: number): number | undefined => (serverCores === undefined ? undefined : (1e6 * serverCores) / perSecond);
const micros = (value: number | undefined): string => (value === undefined ? '-' : value.toFixed(0));

function flowRow(f: FlowFigures, signing: SigningFigures): string {
  const perFlow = cpuPerOp(f.serverCores, f.flowsPerSecond);
  return row([f.label, formatCount(f.flowsPerSecond), formatNs(f.p50Ns), formatNs(f.p99Ns), formatNs(f.maxNs), formatCount(f.flows), formatCount(f.failed), cores(f.serverCores), cores(f.httpThreadCores), micros(perFlow), cores(f.benchCores), share(f.flowsPerSecond, signing)]);
}

function report(r: WebhooksBenchResult): void {
  const { deliveries: d, withWebhooks: w, withoutWebhooks: b, signing, receiver, outbox } = r;
  console.log(header);
  const bad = receiver.unverified + receiver.differentBodies + receiver.malformed;
  console.log(
    row(['deliveries', formatCount(d.deliveriesPerSecond), formatNs(d.p50Ns), formatNs(d.p99Ns), formatNs(d.maxNs), formatCount(d.deliveries), formatCount(bad), '', '', '', '', share(d.deliveriesPerSecond, signing)]),
  );
  const seconds = w.flows / w.flowsPerSecond;
  const byType = [...d.eventsByType].map(([type, n]) => `${type} ${formatCount(n)}`).join(', ');
  console.log(`  latencies: commit (body updateTime) to receipt of the ${formatCount(d.events)} events committed in the segments (${byType}): ${formatCount(d.events / seconds)} committed/s, ${(d.events / w.flows).toFixed(2)} per flow`);
  const drainRates = d.backlogs.map((backlog, i) => {
    const perSecond = (1000 * backlog) / d.drainMs[i];
    return backlog >= MIN_BACKLOG_FOR_RATE && d.drainMs[i] > 0 ? `${formatCount(perSecond)}/s (${share(perSecond, signing)} of one core's signing)` : '-';
  });
  console.log(
    `  outbox backlog when the flows stopped: ${d.backlogs.map(formatCount).join(', ')} events; drained (no flows running) in ${d.drainMs.map((ms) => `${ms} ms`).join(', ')}, ` +
      `i.e. ${drainRates.join(', ')}, the server using ${cores(d.drainServerCores)} cores (main thread ${cores(d.drainHttpThreadCores)})${d.undrained > 0 ? `; ${formatCount(d.undrained)} NOT drained within ${DRAIN_TIMEOUT_MS} ms` : ''}`,
  );
  const k = r.breakdown;
  if (k !== undefined) {
    const ms = (ns: number): string => `${(ns / 1e6).toFixed(0)}`;
    const pair = (l: { p50Ns: number; p99Ns: number }): string => `${ms(l.p50Ns)}/${ms(l.p99Ns)} ms`;
    console.log(
      `  commit to receipt of the last ${formatCount(k.events)} events (O20's attempts), p50/p99: commit to attempt start (waiting for the object's previous event, a slot, a pump) ${pair(k.waitNs)}; ` +
        `attempt start to receipt (signing, the pump's other events, the request) ${pair(k.sendNs)}; request to reply read ${pair(k.replyNs)}`,
    );
  }
  console.log(`  bench event-loop delay in the segments (receipts are stamped on it): p99 ${formatNs(d.benchLoopDelayP99Ns)}, max ${formatNs(d.benchLoopDelayMaxNs)}`);
  console.log(flowRow(w, signing));
  for (const note of w.notes) console.log(`  ${note}`);
  console.log(flowRow(b, signing));
  for (const note of b.notes) console.log(`  ${note}`);
  const withCpu = cpuPerOp(w.serverCores, w.flowsPerSecond);
  const withoutCpu = cpuPerOp(b.serverCores, b.flowsPerSecond);
  if (withCpu !== undefined && withoutCpu !== undefined) {
    const perFlowEvents = d.events / w.flows;
    const perDelivery = (withCpu - withoutCpu) / perFlowEvents;
    const withMain = cpuPerOp(w.httpThreadCores, w.flowsPerSecond);
    const withoutMain = cpuPerOp(b.httpThreadCores, b.flowsPerSecond);
    // The main thread sends and records; the rest is mostly the thread pool's signing.
    const mainPerDelivery = withMain === undefined || withoutMain === undefined ? undefined : (withMain - withoutMain) / perFlowEvents;
    const split = mainPerDelivery === undefined ? '' : ` (main thread ${mainPerDelivery.toFixed(0)} µs, other threads ${(perDelivery - mainPerDelivery).toFixed(0)} µs)`;
    console.log(
      `  server CPU per flow ${withCpu.toFixed(0)} µs with its ${perFlowEvents.toFixed(2)} deliveries, ${withoutCpu.toFixed(0)} µs without: ≈ ${perDelivery.toFixed(0)} µs per delivery${split}, ` +
        `${formatCount(1e6 / perDelivery)} deliveries/s were they a core's only work`,
    );
  }
  console.log(row(['signing, 1 thread', formatCount(signing.signaturesPerSecond), '', '', '', formatCount(signing.signatures), '', '', '', micros(signing.cpuPerSignatureUs), cores(signing.cores), '100.0%']));
  console.log(
    `  RSA-2048 PKCS#1 v1.5 SHA-256 with the server's key, over ${signing.bodies} received bodies in turn, one at a time on the bench's main thread: ` +
      `${micros(signing.cpuPerSignatureUs)} µs CPU each, ${formatCount(1e6 / signing.cpuPerSignatureUs)}/s were the core its own`,
  );
  console.log(
    `  receiver: ${formatCount(receiver.requests)} requests, ${formatCount(receiver.verified)} verified, ${formatCount(receiver.unverified)} not; ${formatCount(receiver.distinct)} distinct events; ` +
      `${formatCount(receiver.repeats)} repeats (same eventId, same bytes); ${formatCount(receiver.differentBodies)} eventIds with different bodies; ${formatCount(receiver.malformed)} malformed; ` +
      `${formatCount(receiver.outOfOrder)} statuses out of order`,
  );
  console.log(
    `  server outbox at the end (O20): ${formatCount(outbox.pending)} PENDING, ${formatCount(outbox.failed)} FAILED, ${formatCount(outbox.delivered)} DELIVERED` +
      `${outbox.delivered === receiver.distinct ? ' (= distinct events received)' : ` (≠ ${formatCount(receiver.distinct)} distinct events received)`}`,
  );
  for (const note of r.notes) console.log(`  ${note}`);

  const ratio = d.deliveriesPerSecond / signing.signaturesPerSecond;
  const p99Ms = d.p99Ns / 1e6;
  const lines: [boolean, string][] = [
    [
      ratio >= TARGET_SHARE_OF_SIGNING,
      `deliveries ≥ ${100 * TARGET_SHARE_OF_SIGNING}% of one core's RSA-2048 signing rate: ${formatCount(d.deliveriesPerSecond)}/s ÷ ${formatCount(signing.signaturesPerSecond)}/s = ${(100 * ratio).toFixed(1)}%`,
    ],
    [p99Ms <= TARGET_P99_MS, `p99 commit to receipt ≤ ${TARGET_P99_MS} ms: ${p99Ms.toFixed(0)} ms (p50 ${(d.p50Ns / 1e6).toFixed(0)} ms)`],
    [
      receiver.unverified === 0 && receiver.differentBodies === 0 && receiver.malformed === 0 && receiver.verified > 0,
      `every request verified, no eventId with two bodies: ${formatCount(receiver.unverified)} unverified, ${formatCount(receiver.differentBodies)} with two bodies, ${formatCount(receiver.malformed)} malformed`,
    ],
    [outbox.pending === 0 && outbox.failed === 0, `no event pending or failed at the end: ${formatCount(outbox.pending)} PENDING, ${formatCount(outbox.failed)} FAILED`],
  ];
  for (const [met, text] of lines) console.log(`${met ? 'met   ' : 'MISSED'} ${text}`);
}

export async function main(): Promise<WebhooksBenchResult> {
  const settings = settingsFromEnv();
  const profileArgs = settings.profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', settings.profileDir];
  console.log(
    `webhooks: ${settings.loops} concurrent on-ramp flows (${REQUESTS_PER_FLOW} requests, 4 order events each) of merchant users with ORDER_WEBHOOK and FUNDING_WEBHOOK on one local receiver (a path each), ` +
      `beside the same flows without webhooks and one core signing webhook bodies; ${settings.seconds} s each in ${ROUNDS} rounds taken in turns, ` +
      `the outbox drained after each webhook segment, after a ${WARMUP_SECONDS} s warm-up each; node ${process.version}; load average ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores`,
  );
  console.log(
    '  ok/s: verified deliveries, completed flows or signatures per second; p50/p99/max: commit to receipt for deliveries, per flow otherwise; ' +
      'server, http, bench: CPU used, in cores (http: the server main thread); µs/op: server CPU per flow, CPU per signature; ÷sign: ok/s over one core’s signatures/s',
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'bourse-bench-webhooks-'));
  let server: ChildServer | undefined;
  try {
    server = await startChildServer(BOURSE_ENTRY, { env: bourseEnv(dataDir, 'inline'), nodeArgs: profileArgs });
    const result = await runAll(server, dataDir, settings);
    report(result);
    console.log(`load average at the end ${loadavg()[0].toFixed(2)}`);
    return result;
  } finally {
    closeFlowConnections();
    const stops = await Promise.allSettled([server?.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
    // Reported, not thrown: a throw here would hide the error that may be on its way out of the try.
    for (const stop of stops) if (stop.status === 'rejected') console.error(`bench server: ${String(stop.reason)}`);
    if (settings.profileDir !== undefined) console.log(`Bourse CPU profile written to ${settings.profileDir}`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
