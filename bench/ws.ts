/**
 * Market-stream benchmark: subscribers to depth, diffDepth and trade of BTCUSDT while signed orders
 * flow over HTTP. One Bourse in a child process (as bench/http.ts starts it: demo data, limits
 * raised, a 100-level ladder a side); the subscribers' sockets in BENCH_WS_CLIENTS child processes
 * of their own (bench/ws-subscribers.ts), so that neither they nor autocannon, here, starve the other;
 * the order flow is bench/http-orders.ts's (every order crosses or rests near the mid: trades, depth
 * and diffDepth all publish). Two targets, their segments in turns (bench/http-load.ts) after a
 * warm-up each, the sockets open throughout:
 *   no subscribers     the orders alone (the sockets connected but not subscribed)
 *   N subscribers      the same orders, every socket subscribed to the three topics for the segment
 * Printed: the order rate of each and their ratio, deliveries/s by topic and latency to receipt:
 * for trades from the trade's time (stamped when the order was taken in, so before its commit: an
 * upper bound of commit to receipt) and from `sendTime` (the publish); for depth and diffDepth from
 * `sendTime`, their publish being the 300 ms throttle's flush, not the commit. Receipt is read on the
 * subscriber's clock, the server's too on one machine, in whole milliseconds. Then an in-process
 * check of the fan-out (bench/ws-fanout-check.ts): frames and Buffers built per publish, and its time
 * with shared bytes against text encoded per subscriber; and one of its writes over real loopback
 * sockets (bench/ws-write-check.ts): writes and CPU per round with a socket's frames in one write,
 * against a write per frame.
 *
 *   node --import tsx bench/ws.ts
 *
 * BENCH_WS_SUBSCRIBERS (default 1000), BENCH_WS_SECONDS (default 10, at least 5) measured per target,
 * BENCH_WS_CONNECTIONS (default 32) autocannon connections, BENCH_WS_CLIENTS (default 2) subscriber processes;
 * BENCH_WS_PROFILE=<dir> runs the Bourse child under `--cpu-prof` and writes its profile there.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MARKET_STREAM_PATHS } from '../src/api/ws/market-stream.js';
import { startChildServer, type ChildServer } from './http-child.js';
import { LoadTarget, type HttpRunResult } from './http-load.js';
import { OrderFlow, SYMBOL } from './http-orders.js';
import { BOURSE_ENTRY, bourseEnv, positiveIntegerFromEnv, prepareBourse, ROUNDS, tallyNote, WARMUP_SECONDS } from './http.js';
import { formatCount, table } from './stats.js';
import { checkFanout, type FanoutCheck } from './ws-fanout-check.js';
import { LatencyHistogram, WS_TOPICS, type SubscriberTake, type WsTopic } from './ws-latency.js';
import { checkWrites, type WriteCheck } from './ws-write-check.js';

const SUBSCRIBERS_ENTRY = new URL('./ws-subscribers.ts', import.meta.url);
const TARGET_P99_MS = 50;
const TARGET_ORDER_SHARE = 0.6;
const FANOUT_CHECK_ROUNDS = 200;
const WRITE_CHECK_ROUNDS = 20;

interface Settings {
  subscribers: number;
  seconds: number;
  connections: number;
  clients: number;
  profileDir: string | undefined;
}

function settingsFromEnv(): Settings {
  const subscribers = positiveIntegerFromEnv('BENCH_WS_SUBSCRIBERS', 1000, 1);
  const profile = process.env.BENCH_WS_PROFILE;
  return {
    subscribers,
    seconds: positiveIntegerFromEnv('BENCH_WS_SECONDS', 10, ROUNDS),
    connections: positiveIntegerFromEnv('BENCH_WS_CONNECTIONS', 32, 1),
    clients: Math.min(subscribers, positiveIntegerFromEnv('BENCH_WS_CLIENTS', 2, 1)),
    profileDir: profile === undefined || profile === '' ? undefined : resolve(profile),
  };
}

async function control(child: ChildServer, path: string): Promise<unknown> {
  const response = await fetch(`${child.url}${path}`, { method: 'POST' });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`subscribers ${path} → ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
}

/** The subscribed target's figures, summed over its segments and the subscriber children. */
class Deliveries {
  readonly counts: Record<WsTopic, number> = { trade: 0, depth: 0, diffDepth: 0 };
  readonly sendLatency = new Map<WsTopic, LatencyHistogram>(WS_TOPICS.map((topic) => [topic, new LatencyHistogram()]));
  readonly tradeLatency = new LatencyHistogram();
  seconds = 0;
  clientCpuSeconds: number | undefined = 0;
  private started: { ns: bigint; cpu: number | undefined } | undefined;

