import type { AdminClient, CliEnv } from './client.js';

export interface OutputStream {
  write(text: string): unknown;
}

export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly env: CliEnv;
}

/** What every command of the `bourse` program works with: its output, the operator API's client, the server, the exit code. */
export interface CommandContext {
  readonly io: CliIo;
  /** Created on first use, so `serve` and `--help` need no token. */
  client(): Promise<AdminClient>;
  startServer(): Promise<unknown>;
  setExitCode(code: number): void;
  /** Aborted by Ctrl-C (or a test): ends the commands that run until stopped (`webhooks receive`, `--follow`). */
  readonly stop: AbortSignal;
}
