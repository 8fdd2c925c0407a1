import path from 'node:path';
import type { CoreThread } from './exchange/core-host.js';
import { DEFAULT_MAX_QUEUED } from './exchange/sequencer.js';

/** Environment of docs/running.md "Configuration (environment, all optional)", validated once at start-up. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  db: string;
  adminToken: string | undefined;
  demo: boolean;
  /** Run the demo market maker (with `demo`); `BOURSE_DEMO_MARKET_MAKER=0` turns it off. */
  demoMarketMaker: boolean;
  logLevel: string;
  synchronous: 'NORMAL' | 'FULL';
  /** Snapshot after this many commands since the last one. */
  snapshotEveryCommands: number;
  /** How long a request waits for the core's answer before it gets -1007 (docs/spot-api.md "Errors"). */
  engineTimeoutMs: number;
  /** Where the core and the journal's writes run: the HTTP thread (default) or a worker thread. */
  coreThread: CoreThread;
  /** Commands waiting for the core, at most; beyond, a write is refused at once with 503 (`BOURSE_MAX_PENDING_COMMANDS`). */
  maxPendingCommands: number;
  /** `BOURSE_SANDBOX` (docs/operating.md "Merchant payments settings"): merchant tokens may drive the simulator; default on. */
  sandbox: boolean;
  /** Bytes a WebSocket client may leave unread before it is cut off, on both streams (`BOURSE_WS_MAX_UNREAD_BYTES`). */
  wsMaxUnreadBytes: number;
}

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);
/** docs/websocket.md "Limits": 4 MiB; below 64 KiB one snapshot could pass it, above 1 GiB memory would not bound much. */
const WS_MAX_UNREAD_BYTES = { default: 4 * 1024 * 1024, min: 64 * 1024, max: 1024 * 1024 * 1024 };

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? '8080');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be 0..65535, got ${env.PORT}`);
  const demo = env.BOURSE_DEMO ?? '1';
  if (demo !== '0' && demo !== '1') throw new ConfigError(`BOURSE_DEMO must be 0 or 1, got ${demo}`);
  const marketMaker = env.BOURSE_DEMO_MARKET_MAKER ?? '1';
  if (marketMaker !== '0' && marketMaker !== '1') throw new ConfigError(`BOURSE_DEMO_MARKET_MAKER must be 0 or 1, got ${marketMaker}`);
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!LOG_LEVELS.has(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${[...LOG_LEVELS].join(', ')}`);
  const synchronous = (env.BOURSE_SYNCHRONOUS ?? 'NORMAL').toUpperCase();
  if (synchronous !== 'NORMAL' && synchronous !== 'FULL') throw new ConfigError('BOURSE_SYNCHRONOUS must be NORMAL or FULL');
  const db = env.BOURSE_DB ?? 'sqlite';
  if (db !== 'sqlite' && !db.startsWith('sqlite:')) {
    throw new ConfigError(`BOURSE_DB=${db} is not supported by this build: use sqlite (the default)`);
  }
  const snapshotEveryCommands = Number(env.BOURSE_SNAPSHOT_EVERY ?? '100000');
  if (!Number.isInteger(snapshotEveryCommands) || snapshotEveryCommands < 1) throw new ConfigError('BOURSE_SNAPSHOT_EVERY must be a positive integer');
  const engineTimeoutMs = Number(env.BOURSE_ENGINE_TIMEOUT_MS ?? '10000');
  if (!Number.isSafeInteger(engineTimeoutMs) || engineTimeoutMs < 1) throw new ConfigError('BOURSE_ENGINE_TIMEOUT_MS must be a positive integer');
  const coreThread = env.BOURSE_CORE_THREAD ?? 'inline';
  if (coreThread !== 'inline' && coreThread !== 'worker') throw new ConfigError(`BOURSE_CORE_THREAD must be inline or worker, got ${coreThread}`);
  const maxPendingCommands = Number(env.BOURSE_MAX_PENDING_COMMANDS ?? String(DEFAULT_MAX_QUEUED));
  if (!Number.isSafeInteger(maxPendingCommands) || maxPendingCommands < 1 || maxPendingCommands > 1_000_000) {
    throw new ConfigError('BOURSE_MAX_PENDING_COMMANDS must be an integer from 1 to 1000000');
  }
  const sandbox = env.BOURSE_SANDBOX ?? '1';
  if (sandbox !== '0' && sandbox !== '1') throw new ConfigError(`BOURSE_SANDBOX must be 0 or 1, got ${sandbox}`);
  const wsMaxUnreadBytes = Number(env.BOURSE_WS_MAX_UNREAD_BYTES ?? String(WS_MAX_UNREAD_BYTES.default));
  if (!Number.isSafeInteger(wsMaxUnreadBytes) || wsMaxUnreadBytes < WS_MAX_UNREAD_BYTES.min || wsMaxUnreadBytes > WS_MAX_UNREAD_BYTES.max) {
    throw new ConfigError(`BOURSE_WS_MAX_UNREAD_BYTES must be an integer from ${WS_MAX_UNREAD_BYTES.min} to ${WS_MAX_UNREAD_BYTES.max}`);
  }
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    dataDir: path.resolve(env.BOURSE_DATA ?? './data'),
    db,
    adminToken: env.BOURSE_ADMIN_TOKEN || undefined,
    demo: demo === '1',
    demoMarketMaker: marketMaker === '1',
    logLevel,
    synchronous,
    snapshotEveryCommands,
    engineTimeoutMs,
    coreThread,
    maxPendingCommands,
    sandbox: sandbox === '1',
    wsMaxUnreadBytes,
  };
}
