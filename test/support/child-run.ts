import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, where a child runs as a reader would run it after a clone. */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What one child process did. */
export interface ChildRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export interface ChildRunOptions {
  /** Its whole environment but PATH, so nothing leaks in from the test's. */
  env: Record<string, string>;
  /** Killed (SIGKILL) when it runs longer. */
  deadlineMs: number;
  /** Written to stdin, which is then closed; without it stdin stays open. */
  input?: string;
  /** Sees stdout as it grows, and may signal the process. */
  onOutput?: (stdout: string, kill: (signal: NodeJS.Signals) => void) => void;
}

/** `command args…` in the repository's root, to its end. */
export function runChild(command: string, args: string[], options: ChildRunOptions): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO, env: { PATH: process.env.PATH ?? '', ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      options.onOutput?.(stdout, (signal) => child.kill(signal));
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.deadlineMs);
    child.on('error', reject);
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr });
    });
    if (options.input !== undefined) child.stdin.end(options.input);
  });
}
