/** What `npm run bench` knows: the benchmarks, their environment knobs, `--quick` and the usage text. */

export interface Knob {
  name: string;
  /** The default, as the benchmark's own header states it. */
  fallback: string;
  meaning: string;
  /** What `--quick` sets when the knob is not already set; absent: left at the default. */
  quick?: string;
}

export interface Benchmark {
  name: string;
  what: string;
  knobs: readonly Knob[];
}

/** `BENCH_<prefix>_SECONDS`: how long each target is measured. */
function secondsKnob(prefix: string, fallback: string, least: number, quick: string, measured = 'per target'): Knob {
  return { name: `BENCH_${prefix}_SECONDS`, fallback, meaning: `seconds measured ${measured} (≥ ${least})`, quick };
}

/** `BENCH_<prefix>_CONNECTIONS`: autocannon's connections. */
function connectionsKnob(prefix: string, fallback: string, quick: string, meaning = 'autocannon connections'): Knob {
  return { name: `BENCH_${prefix}_CONNECTIONS`, fallback, meaning, quick };
}

/** `BENCH_<prefix>_PROFILE`: a CPU profile of the benchmark's Bourse child. */
function profileKnob(prefix: string): Knob {
  return { name: `BENCH_${prefix}_PROFILE`, fallback: 'unset', meaning: '<dir>: run the Bourse child under --cpu-prof, profile written there' };
}

export const BENCHMARKS = [
  {
    name: 'engine',
    what: 'order book, engine + ledger (ExchangeCore) and nodejs-order-book on one seeded command stream, in memory',
    knobs: [{ name: 'BENCH_ENGINE_COMMANDS', fallback: '200000', meaning: 'commands per measured segment of a mix (≥ 1000)', quick: '1000' }],
  },
  {
    name: 'journal',
    what: 'journal commits/s and submit-to-reply latency (Sequencer + SQLite, synchronous NORMAL and FULL; Sequencer + PostgreSQL)',
    knobs: [
      { name: 'BENCH_JOURNAL_COMMANDS', fallback: '200000', meaning: 'commands in all', quick: '2000' },
      { name: 'BENCH_JOURNAL_ACCOUNTS', fallback: '256', meaning: 'accounts the commands spread over', quick: '16' },
    ],
  },
  {
    name: 'replay',
    what: 'start-up over a long journal: recovery with and without a snapshot',
    knobs: [{ name: 'BENCH_REPLAY_COMMANDS', fallback: '1000000', meaning: 'commands journaled, then replayed (≥ 10000)', quick: '10000' }],
  },
  {
    name: 'http',
    what: 'the HTTP API under autocannon (hello world, signed orders, …), servers in child processes',
    knobs: [
      secondsKnob('HTTP', '10', 5, '5'),
      connectionsKnob('HTTP', '64', '8'),
      profileKnob('HTTP'),
    ],
  },
  {
    name: 'payments',
    what: 'whole merchant on-ramp flows over /v2, next to the signed-order rate',
    knobs: [
      secondsKnob('PAYMENTS', '10', 5, '5'),
      { name: 'BENCH_PAYMENTS_LOOPS', fallback: '32', meaning: 'concurrent flows and autocannon connections', quick: '4' },
      { name: 'BENCH_PAYMENTS_USERS', fallback: '64', meaning: 'merchant users, at least', quick: '8' },
      profileKnob('PAYMENTS'),
    ],
  },
  {
    name: 'webhooks',
    what: 'webhook deliveries to a local receiver while payment flows run',
    knobs: [
      secondsKnob('WEBHOOKS', '12', 3, '3'),
      { name: 'BENCH_WEBHOOKS_LOOPS', fallback: '32', meaning: 'concurrent flows', quick: '4' },
      { name: 'BENCH_WEBHOOKS_USERS', fallback: '64', meaning: 'merchant users per set, at least', quick: '8' },
      profileKnob('WEBHOOKS'),
    ],
  },
  {
    name: 'ws',
    what: 'market streams: subscribers to depth, diffDepth and trade of one symbol while signed orders flow, against none',
    knobs: [
      { name: 'BENCH_WS_SUBSCRIBERS', fallback: '1000', meaning: 'subscribing sockets, each on the three topics', quick: '200' },
      secondsKnob('WS', '10', 5, '5'),
      connectionsKnob('WS', '32', '8'),
      { name: 'BENCH_WS_CLIENTS', fallback: '2', meaning: 'subscriber child processes the sockets are spread over' },
      profileKnob('WS'),
    ],
  },
  {
    name: 'cluster',
    what: 'a leader and 2 followers on one PostgreSQL: follower lag under signed orders, reads served by 1-3 nodes, takeover after kill -9',
    knobs: [
      secondsKnob('CLUSTER', '6', 3, '3', 'for the orders and per read target'),
      connectionsKnob('CLUSTER', '32', '6', 'autocannon connections (≥ 3)'),
      { name: 'BENCH_CLUSTER_TAKEOVERS', fallback: '5', meaning: 'kills of the leader', quick: '2' },
    ],
  },
  {
    name: 'web',
    what: 'first paint of the trading page / in Chromium beside a static page, and its gzipped JS beside the 250 KB budget',
    knobs: [{ name: 'BENCH_WEB_RUNS', fallback: '15', meaning: 'measured visits of each page', quick: '3' }],
  },
] as const satisfies readonly Benchmark[];