  constructor(private readonly clients: readonly ChildServer[]) {}

  /** Before a subscribed segment: every socket subscribes, snapshots and anything earlier are dropped. */
  async subscribe(): Promise<void> {
    await Promise.all(this.clients.map((c) => control(c, '/subscribe')));
    await Promise.all(this.clients.map((c) => control(c, '/take')));
    this.started = { ns: process.hrtime.bigint(), cpu: this.clientCpu() };
  }

  /** After it: what was received during it, then every socket unsubscribes. */
  async collect(): Promise<void> {
    const started = this.started;
    if (started === undefined) throw new Error('deliveries collected without a subscribe');
    const takes = (await Promise.all(this.clients.map((c) => control(c, '/take')))) as SubscriberTake[];
    this.seconds += Number(process.hrtime.bigint() - started.ns) / 1e9;
    const cpu = this.clientCpu();
    this.clientCpuSeconds =
      this.clientCpuSeconds === undefined || started.cpu === undefined || cpu === undefined ? undefined : this.clientCpuSeconds + cpu - started.cpu;
    this.started = undefined;
    for (const take of takes) {
      for (const topic of WS_TOPICS) {
        this.counts[topic] += take.deliveries[topic];
        (this.sendLatency.get(topic) as LatencyHistogram).addJson(take.sendLatency[topic]);
      }
      this.tradeLatency.addJson(take.tradeLatency);
    }
    await Promise.all(this.clients.map((c) => control(c, '/cancel')));
  }

  /** Latency as the targets read it: trades from their time, depth and diffDepth from their publish. */
  targetLatency(): LatencyHistogram {
    const all = new LatencyHistogram();
    all.merge(this.tradeLatency);
    all.merge(this.sendLatency.get('depth') as LatencyHistogram);
    all.merge(this.sendLatency.get('diffDepth') as LatencyHistogram);
    return all;
  }

  private clientCpu(): number | undefined {
    let sum = 0;
    for (const client of this.clients) {
      const seconds = client.cpuSeconds();
      if (seconds === undefined) return undefined;
      sum += seconds;
    }
    return sum;
  }
}

async function startSubscribers(settings: Settings, bourse: ChildServer): Promise<ChildServer[]> {
  const target = `${bourse.url.replace(/^http/, 'ws')}${MARKET_STREAM_PATHS[0]}`;
  const clients: ChildServer[] = [];
  let first = 0;
  try {
    for (let i = 0; i < settings.clients; i++) {
      const count = Math.floor(settings.subscribers / settings.clients) + (i < settings.subscribers % settings.clients ? 1 : 0);
      const env = {
        ...process.env,
        SUBSCRIBERS_CHILD_TARGET: target,
        SUBSCRIBERS_CHILD_SYMBOL: SYMBOL,
        SUBSCRIBERS_CHILD_SOCKETS: String(count),
        SUBSCRIBERS_CHILD_FIRST: String(first),
      };
      clients.push(await startChildServer(SUBSCRIBERS_ENTRY, { env }));
      first += count;
    }
    return clients;
  } catch (error) {
    await Promise.allSettled(clients.map((c) => c.stop()));
    throw error;
  }
}

const { header: loadHeader, row: loadRow } = table([
  { title: 'orders', width: 22, align: 'left' },
  { title: 'ok/s', width: 7, align: 'right' },
  { title: 'p50', width: 6, align: 'right' },
  { title: 'p99', width: 6, align: 'right' },
  { title: 'max', width: 6, align: 'right' },
  { title: 'non-200', width: 7, align: 'right' },
  { title: 'errors', width: 6, align: 'right' },
  { title: 'server', width: 6, align: 'right' },
  { title: 'http', width: 5, align: 'right' },
  { title: 'bench', width: 5, align: 'right' },
]);

