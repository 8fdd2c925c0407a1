/**
 * Story: a SQLite deployment moved to PostgreSQL (docs/operating.md "Moving a SQLite deployment to
 * PostgreSQL"). A SQLite server with the demo data takes trades, a withdrawal and a merchant's
 * bank deposit, and stops; `bourse migrate-store` copies its data directory into an empty
 * database; a node started on that database with the same data directory verifies with the same
 * state hash and answers the history reads as the SQLite server did. A database that already holds
 * a journal is refused, and so are a data directory without a store and a key that is not the
 * deployment's; a journal that grows during the copy (its server still running) fails it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { FileDocumentStore } from '../../src/store/documents.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { ok } from '../support/answers.js';
import { runBourse, type CliRun } from '../support/cli-run.js';
import { SpotClient } from '../support/clients.js';
import { Operator, type Member } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { MerchantClient, onboardedMerchant } from '../support/merchant-client.js';
import { postgresDatabases } from '../support/postgres.js';
import { startTestServer, type TestServer } from '../support/server.js';

const NO_SERVE = { startServer: () => Promise.reject(new Error('serve is not part of this test')) };

/** `bourse …` with only `env` for its environment (migrate-store needs no server); `onStderr` sees each line as it is written. */
async function bourse(argv: string[], env: Record<string, string> = {}, onStderr: (text: string) => void = () => undefined): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: {
      write: (text: string) => {
        stderr += text;
        onStderr(text);
      },
    },
    env,
  };
  const exitCode = await runCli(argv, io, NO_SERVE);
  return { exitCode, stdout, stderr };
}