export type BenchmarkName = (typeof BENCHMARKS)[number]['name'];

export const BENCHMARK_NAMES: readonly BenchmarkName[] = BENCHMARKS.map((bench) => bench.name);

export function isBenchmarkName(name: string): name is BenchmarkName {
  return (BENCHMARK_NAMES as readonly string[]).includes(name);
}

export interface BenchArgs {
  help: boolean;
  quick: boolean;
  /** Empty: every benchmark. */
  names: string[];
}

export function parseBenchArgs(args: readonly string[]): BenchArgs {
  const parsed: BenchArgs = { help: false, quick: false, names: [] };
  for (const arg of args) {
    if (arg === '--help' || arg === '-h') parsed.help = true;
    else if (arg === '--quick') parsed.quick = true;
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else parsed.names.push(arg);
  }
  return parsed;
}

export class UsageError extends Error {}

/** `--quick`: every knob with a quick value that the environment does not set already. */
export function quickEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const set: Record<string, string> = {};
  for (const bench of BENCHMARKS) {
    for (const knob of bench.knobs as readonly Knob[]) {
      if (knob.quick !== undefined && (env[knob.name] ?? '') === '') set[knob.name] = knob.quick;
    }
  }
  return set;
}

export function usage(): string {
  const lines = [
    'usage: npm run bench -- [--quick] [name ...]',
    '',
    'Runs the benchmarks of bench/ one after the other and prints their figures (all of them without a name).',
    '',
    'options:',
    '  --quick   each benchmark briefly (small counts, shortest durations): checks that they run, figures are rough',
    '  --help    this text',
    '',
    'benchmarks and their environment knobs (default; --quick value):',
  ];
  for (const bench of BENCHMARKS) {
    lines.push(`  ${bench.name.padEnd(9)} ${bench.what}`);
    for (const knob of bench.knobs as readonly Knob[]) {
      const values = knob.quick === undefined ? knob.fallback : `${knob.fallback}; quick ${knob.quick}`;
      lines.push(`      ${knob.name} (${values}): ${knob.meaning}`);
    }
  }
  lines.push(
    '',
    'BOURSE_SYNCHRONOUS (NORMAL) is passed to the servers the http benchmarks start.',
    'BOURSE_BENCH_POSTGRES_URL (unset): the PostgreSQL server of journal and cluster, which create and drop a database of their own on it; unset: an embedded one (durable) started for the benchmark.',
  );
  return `${lines.join('\n')}\n`;
}
