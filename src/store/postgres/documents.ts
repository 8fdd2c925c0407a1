/**
 * A PostgreSQL deployment's uploaded documents (store/documents.ts): rows of `bourse.documents`
 * (migration 2), over the store's readers' pool, so that whichever node answers O32 or O33 reads
 * what the leader stored for B35, before and after a takeover.
 */
import type pg from 'pg';
import { checkDocumentKey, checkOrderId, type DocumentExt, type DocumentStore, type StoredDocument } from '../documents.js';

export class PgDocumentStore implements DocumentStore {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * One INSERT, committed when it resolves: B35 stores a document before it submits the command
   * that names it, so the journal never names a document the database lacks. A document stored
   * for a command that then fails (the order moved meanwhile, the leader lost the lead, the
   * database went away before the append) is harmless: no state refers to it, the row is keyed by
   * its bytes' hash so a retried upload finds it in place (the insert does nothing then), and like
   * the file of such an upload on SQLite it only ever adds what the merchant sent. For the same
   * reason it is not fenced by the leader's term.
   */
  async put(orderId: number, sha256: string, ext: DocumentExt, bytes: Buffer): Promise<void> {
    checkDocumentKey(orderId, sha256);
    await this.pool.query('INSERT INTO bourse.documents (order_id, sha256, ext, content) VALUES ($1, $2, $3, $4) ON CONFLICT (order_id, sha256) DO NOTHING', [orderId, sha256, ext, bytes]);
  }

  async get(orderId: number, sha256: string): Promise<{ ext: DocumentExt; bytes: Buffer } | undefined> {
    checkDocumentKey(orderId, sha256);
    const { rows } = await this.pool.query<{ ext: DocumentExt; content: Buffer }>('SELECT ext, content FROM bourse.documents WHERE order_id = $1 AND sha256 = $2', [orderId, sha256]);
    const row = rows[0];
    return row === undefined ? undefined : { ext: row.ext, bytes: row.content };
  }

  async list(orderId: number, limit: number): Promise<StoredDocument[]> {
    checkOrderId(orderId);
    const { rows } = await this.pool.query<StoredDocument>(
      'SELECT sha256, ext, octet_length(content) AS size, upload_time AS "uploadTime" FROM bourse.documents WHERE order_id = $1 ORDER BY upload_time, sha256 LIMIT $2',
      [orderId, limit],
    );
    return rows;
  }
}
