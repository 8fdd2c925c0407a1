import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Leadership, LEADER_LOCK_KEY } from '../../../src/cluster/leadership.js';
import { openPostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { postgresDatabases } from '../../support/postgres.js';

const databases = postgresDatabases();
let url = '';
const made: Leadership[] = [];

beforeAll(async () => {
  url = await databases.url();
  // Migrates: the leadership row exists.
  await (await openPostgresStore({ url })).close();
});

afterEach(async () => {
  for (const leadership of made.splice(0)) await leadership.release();
});

function leadership(nodeUrl: string, leaderTimeoutMs = 3000): { leadership: Leadership; lost: string[] } {
  const lost: string[] = [];
  const made1 = new Leadership({ url, nodeUrl, leaderTimeoutMs, clock: () => Date.now(), onLost: (reason) => lost.push(reason) });
  made.push(made1);
  return { leadership: made1, lost };
}

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe('leadership through an advisory lock and a term', () => {
  it('when the lock is free, then one node takes it with the next term and the others do not', async () => {
    const a = leadership('http://a:1');
    const b = leadership('http://b:1');
    const before = (await a.leadership.readRow()).term;

    expect(await a.leadership.tryAcquire()).toBe(before + 1);
    expect(await b.leadership.tryAcquire()).toBeUndefined();
    expect(await b.leadership.readRow()).toMatchObject({ term: before + 1, nodeUrl: 'http://a:1' });
  });

  it('when the leader releases, then the next node leads with a newer term', async () => {
    const a = leadership('http://a:2');
    const b = leadership('http://b:2');
    const first = await a.leadership.tryAcquire();
    await a.leadership.release();

    const second = await b.leadership.tryAcquire();
    expect(second).toBe((first ?? 0) + 1);
    expect(a.lost).toEqual([]);
  });

  it("when the leader's session is ended from outside, then it learns it lost the lead and another takes over", async () => {
    const a = leadership('http://a:3', 600);
    const b = leadership('http://b:3', 600);
    const term = await a.leadership.tryAcquire();
    const [holder] = await sql<{ pid: number }>(
      "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
      [LEADER_LOCK_KEY],
    );
    await sql('SELECT pg_terminate_backend($1)', [holder.pid]);

    await vi.waitUntil(() => a.lost.length > 0, { timeout: 5000 });
    expect(a.leadership.term).toBe(0);
    await vi.waitUntil(async () => (await b.leadership.tryAcquire()) !== undefined, { timeout: 5000, interval: 50 });
    expect(b.leadership.term).toBe((term ?? 0) + 1);
  });

  it('when a leader stops renewing its heartbeat past the timeout, then a follower ends its session and leads', async () => {
    const a = leadership('http://a:4', 400);
    const b = leadership('http://b:4', 400);
    const term = await a.leadership.tryAcquire();
    // A stuck leader, as a paused process is: its heartbeat is older than the timeout.
    await sql("UPDATE bourse.leader_heartbeat SET heartbeat_at = now() - interval '10 seconds' WHERE id = 1");
    (a.leadership as unknown as { stopHeartbeat(): void }).stopHeartbeat();

    await vi.waitUntil(async () => (await b.leadership.tryAcquire()) !== undefined, { timeout: 5000, interval: 50 });
    expect(b.leadership.term).toBe((term ?? 0) + 1);
    await vi.waitUntil(() => a.lost.length > 0, { timeout: 5000 });
  });

  it('when a paused leader holds the leadership row inside an unfinished append, then the next leader ends that session and bumps the term', async () => {
    const a = leadership('http://a:6', 300);
    const b = leadership('http://b:6', 300);
    const term = (await a.leadership.readRow()).term;
    // An append stopped after its term check: its transaction holds the row FOR SHARE and never ends.
    const stuck = new pg.Client({ connectionString: url });
    await stuck.connect();
    const ended = new Promise<void>((resolve) => stuck.on('error', () => resolve()));
    await stuck.query('BEGIN');
    await stuck.query('SELECT term FROM bourse.leadership WHERE id = 1 FOR SHARE');

    expect(await b.leadership.tryAcquire()).toBe(term + 1);
    await ended;
    await stuck.end().catch(() => undefined);
    expect(await a.leadership.tryAcquire()).toBeUndefined();
  });

  it('when the heartbeat row moves to a newer term under a leader, then its next heartbeat tells it it lost the lead', async () => {
    const a = leadership('http://a:5', 300);
    await a.leadership.tryAcquire();
    await sql('UPDATE bourse.leader_heartbeat SET term = term + 1 WHERE id = 1');

    await vi.waitUntil(() => a.lost.length > 0, { timeout: 5000 });
    expect(a.lost[0]).toMatch(/newer term/);
  });
});
