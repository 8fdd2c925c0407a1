import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, vi } from 'vitest';
import type { DemoCredentials } from '../../src/demo/demo-data.js';
import { startChildServer, type ChildServer } from './child-server.js';
import { findLostAcknowledgements, verifyWithReplay } from './ack-check.js';
import type { AckLog } from './ack-log.js';
import { AdminClient, type HttpAnswer } from './clients.js';
import { freePort } from './free-port.js';
import type { Trader } from './order-load.js';
import { postgresDatabases } from './postgres.js';
import { TcpProxy } from './tcp-proxy.js';
import { findTransferProblems, type TransferAccount, type TransferLog } from './transfer-load.js';

/** Short in tests, so that a takeover after a pause comes within a test's patience (the default is 3000). */
export const LEADER_TIMEOUT_MS = 1500;
/** A node that does not answer /health within this is taken as unreachable (a paused one never answers). */
const HEALTH_TIMEOUT_MS = 1000;
/** A takeover's goal is 5 s; a loaded machine gets twice that before a wait gives up. */
const TAKEOVER_WAIT_MS = 10_000;
/** How long the nodes of a quiet cluster may take to reach one seq. */
const SETTLE_WAIT_MS = 15_000;

/** GET /health as a node of a PostgreSQL deployment answers it (docs/deployment.md "Seeing it"). */
export interface NodeHealth {
  httpStatus: number;
  status: 'ok' | 'lagging';
  role: 'leader' | 'follower';
  term: number;
  seq: number;
  lagMs: number;
}

/** The only 5xx a client of a deployment may see (docs/deployment.md "Roles": no leader reachable). */
export const NO_LEADER = '503 -1016';
/** A duplicate client order id: the server received one order twice (a write resent after a takeover). */
const DUPLICATE_CLIENT_ORDER_ID = '400 -1141';

/**
 * What a load's clients must never have seen from a deployment, one line per kind: a 5xx other
 * than "no leader", a duplicate client order id, an answer that is no `{code, msg}` error.
 */
export function forbiddenAnswers(outcomes: readonly { errorAnswers: ReadonlyMap<string, number>; malformed: readonly string[] }[]): string[] {
  const found: string[] = [];
  for (const outcome of outcomes) {
    for (const [key, count] of outcome.errorAnswers) {
      if ((key.startsWith('5') && key !== NO_LEADER) || key === DUPLICATE_CLIENT_ORDER_ID) found.push(`${key} ×${count}`);
    }
    found.push(...outcome.malformed);
  }
  return found;
}

/** One node of GET /admin/v1/cluster. */
export interface ClusterViewNode {
  url: string;
  role: 'leader' | 'follower';
  term: number;
  seq: number;
  lagMs: number;
  lastHeartbeat: number;
}

/** The settings every node of one deployment shares: the database and the three secrets. */
function deploymentEnv(databaseUrl: string): Record<string, string> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    BOURSE_DB: databaseUrl,
    BOURSE_SECRET_KEY: randomBytes(32).toString('base64'),
    BOURSE_ADMIN_TOKEN: randomBytes(32).toString('hex'),
    BOURSE_WEBHOOK_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    BOURSE_LEADER_TIMEOUT_MS: String(LEADER_TIMEOUT_MS),
    BOURSE_DEMO: '1',
    BOURSE_DEMO_MARKET_MAKER: '0',
  };
}

/** Where the node on `port` is reached: BOURSE_NODE_URL. */
function nodeUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

/** One Bourse process of the cluster, on its own port and data directory, which outlive its restarts. */
export class ClusterNode {
  private child: ChildServer | undefined;
  private paused = false;
  /** Every exit the test did not ask for, with the stderr that explains it. */
  readonly crashes: string[] = [];

  constructor(
    readonly name: string,
    readonly port: number,
    readonly dataDir: string,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return nodeUrl(this.port);
  }

  /** Started and not killed (a paused node is running). */
  get running(): boolean {
    return this.child !== undefined;
  }

  /** The current process; throws when the node is down. */
  get server(): ChildServer {
    if (this.child === undefined) throw new Error(`${this.name} is not running`);
    return this.child;
  }

