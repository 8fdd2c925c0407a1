import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { resolveAdminToken } from './admin-token.js';
import { publicKeyFingerprint, resolveWebhookKey } from './webhooks/webhook-key.js';
import { WebhookDeliveryWorker } from './webhooks/delivery-worker.js';
import { WebhookSender } from './webhooks/sender.js';
import { buildApp } from './api/app.js';
import { ClientAddresses } from './api/client-address.js';
import { banJournal } from './api/auth/ban-journal.js';
import { DEFAULT_RATE_LIMITS, followBans, followTradingConfig, RateLimiter } from './api/auth/rate-limiter.js';
import { dataDirSecretKey, openSecretBox } from './api/auth/secret-box.js';
import { Metrics } from './api/metrics.js';
import { ListenKeys } from './api/ws/listen-keys.js';
import { createMarketStreams } from './api/ws/market-stream.js';
import { createUserStreams } from './api/ws/user-stream.js';
import { loadConfig, type Config } from './config.js';
import { DEMO_MARKET_MAKER_SEED, DEMO_MARKET_MAKER_SYMBOLS } from './demo/demo-catalogue.js';
import { ensureDemoTakerKey, findDemoMarketMakerKey, seedDemo, writeDemoCredentials } from './demo/demo-data.js';
import { startDemoMarketMaker, type DemoMarketMaker } from './demo/market-maker.js';
import { Exchange } from './exchange/exchange.js';
import { MarketData } from './market/market-data.js';
import { startInlineCore, type CoreHostOptions } from './exchange/core-host.js';
import { startWorkerCore } from './exchange/core-thread/worker-core.js';
import { CommitSubscribers } from './exchange/commit-subscribers.js';
import { DeadlineScheduler } from './exchange/deadline-scheduler.js';
import { openClusterNode, type ClusterNode } from './cluster/cluster-node.js';
import { FileDocumentStore } from './store/documents.js';
import type { Role } from './cluster/cluster-host.js';

// Webhook signatures are made on libuv's thread pool (crypto.sign with a callback): one thread per core, at
// least libuv's own 4. Read when the pool first starts, which no module does while being imported.
process.env.UV_THREADPOOL_SIZE ??= String(Math.max(4, availableParallelism()));

export interface RunningServer {
  url: string;
  port: number;
  config: Config;
  app: FastifyInstance;
  exchange: Exchange;
  /** Submits due time-driven transitions; tests that move the clock call `fireDue()` instead of waiting. */
  deadlines: DeadlineScheduler;
  /** Sends webhook events (docs/webhooks.md "Answering, retries, order"); tests that move the clock call `pump()` instead of waiting. */
  webhooks: WebhookDeliveryWorker;
  /** docs/webhooks.md "Verifying the signature" `publicKey`: base64 DER SPKI of the deployment's webhook key. */
  webhookPublicKey: string;
  /** Stops accepting, finishes what was acknowledged, snapshots and closes (SIGTERM does this). */
  close(): Promise<void>;
}

