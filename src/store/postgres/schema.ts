/**
 * The PostgreSQL schema (everything in schema `bourse`) as an ordered list of migrations, applied
 * at open under an advisory lock so that nodes starting together migrate once; a database whose
 * schema is newer than this code knows is refused. Tables and columns are those of the SQLite
 * store (store/sqlite/schema.ts) with integers as BIGINT and money as TEXT decimal strings, so that
 * both give the same answers; beside them, what only a deployment of several nodes needs: the
 * leadership row that fences every append, the nodes' heartbeats and the deployment's key check.
 */

import type pg from 'pg';

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Key of the advisory lock held while migrating ('bourse-m' in ASCII). Leadership must lock
 * another key: this one is taken and released by every node at start.
 */
export const MIGRATION_LOCK_KEY = 0x626f7572_73652d6dn;

/** SQLSTATE that bourse.check_term raises on a fenced append; its DETAIL is the row's term. */
export const FENCED_SQLSTATE = 'BF001';

export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    name: 'journal, read models, snapshots, leadership',
    sql: `
      CREATE TABLE bourse.journal (
        seq BIGINT PRIMARY KEY,
        ts BIGINT NOT NULL,
        type TEXT NOT NULL,
        payload TEXT NOT NULL
      );

      CREATE TABLE bourse.orders (
        order_id BIGINT PRIMARY KEY,
        account_id BIGINT NOT NULL,
        symbol TEXT NOT NULL,
        client_order_id TEXT NOT NULL,
        side TEXT NOT NULL,
        type TEXT NOT NULL,
        time_in_force TEXT NOT NULL,
        price TEXT NOT NULL,
        orig_qty TEXT NOT NULL,
        executed_qty TEXT NOT NULL,
        cummulative_quote_qty TEXT NOT NULL,
        status TEXT NOT NULL,
        time BIGINT NOT NULL,
        update_time BIGINT NOT NULL,
        -- 0 open, 1 final, 2 neither (PENDING_CANCEL): A17 and A18 each read one class by index.
        list_class BIGINT GENERATED ALWAYS AS (
          CASE WHEN status IN ('NEW', 'PARTIALLY_FILLED') THEN 0
               WHEN status IN ('FILLED', 'CANCELED', 'REJECTED') THEN 1
               ELSE 2 END
        ) STORED
      );
      CREATE INDEX orders_by_account ON bourse.orders (account_id, list_class, order_id);

      CREATE TABLE bourse.trades (
        trade_id BIGINT NOT NULL,
        account_id BIGINT NOT NULL,
        symbol TEXT NOT NULL,
        order_id BIGINT NOT NULL,
        match_order_id BIGINT NOT NULL,
        price TEXT NOT NULL,
        qty TEXT NOT NULL,
        quote_qty TEXT NOT NULL,
        commission TEXT NOT NULL,
        commission_asset TEXT NOT NULL,
        is_buyer BIGINT NOT NULL,
        is_maker BIGINT NOT NULL,
        time BIGINT NOT NULL,
        PRIMARY KEY (trade_id, account_id)
      );
      CREATE INDEX trades_by_account ON bourse.trades (account_id, trade_id);
      CREATE INDEX trades_by_order ON bourse.trades (account_id, order_id, trade_id);

      CREATE TABLE bourse.flows (
        flow_id BIGINT PRIMARY KEY,
        account_id BIGINT NOT NULL,
        asset TEXT NOT NULL,
        flow_type BIGINT NOT NULL,
        change TEXT NOT NULL,
        total TEXT NOT NULL,
        created BIGINT NOT NULL,
        seq BIGINT NOT NULL
      );
      CREATE INDEX flows_by_account ON bourse.flows (account_id, flow_id);

      CREATE TABLE bourse.deposits (
        deposit_id BIGINT PRIMARY KEY,
        account_id BIGINT NOT NULL,
        asset TEXT NOT NULL,
        amount TEXT NOT NULL,
        tx_id TEXT NOT NULL,
        time BIGINT NOT NULL
      );
      CREATE INDEX deposits_by_account ON bourse.deposits (account_id, deposit_id);

      CREATE TABLE bourse.withdrawals (
        withdrawal_id BIGINT PRIMARY KEY,
        account_id BIGINT NOT NULL,
        client_order_id TEXT NOT NULL,
        asset TEXT NOT NULL,
        chain_type TEXT NOT NULL,
        address TEXT NOT NULL,
        address_ext TEXT NOT NULL,
        amount TEXT NOT NULL,
        fee TEXT NOT NULL,
        status BIGINT NOT NULL,
        tx_id TEXT NOT NULL,
        time BIGINT NOT NULL,
        update_time BIGINT NOT NULL
      );
      CREATE INDEX withdrawals_by_account ON bourse.withdrawals (account_id, withdrawal_id);
      CREATE INDEX withdrawals_by_client_id ON bourse.withdrawals (account_id, client_order_id);

      CREATE TABLE bourse.snapshots (
        seq BIGINT PRIMARY KEY,
        hash TEXT NOT NULL,
        state TEXT NOT NULL
      );

      CREATE TABLE bourse.funding_records (
        tx_id BIGINT PRIMARY KEY,
        user_id BIGINT NOT NULL,
        merchant_id BIGINT NOT NULL,
        merchant_name TEXT NOT NULL,
        client_id TEXT NOT NULL,
        order_id TEXT NOT NULL,
        fiat TEXT NOT NULL,
        total_amount TEXT NOT NULL,
        amount TEXT NOT NULL,
        fee TEXT NOT NULL,
        user_payment_id BIGINT NOT NULL,
        type TEXT NOT NULL,
        status BIGINT NOT NULL,
        fail_reason TEXT NOT NULL,
        -- JSON text of the arrival's payer (DEPOSIT, REFUND), '' otherwise.
        payer TEXT NOT NULL,
        create_time BIGINT NOT NULL,
        update_time BIGINT NOT NULL
      );
      CREATE INDEX funding_by_user ON bourse.funding_records (user_id, create_time, tx_id);

      CREATE TABLE bourse.payment_orders (
        order_id BIGINT PRIMARY KEY,
        user_id BIGINT NOT NULL,
        kind TEXT NOT NULL,
        status BIGINT NOT NULL,
        client_id TEXT NOT NULL,
        -- ',7,' or ',7,9,' (on- and off-ramp merchants): B34's merchantId matches any of them.
        merchant_ids TEXT NOT NULL,
        create_time BIGINT NOT NULL,
        -- The B33 object as JSON text.
        detail TEXT NOT NULL
      );
      CREATE INDEX payment_orders_by_user ON bourse.payment_orders (user_id, create_time, order_id);

      -- Updates of an event carry only what changed: every column has a default, so the upsert's
      -- insert half is valid with any subset of columns.
      CREATE TABLE bourse.webhooks (
        webhook_id TEXT PRIMARY KEY,
        user_id BIGINT NOT NULL DEFAULT 0,
        event_type TEXT NOT NULL DEFAULT '',
        url TEXT NOT NULL DEFAULT '',
        status BIGINT NOT NULL DEFAULT 0,
        create_time BIGINT NOT NULL DEFAULT 0,
        update_time BIGINT NOT NULL DEFAULT 0
      );
      CREATE INDEX webhooks_by_user ON bourse.webhooks (user_id, create_time);
      CREATE TABLE bourse.webhook_events (
        event_id TEXT PRIMARY KEY,
        webhook_id TEXT NOT NULL DEFAULT '',
        user_id BIGINT NOT NULL DEFAULT 0,
        event_type TEXT NOT NULL DEFAULT '',
        object_id TEXT NOT NULL DEFAULT '',
        object_status TEXT NOT NULL DEFAULT '',
        -- PENDING, DELIVERED or FAILED
        status TEXT NOT NULL DEFAULT 'PENDING',
        attempts BIGINT NOT NULL DEFAULT 0,
        -- 0: none planned (ended, or paused by a disabled webhook until its next attempt is set)
        next_attempt_time BIGINT NOT NULL DEFAULT 0,
        create_time BIGINT NOT NULL DEFAULT 0,
        -- create order within the deployment: ties of create_time sort by it
        event_no BIGINT NOT NULL DEFAULT 0,
        delivered_time BIGINT NOT NULL DEFAULT 0,
        -- time of the last change (creation, attempt, resend, end): what the debugger follows
        update_time BIGINT NOT NULL DEFAULT 0,
        -- end time + retention while ended; 0 while pending
        purge_after BIGINT NOT NULL DEFAULT 0,
        -- the exact body sent on every attempt
        payload TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX webhook_events_by_user ON bourse.webhook_events (user_id, create_time, event_no);
      CREATE INDEX webhook_events_by_update ON bourse.webhook_events (update_time);
      CREATE INDEX webhook_events_by_purge ON bourse.webhook_events (purge_after) WHERE purge_after > 0;
      CREATE TABLE bourse.webhook_deliveries (
        -- '<eventId>:<attempt>'
        delivery_key TEXT PRIMARY KEY,
        event_id TEXT NOT NULL,
        attempt BIGINT NOT NULL,
        time BIGINT NOT NULL,
        url TEXT NOT NULL,
        http_status BIGINT NOT NULL,
        duration_ms BIGINT NOT NULL,
        result TEXT NOT NULL,
        error TEXT NOT NULL
      );
      CREATE INDEX webhook_deliveries_by_event ON bourse.webhook_deliveries (event_id, time);
      CREATE FUNCTION bourse.webhook_events_purged() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM bourse.webhook_deliveries WHERE event_id = OLD.event_id;
        RETURN NULL;
      END $$;
      CREATE TRIGGER webhook_events_purged AFTER DELETE ON bourse.webhook_events
        FOR EACH ROW EXECUTE FUNCTION bourse.webhook_events_purged();

      -- The one leadership row (docs/deployment.md): every append checks its term in its own
      -- transaction, so a writer whose term is no longer the row's cannot commit.
      CREATE TABLE bourse.leadership (
        id INT PRIMARY KEY CHECK (id = 1),
        term BIGINT NOT NULL,
        node_url TEXT NOT NULL
      );
      INSERT INTO bourse.leadership (id, term, node_url) VALUES (1, 0, '');
      -- The leader's heartbeat, in a row of its own: renewing it never waits for an append's
      -- FOR SHARE lock on the leadership row, nor an append for it.
      CREATE TABLE bourse.leader_heartbeat (
        id INT PRIMARY KEY CHECK (id = 1),
        term BIGINT NOT NULL,
        holder_pid INT,
        heartbeat_at TIMESTAMPTZ
      );
      INSERT INTO bourse.leader_heartbeat (id, term) VALUES (1, 0);
      -- The first statement of every append: the row is read FOR SHARE, so a change of leadership
      -- waits for the appends in flight and every append after it sees the new term. An append
      -- whose writer's term is not the row's raises FENCED_SQLSTATE, which aborts its transaction.
      -- NULL: a writer without fencing (tests, migrate-store).
      CREATE FUNCTION bourse.check_term(writer_term BIGINT) RETURNS BIGINT LANGUAGE plpgsql AS $$
      DECLARE
        current_term BIGINT;
      BEGIN
        SELECT term INTO current_term FROM bourse.leadership WHERE id = 1 FOR SHARE;
        IF writer_term IS NOT NULL AND current_term IS DISTINCT FROM writer_term THEN
          RAISE EXCEPTION USING
            ERRCODE = 'BF001',
            MESSAGE = format('append fenced: the writer holds term %s, the leadership row term %s', writer_term, current_term),
            DETAIL = current_term::text;
        END IF;
        RETURN current_term;
      END $$;

      -- Every node's last heartbeat: what GET /admin/v1/cluster shows.
      CREATE TABLE bourse.nodes (
        node_url TEXT PRIMARY KEY,
        role TEXT,
        term BIGINT,
        seq BIGINT,
        lag_ms BIGINT,
        seen_at TIMESTAMPTZ
      );

      -- Values every node of a deployment checks at start (a value sealed with the shared key).
      CREATE TABLE bourse.deployment (
        key TEXT PRIMARY KEY,
        value TEXT
      );
    `,
  },
  {
    version: 2,
    name: 'uploaded documents',
    sql: `
      -- The documents merchants upload (B35), which a SQLite server keeps as files under
      -- <BOURSE_DATA>/uploads: here every node reads what any node stored, and a takeover keeps
      -- them. Keyed by their order and the SHA-256 of their bytes, as the journal names them.
      CREATE TABLE bourse.documents (
        order_id BIGINT NOT NULL,
        sha256 TEXT NOT NULL,
        -- the type B35 recognised by content
        ext TEXT NOT NULL CHECK (ext IN ('jpg', 'png', 'pdf')),
        content BYTEA NOT NULL,
        -- ms since the epoch when first stored (a file's mtime on SQLite)
        upload_time BIGINT NOT NULL DEFAULT (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT,
        PRIMARY KEY (order_id, sha256)
      );
      -- JPEG, PNG and PDF are compressed already: kept out of line as they are, never compressed again.
      ALTER TABLE bourse.documents ALTER COLUMN content SET STORAGE EXTERNAL;
    `,
  },
  {
    version: 3,
    name: 'stop and iceberg orders',
    // Orders stored before had neither; an open one was working.
    sql: `
      ALTER TABLE bourse.orders ADD COLUMN stop_price TEXT NOT NULL DEFAULT '0';
      ALTER TABLE bourse.orders ADD COLUMN iceberg_qty TEXT NOT NULL DEFAULT '0';
      ALTER TABLE bourse.orders ADD COLUMN is_working BIGINT NOT NULL DEFAULT 0;
      UPDATE bourse.orders SET is_working = 1 WHERE status IN ('NEW', 'PARTIALLY_FILLED');
    `,
  },
  {
    version: 4,
    name: 'journal frames',
    // Nothing to change in the tables: the journal's payload text may now be a compact frame
    // (store/journal-frame.ts) instead of JSON. The version makes an older server refuse the
    // database at open, where it would otherwise fail at the first frame of its replay.
    sql: 'SELECT 1',
  },
];

