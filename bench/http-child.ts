/**
 * The HTTP bench's servers run in child processes of their own, so that the load generator and the
 * server under test never share an event loop. The child sends its URL over the IPC channel once it
 * listens (no port guessing, no polling) and closes cleanly on SIGTERM, which also lets
 * `--cpu-prof` write its profile.
 */

import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SEMI_SPACE_MB } from '../src/young-generation.js';

/** A child server's start-up budget: seeding the demo data takes about a second. */
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 30_000;
/** USER_HZ: the unit of utime and stime in /proc/<pid>/stat on Linux. */
const CLOCK_TICKS_PER_SECOND = 100;

interface ReadyMessage {
  url: string;
}

function isReadyMessage(message: unknown): message is ReadyMessage {
  return typeof message === 'object' && message !== null && typeof (message as { url?: unknown }).url === 'string';
}

export interface ChildServer {
  url: string;
  pid: number;
  /** User + system CPU seconds the child has used so far, or undefined where /proc is not there to read. */
  cpuSeconds(): number | undefined;
  /** The same for the child's main thread alone (the HTTP thread; its thread id is the pid). */
  mainThreadCpuSeconds(): number | undefined;
  /** SIGTERM, then waits for a clean exit (code 0). */
  stop(): Promise<void>;
}

export interface ChildServerOptions {
  env?: NodeJS.ProcessEnv;
  /** Extra Node flags, e.g. `--cpu-prof`. */
  nodeArgs?: readonly string[];
}

/** Runs `entry` (a module that calls `serveForBench`) under tsx in its own process and waits until it listens. */
export async function startChildServer(entry: URL, options: ChildServerOptions = {}): Promise<ChildServer> {
  const name = fileURLToPath(entry);
  const child = fork(name, [], {
    // Every server runs with the young generation `npm start` gives Bourse (src/young-generation.ts).
    execArgv: [`--max-semi-space-size=${SEMI_SPACE_MB}`, '--import', 'tsx', ...(options.nodeArgs ?? [])],
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${name}: no process`);
  const output = new OutputTail();
  child.stdout?.on('data', (chunk: Buffer) => output.add(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.add(chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let url: string;
  try {
    url = await waitForUrl(child, name);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}${output.describe()}`);
  }
  return {
    url,
    pid,
    cpuSeconds: () => statCpuSeconds(`/proc/${pid}/stat`),
    mainThreadCpuSeconds: () => statCpuSeconds(`/proc/${pid}/task/${pid}/stat`),
    stop: async () => {
      child.kill('SIGTERM');
      const timeout = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      const code = await exited;
      clearTimeout(timeout);
      if (code !== 0) throw new Error(`${name} exited with ${code ?? 'a signal'} when stopped${output.describe()}`);
    },
  };
}

/** The child's last lines of output (its warnings and errors: servers run at LOG_LEVEL=warn), for failure messages. */
class OutputTail {
  private static readonly MAX_LINES = 20;
  private lines: string[] = [];
  private partial = '';

  add(chunk: Buffer): void {
    const parts = (this.partial + chunk.toString('utf8')).split('\n');
    this.partial = parts.pop() ?? '';
    this.lines.push(...parts);
    if (this.lines.length > OutputTail.MAX_LINES) this.lines = this.lines.slice(-OutputTail.MAX_LINES);
  }

  describe(): string {
    const lines = this.partial === '' ? this.lines : [...this.lines, this.partial];
    return lines.length === 0 ? '' : `; its last output:\n${lines.join('\n')}`;
  }
}

function waitForUrl(child: ChildProcess, name: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const settle = (outcome: () => void): void => {
      clearTimeout(timeout);
      child.off('message', onMessage);
      child.off('exit', onExit);
      child.off('error', onError);
      outcome();
    };
    const onMessage = (message: unknown): void =>
      settle(() => (isReadyMessage(message) ? resolve(message.url) : reject(new Error(`${name}: unexpected message ${JSON.stringify(message)}`))));
    const onExit = (code: number | null, signal: string | null): void => settle(() => reject(new Error(`${name} exited (${code ?? signal}) before listening`)));
    const onError = (error: Error): void => settle(() => reject(error));
    const timeout = setTimeout(() => settle(() => reject(new Error(`${name} did not listen within ${START_TIMEOUT_MS} ms`))), START_TIMEOUT_MS);
    child.on('message', onMessage);
    child.on('exit', onExit);
    child.on('error', onError);
  });
}

/** utime + stime of a /proc stat file (a process's or one of its threads'). */
function statCpuSeconds(path: string): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the parenthesised command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

export interface BenchServer {
  url: string;
  close(): Promise<void>;
}

/** The child's side: start, report the URL to the parent, close and exit 0 on SIGTERM or when the parent goes. */
export async function serveForBench(start: () => Promise<BenchServer>): Promise<void> {
  const send = process.send?.bind(process);
  if (send === undefined) throw new Error('a bench server runs as a child of bench/http.ts (it reports over IPC)');
  const server = await start();
  let closing = false;
  const shutdown = (): void => {
    if (closing) return;
    closing = true;
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`bench server failed to close: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  // A parent that died without stopping us must not leave a server running.
  process.once('disconnect', shutdown);
  send({ url: server.url } satisfies ReadyMessage);
}