  /** Starts the process on the node's port and data directory; resolves once it serves. */
  async start(): Promise<ChildServer> {
    if (this.child !== undefined) throw new Error(`${this.name} is already running`);
    const child = await startChildServer({
      dataDir: this.dataDir,
      // The address it listens on may be the deployment's (HOST=0.0.0.0 of the Dockerfile); where it is reached is the node's own.
      env: { HOST: '127.0.0.1', ...this.env, PORT: String(this.port), BOURSE_NODE_URL: this.url },
    });
    this.child = child;
    // The node is forgotten before every exit the test causes: one that comes while it is still known is a crash.
    void child.exited.then((exit) => {
      if (this.child !== child) return;
      this.child = undefined;
      this.crashes.push(`${this.name} exited by itself (${JSON.stringify(exit)}): ${child.stderrTail.join('\n')}`);
    });
    return child;
  }

  /** Its /health, or undefined when it does not answer in time (down, or paused). */
  async health(): Promise<NodeHealth | undefined> {
    try {
      const response = await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
      return { ...((await response.json()) as Omit<NodeHealth, 'httpStatus'>), httpStatus: response.status };
    } catch {
      return undefined;
    }
  }

  /** `kill -9`; answers the moment of the kill (performance.now()) once the process is gone. */
  async kill9(): Promise<number> {
    const server = this.server;
    this.child = undefined;
    this.paused = false;
    const killedAt = performance.now();
    const exit = await server.kill('SIGKILL');
    if (exit.signal !== 'SIGKILL') throw new Error(`${this.name} ended with ${JSON.stringify(exit)} before kill -9`);
    return killedAt;
  }

  /** SIGSTOP: the process stays, holds its sockets and database sessions, and does nothing. */
  pause(): void {
    process.kill(this.server.pid, 'SIGSTOP');
    this.paused = true;
  }

  /** SIGCONT after `pause`. */
  resume(): void {
    process.kill(this.server.pid, 'SIGCONT');
    this.paused = false;
  }

  /** Ends the process with SIGKILL (a paused one too): nothing of a test is left to drain. */
  async stop(): Promise<void> {
    const child = this.child;
    if (child === undefined) return;
    this.child = undefined;
    this.paused = false;
    await child.kill('SIGKILL');
  }
}

/** Where a node is reached and keeps its files, known before it starts. */
export interface NodePlace {
  url: string;
  dataDir: string;
}

export interface ClusterOptions {
  /** A fresh, empty database of the test file (`postgresDatabases().url()`). */
  databaseUrl: string;
  size: number;
  /**
   * The settings every node shares, in place of a test deployment's (this database, new secrets,
   * a short leader timeout, the demo data): a test of a shipped configuration gives its own, which
   * must name BOURSE_DB and BOURSE_ADMIN_TOKEN.
   */
  deployment?: Record<string, string>;
  /** Settings of every node, beside the deployment's (BOURSE_MAX_LAG_MS, BOURSE_SNAPSHOT_EVERY, …). */
  env?: Record<string, string>;
  /** Settings of node `index` alone (0-based), over the others: e.g. a BOURSE_DB through a proxy, or a setting naming the node's own address. */
  nodeEnv?: (index: number, place: NodePlace) => Record<string, string>;
  /** The nodes' names, in order (`node1`, `node2`, … unless told): e.g. the services of a compose file. */
  names?: readonly string[];
}

/** A node that took over and how long writes were refused: from the kill to the first write accepted. */
export interface Takeover {
  leader: ClusterNode;
  term: number;
  ms: number;
  /** From the kill until every running node knew the new term (and so forwards to the new leader). */
  allNodesMs: number;
  /** The probe's answers that were not 200, by "<http status> <code>" (a follower without a leader answers 503 -1016). */
  refusals: Map<string, number>;
}

/**
 * N nodes of one deployment on one PostgreSQL database, each a real child process
 * (`node dist/main.js`, as `npm start` runs it) with its own port and data directory, sharing the secrets.
 */
