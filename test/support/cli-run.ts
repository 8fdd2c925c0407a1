import { runCli } from '../../src/cli/run.js';
import type { TestServer } from './server.js';

/** What one `bourse …` invocation did. */
export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** One `bourse …` invocation in this process, with the server's URL and token in its environment. */
export async function runBourse(t: Pick<TestServer, 'url' | 'adminToken'>, argv: string[], env: Record<string, string> = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { BOURSE_URL: t.url, BOURSE_ADMIN_TOKEN: t.adminToken, ...env },
  };
  const exitCode = await runCli(argv, io, { startServer: () => Promise.reject(new Error('serve is not part of this test')) });
  return { exitCode, stdout, stderr };
}
