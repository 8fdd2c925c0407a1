import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import type { DemoCredentials } from '../../src/demo/demo-data.js';
import { SEMI_SPACE_MB } from '../../src/young-generation.js';
import { Watch } from './watch.js';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** A start on a loaded machine: modules load, the journal replays. */
const START_TIMEOUT_MS = 30_000;
/** A drain finishes in-flight requests and writes one snapshot: seconds at most. */
const EXIT_TIMEOUT_MS = 15_000;
/** Lines of stderr kept to explain a failed start. */
const STDERR_TAIL_LINES = 40;

/** One pino line of the child's log (request lines are dropped: there are thousands under load). */
export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildServerOptions {
  /** Kept between starts: restarting on the same directory is the point. */
  dataDir: string;
  /** Extra environment (BOURSE_SNAPSHOT_EVERY, BOURSE_SYNCHRONOUS, …). */
  env?: Record<string, string>;
  /** What node runs (built by test/support/build-server.ts); `dist/main.js` (what `npm start` runs) unless told. */
  entry?: readonly string[];
}

export interface ChildServer {
  url: string;
  /** The process id, for signals that are not an end (SIGSTOP, SIGCONT). */
  pid: number;
  adminToken: string;
  /** The demo user's credentials; reading it throws for a server started with BOURSE_DEMO=0, which has none. */
  demo: DemoCredentials;
  /** Milliseconds from spawn to `/health` answering. */
  startMs: number;
  /**
   * Sends `signal` (nothing once exited) and waits for the exit and the end of its output; past
   * EXIT_TIMEOUT_MS the process is killed with SIGKILL and the promise rejects, so a hung shutdown
   * fails fast and leaves nothing behind.
   */
  kill(signal: NodeJS.Signals): Promise<ChildExit>;
  /** The first log line with this `msg`. */
  logLine(msg: string): LogLine | undefined;
  /** The first log line with this `msg`, once the child has written it: its output is read as it comes. */
  loggedLine(msg: string, timeoutMs?: number): Promise<LogLine>;
  /** Lines of stdout that are not JSON log lines ("SIGTERM: draining", the admin token notice). */
  plainLines: readonly string[];
  /** The exit, whenever it comes (a crash included), once the output is read to its end. */
  exited: Promise<ChildExit>;
  /** The last lines of stderr, which say why a process crashed. */
  stderrTail: readonly string[];
}

/** The environment of the parent minus anything that would configure Bourse behind the test's back. */
function childEnv(options: ChildServerOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('BOURSE_') && name !== 'PORT' && name !== 'HOST' && name !== 'LOG_LEVEL') env[name] = value;
  }
  return { ...env, BOURSE_DATA: options.dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', BOURSE_DEMO: '1', BOURSE_DEMO_MARKET_MAKER: '0', ...options.env };
}

function parseLogLine(text: string): LogLine | undefined {
  // Request lines are skipped before parsing: under load they are nearly all of the output.
  if (!text.startsWith('{') || text.includes('"reqId"')) return undefined;
  try {
    const line = JSON.parse(text) as unknown;
    if (typeof line === 'object' && line !== null && typeof (line as LogLine).msg === 'string') return line as LogLine;
  } catch {
    // A plain-text line (the admin token notice, "SIGTERM: draining").
  }
  return undefined;
}

/**
 * Runs `node dist/main.js` (as `npm start` does) as a real process on `dataDir` and a free port (PORT=0, the
 * address read from the "Bourse is serving" log line); resolves once `/health` answers.
 */
