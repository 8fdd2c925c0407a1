/**
 * The SQLite schema as an ordered list of migrations; a database records the versions it has
 * applied, so opening an older file brings it forward and a newer one is refused.
 * Tables are STRICT so that a money column can only ever hold TEXT (never REAL).
 */

import type Database from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'journal, read models, snapshots',
    sql: `
      CREATE TABLE journal (
        seq INTEGER PRIMARY KEY,
        ts INTEGER NOT NULL,
        type TEXT NOT NULL,
        payload TEXT NOT NULL
      ) STRICT;

      CREATE TABLE orders (
        order_id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL,
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
        time INTEGER NOT NULL,
        update_time INTEGER NOT NULL,
        -- 0 open, 1 final, 2 neither (PENDING_CANCEL): A17 and A18 each read one class by index.
        list_class INTEGER GENERATED ALWAYS AS (
          CASE WHEN status IN ('NEW', 'PARTIALLY_FILLED') THEN 0
               WHEN status IN ('FILLED', 'CANCELED', 'REJECTED') THEN 1
               ELSE 2 END
        ) VIRTUAL
      ) STRICT;
      CREATE INDEX orders_by_account ON orders (account_id, list_class, order_id);
      CREATE INDEX orders_by_client_id ON orders (account_id, client_order_id);

      CREATE TABLE trades (
        trade_id INTEGER NOT NULL,
        account_id INTEGER NOT NULL,
        symbol TEXT NOT NULL,
        order_id INTEGER NOT NULL,
        match_order_id INTEGER NOT NULL,
        price TEXT NOT NULL,
        qty TEXT NOT NULL,
        quote_qty TEXT NOT NULL,
        commission TEXT NOT NULL,
        commission_asset TEXT NOT NULL,
        is_buyer INTEGER NOT NULL,
        is_maker INTEGER NOT NULL,
        time INTEGER NOT NULL,
        PRIMARY KEY (trade_id, account_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX trades_by_account ON trades (account_id, trade_id);
      CREATE INDEX trades_by_order ON trades (account_id, order_id, trade_id);

      CREATE TABLE flows (
        flow_id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL,
        asset TEXT NOT NULL,
        flow_type INTEGER NOT NULL,
        change TEXT NOT NULL,
        total TEXT NOT NULL,
        created INTEGER NOT NULL,
        seq INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX flows_by_account ON flows (account_id, flow_id);

      CREATE TABLE deposits (
        deposit_id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL,
        asset TEXT NOT NULL,
        amount TEXT NOT NULL,
        tx_id TEXT NOT NULL,
        time INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX deposits_by_account ON deposits (account_id, deposit_id);

      CREATE TABLE withdrawals (
        withdrawal_id INTEGER PRIMARY KEY,
        account_id INTEGER NOT NULL,
        client_order_id TEXT NOT NULL,
        asset TEXT NOT NULL,
        chain_type TEXT NOT NULL,
        address TEXT NOT NULL,
        address_ext TEXT NOT NULL,
        amount TEXT NOT NULL,
        fee TEXT NOT NULL,
        status INTEGER NOT NULL,
        tx_id TEXT NOT NULL,
        time INTEGER NOT NULL,
        update_time INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX withdrawals_by_account ON withdrawals (account_id, withdrawal_id);
      CREATE INDEX withdrawals_by_client_id ON withdrawals (account_id, client_order_id);

      CREATE TABLE snapshots (
        seq INTEGER PRIMARY KEY,
        hash TEXT NOT NULL,
        state TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 2,
    // The core maps every client order id to its order id (docs/spot-api.md "Client order ids" needs them all), so
    // lookups by client id go by order id; this index cost about half the journal's throughput.
    name: 'drop orders_by_client_id',
    sql: `DROP INDEX orders_by_client_id;`,
  },
  {
    version: 3,
    name: 'area B funding records',
    sql: `
      CREATE TABLE funding_records (
        tx_id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL,
        merchant_id INTEGER NOT NULL,
        merchant_name TEXT NOT NULL,
        client_id TEXT NOT NULL,
        order_id TEXT NOT NULL,
        fiat TEXT NOT NULL,
        total_amount TEXT NOT NULL,
        amount TEXT NOT NULL,
        fee TEXT NOT NULL,
        user_payment_id INTEGER NOT NULL,
        type TEXT NOT NULL,
        status INTEGER NOT NULL,
        fail_reason TEXT NOT NULL,
        -- JSON text of the arrival's payer (DEPOSIT, REFUND), '' otherwise.
        payer TEXT NOT NULL,
        create_time INTEGER NOT NULL,
        update_time INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX funding_by_user ON funding_records (user_id, create_time, tx_id);
    `,
  },
  {
    version: 4,
    name: 'area B payment orders',
    sql: `
      CREATE TABLE payment_orders (
        order_id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL,
        kind TEXT NOT NULL,
        status INTEGER NOT NULL,
        client_id TEXT NOT NULL,
        -- ',7,' or ',7,9,' (on- and off-ramp merchants): B34's merchantId matches any of them.
        merchant_ids TEXT NOT NULL,
        create_time INTEGER NOT NULL,
        -- The B33 object as JSON text.
        detail TEXT NOT NULL
      ) STRICT;
      CREATE INDEX payment_orders_by_user ON payment_orders (user_id, create_time, order_id);
    `,
  },
  {
    version: 5,
    name: 'area B webhooks and their outbox',
    // Updates of an event carry only what changed: every column has a default, so the upsert's
    // insert half is valid with any subset of columns.
    sql: `
      CREATE TABLE webhooks (
        webhook_id TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL DEFAULT 0,
        event_type TEXT NOT NULL DEFAULT '',
        url TEXT NOT NULL DEFAULT '',
        status INTEGER NOT NULL DEFAULT 0,
        create_time INTEGER NOT NULL DEFAULT 0,
        update_time INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE INDEX webhooks_by_user ON webhooks (user_id, create_time);
      CREATE TABLE webhook_events (
        event_id TEXT PRIMARY KEY,
        webhook_id TEXT NOT NULL DEFAULT '',
        user_id INTEGER NOT NULL DEFAULT 0,
        event_type TEXT NOT NULL DEFAULT '',
        object_id TEXT NOT NULL DEFAULT '',
        object_status TEXT NOT NULL DEFAULT '',
        -- PENDING, DELIVERED or FAILED
        status TEXT NOT NULL DEFAULT 'PENDING',
        attempts INTEGER NOT NULL DEFAULT 0,
        -- 0: none planned (ended, or paused by a disabled webhook until its next attempt is set)
        next_attempt_time INTEGER NOT NULL DEFAULT 0,
        create_time INTEGER NOT NULL DEFAULT 0,
        -- create order within the deployment: ties of create_time sort by it
        event_no INTEGER NOT NULL DEFAULT 0,
        delivered_time INTEGER NOT NULL DEFAULT 0,
        -- time of the last change (creation, attempt, resend, end): what the debugger follows
        update_time INTEGER NOT NULL DEFAULT 0,
        -- end time + retention while ended; 0 while pending
        purge_after INTEGER NOT NULL DEFAULT 0,
        -- the exact body sent on every attempt
        payload TEXT NOT NULL DEFAULT ''
      ) STRICT;
      CREATE INDEX webhook_events_by_user ON webhook_events (user_id, create_time, event_no);
      CREATE INDEX webhook_events_by_update ON webhook_events (update_time);
      CREATE INDEX webhook_events_by_purge ON webhook_events (purge_after) WHERE purge_after > 0;
      CREATE TABLE webhook_deliveries (
        -- '<eventId>:<attempt>'
        delivery_key TEXT PRIMARY KEY,
        event_id TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        time INTEGER NOT NULL,
        url TEXT NOT NULL,
        http_status INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL,
        result TEXT NOT NULL,
        error TEXT NOT NULL
      ) STRICT;
      CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id, time);
      CREATE TRIGGER webhook_events_purged AFTER DELETE ON webhook_events
      BEGIN
        DELETE FROM webhook_deliveries WHERE event_id = old.event_id;
      END;
    `,
  },
  {
    version: 6,
    name: 'write probe',
    // Empty but for a moment: a writer whose disk was full writes and deletes a row here to learn
    // whether there is room again (disk-space.ts).
    sql: `
      CREATE TABLE write_probe (
        id INTEGER PRIMARY KEY,
        filler BLOB NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 7,
    name: 'projection mark',
    // The journal's seq up to which the read-model tables hold the derived rows. Until now every
    // batch wrote its rows with its commands, so the tables are current up to the journal's end.
    sql: `
      CREATE TABLE projection (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        seq INTEGER NOT NULL
      ) STRICT;
      INSERT INTO projection (id, seq) SELECT 1, coalesce(max(seq), 0) FROM journal;
    `,
  },
  {
    version: 8,
    name: 'stop and iceberg orders',
    // Orders stored before had neither; an open one was working.
    sql: `
      ALTER TABLE orders ADD COLUMN stop_price TEXT NOT NULL DEFAULT '0';
      ALTER TABLE orders ADD COLUMN iceberg_qty TEXT NOT NULL DEFAULT '0';
      ALTER TABLE orders ADD COLUMN is_working INTEGER NOT NULL DEFAULT 0;
      UPDATE orders SET is_working = 1 WHERE status IN ('NEW', 'PARTIALLY_FILLED');
    `,
  },
  {
    version: 9,
    name: 'journal frames',
    // Nothing to change in the tables: the journal's payload text may now be a compact frame
    // (store/journal-frame.ts) instead of JSON. The version makes an older server refuse the
    // database at open, where it would otherwise fail at the first frame of its replay.
    sql: 'SELECT 1',
  },
];

/** Applies every migration the database lacks, each in its own transaction. */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT',
  );
  const current = db.prepare<[], number>('SELECT coalesce(max(version), 0) FROM schema_version').pluck().get() ?? 0;
  const latest = migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
  if (current > latest) {
    throw new Error(`database schema version ${current} is newer than this server knows (${latest})`);
  }
  const record = db.prepare<[number, string]>('INSERT INTO schema_version (version, name) VALUES (?, ?)');
  let previous = 0;
  for (const migration of migrations) {
    if (migration.version !== previous + 1) {
      throw new Error(`migrations must be numbered 1, 2, 3 …: found ${migration.version} after ${previous}`);
    }
    previous = migration.version;
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name);
    })();
  }
}
