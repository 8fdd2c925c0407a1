/**
 * What a test server keeps of B35's uploads, read where its store keeps them: the files under
 * `<BOURSE_DATA>/uploads/<orderId>` on SQLite, the rows of `bourse.documents` on PostgreSQL
 * (src/store/documents.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestServer } from './server.js';

/** The PostgreSQL database the server runs on, or undefined when it runs on SQLite. */
export function postgresUrlOf(t: TestServer): string | undefined {
  const db = t.env.BOURSE_DB;
  return db !== undefined && /^postgres(ql)?:\/\//.test(db) ? db : undefined;
}

/** The order's stored documents by their stored name `<sha256>.<ext>`, in name order. */
export async function storedDocuments(t: TestServer, orderId: number): Promise<Map<string, Buffer>> {
  const url = postgresUrlOf(t);
  if (url === undefined) {
    const dir = path.join(t.dataDir, 'uploads', String(orderId));
    const names = existsSync(dir) ? readdirSync(dir).sort() : [];
    return new Map(names.map((name) => [name, readFileSync(path.join(dir, name))]));
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; content: Buffer }>(
      "SELECT sha256 || '.' || ext AS name, content FROM bourse.documents WHERE order_id = $1 ORDER BY sha256 COLLATE \"C\", ext COLLATE \"C\"",
      [orderId],
    );
    return new Map(rows.map((row) => [row.name, row.content]));
  } finally {
    await client.end();
  }
}
