/**
 * The nodes of bench/cluster.ts: Bourse processes of one PostgreSQL deployment, each a child of
 * its own (bench/http-child.ts, running the composition root `npm start` runs) on its own port and
 * data directory, sharing the database and the deployment's secrets. A node can be killed with
 * SIGKILL and replaced by a fresh process on a new port, which joins as a follower.
 */

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/free-port.js';
import { startChildServer, type ChildServer } from './http-child.js';
import { BOURSE_ENTRY, bourseEnv } from './http.js';

/** GET /health of a node of a PostgreSQL deployment (docs/deployment.md "Seeing it"). */
export interface NodeHealth {
  status: 'ok' | 'lagging';
  role: 'leader' | 'follower';
  term: number;
  seq: number;
  lagMs: number;
}

/** A node that does not answer /health within this is taken as out of reach. */
const HEALTH_TIMEOUT_MS = 2000;
/** How long a cluster may take to agree on one leader and one seq, on a loaded machine. */
const SETTLE_TIMEOUT_MS = 30_000;
const SETTLE_POLL_MS = 50;

export async function readHealth(url: string): Promise<NodeHealth | undefined> {
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS) });
    return (await response.json()) as NodeHealth;
  } catch {
    return undefined;
  }
}

export class BenchNode {
  private child: ChildServer | undefined;
  private currentUrl = '';

  constructor(
    readonly name: string,
    readonly dataDir: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  get url(): string {
    return this.currentUrl;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  get server(): ChildServer {
    if (this.child === undefined) throw new Error(`${this.name} is not running`);
    return this.child;
  }

  /** Starts a process on a new free port (the address it gives as BOURSE_NODE_URL); resolves once it serves. */
  async start(): Promise<void> {
    if (this.child !== undefined) throw new Error(`${this.name} is already running`);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    this.child = await startChildServer(BOURSE_ENTRY, { env: { ...this.env, PORT: String(port), BOURSE_NODE_URL: url } });
    this.currentUrl = url;
  }

  /** `kill -9`; answers the moment of the kill (performance.now()). */
  kill9(): number {
    const { pid } = this.server;
    this.child = undefined;
    process.kill(pid, 'SIGKILL');
    return performance.now();
  }

  /** SIGTERM and a clean exit (code 0), as a deployment stops a node. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    await child?.stop();
  }
}

/** What the nodes and this process used while `work` ran, in cores (CPU seconds over wall seconds). */
export interface CpuShares {
  nodes: Map<string, number>;
  bench: number;
  /** Every process of the machine (PostgreSQL, other users), from /proc/stat; undefined where it cannot be read. */
  machine: number | undefined;
}

/** USER_HZ: the unit of /proc/stat's counters on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds the whole machine has been busy (every state but idle and iowait), or undefined without /proc. */
function machineBusySeconds(): number | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/stat', 'utf8');
  } catch {
    return undefined;
  }
  // "cpu  user nice system idle iowait irq softirq steal guest guest_nice"; guest time is counted in user already.
  const [user, nice, system, , , irq, softirq, steal] = stat.slice(0, stat.indexOf('\n')).trim().split(/\s+/).slice(1).map(Number);
  return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS_PER_SECOND;
}

export class BenchCluster {
  private constructor(readonly nodes: readonly BenchNode[]) {}