export async function startChildServer(options: ChildServerOptions): Promise<ChildServer> {
  const startedAt = performance.now();
  const child: ChildProcess = spawn(process.execPath, [`--max-semi-space-size=${SEMI_SPACE_MB}`, ...(options.entry ?? ['dist/main.js'])], {
    cwd: REPO_ROOT,
    env: childEnv(options),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const logged = new Watch();
  const plainLines: string[] = [];
  const stderrTail: string[] = [];
  // 'close' comes after the output is read to its end: the last log lines are in `logs` by then.
  const exited = new Promise<ChildExit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  let announceUrl: (url: string) => void = () => undefined;
  const announced = new Promise<string>((resolve) => {
    announceUrl = resolve;
  });

  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (text) => {
    if (!text.startsWith('{')) plainLines.push(text);
    const line = parseLogLine(text);
    if (line === undefined) return;
    logs.push(line);
    logged.changed();
    if (line.msg === 'Bourse is serving' && typeof line.url === 'string') announceUrl(line.url);
  });
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (text) => {
    stderrTail.push(text);
    if (stderrTail.length > STDERR_TAIL_LINES) stderrTail.shift();
  });

  const kill = async (signal: NodeJS.Signals): Promise<ChildExit> => {
    if (child.exitCode !== null || child.signalCode !== null) return exited;
    child.kill(signal);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`child server did not exit within ${EXIT_TIMEOUT_MS} ms of ${signal}`));
      }, EXIT_TIMEOUT_MS);
    });
    try {
      return await Promise.race([exited, late]);
    } finally {
      clearTimeout(timer);
    }
  };

  let timer: NodeJS.Timeout | undefined;
  const failure = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`child server did not serve within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    void exited.then((exit) => reject(new Error(`child server exited before serving (${JSON.stringify(exit)}): ${stderrTail.join('\n')}`)));
  });
  // Once serving, the later exit must not surface as an unhandled rejection.
  failure.catch(() => undefined);
  const deadline = startedAt + START_TIMEOUT_MS;
  try {
    const url = await Promise.race([announced, failure]);
    await Promise.race([waitForHealth(url, deadline), failure]);
    // A token given in the environment is not written to the data directory.
    const adminToken = options.env?.BOURSE_ADMIN_TOKEN ?? readFileSync(path.join(options.dataDir, 'admin-token'), 'utf8').trim();
    // BOURSE_DEMO=0 (a production deployment's setting) seeds no demo user: there is no file to wait for.
    const demo = childEnv(options).BOURSE_DEMO === '0' ? undefined : await Promise.race([demoCredentials(options.dataDir, deadline), failure]);
    return {
      url,
      pid: child.pid as number,
      adminToken,
      get demo(): DemoCredentials {
        if (demo === undefined) throw new Error('started with BOURSE_DEMO=0: no demo user');
        return demo;
      },
      startMs: performance.now() - startedAt,
      kill,
      logLine: (msg) => logs.find((line) => line.msg === msg),
      loggedLine: async (msg, timeoutMs) => {
        const line = (): LogLine | undefined => logs.find((l) => l.msg === msg);
        await logged.until(() => line() !== undefined, `the child logs "${msg}"`, timeoutMs);
        return line() as LogLine;
      },
      plainLines,
      exited,
      stderrTail,
    };
  } catch (error) {
    await kill('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A node that learns the demo user from another node's journal (a follower of a cluster) writes
 * the file once it has replayed that far, which may come after it serves: it is read once whole.
 */
async function demoCredentials(dataDir: string, deadline: number): Promise<DemoCredentials> {
  const file = path.join(dataDir, 'demo-credentials.json');
  const read = (): DemoCredentials | undefined => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as DemoCredentials;
    } catch {
      // Not there yet, or caught between its creation and its one write.
      return undefined;
    }
  };
  return vi.waitUntil(read, { timeout: Math.max(0, deadline - performance.now()), interval: 20 }).catch(() => {
    throw new Error(`${file} was not written in time`);
  });
}

/**
 * The server logs its address after `listen`, so the first answer normally comes at once; should
 * it not, nothing else announces readiness, so it is polled until `deadline`.
 */
async function waitForHealth(url: string, deadline: number): Promise<void> {
  const healthy = async (): Promise<boolean> => (await fetch(`${url}/health`).catch(() => undefined))?.ok === true;
  await vi.waitUntil(healthy, { timeout: Math.max(0, deadline - performance.now()), interval: 20 }).catch(() => {
    throw new Error(`${url}/health did not answer in time`);
  });
}
