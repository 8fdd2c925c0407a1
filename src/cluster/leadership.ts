/**
 * Leadership of a deployment (docs/deployment.md "Roles"): a node leads while it holds a session-level
 * advisory lock on a connection of its own and has written its term (one more than the last) and
 * its URL to the leadership row; it renews a heartbeat in that row. A follower that finds the lock
 * held and the heartbeat older than the leader timeout ends the holder's session, so a leader that
 * is alive but stuck (paused, its event loop blocked) loses the lock as a dead one does. The term
 * bump is what fences the old leader: every journal append checks the term in its own transaction.
 */

import pg from 'pg';

/** The advisory lock's key (one bigint, so pg_locks shows classid 0 and objid = the key, objsubid 1). */
export const LEADER_LOCK_KEY = 4_201_000_001;
/** SQLSTATE of a statement that waited longer than lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';
/** A bump refused this often (each time after ending the sessions in its way) gives up until the next attempt. */
const MAX_BUMP_ATTEMPTS = 3;

export interface LeadershipRow {
  term: number;
  /** The leader's BOURSE_NODE_URL ('' before the first leader). */
  nodeUrl: string;
  /** How long ago the leader renewed its heartbeat, by the database's clock; null before the first leader. */
  heartbeatAgeMs: number | null;
}

export interface LeadershipOptions {
  url: string;
  nodeUrl: string;
  /** A heartbeat older than this pushes the leader out (BOURSE_LEADER_TIMEOUT_MS). */
  leaderTimeoutMs: number;
  /** This node's clock (ms): how long a lock holder has not written the row is observed locally. */
  clock: () => number;
  /** Called once when a lead this node held ends (its session or heartbeat failed, or the row moved on). */
  onLost: (reason: string) => void;
}

interface RowRecord {
  term: string;
  node_url: string;
  holder_pid: number | null;
  age_ms: string | null;
}

export class Leadership {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private heartbeating = false;
  private heldTerm = 0;
  /** Since when (local clock) the lock has had a holder that is not the row's holder. */
  private unknownHolderSince: number | undefined;

  constructor(private readonly options: LeadershipOptions) {
    if (!Number.isSafeInteger(options.leaderTimeoutMs) || options.leaderTimeoutMs < 1) throw new RangeError(`leaderTimeoutMs must be ≥ 1: ${options.leaderTimeoutMs}`);
  }

  /** The term this node leads in, or 0 while it does not lead. */
  get term(): number {
    return this.heldTerm;
  }

  /** The leadership row as the database holds it now. */
  async readRow(): Promise<LeadershipRow> {
    const client = await this.connect();
    return rowOf(await this.queryRow(client));
  }

