/**
 * The nodes of a deployment as the operator sees them (docs/deployment.md "Seeing it"): each node
 * writes its role, term, seq and lag to `bourse.nodes` every second; GET /admin/v1/cluster lists the
 * ones seen in the last minute, by the database's clock.
 */

import type pg from 'pg';
import type { NodeStatus } from './cluster-host.js';

/** One node of the deployment as O28 lists it (docs/deployment.md "Seeing it"). */
export interface NodeRow {
  url: string;
  role: string;
  term: number;
  seq: number;
  lagMs: number;
  /** When the node last wrote its row (ms since the epoch, the database's clock). */
  lastHeartbeat: number;
}

/** Nodes not seen for this long are left out of the list (and their rows dropped). */
export const NODE_SEEN_WITHIN_MS = 60_000;

export class NodeRegistry {
  private timer: NodeJS.Timeout | undefined;
  private writing = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly nodeUrl: string,
    private readonly status: () => NodeStatus,
    private readonly everyMs = 1000,
  ) {}

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.report(), this.everyMs);
    this.timer.unref();
    void this.report();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The nodes seen in the last minute, by URL. */
  async list(): Promise<NodeRow[]> {
    const { rows } = await this.pool.query<{ node_url: string; role: string; term: string; seq: string; lag_ms: string; seen_ms: string }>(
      `SELECT node_url, role, term, seq, lag_ms, (extract(epoch FROM seen_at) * 1000)::bigint AS seen_ms
       FROM bourse.nodes WHERE seen_at > now() - make_interval(secs => $1::double precision / 1000)
       ORDER BY node_url COLLATE "C"`,
      [NODE_SEEN_WITHIN_MS],
    );
    return rows.map((row) => ({
      url: row.node_url,
      role: row.role,
      term: Number(row.term),
      seq: Number(row.seq),
      lagMs: Number(row.lag_ms),
      lastHeartbeat: Number(row.seen_ms),
    }));
  }

  /** Writes this node's row now (also after a change of role, so the list does not wait a second for it). */
  async report(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    const { role, term, seq, lagMs } = this.status();
    try {
      await this.pool.query(
        `INSERT INTO bourse.nodes (node_url, role, term, seq, lag_ms, seen_at) VALUES ($1, $2, $3, $4, $5, now())
         ON CONFLICT (node_url) DO UPDATE SET role = $2, term = $3, seq = $4, lag_ms = $5, seen_at = now()`,
        [this.nodeUrl, role, term, seq, Math.min(lagMs, Number.MAX_SAFE_INTEGER)],
      );
      await this.pool.query(`DELETE FROM bourse.nodes WHERE seen_at < now() - interval '1 day'`);
    } catch {
      // The database is out of reach: the row ages, which is what the operator should see.
    } finally {
      this.writing = false;
    }
  }
}