export class Cluster {
  private constructor(
    readonly nodes: readonly ClusterNode[],
    readonly adminToken: string,
    private readonly databaseUrl: string,
  ) {}

  /**
   * Starts node 1 alone (the first leader of the empty database seeds the demo data), waits until
   * it leads, then starts the others together.
   */
  static async start(options: ClusterOptions): Promise<Cluster> {
    const shared = { ...(options.deployment ?? deploymentEnv(options.databaseUrl)), ...options.env };
    if (shared.BOURSE_ADMIN_TOKEN === undefined) throw new Error('the deployment names no BOURSE_ADMIN_TOKEN: the cluster could not be operated');
    if (options.names !== undefined && options.names.length !== options.size) throw new Error(`${options.names.length} names for ${options.size} nodes`);
    const nodes: ClusterNode[] = [];
    for (let index = 0; index < options.size; index++) {
      const dataDir = mkdtempSync(path.join(tmpdir(), `bourse-node${index + 1}-`));
      const port = await freePort();
      const env = { ...shared, ...options.nodeEnv?.(index, { url: nodeUrl(port), dataDir }) };
      nodes.push(new ClusterNode(options.names?.[index] ?? `node${index + 1}`, port, dataDir, env));
    }
    const cluster = new Cluster(nodes, shared.BOURSE_ADMIN_TOKEN, options.databaseUrl);
    try {
      await nodes[0].start();
      const first = await cluster.leader();
      if (first !== nodes[0]) throw new Error(`${first.name} leads before it was started`);
      await Promise.all(nodes.slice(1).map((node) => node.start()));
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  /** The demo user's credentials (the same on every node: one database). */
  get demo(): DemoCredentials {
    return this.nodes[0].server.demo;
  }

  running(): ClusterNode[] {
    return this.nodes.filter((node) => node.running);
  }

  /** Waits until exactly one node that answers says it leads (among `among`, all nodes unless told); answers it. */
  async leader(options: { among?: readonly ClusterNode[] } = {}): Promise<ClusterNode> {
    const among = options.among ?? this.nodes;
    const seen: string[] = [];
    const sole = async (): Promise<ClusterNode | undefined> => {
      const healths = await Promise.all(among.map((node) => (node.running ? node.health() : undefined)));
      const leaders = among.filter((_node, i) => healths[i]?.role === 'leader');
      seen.splice(0, seen.length, ...among.map((node, i) => `${node.name}: ${JSON.stringify(healths[i])}`));
      return leaders.length === 1 ? leaders[0] : undefined;
    };
    return vi.waitUntil(sole, { timeout: TAKEOVER_WAIT_MS, interval: 50 }).catch(async () => {
      throw new Error(`no single leader within ${TAKEOVER_WAIT_MS} ms; last seen ${seen.join(', ')}${this.crashReport()}; database sessions:\n${await this.sessions()}`);
    });
  }

  /** The running nodes other than `leader`. */
  followersOf(leader: ClusterNode): ClusterNode[] {
    return this.running().filter((node) => node !== leader);
  }

  /**
   * From `killedAt` (performance.now() of a leader's kill, or of its cut) until `write` through one
   * of `through` (the running nodes unless told) is answered 200: each is tried in turn until then.
   * Then waits until all of them know the new term, so that any of them forwards writes to the new
   * leader.
   */
  async takeover(killedAt: number, write: (node: ClusterNode) => Promise<HttpAnswer>, through: readonly ClusterNode[] = this.running()): Promise<Takeover> {
    const refusals = new Map<string, number>();
    const nodes = through;
    let attempt = 0;
    const accepted = async (): Promise<number | undefined> => {
      const node = nodes[attempt++ % nodes.length];
      const answer = await write(node).catch((error: unknown) => ({ status: 0, body: { code: String(error) } }) as const);
      if (answer.status === 200) return performance.now() - killedAt;
      const code = (answer.body as { code?: unknown } | undefined)?.code;
      const key = `${answer.status} ${String(code)}`;
      refusals.set(key, (refusals.get(key) ?? 0) + 1);
      return undefined;
    };
    const ms = await vi.waitUntil(accepted, { timeout: TAKEOVER_WAIT_MS, interval: 20 }).catch(() => {
      throw new Error(`no write accepted within ${TAKEOVER_WAIT_MS} ms of the kill; refusals ${JSON.stringify([...refusals])}${this.crashReport()}`);
    });
    const leader = await this.leader({ among: nodes });
    const term = (await leader.health())?.term ?? 0;
    await this.allKnowTerm(term, nodes);
    return { leader, term, ms, allNodesMs: performance.now() - killedAt, refusals };
  }

  /** Waits until every one of `nodes` (the running ones unless told) reports `term` on /health. */
  async allKnowTerm(term: number, nodes: readonly ClusterNode[] = this.running()): Promise<void> {
    let last: string[] = [];
    const known = async (): Promise<boolean> => {
      const healths = await Promise.all(nodes.map((node) => node.health()));
      last = nodes.map((node, i) => `${node.name}: ${JSON.stringify(healths[i])}`);
      return healths.every((health) => health?.term === term);
    };
    await vi.waitUntil(known, { timeout: TAKEOVER_WAIT_MS, interval: 20 }).catch(() => {
      throw new Error(`not every node knew term ${term} within ${TAKEOVER_WAIT_MS} ms; last seen ${last.join(', ')}${this.crashReport()}`);
    });
  }

  /**
   * Waits until every running node answers /health 200 with the same term and seq, and answers
   * that seq: once writes have stopped, the followers have applied everything the leader has.
   */
  async settled(): Promise<number> {
    let last: string[] = [];
    const same = async (): Promise<NodeHealth | undefined> => {
      const nodes = this.running();
      const healths = await Promise.all(nodes.map((node) => node.health()));
      last = nodes.map((node, i) => `${node.name}: ${JSON.stringify(healths[i])}`);
      const [first] = healths;
      const equal = healths.every((h) => h !== undefined && h.httpStatus === 200 && h.status === 'ok' && h.seq === first?.seq && h.term === first.term);
      return equal ? first : undefined;
    };
    const health = await vi.waitUntil(same, { timeout: SETTLE_WAIT_MS, interval: 50 }).catch(() => {
      throw new Error(`the nodes did not reach one seq within ${SETTLE_WAIT_MS} ms; last seen ${last.join(', ')}${this.crashReport()}`);
    });
    return health.seq;
  }

  /**
   * Once the cluster is quiet: GET /admin/v1/verify?replay=1 of every running node, all at one seq
   * (seen before and after). Answers that seq and what is wrong, one line per problem: a node whose
   * ledger check or replay fails, or whose state hash differs from the first node's.
   */
  async verifiedState(): Promise<{ seq: number; problems: string[] }> {
    const seq = await this.settled();
    const nodes = this.running();
    const reports = await Promise.all(nodes.map((node) => verifyWithReplay(node.url, this.adminToken)));
    const after = await this.settled();
    if (after !== seq) throw new Error(`something was written while the nodes were verified: seq ${seq}, then ${after}`);
    const problems: string[] = [];
    const stateHash = reports[0].replay?.stateHash;
    nodes.forEach((node, i) => {
      const report = reports[i];
      if (!report.ok || report.replay?.ok !== true || report.replay.replayHash !== report.replay.stateHash) problems.push(`${node.name} verify: ${JSON.stringify(report)}`);
      if (report.replay?.stateHash !== stateHash) problems.push(`${node.name} has state hash ${report.replay?.stateHash} at seq ${seq}, ${nodes[0].name} ${stateHash}`);
    });
    return { seq, problems };
  }

  /**
   * Every acknowledged order and trade of `orders` (round: its latest, looked up one by one) and
   * every transfer of `transfers` on every running node, none stored twice: one line per problem.
   */
  async lostOnAnyNode(orders: { traders: readonly Trader[]; log: AckLog; round: number }, transfers?: { account: TransferAccount; log: TransferLog }): Promise<string[]> {
    const problems = await Promise.all(
      this.running().map(async (node) => {
        const found = await findLostAcknowledgements(node.url, orders.traders, orders.log, orders.round);
        if (transfers !== undefined) found.push(...(await findTransferProblems(node.url, this.adminToken, transfers.account, transfers.log)));
        return found.map((problem) => `${node.name}: ${problem}`);
      }),
    );
    return problems.flat();
  }

  /** GET /admin/v1/cluster through `node`: the nodes seen in the last minute. */
  async view(node: ClusterNode): Promise<ClusterViewNode[]> {
    const answer = await new AdminClient(node.url, this.adminToken).send('GET', '/cluster');
    if (answer.status !== 200) throw new Error(`GET /admin/v1/cluster on ${node.name} answered ${answer.status} ${answer.text}`);
    return (answer.body as { nodes: ClusterViewNode[] }).nodes;
  }

  /** The database's sessions, one line each, with what they wait for and who blocks them: why no node could take the lead. */
  private async sessions(): Promise<string> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    try {
      await client.connect();
      const { rows } = await client.query<Record<string, unknown>>(
        `SELECT pid, application_name, state, wait_event_type, wait_event, pg_blocking_pids(pid) AS blocked_by,
                (extract(epoch FROM (now() - xact_start)) * 1000)::bigint AS xact_ms, left(query, 100) AS query
         FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() ORDER BY pid`,
      );
      return rows.map((row) => JSON.stringify(row)).join('\n');
    } catch (error) {
      return `(not read: ${String(error)})`;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  private crashReport(): string {
    const crashes = this.crashes();
    return crashes.length === 0 ? '' : `; crashed: ${crashes.join('\n')}`;
  }

  /** What crashed so far (an exit no test asked for), one line per crash. */
  crashes(): string[] {
    return this.nodes.flatMap((node) => node.crashes);
  }

  /**
   * Ends every process (SIGKILL: nothing of a test is left to drain) and removes the data
   * directories; then fails if a node had crashed, which a test talking to other nodes may not see.
   */
  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.stop()));
    for (const node of this.nodes) rmSync(node.dataDir, { recursive: true, force: true });
    const crashes = this.crashes();
    if (crashes.length > 0) throw new Error(`nodes crashed during the test:\n${crashes.join('\n')}`);
  }
}