const { header: streamHeader, row: streamRow } = table([
  { title: 'deliveries', width: 26, align: 'left' },
  { title: 'per s', width: 9, align: 'right' },
  { title: 'p50', width: 6, align: 'right' },
  { title: 'p99', width: 6, align: 'right' },
  { title: 'p99.9', width: 6, align: 'right' },
  { title: 'max', width: 6, align: 'right' },
  { title: 'count', width: 10, align: 'right' },
]);

function cores(value: number | undefined): string {
  return value === undefined ? '-' : value.toFixed(2);
}

function ms(value: number | undefined): string {
  return value === undefined ? '-' : `${value}ms`;
}

function loadLine(run: HttpRunResult): string {
  return loadRow([
    run.label,
    formatCount(run.okPerSecond),
    ms(run.p50Ms),
    ms(run.p99Ms),
    ms(run.maxMs),
    formatCount(run.non200),
    formatCount(run.errors),
    cores(run.serverCores),
    cores(run.httpThreadCores),
    cores(run.benchCores),
  ]);
}

function streamLine(label: string, count: number, seconds: number, latency: LatencyHistogram): string {
  return streamRow([
    label,
    formatCount(count / seconds),
    ms(latency.percentile(0.5)),
    ms(latency.percentile(0.99)),
    ms(latency.percentile(0.999)),
    ms(latency.max()),
    formatCount(count),
  ]);
}

export interface WsBenchResult {
  alone: HttpRunResult;
  subscribed: HttpRunResult;
  deliveriesPerSecond: number;
  p99Ms: number | undefined;
  fanout: FanoutCheck;
  writes: WriteCheck;
}

function report(settings: Settings, alone: HttpRunResult, subscribed: HttpRunResult, deliveries: Deliveries, fanout: FanoutCheck, writes: WriteCheck): WsBenchResult {
  console.log(loadHeader);
  for (const run of [alone, subscribed]) {
    console.log(loadLine(run));
    for (const note of run.notes) console.log(`  ${note}`);
  }
  const share = subscribed.okPerSecond / alone.okPerSecond;
  console.log(`orders with ${formatCount(settings.subscribers)} subscribers over none: ${(100 * share).toFixed(1)}%`);

  const seconds = deliveries.seconds;
  const total = WS_TOPICS.reduce((sum, topic) => sum + deliveries.counts[topic], 0);
  const target = deliveries.targetLatency();
  console.log(streamHeader);
  console.log(streamLine('trade, trade time→receipt', deliveries.counts.trade, seconds, deliveries.tradeLatency));
  for (const topic of WS_TOPICS) {
    console.log(streamLine(`${topic}, sendTime→receipt`, deliveries.counts[topic], seconds, deliveries.sendLatency.get(topic) as LatencyHistogram));
  }
  console.log(streamLine('all (as the target reads)', total, seconds, target));
  const clientCores = deliveries.clientCpuSeconds === undefined ? '-' : (deliveries.clientCpuSeconds / seconds).toFixed(2);
  console.log(`  subscriber processes: ${clientCores} cores while subscribed; ${formatCount(subscribed.okPerSecond > 0 ? total / seconds / subscribed.okPerSecond : 0)} deliveries per order`);

  const frameOnce = fanout.frames === fanout.publishes && fanout.buffers === fanout.publishes && fanout.sends === fanout.publishes * fanout.subscribers;
  console.log(
    `fan-out in process, ${formatCount(fanout.subscribers)} subscribers × ${WS_TOPICS.length} topics: ${formatCount(fanout.publishes)} publishes, ` +
      `${formatCount(fanout.sends)} sends, ${formatCount(fanout.frames)} frames and ${formatCount(fanout.buffers)} Buffers built; ` +
      `per round (trade + depth + diffDepth) ${(fanout.sharedRoundNs / 1e6).toFixed(2)} ms with shared bytes, ` +
      `${(fanout.perSinkRoundNs / 1e6).toFixed(2)} ms with text encoded per subscriber (×${(fanout.perSinkRoundNs / fanout.sharedRoundNs).toFixed(1)})`,
  );
  console.log(
    `fan-out writes in process, ${formatCount(writes.sockets)} loopback sockets × ${WS_TOPICS.length} frames a round, ${writes.rounds} rounds each: ` +
      `${formatCount(writes.roundWrites)} writes and ${(writes.roundCpuUs / 1e3).toFixed(1)} ms CPU a round (both ends) with a socket's frames in one write, ` +
      `${formatCount(writes.frameWrites)} writes and ${(writes.frameCpuUs / 1e3).toFixed(1)} ms with a write per frame (×${(writes.frameCpuUs / writes.roundCpuUs).toFixed(2)})`,
  );

  const p99 = target.percentile(0.99);
  const targets: [boolean, string][] = [
    [p99 !== undefined && p99 <= TARGET_P99_MS, `p99 to receipt ≤ ${TARGET_P99_MS} ms: ${ms(p99)} (trades from their time, depth and diffDepth from their publish)`],
    [share >= TARGET_ORDER_SHARE, `order rate with subscribers ≥ ${100 * TARGET_ORDER_SHARE}% of without: ${(100 * share).toFixed(1)}%`],
    [frameOnce, `each frame serialised once per publish: ${formatCount(fanout.frames)} frames for ${formatCount(fanout.publishes)} publishes to ${formatCount(fanout.subscribers)} subscribers`],
    [writes.roundWrites === writes.sockets, `a socket's frames of a round in one write: ${formatCount(writes.roundWrites)} writes a round to ${formatCount(writes.sockets)} sockets`],
  ];
  for (const [met, text] of targets) console.log(`${met ? 'met   ' : 'MISSED'} ${text}`);
  return { alone, subscribed, deliveriesPerSecond: total / seconds, p99Ms: p99, fanout, writes };
}