/** Composition root: config → core host (store, recovery, sequencer) → read models → HTTP. */
export async function startServer(env: NodeJS.ProcessEnv = process.env): Promise<RunningServer> {
  const config = loadConfig(env);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const logger = pino({
    level: config.logLevel,
    // Request lines carry the path only: query strings hold keys and signatures.
    serializers: {
      req: (req: { id: string; method: string; url: string; ip?: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
        remoteAddress: req.ip,
      }),
    },
    redact: ['req.headers', 'secretKey', 'adminToken'],
  });
  const clock = (): number => Date.now();

  const market = new MarketData();
  const subscribers = new CommitSubscribers();
  const hostOptions: CoreHostOptions = {
    dbPath: path.join(config.dataDir, 'bourse.db'),
    synchronous: config.synchronous,
    snapshotEveryCommands: config.snapshotEveryCommands,
    clock,
    onCommit: (info) => subscribers.onCommit(info),
    onFatal: (error) => {
      // Memory may be ahead of disk: stop now, the journal is the truth on restart.
      logger.fatal({ err: error }, 'the core failed (a commit, or its worker); stopping');
      process.exit(70);
    },
    maxPendingCommands: config.maxPendingCommands,
    // A full disk does not stop the server: writes are refused (503) until there is room again.
    onWriteEvent: (event) => {
      if (event.type === 'writesSuspended') logger.error(event, 'the journal cannot be written (disk full): writes suspended, reads still served');
      else if (event.type === 'writesResumed') logger.warn(event, 'the journal takes writes again: writes resumed');
      else logger.warn(event, 'no room for a snapshot: skipped, the journal still holds every command');
    },
  };
  const started = process.hrtime.bigint();
  // Every node of a deployment seals with the same key (BOURSE_SECRET_KEY); one node alone, with its data directory's.
  const secretKey = config.secretKey ?? dataDirSecretKey(config.dataDir);
  const secretBox = openSecretBox(config.dataDir, secretKey);
  /** This node now leads or follows (a SQLite server always leads); bound below, once the services exist. */
  let onRole: (role: Role) => Promise<void> = () => Promise.resolve();
  let cluster: ClusterNode | undefined;
  if (config.cluster !== undefined) {
    cluster = await openClusterNode({
      url: config.db,
      cluster: config.cluster,
      secretKey,
      secretBox,
      hostOptions,
      logger: logger.child({ component: 'cluster' }),
      onRole: (role) => onRole(role),
    });
  }
  const host = cluster?.host ?? (config.coreThread === 'worker' ? await startWorkerCore(hostOptions) : startInlineCore(hostOptions));
  const { core } = host;
  logger.info(
    { snapshotSeq: host.snapshotSeq, replayed: host.replayed, seq: core.lastSeq, coreThread: config.coreThread, ms: Number(process.hrtime.bigint() - started) / 1e6 },
    'state recovered',
  );

  try {
    const metrics = new Metrics(() => core);
    const clusterApp = cluster?.app(metrics.registry, config.engineTimeoutMs);
    const limiter = new RateLimiter({ ...DEFAULT_RATE_LIMITS }, clock, {
      // A ban a strike starts is journaled (through the leader), so every node refuses the address; called once serving.
      onBan: (ban) => journalBan(ban),
      onBanFailed: (ban, error) => logger.warn({ err: error, ip: ban.ip }, 'a ban could not be journaled: refused here only, sent again on a later strike'),
    });
    // Its settings are the recovered trading config's, and follow each committed change of it.
    const rateLimits = followTradingConfig(limiter, () => core.spot.rateLimits);
    // Its bans: the recovered ones, then each committed ban or lift, whichever node it came from.
    const bans = followBans(limiter, () => core.bans);
    const listenKeys = new ListenKeys({ core, clock });
    const userStreams = createUserStreams({
      listenKeys,
      exchange: { core },
      limiter,
      clock,
      logger: logger.child({ component: 'user-stream' }),
      limits: { maxBufferedBytes: config.wsMaxUnreadBytes },
      catchUp: cluster === undefined ? undefined : () => cluster.host.catchUp(),
    });
    // Market read models are rebuilt from the committed trades; the books come from the core.
    // Trades the core has not applied yet (a follower's tables run ahead of its replay) come with their commit.
    const lastTradeId = core.spot.nextTradeId - 1;
    for await (const trade of host.history.readTrades(0)) if (trade.tradeId <= lastTradeId) market.onTrades([trade]);
    const marketStreams = createMarketStreams(
      { exchange: { core, market }, limiter, clock, logger: logger.child({ component: 'market-stream' }) },
      { maxBufferedBytes: config.wsMaxUnreadBytes },
    );
    const exchange = new Exchange(host, clock, market);
    const deadlines = new DeadlineScheduler({
      deadlines: () => core.deadlines(),
      epoch: () => core.deadlineEpoch,
      submit: (command) => exchange.submit(command),
      clock,
      onRefused: (command, error) => logger.debug({ command: command.type, err: error }, 'a due command was refused'),
    });
    // Leader-only: a follower's scheduler stays stopped until its node leads.
    if (cluster !== undefined) deadlines.stop();
    // Made on first start so that receivers can be configured before the first webhook is sent.
    const webhookKey = resolveWebhookKey(config.dataDir, config.webhookKeyPem);
    logger.info({ generated: webhookKey.generated, publicKeySha256: publicKeyFingerprint(webhookKey.publicKeyBase64) }, 'webhook signing key ready');
    const sender = new WebhookSender();
    const webhooks = new WebhookDeliveryWorker({
      core,
      history: host.history,
      submit: (command) => exchange.submit(command),
      send: (request) => sender.send(request),
      privateKey: webhookKey.privateKey,
      sandbox: config.sandbox,
      clock,
      onError: (error) => logger.warn({ err: error }, 'a webhook attempt could not be recorded'),
    });
    subscribers.add(
      rateLimits,
      bans,
      metrics,
      { onCommit: (info) => market.onTrades(info.rows.trades) },
      // After the read models took the batch, so a new subscription's snapshot already holds it.
      marketStreams,
      userStreams,
      deadlines,
      // Only the leader delivers (and signs): a follower's worker would sign every event for nothing.
      cluster === undefined
        ? webhooks
        : {
            onCommit: (info) => {
              if (cluster?.host.status().role === 'leader') webhooks.onCommit(info);
            },
          },
    );
    const admin = resolveAdminToken(config.dataDir, config.adminToken);
    const journalBan = banJournal({
      submit: (command) => exchange.submit(command),
      leaderUrl: () => cluster?.host.leaderUrl() ?? '',
      adminToken: admin.token,
      timeoutMs: config.engineTimeoutMs,
    });
    if (admin.generated && config.logLevel !== 'silent') {
      process.stdout.write(`Operator API token generated: see ${path.join(config.dataDir, 'admin-token')}\n`);
    }
    /** The demo user's credentials in the data directory, once the demo data exists (a follower waits for the leader's seeding). */
    let demoWritten = !config.demo;
    const writeDemo = (): void => {
      if (demoWritten) return;
      const demo = writeDemoCredentials(exchange, secretBox, config.dataDir);
      if (demo === undefined) return;
      demoWritten = true;
      logger.info({ apiKey: demo.apiKey, file: path.join(config.dataDir, 'demo-credentials.json') }, 'demo user ready');
    };
    /** What the node that writes does first: the demo data on an empty journal, area B's desk. */
    const setUpAsWriter = async (): Promise<void> => {
      if (config.demo && core.lastSeq === 0) await seedDemo(exchange, secretBox, config.sandbox);
      // Area B's desk on first start; the sandbox flag journaled whenever it changes, so replays decide alike.
      if (core.payments.state.deskAccountId === 0 || core.payments.state.sandbox !== config.sandbox) {
        await exchange.submit({ type: 'paymentsSetUp', sandbox: config.sandbox });
      }
      writeDemo();
    };
    if (cluster === undefined) {
      await setUpAsWriter();
      deadlines.start();
      webhooks.start();
    } else {
      writeDemo();
      subscribers.add({ onCommit: writeDemo });
    }
    let accepting = true;
    // Known once the server listens; area B's links are built on requests, which come after that.
    let url = '';
    const { app } = buildApp({
      exchange,
      limiter,
      secretBox,
      adminToken: admin.token,
      metrics,
      logger,
      accepting: () => accepting,
      listenKeys,
      engineTimeoutMs: config.engineTimeoutMs,
      upgradeRoutes: [marketStreams, userStreams],
      sandbox: config.sandbox,
      publicBaseUrl: () => url,
      // A SQLite server keeps uploads beside its database; a deployment in its database, for every node.
      documents: cluster === undefined ? new FileDocumentStore(config.dataDir) : cluster.host.history.documents,
      webhookPublicKey: webhookKey.publicKeyBase64,
      cluster: clusterApp,
      clientAddresses: config.trustProxy === undefined ? undefined : new ClientAddresses(config.trustProxy),
    });
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : config.port;
    url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    logger.info({ url, tradingPage: `${url}/`, console: `${url}/console`, reference: `${url}/docs` }, 'Bourse is serving');

    let marketMaker: DemoMarketMaker | undefined;
    const startMarketMaker = async (): Promise<void> => {
      if (!config.demo || !config.demoMarketMaker || marketMaker !== undefined) return;
      const key = findDemoMarketMakerKey(exchange, secretBox);
      if (key === undefined) {
        logger.warn('demo market maker: this database was seeded without its user; not started');
      } else {
        // A client of the public API: it reaches this server over loopback, whatever HOST binds.
        const wildcard = config.host === '0.0.0.0' || config.host === '::';
        const taker = await ensureDemoTakerKey(exchange, secretBox).catch((error: unknown) => {
          logger.warn({ err: error }, 'demo market maker: no taker account; it only quotes');
          return undefined;
        });
        // A user's flood must not get the maker banned with the loopback address it shares (docs/running.md).
        limiter.exemptKey(key.apiKey);
        if (taker !== undefined) limiter.exemptKey(taker.apiKey);
        marketMaker = startDemoMarketMaker({
          baseUrl: wildcard ? `http://127.0.0.1:${port}` : url,
          ...key,
          taker,
          symbols: DEMO_MARKET_MAKER_SYMBOLS,
          seed: DEMO_MARKET_MAKER_SEED,
          logger: logger.child({ component: 'demo-market-maker' }),
        });
      }
    };
    if (cluster === undefined) {
      await startMarketMaker();
    } else {
      // Leader-only work follows the lead (docs/deployment.md "Roles"): deadlines re-armed and the outbox resumed from the committed state.
      onRole = async (role) => {
        if (role === 'leader') {
          await setUpAsWriter().catch((error: unknown) => logger.error({ err: error }, 'the new leader could not set up the demo data or the desk'));
          deadlines.start();
          webhooks.start();
          await startMarketMaker();
          return;
        }
        const maker = marketMaker;
        marketMaker = undefined;
        await maker?.stop();
        deadlines.stop();
        webhooks.stop();
        // Streams of a leader that stepped down close (1001): their clients reconnect to any node.
        userStreams.disconnectAll();
        marketStreams.disconnectAll();
      };
      await cluster.start();
    }

    let closing: Promise<void> | undefined;
    const close = (): Promise<void> => {
      closing ??= (async () => {
        // First, while the server still answers its last requests.
        await marketMaker?.stop();
        deadlines.stop();
        webhooks.stop();
        accepting = false;
        listenKeys.stop();
        await userStreams.close();
        await marketStreams.close();
        await app.close();
        // In-flight attempts are dropped: after a restart they are made again (docs/webhooks.md "Answering, retries, order").
        sender.close();
        await host.close();
        await cluster?.close();
        logger.info('Bourse stopped');
      })();
      return closing;
    };
    return { url, port, config, app, exchange, deadlines, webhooks, webhookPublicKey: webhookKey.publicKeyBase64, close };
  } catch (error) {
    // A start that fails after recovery (seeding, listening) must not leave the core's writer running.
    await host.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Ends `server` like `npm start` does on the first SIGTERM or SIGINT: stop accepting, drain, snapshot,
 * then exit 0 (1 if closing failed). Used by `node dist/main.js` and `bourse serve`.
 */
export function stopOnSignals(server: Pick<RunningServer, 'close'>): void {
  const stop = (signal: string): void => {
    process.stdout.write(`${signal}: draining\n`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

/** `node dist/main.js`: serve until SIGTERM or SIGINT. */
async function runMain(): Promise<void> {
  try {
    stopOnSignals(await startServer());
  } catch (error) {
    process.stderr.write(`Bourse failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) void runMain();