/**
 * The cluster of a `describe`: `size` nodes on a fresh database of the test file, started before its
 * tests and stopped after them (then the database is dropped). Its tests read `suite.cluster`.
 */
export function clusterOfSuite(size: number): { readonly cluster: Cluster } {
  const databases = postgresDatabases();
  let cluster: Cluster | undefined;

  beforeAll(async () => {
    cluster = await Cluster.start({ databaseUrl: await databases.url(), size });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  return {
    get cluster(): Cluster {
      if (cluster === undefined) throw new Error('the cluster is not started: read it in a test');
      return cluster;
    },
  };
}

/**
 * A fresh database of the test file and a TCP proxy in front of it: a node given `viaProxy` as its
 * BOURSE_DB can be cut off from the database (`proxy.reset()`, `proxy.stall()`) while the others reach it `direct`.
 */
export async function databaseBehindProxy(databases: { url(): Promise<string> }): Promise<{ direct: string; viaProxy: string; proxy: TcpProxy }> {
  const direct = new URL(await databases.url());
  const proxy = await TcpProxy.start(direct.hostname, Number(direct.port || '5432'));
  const viaProxy = new URL(direct.href);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  return { direct: direct.href, viaProxy: viaProxy.href, proxy };
}

/** Waits until `old`, a leader that was cut off or paused, follows `term`; fails with what its /health last answered. */
export async function untilFollowing(old: ClusterNode, term: number): Promise<void> {
  let seen: unknown;
  await vi
    .waitUntil(
      async () => {
        const health = await old.health();
        seen = health;
        return health?.role === 'follower' && health.term === term;
      },
      { timeout: 10_000, interval: 50 },
    )
    .catch(() => {
      throw new Error(`the old leader does not follow term ${term}: its /health answers ${JSON.stringify(seen)}`);
    });
}