/**
 * Creates schema `bourse` if absent and applies every migration the database lacks, each in its
 * own transaction, holding the migration lock on `client` throughout.
 */
export async function migratePostgres(client: pg.ClientBase, migrations: readonly PgMigration[] = PG_MIGRATIONS): Promise<void> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY.toString()]);
  try {
    await client.query('CREATE SCHEMA IF NOT EXISTS bourse');
    await client.query('CREATE TABLE IF NOT EXISTS bourse.schema_version (version BIGINT PRIMARY KEY, name TEXT NOT NULL)');
    const { rows } = await client.query<{ current: number }>('SELECT coalesce(max(version), 0) AS current FROM bourse.schema_version');
    const current = Number(rows[0].current);
    const latest = migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
    if (current > latest) {
      throw new Error(`database schema version ${current} is newer than this server knows (${latest})`);
    }
    let previous = 0;
    for (const migration of migrations) {
      if (migration.version !== previous + 1) {
        throw new Error(`migrations must be numbered 1, 2, 3 …: found ${migration.version} after ${previous}`);
      }
      previous = migration.version;
      if (migration.version <= current) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO bourse.schema_version (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    }
  } catch (error) {
    // The lock is the session's: a connection that failed has let it go with its session.
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]).catch(() => undefined);
    throw error;
  }
  await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY.toString()]);
}