  /**
   * Starts node 1 alone on the empty database (the first leader seeds the demo data and writes the
   * demo credentials to its data directory), then the others together. Every node gets the same
   * secrets: the sealing and webhook keys from the environment, the admin token as the file the
   * first node's data directory would hold, copied to each (docs/deployment.md "Settings").
   */
  static async start(databaseUrl: string, size: number): Promise<BenchCluster> {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const adminToken = randomBytes(32).toString('hex');
    const secrets = {
      BOURSE_DB: databaseUrl,
      BOURSE_SECRET_KEY: randomBytes(32).toString('base64'),
      BOURSE_WEBHOOK_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    };
    const nodes: BenchNode[] = [];
    for (let index = 1; index <= size; index++) {
      const dataDir = mkdtempSync(join(tmpdir(), `bourse-bench-cluster-node${index}-`));
      writeFileSync(join(dataDir, 'admin-token'), `${adminToken}\n`, { mode: 0o600 });
      nodes.push(new BenchNode(`node${index}`, dataDir, { ...bourseEnv(dataDir, 'inline'), ...secrets }));
    }
    const cluster = new BenchCluster(nodes);
    try {
      await nodes[0].start();
      const health = await readHealth(nodes[0].url);
      if (health?.role !== 'leader') throw new Error(`node1 does not lead once it serves: ${JSON.stringify(health)}`);
      await Promise.all(nodes.slice(1).map((node) => node.start()));
      await cluster.settled();
      return cluster;
    } catch (error) {
      await cluster.stop();
      throw error;
    }
  }

  running(): BenchNode[] {
    return this.nodes.filter((node) => node.running);
  }

  /**
   * Waits until every running node answers /health "ok" with one term and one seq, exactly one of
   * them leading; answers the leader. With no writes coming, the followers have applied everything.
   */
  async settled(): Promise<BenchNode> {
    const deadline = performance.now() + SETTLE_TIMEOUT_MS;
    let seen = '';
    while (performance.now() < deadline) {
      const nodes = this.running();
      const healths = await Promise.all(nodes.map((node) => readHealth(node.url)));
      seen = nodes.map((node, i) => `${node.name} ${JSON.stringify(healths[i])}`).join(', ');
      const [first] = healths;
      const agreed = healths.every((h) => h !== undefined && h.status === 'ok' && h.seq === first?.seq && h.term === first.term);
      const leaders = nodes.filter((_node, i) => healths[i]?.role === 'leader');
      if (agreed && leaders.length === 1) return leaders[0];
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
    throw new Error(`the nodes did not agree on one leader and one seq within ${SETTLE_TIMEOUT_MS} ms: ${seen}`);
  }

  /** Runs `work` and measures the CPU of every running node and of this process meanwhile. */
  async measureCpu<T>(work: () => PromiseLike<T>): Promise<{ result: T; cpu: CpuShares }> {
    const nodes = this.running();
    const before = nodes.map((node) => node.server.cpuSeconds());
    const machineBefore = machineBusySeconds();
    const bench = process.cpuUsage();
    const started = performance.now();
    const result = await work();
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(bench);
    const machineAfter = machineBusySeconds();
    const machine = machineBefore === undefined || machineAfter === undefined ? undefined : (machineAfter - machineBefore) / seconds;
    const shares = new Map<string, number>();
    nodes.forEach((node, i) => {
      const after = node.server.cpuSeconds();
      const was = before[i];
      if (after !== undefined && was !== undefined) shares.set(node.name, (after - was) / seconds);
    });
    return { result, cpu: { nodes: shares, bench: (used.user + used.system) / 1e6 / seconds, machine } };
  }

  /** Stops every running node (SIGTERM, clean exit expected) and removes the data directories; failures are reported, not thrown. */
  async stop(): Promise<void> {
    const stops = await Promise.allSettled(this.nodes.map((node) => node.stop()));
    for (const node of this.nodes) rmSync(node.dataDir, { recursive: true, force: true });
    stops.forEach((stop, i) => {
      if (stop.status === 'rejected') console.error(`bench cluster ${this.nodes[i].name}: ${String(stop.reason)}`);
    });
  }
}

/** "CPU in cores: leader node1 0.93, node2 0.41, node3 0.40, bench 0.62; machine 1.98 of 2". */
export function formatCpu(cpu: CpuShares, leader: string): string {
  const nodes = [...cpu.nodes].map(([name, cores]) => `${name === leader ? 'leader ' : ''}${name} ${cores.toFixed(2)}`);
  const machine = cpu.machine === undefined ? '' : `; machine ${cpu.machine.toFixed(2)} of ${availableParallelism()} (PostgreSQL and everything else included)`;
  return `CPU in cores: ${nodes.join(', ')}, bench ${cpu.bench.toFixed(2)}${machine}`;
}
