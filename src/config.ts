import { BlockList, isIP } from 'node:net';
import path from 'node:path';
import type { CoreThread } from './exchange/core-host.js';
import { DEFAULT_MAX_QUEUED } from './exchange/sequencer.js';

/** Environment of docs/running.md "Configuration (environment, all optional)", validated once at start-up. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `sqlite` (the embedded file, default) or a `postgres://` URL (docs/deployment.md). */
  db: string;
  /** Set with a PostgreSQL `db`: how this node joins the deployment (docs/deployment.md "Settings"). */
  cluster: ClusterConfig | undefined;
  /** `BOURSE_SECRET_KEY`: the secret-sealing key (32 bytes), shared by every node; else `secret.key` in the data directory. */
  secretKey: Buffer | undefined;
  /** `BOURSE_WEBHOOK_KEY`: the webhook signing key (PKCS#8 PEM), shared by every node; else `webhook-key.pem`. */
  webhookKeyPem: string | undefined;
  /** `BOURSE_TRUST_PROXY`: load balancers whose X-Forwarded-For names the client (docs/deployment.md "Behind a load balancer"). */
  trustProxy: BlockList | undefined;
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

export interface ClusterConfig {
  /** `BOURSE_NODE_URL`: where the other nodes reach this one (default `http://HOST:PORT`). */
  nodeUrl: string;
  /** `BOURSE_LEADER_TIMEOUT_MS`: a leader whose heartbeat is older is pushed out (default 3000). */
  leaderTimeoutMs: number;
  /** `BOURSE_MAX_LAG_MS`: a follower further behind answers 503 "lagging" on /health (default 5000). */
  maxLagMs: number;
}

/** docs/deployment.md "Settings": below 300 ms a busy but live leader would be pushed out; above 10 minutes nobody would wait. */
const LEADER_TIMEOUT_MS = { default: 3000, min: 300, max: 600_000 };
const MAX_LAG_MS = { default: 5000, min: 100, max: 3_600_000 };

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
  const postgres = db.startsWith('postgres://') || db.startsWith('postgresql://');
  if (db !== 'sqlite' && !db.startsWith('sqlite:') && !postgres) {
    throw new ConfigError(`BOURSE_DB must be sqlite (the default) or a postgres:// or postgresql:// URL, got ${redactUrl(db)}`);
  }
  if (postgres && !URL.canParse(db)) throw new ConfigError(`BOURSE_DB is not a valid URL: ${redactUrl(db)}`);
  const snapshotEveryCommands = Number(env.BOURSE_SNAPSHOT_EVERY ?? '100000');
  if (!Number.isInteger(snapshotEveryCommands) || snapshotEveryCommands < 1) throw new ConfigError('BOURSE_SNAPSHOT_EVERY must be a positive integer');
  const engineTimeoutMs = Number(env.BOURSE_ENGINE_TIMEOUT_MS ?? '10000');
  if (!Number.isSafeInteger(engineTimeoutMs) || engineTimeoutMs < 1) throw new ConfigError('BOURSE_ENGINE_TIMEOUT_MS must be a positive integer');
  const coreThread = env.BOURSE_CORE_THREAD ?? 'inline';
  if (coreThread !== 'inline' && coreThread !== 'worker') throw new ConfigError(`BOURSE_CORE_THREAD must be inline or worker, got ${coreThread}`);
  const maxPendingCommands = boundedInteger(env, 'BOURSE_MAX_PENDING_COMMANDS', { default: DEFAULT_MAX_QUEUED, min: 1, max: 1_000_000 });
  const sandbox = env.BOURSE_SANDBOX ?? '1';
  if (sandbox !== '0' && sandbox !== '1') throw new ConfigError(`BOURSE_SANDBOX must be 0 or 1, got ${sandbox}`);
  const wsMaxUnreadBytes = boundedInteger(env, 'BOURSE_WS_MAX_UNREAD_BYTES', WS_MAX_UNREAD_BYTES);
  const host = env.HOST ?? '127.0.0.1';
  const cluster = postgres ? clusterConfig(env, host, port) : undefined;
  return {
    port,
    host,
    dataDir: path.resolve(env.BOURSE_DATA ?? './data'),
    db,
    cluster,
    secretKey: secretKeyOf(env.BOURSE_SECRET_KEY),
    webhookKeyPem: env.BOURSE_WEBHOOK_KEY || undefined,
    trustProxy: trustedProxiesOf(env.BOURSE_TRUST_PROXY),
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

function clusterConfig(env: NodeJS.ProcessEnv, host: string, port: number): ClusterConfig {
  const leaderTimeoutMs = boundedInteger(env, 'BOURSE_LEADER_TIMEOUT_MS', LEADER_TIMEOUT_MS);
  const maxLagMs = boundedInteger(env, 'BOURSE_MAX_LAG_MS', MAX_LAG_MS);
  const wildcard = host === '0.0.0.0' || host === '::';
  const nodeUrl = env.BOURSE_NODE_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (env.BOURSE_NODE_URL === undefined && (wildcard || port === 0)) {
    throw new ConfigError(`BOURSE_NODE_URL must be set when HOST is ${host} or PORT is 0: the other nodes could not reach http://${host}:${port}`);
  }
  let parsed: URL;
  try {
    parsed = new URL(nodeUrl);
  } catch {
    throw new ConfigError(`BOURSE_NODE_URL is not a URL: ${nodeUrl}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(`BOURSE_NODE_URL must be http:// or https://, got ${nodeUrl}`);
  return { nodeUrl: nodeUrl.replace(/\/+$/, ''), leaderTimeoutMs, maxLagMs };
}

function boundedInteger(env: NodeJS.ProcessEnv, name: string, bounds: { default: number; min: number; max: number }): number {
  const text = env[name];
  const value = text === undefined ? bounds.default : Number(text);
  if (!Number.isSafeInteger(value) || value < bounds.min || value > bounds.max) {
    throw new ConfigError(`${name} must be an integer from ${bounds.min} to ${bounds.max}, got ${text}`);
  }
  return value;
}

/** `BOURSE_SECRET_KEY`: exactly 32 bytes in base64, or absent. */
function secretKeyOf(text: string | undefined): Buffer | undefined {
  if (text === undefined || text === '') return undefined;
  const key = Buffer.from(text, 'base64');
  if (key.length !== 32 || key.toString('base64') !== text.trim()) throw new ConfigError('BOURSE_SECRET_KEY must be the base64 of exactly 32 bytes (openssl rand -base64 32)');
  return key;
}

/** A URL with its password replaced, for messages and logs. */
export function redactUrl(url: string): string {
  return url.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
}

/** `BOURSE_TRUST_PROXY`: addresses or CIDR blocks, comma-separated; empty or absent trusts none. */
function trustedProxiesOf(text: string | undefined): BlockList | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const list = new BlockList();
  for (const entry of text.split(',').map((part) => part.trim())) {
    const [address, prefix, extra] = entry.split('/');
    const version = isIP(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    const maxBits = version === 4 ? 32 : 128;
    if (version === 0 || extra !== undefined || (bits !== undefined && (!/^[0-9]{1,3}$/.test(prefix) || bits > maxBits))) {
      throw new ConfigError(`BOURSE_TRUST_PROXY must list IP addresses or CIDR blocks separated by commas, got ${JSON.stringify(entry)}`);
    }
    const family = version === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, bits, family);
  }
  return list;
}
