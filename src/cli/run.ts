import { CommanderError } from 'commander';
import { adminBaseUrl, createAdminClient, readAdminToken, type AdminClient } from './client.js';
import type { CliIo } from './command-context.js';
import { buildProgram } from './commands.js';
import { CliError } from './errors.js';

export type { CliIo } from './command-context.js';

export interface CliDeps {
  startServer(): Promise<unknown>;
  /** Ends long-running commands; without it they run until the process is stopped. */
  stop?: AbortSignal;
}

export const serverDeps: CliDeps = {
  // Imported on demand: client commands should not load the whole server.
  // SIGTERM/SIGINT then end it as they end `npm start`: drain, snapshot, exit 0.
  startServer: async () => {
    const { startServer, stopOnSignals } = await import('../main.js');
    const server = await startServer();
    stopOnSignals(server);
    return server;
  },
};

/** Runs one `bourse` invocation; resolves to the process exit code (0 ok, 1 refused or misused, 2 no server). */
export async function runCli(argv: readonly string[], io: CliIo, deps: CliDeps = serverDeps): Promise<number> {
  let exitCode = 0;
  let client: AdminClient | undefined;
  const program = buildProgram({
    io,
    client: async () => (client ??= createAdminClient({ baseUrl: adminBaseUrl(io.env), token: await readAdminToken(io.env) })),
    startServer: () => deps.startServer(),
    stop: deps.stop ?? new AbortController().signal,
    setExitCode: (code) => {
      exitCode = code;
    },
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (err) {
    // Commander has already printed its own message (usage error, help).
    if (err instanceof CommanderError) return err.exitCode;
    if (err instanceof CliError) {
      io.stderr.write(`${err.message}\n`);
      return err.exitCode;
    }
    throw err;
  }
  return exitCode;
}
