import { runCli } from '../../src/cli/run.js';
import type { TestServer } from './server.js';
import { Watch } from './watch.js';

/** What one `bourse …` invocation did. */
export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** `bourse …` left running in this process, as in a terminal, until `stop()` ends it. */
export interface RunningBourse {
  stdout(): string;
  stderr(): string;
  /** Both streams in the order they were written, as a terminal shows them. */
  output(): string;
  /** Resolves once `condition` holds; it is re-checked at each write, the event it waits for. */
  until(condition: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Aborts it as Ctrl-C does and gives its exit code. */
  stop(): Promise<number>;
}

const NO_SERVE = { startServer: () => Promise.reject(new Error('serve is not part of this test')) };

/** One `bourse …` invocation in this process, with the server's URL and token in its environment. */
export async function runBourse(t: Pick<TestServer, 'url' | 'adminToken'>, argv: string[], env: Record<string, string> = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { BOURSE_URL: t.url, BOURSE_ADMIN_TOKEN: t.adminToken, ...env },
  };
  const exitCode = await runCli(argv, io, NO_SERVE);
  return { exitCode, stdout, stderr };
}

/** Starts `bourse …` in this process with only `env` for its environment (`webhooks receive`, `events --follow`). */
export function startBourse(argv: string[], env: Record<string, string>): RunningBourse {
  const written = { stdout: '', stderr: '', output: '' };
  const watch = new Watch();
  const stream = (name: 'stdout' | 'stderr') => ({
    write: (text: string) => {
      written[name] += text;
      written.output += text;
      watch.changed();
    },
  });
  const controller = new AbortController();
  const exit = runCli(argv, { stdout: stream('stdout'), stderr: stream('stderr'), env }, { ...NO_SERVE, stop: controller.signal });
  return {
    stdout: () => written.stdout,
    stderr: () => written.stderr,
    output: () => written.output,
    until: (condition, what, timeoutMs) => watch.until(condition, what, timeoutMs),
    stop: () => {
      controller.abort();
      return exit;
    },
  };
}

/** `bourse webhooks receive --port 0 …` left running, once it listens, and the URL it prints. */
export async function startBourseReceive(env: Record<string, string>, extraArgs: string[] = []): Promise<RunningBourse & { url: string }> {
  const run = startBourse(['webhooks', 'receive', '--port', '0', ...extraArgs], env);
  const url = (): string | undefined => /listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(run.output())?.[1];
  await run.until(() => url() !== undefined, 'bourse webhooks receive prints where it listens');
  return { ...run, url: url() ?? '' };
}