export async function main(): Promise<WsBenchResult> {
  const settings = settingsFromEnv();
  console.log(
    `ws: ${formatCount(settings.subscribers)} sockets in ${settings.clients} subscriber processes, each on depth, diffDepth and trade of ${SYMBOL}; ` +
      `signed orders from autocannon, ${settings.connections} connections, ${settings.seconds} s per target in ${ROUNDS} rounds taken in turns after a ${WARMUP_SECONDS} s warm-up each; ` +
      `synchronous=${process.env.BOURSE_SYNCHRONOUS ?? 'NORMAL'}; node ${process.version}; load average ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores`,
  );
  console.log('  server, http, bench: CPU in cores (the Bourse, its main thread, autocannon here); latencies in whole ms, receipt on the subscriber\'s clock');
  const dataDir = mkdtempSync(join(tmpdir(), 'bourse-bench-ws-'));
  let bourse: ChildServer | undefined;
  let clients: ChildServer[] = [];
  try {
    const nodeArgs = settings.profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', settings.profileDir];
    bourse = await startChildServer(BOURSE_ENTRY, { env: bourseEnv(dataDir, 'inline'), nodeArgs });
    const { demo, merchant } = await prepareBourse(bourse, dataDir);
    clients = await startSubscribers(settings, bourse);
    const flow = new OrderFlow(demo, merchant);
    const deliveries = new Deliveries(clients);
    const options = { url: bourse.url, connections: settings.connections, requests: [flow.request()] };
    const alone = new LoadTarget('no subscribers', bourse, options);
    const subscribed = new LoadTarget(`${formatCount(settings.subscribers)} subscribers`, bourse, options, {
      before: () => deliveries.subscribe(),
      after: () => deliveries.collect(),
    });
    const targets = [alone, subscribed];
    for (const target of targets) {
      // The warm-up of the subscribed target runs subscribed too, its figures dropped.
      if (target === subscribed) await deliveries.subscribe();
      await target.warmUp(WARMUP_SECONDS);
      if (target === subscribed) await Promise.all(clients.map((c) => control(c, '/cancel')));
    }
    flow.tally.clear();
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) await target.runSegment(settings.seconds / ROUNDS);
    }
    const aloneResult = alone.result();
    const subscribedResult = subscribed.result();
    subscribedResult.notes.push(tallyNote(flow.tally));
    const fanout = checkFanout(settings.subscribers, FANOUT_CHECK_ROUNDS);
    const writes = await checkWrites(settings.subscribers, WRITE_CHECK_ROUNDS);
    const result = report(settings, aloneResult, subscribedResult, deliveries, fanout, writes);
    console.log(`load average at the end ${loadavg()[0].toFixed(2)}`);
    return result;
  } finally {
    const stops = await Promise.allSettled([...clients.map((c) => c.stop()), bourse?.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
    for (const stop of stops) if (stop.status === 'rejected') console.error(`bench child: ${String(stop.reason)}`);
    if (settings.profileDir !== undefined) console.log(`Bourse CPU profile written to ${settings.profileDir}`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await main();
}
