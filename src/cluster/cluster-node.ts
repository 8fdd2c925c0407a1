/**
 * A node of a PostgreSQL deployment, assembled (docs/deployment.md): the store migrated and opened,
 * the deployment's key checked, the core recovered and following the journal, this node's row in
 * the nodes table, and what the HTTP layer needs (forwarding, /health, O28).
 */

import pg from 'pg';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { ClusterApp } from '../api/app.js';
import type { SecretBox } from '../api/auth/secret-box.js';
import type { ClusterConfig } from '../config.js';
import type { CoreHostOptions } from '../exchange/core-host.js';
import { openPostgresStore } from '../store/postgres/postgres-store.js';
import { startClusterHost, type ClusterHost, type Role } from './cluster-host.js';
import { registerClusterMetrics } from './cluster-metrics.js';
import { checkDeploymentKey } from './deployment-key.js';
import { ForwardedClient } from './forwarded-client.js';
import { NodeRegistry } from './node-registry.js';

export interface ClusterNodeOptions {
  url: string;
  cluster: ClusterConfig;
  /** The deployment's secret-sealing key: it also signs forwarded client addresses. */
  secretKey: Buffer;
  secretBox: SecretBox;
  hostOptions: CoreHostOptions;
  logger: Logger;
  onRole: (role: Role, term: number) => Promise<void>;
}

export interface ClusterNode {
  host: ClusterHost;
  /** What the HTTP layer of this node needs; registers the cluster metrics in `registry`. */
  app(registry: Registry, timeoutMs: number): ClusterApp;
  /** Reports in the nodes table and starts contending for the lead (once the node serves); resolves after the first attempt. */
  start(): Promise<void>;
  /** After the host closed. */
  close(): Promise<void>;
}

export async function openClusterNode(options: ClusterNodeOptions): Promise<ClusterNode> {
  const { cluster, logger } = options;
  // A leader paused inside an append is ended by the server after the leader timeout (and by the next leader sooner).
  const store = await openPostgresStore({ url: options.url, writerIdleTimeoutMs: cluster.leaderTimeoutMs });
  const pool = new pg.Pool({ connectionString: options.url, max: 2, application_name: 'bourse-node' });
  pool.on('error', (error) => logger.warn({ err: error }, 'a pooled database connection failed'));
  let host: ClusterHost;
  try {
    await checkDeploymentKey(pool, options.secretBox);
    host = await startClusterHost({
      ...options.hostOptions,
      url: options.url,
      store,
      nodeUrl: cluster.nodeUrl,
      leaderTimeoutMs: cluster.leaderTimeoutMs,
      logger,
      onRole: options.onRole,
    });
  } catch (error) {
    await store.close();
    await pool.end();
    throw error;
  }
  const registry = new NodeRegistry(pool, cluster.nodeUrl, () => host.status());
  const forwardedClient = new ForwardedClient(options.secretKey);
  logger.info({ nodeUrl: cluster.nodeUrl, seq: host.core.lastSeq }, 'following the journal');
  return {
    host,
    app(metricsRegistry, timeoutMs) {
      const { forwarded } = registerClusterMetrics(metricsRegistry, () => host.status());
      return {
        role: () => host.status().role,
        leaderUrl: () => host.leaderUrl(),
        refreshLeaderUrl: () => host.refreshLeaderUrl(),
        appliedSeq: () => host.core.lastSeq,
        waitForSeq: (seq, waitMs) => host.waitForSeq(seq, waitMs),
        forwardedClient,
        clock: options.hostOptions.clock,
        timeoutMs,
        onForwarded: () => forwarded.inc(),
        nodes: () => registry.list(),
        health() {
          const { role, term, seq, lagMs } = host.status();
          const lagging = role === 'follower' && lagMs > cluster.maxLagMs;
          return { httpStatus: lagging ? 503 : 200, body: { status: lagging ? 'lagging' : 'ok', role, term, seq, lagMs } };
        },
      };
    },
    async start() {
      registry.start();
      await host.campaign();
      await registry.report();
    },
    async close() {
      registry.stop();
      await pool.end();
    },
  };
}