async function journalLength(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM bourse.journal');
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

interface Key {
  apiKey: string;
  secretKey: string;
}

/** The history a trader and a merchant read, as one value to compare between the two servers. */
async function historyReads(baseUrl: string, traders: readonly Key[], merchant: Key, merchantId: number): Promise<unknown> {
  const reads: Record<string, unknown> = {};
  for (const [i, key] of traders.entries()) {
    const client = new SpotClient(baseUrl, key.apiKey, key.secretKey);
    reads[`${i} A18 historyOrders`] = ok(await client.signed('GET', '/openapi/v1/historyOrders', { limit: 1000 }));
    reads[`${i} A20 myTrades`] = ok(await client.signed('GET', '/openapi/v1/myTrades', { limit: 1000 }));
    reads[`${i} A31 balance_flow`] = ok(await client.signed('GET', '/openapi/v1/balance_flow', { limit: 1000 }));
    reads[`${i} A21 depositOrders`] = ok(await client.signed('GET', '/openapi/v1/depositOrders', { limit: 1000 }));
    reads[`${i} A24 withdrawalOrders`] = ok(await client.signed('GET', '/openapi/v1/withdrawalOrders', { limit: 1000 }));
    reads[`${i} A19 balances`] = ok<{ balances: unknown }>(await client.signed('GET', '/openapi/v1/account')).balances;
  }
  const b = await MerchantClient.connect(baseUrl, merchant.apiKey, merchant.secretKey);
  reads['B21 funding records'] = await b.ok('GET', '/v2/merchant/funding/records', { merchantId, pageSize: 100 });
  return reads;
}

describe('story: bourse migrate-store moves a SQLite deployment to PostgreSQL', () => {
  const databases = postgresDatabases();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-migrate-'));
  let traders: Key[] = [];
  let merchant: Key;
  let merchantId: number;
  let sqliteSeq: number;
  let sqliteHash: string;
  let sqliteReads: unknown;
  let target: string;
  let node: TestServer | undefined;

  beforeAll(async () => {
    const t = await startTestServer({ BOURSE_DATA: dataDir });
    try {
      const op = new Operator(t);
      await op.listUsdtMarket({ asset: 'SOL', precision: 8, chains: ['SOL'], withdrawFee: '0.01', minWithdraw: '0.1' });
      const alice: Member = await op.member({ USDT: '1000' });
      const bob: Member = await op.member({ SOL: '5' });
      ok(await bob.client.signed('POST', '/openapi/v1/order', { symbol: 'SOLUSDT', side: 'SELL', type: 'LIMIT', price: '150', quantity: '3' }));
      ok(await alice.client.signed('POST', '/openapi/v1/order', { symbol: 'SOLUSDT', side: 'BUY', type: 'LIMIT', price: '150', quantity: '2' }));
      // A resting order, partly filled: the copy must carry the book as well as the history.
      ok(await alice.client.signed('POST', '/openapi/v1/order', { symbol: 'SOLUSDT', side: 'BUY', type: 'LIMIT', price: '140', quantity: '1' }));
      const withdrawal = ok<{ orderId: string }>(
        await alice.client.signed('POST', '/openapi/v1/withdraw', { tokenId: 'SOL', clientOrderId: 'mig-w1', address: 'So1anaAddr9', withdrawQuantity: '1.5', chainType: 'SOL' }),
      );
      await op.ok('POST', `/withdrawals/${withdrawal.orderId}/approve`, { txId: 'sol-tx-mig' });
      traders = [
        { apiKey: alice.client.apiKey, secretKey: alice.client.secret },
        { apiKey: bob.client.apiKey, secretKey: bob.client.secret },
      ];

      // Area B: a merchant onboarded (its automatic decisions are follow-up commands) and a bank deposit.
      const user = await op.ok<{ userId: string }>('POST', '/users', { type: 'merchant', email: 'acme@example.mx' });
      merchant = await op.newKey(user.userId);
      const b = await MerchantClient.connect(t.url, merchant.apiKey, merchant.secretKey);
      merchantId = await onboardedMerchant(b, 'Acme MX');
      await b.ok('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '5000.00', traceNumber: 'MIG-1', payerName: 'CENTAURE SA DE CV' });

      // Nothing may fire on the copy's first start: then its state is the stopped server's.
      expect(t.server.exchange.core.deadlines()).toEqual([]);
      sqliteReads = await historyReads(t.url, traders, merchant, merchantId);
      const report = await op.ok<{ ok: boolean; replay: { ok: boolean; stateHash: string } }>('GET', '/verify?replay=1');
      expect([report.ok, report.replay.ok]).toEqual([true, true]);
      sqliteHash = report.replay.stateHash;
      sqliteSeq = t.server.exchange.core.lastSeq;
    } finally {
      await t.stop();
    }
    target = await databases.url();
  });

  afterAll(async () => {
    await node?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when the SQLite server is stopped and migrate-store copies it, then it prints the commands, the snapshot seq, the state hash and the next steps', async () => {
    // A document B35 would have stored under the data directory: the database holds them on PostgreSQL.
    const bytes = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(4096)]);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await new FileDocumentStore(dataDir).put(7, sha256, 'png', bytes);
    const run = await bourse(['migrate-store', '--from', dataDir, '--to', target]);
    expect(run.stderr).toContain(`migrate-store: copying ${sqliteSeq} journaled commands from ${path.join(dataDir, 'bourse.db')}`);
    expect(run.exitCode).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines.slice(0, 4)).toEqual([`commands copied   ${sqliteSeq}`, `snapshot seq      ${sqliteSeq}`, `state hash        ${sqliteHash}`, 'documents copied  1']);
    expect(run.stdout).toContain(`BOURSE_SECRET_KEY="$(base64 -w0 ${path.join(dataDir, 'secret.key')})"`);
    expect(run.stdout).toContain('BOURSE_DB=postgres://');
    expect(run.stdout).toContain(`journal replay ok (state hash ${sqliteHash})`);
    expect(await journalLength(target)).toBe(sqliteSeq);
    const copied = await openPostgresStore({ url: target });
    try {
      expect(await copied.documents.get(7, sha256)).toEqual({ ext: 'png', bytes });
    } finally {
      await copied.close();
    }
  });

  it('when a node starts on the copy with the same data directory, then verify --replay gives the same state hash and the history reads answer the same', async () => {
    const port = await freePort();
    node = await startTestServer({ BOURSE_DB: target, BOURSE_DATA: dataDir, PORT: String(port), HOST: '127.0.0.1', BOURSE_NODE_URL: `http://127.0.0.1:${port}` });
    const verify = await runBourse(node, ['verify', '--replay']);
    expect(verify).toEqual({ exitCode: 0, stdout: `ledger ok\njournal replay ok (state hash ${sqliteHash})\n`, stderr: '' });
    expect(node.server.exchange.core.lastSeq).toBe(sqliteSeq);
    expect(await historyReads(node.url, traders, merchant, merchantId)).toEqual(sqliteReads);

    // The node reports every second: its row catches up with its role and its seq within one report.
    const t = node;
    const seq = node.server.exchange.core.lastSeq;
    const leading = await vi.waitUntil(
      async () => {
        const cluster = await runBourse(t, ['--json', 'cluster']);
        expect(cluster.exitCode).toBe(0);
        const answer = JSON.parse(cluster.stdout) as { nodes: { role: string; seq: number }[] };
        return answer.nodes[0]?.role === 'leader' && answer.nodes[0].seq === seq ? answer : undefined;
      },
      { timeout: 10_000, interval: 100 },
    );
    // Its seq is past the copy's by the merchant token the reads above asked for (B0 is journaled).
    expect(leading).toMatchObject({ nodes: [{ url: node.url, role: 'leader', term: 1, seq, lagMs: 0 }] });
  });

  it('when the target database already holds a journal, then migrate-store refuses and writes nothing', async () => {
    const before = await journalLength(target);
    const run = await bourse(['migrate-store', '--from', dataDir, '--to', target]);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/already holds a journal \(up to seq \d+\): migrate-store copies into an empty database only/);
    expect(await journalLength(target)).toBe(before);
  });

  it('when the key is not the deployment\'s, then migrate-store refuses before it writes anything', async () => {
    const empty = await databases.url();
    const run = await bourse(['migrate-store', '--from', dataDir, '--to', empty], { BOURSE_SECRET_KEY: randomBytes(32).toString('base64') });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('error: the key of BOURSE_SECRET_KEY does not open the API secrets in this store');
    const client = new pg.Client({ connectionString: empty });
    await client.connect();
    try {
      // Refused before the database was even opened: not even the schema is there.
      const { rows } = await client.query("SELECT 1 FROM information_schema.schemata WHERE schema_name = 'bourse'");
      expect(rows).toEqual([]);
    } finally {
      await client.end();
    }
  });

  it('when --from holds no store or --to is not a PostgreSQL URL, then a usage error and exit 1', async () => {
    const emptyDir = mkdtempSync(path.join(tmpdir(), 'bourse-migrate-empty-'));
    try {
      const noStore = await bourse(['migrate-store', '--from', emptyDir, '--to', target]);
      expect(noStore.exitCode).toBe(1);
      expect(noStore.stderr).toContain(`error: no SQLite store at ${path.join(emptyDir, 'bourse.db')}`);
    } finally {
      rmSync(emptyDir, { recursive: true, force: true });
    }
    const notPostgres = await bourse(['migrate-store', '--from', dataDir, '--to', 'mysql://localhost/bourse']);
    expect(notPostgres.exitCode).toBe(1);
    expect(notPostgres.stderr).toContain('expected a postgres:// or postgresql:// URL');
  });

  it('when the SQLite store is written to during the copy (its server still running), then migrate-store fails and says to stop it and start over', async () => {
    const empty = await databases.url();
    const dbPath = path.join(dataDir, 'bourse.db');
    // A server's commit as the copy begins: the next command in the journal, written by another connection.
    const writeAsAServer = (text: string): void => {
      if (!text.includes('copying')) return;
      const db = new Database(dbPath);
      try {
        db.prepare('INSERT INTO journal (seq, ts, type, payload) SELECT seq + 1, ts, type, payload FROM journal ORDER BY seq DESC LIMIT 1').run();
      } finally {
        db.close();
      }
    };
    const run = await bourse(['migrate-store', '--from', dataDir, '--to', empty], {}, writeAsAServer);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`error: the copy stopped: the SQLite journal grew past seq ${sqliteSeq} during the copy: its server is running; stop it.`);
    expect(run.stderr).toContain('DROP SCHEMA bourse CASCADE');
  });
});