  /**
   * One attempt: takes the lock if it is free and then writes term + 1 (the new term fences the old
   * leader's appends, waiting for any append in flight). If a stale leader holds it, ends its session
   * so that a later attempt succeeds. Resolves with the new term, or undefined.
   */
  async tryAcquire(): Promise<number | undefined> {
    if (this.heldTerm !== 0) return this.heldTerm;
    const client = await this.connect();
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [LEADER_LOCK_KEY]);
    if (rows[0]?.locked !== true) {
      await this.pushOutStaleLeader(client);
      return undefined;
    }
    try {
      const term = await this.bumpTerm(client);
      await client.query('UPDATE bourse.leader_heartbeat SET term = $1, holder_pid = pg_backend_pid(), heartbeat_at = now() WHERE id = 1', [term]);
      this.heldTerm = term;
    } catch (error) {
      await this.dropConnection();
      throw error;
    }
    this.startHeartbeat();
    return this.heldTerm;
  }

  /**
   * Writes term + 1. The bump waits for the appends in flight (they hold the row FOR SHARE) and every
   * later append sees the new term. An append that does not end (its leader paused or cut off in the
   * middle of it) would hold the bump forever: after a short wait its session is ended. It belongs to
   * a leader that has lost its lock already, so nothing it was doing may commit anyway.
   */
  private async bumpTerm(client: pg.Client): Promise<number> {
    const waitMs = Math.max(100, Math.floor(this.options.leaderTimeoutMs / 3));
    // On the server, so a bump that waits too long fails there (not only in this client) and the session stays usable.
    await client.query(`SET lock_timeout = ${waitMs}`);
    for (let attempt = 1; ; attempt++) {
      try {
        const bumped = await client.query<{ term: string }>('UPDATE bourse.leadership SET term = term + 1, node_url = $1 WHERE id = 1 RETURNING term', [
          this.options.nodeUrl,
        ]);
        if (bumped.rows.length !== 1) throw new Error('the leadership row is missing: the schema was not migrated');
        return Number(bumped.rows[0].term);
      } catch (error) {
        if (!(error instanceof pg.DatabaseError) || error.code !== LOCK_NOT_AVAILABLE || attempt === MAX_BUMP_ATTEMPTS) throw error;
        await client.query(
          `SELECT pg_terminate_backend(pid) FROM pg_locks
           WHERE locktype = 'relation' AND relation = 'bourse.leadership'::regclass AND granted AND pid <> pg_backend_pid()`,
        );
      }
    }
  }

  /** Ends the lead (if held) by ending the lock's session; the next leader bumps the term. */
  async release(): Promise<void> {
    this.heldTerm = 0;
    this.stopHeartbeat();
    await this.dropConnection();
  }

  /** The lock's connection; concurrent callers (the campaign, a forwarded write's look-up) share one. */
  private connect(): Promise<pg.Client> {
    if (this.client !== undefined) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.options.url,
      keepAlive: true,
      // A cut-off database must not hang a heartbeat past the time a follower waits for it.
      query_timeout: this.options.leaderTimeoutMs,
      connectionTimeoutMillis: this.options.leaderTimeoutMs,
      application_name: 'bourse-leadership',
      // A heartbeat need not wait for a synchronous standby: with the standby down the journal stops,
      // but the lead must not look lost for it (docs/deployment.md "Keeping every write on two machines").
      options: '-c synchronous_commit=local',
    });
    client.on('error', () => this.lose('the leadership connection failed'));
    client.on('end', () => this.lose('the leadership connection ended'));
    try {
      await client.connect();
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    return client;
  }

  private queryRow(client: pg.Client): Promise<RowRecord> {
    return client
      .query<RowRecord>(
        `SELECT l.term, l.node_url, h.holder_pid, (extract(epoch FROM (now() - h.heartbeat_at)) * 1000)::bigint AS age_ms
         FROM bourse.leadership l, bourse.leader_heartbeat h WHERE l.id = 1 AND h.id = 1`,
      )
      .then(({ rows }) => {
        if (rows.length !== 1) throw new Error('the leadership row is missing: the schema was not migrated');
        return rows[0];
      });
  }

  /**
   * The lock is held by someone else. Its holder is pushed out when its heartbeat is older than the
   * timeout, or when the holder is not the row's (a node that took the lock and never wrote its term)
   * for longer than the timeout as this node saw it.
   */
  private async pushOutStaleLeader(client: pg.Client): Promise<void> {
    const row = await this.queryRow(client);
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_locks
       WHERE locktype = 'advisory' AND classid = 0 AND objid = $1 AND objsubid = 1 AND granted
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [LEADER_LOCK_KEY],
    );
    const holder = rows[0]?.pid;
    if (holder === undefined) return;
    const now = this.options.clock();
    let stale: boolean;
    if (holder === row.holder_pid) {
      this.unknownHolderSince = undefined;
      stale = row.age_ms !== null && Number(row.age_ms) > this.options.leaderTimeoutMs;
    } else {
      // A new leader between its lock and its term: give it the same time a leader gets.
      this.unknownHolderSince ??= now;
      stale = now - this.unknownHolderSince > this.options.leaderTimeoutMs;
    }
    if (!stale) return;
    this.unknownHolderSince = undefined;
    await client.query('SELECT pg_terminate_backend($1)', [holder]);
  }

  private startHeartbeat(): void {
    // Three renewals per timeout: one late renewal does not cost the lead.
    const everyMs = Math.max(50, Math.floor(this.options.leaderTimeoutMs / 3));
    this.heartbeat = setInterval(() => void this.renew(), everyMs);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  private async renew(): Promise<void> {
    const client = this.client;
    if (this.heartbeating || client === undefined || this.heldTerm === 0) return;
    this.heartbeating = true;
    try {
      const renewed = await client.query(
        'UPDATE bourse.leader_heartbeat SET heartbeat_at = now() WHERE id = 1 AND term = $1 AND holder_pid = pg_backend_pid()',
        [this.heldTerm],
      );
      if (renewed.rowCount !== 1) this.lose('the leadership row moved to a newer term');
    } catch {
      this.lose('the heartbeat could not be written');
    } finally {
      this.heartbeating = false;
    }
  }

  private lose(reason: string): void {
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) {
      client.removeAllListeners('end');
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
    }
    if (this.heldTerm === 0) return;
    this.heldTerm = 0;
    this.stopHeartbeat();
    this.options.onLost(reason);
  }

  private async dropConnection(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) return;
    client.removeAllListeners('end');
    client.on('error', () => undefined);
    await client.end().catch(() => undefined);
  }
}

function rowOf(record: RowRecord): LeadershipRow {
  return { term: Number(record.term), nodeUrl: record.node_url, heartbeatAgeMs: record.age_ms === null ? null : Number(record.age_ms) };
}
