/**
 * Where B35's uploads are kept (src/store/documents.ts), the same cases on both implementations:
 * files under `<BOURSE_DATA>/uploads` (a SQLite server) and rows of `bourse.documents` (a
 * PostgreSQL deployment). Stored once per order and hash, read back byte for byte, listed oldest
 * first; then what each keeps where: the files' layout and modes, the database's rows for every node.
 */

import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileDocumentStore, type DocumentStore } from '../../../src/store/documents.js';
import { openPostgresStore, type PostgresStore } from '../../../src/store/postgres/postgres-store.js';
import { postgresDatabases } from '../../support/postgres.js';

const databases = postgresDatabases();

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-1', 'latin1')]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1');
/** Every byte value, so that nothing is read back as text. */
const BINARY = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from(Array.from({ length: 256 }, (_v, i) => i))]);
const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** One implementation on a fresh place: the store, a second one on the same place (another node, or a restart), and its removal. */
interface Place {
  store: DocumentStore;
  again(): Promise<DocumentStore>;
  close(): Promise<void>;
}

const PLACES: readonly [string, () => Promise<Place>][] = [
  [
    'files',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'bourse-documents-'));
      return { store: new FileDocumentStore(dir), again: async () => new FileDocumentStore(dir), close: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const url = await databases.url();
      const opened: PostgresStore[] = [await openPostgresStore({ url })];
      return {
        store: opened[0].documents,
        async again() {
          const store = await openPostgresStore({ url });
          opened.push(store);
          return store.documents;
        },
        close: async () => {
          for (const store of opened) await store.close();
        },
      };
    },
  ],
];

describe.each(PLACES)('document store on %s', (_name, place) => {
  let p: Place;
  beforeEach(async () => {
    p = await place();
  });
  afterEach(async () => p.close());

  it('when a document is put, then get answers its bytes and extension, and another reader of the same place does too', async () => {
    await p.store.put(7, sha256(BINARY), 'jpg', BINARY);
    await p.store.put(7, sha256(PDF), 'pdf', PDF);

    expect(await p.store.get(7, sha256(BINARY))).toEqual({ ext: 'jpg', bytes: BINARY });
    expect(await p.store.get(7, sha256(PDF))).toEqual({ ext: 'pdf', bytes: PDF });
    expect(await (await p.again()).get(7, sha256(BINARY))).toEqual({ ext: 'jpg', bytes: BINARY });
  });

  it('when nothing was put under an order and hash, then get answers undefined: a document belongs to its order', async () => {
    await p.store.put(7, sha256(PNG), 'png', PNG);

    expect(await p.store.get(8, sha256(PNG))).toBeUndefined();
    expect(await p.store.get(7, sha256(PDF))).toBeUndefined();
    expect(await p.store.list(8, 50)).toEqual([]);
  });

  it('when the same document is put again, then it is kept once, as it was', async () => {
    await p.store.put(7, sha256(PNG), 'png', PNG);
    const [first] = await p.store.list(7, 50);
    await p.store.put(7, sha256(PNG), 'png', PNG);
    await (await p.again()).put(7, sha256(PNG), 'png', PNG);

    expect(await p.store.list(7, 50)).toEqual([first]);
    expect(first).toMatchObject({ sha256: sha256(PNG), ext: 'png', size: PNG.length });
    expect(await p.store.get(7, sha256(PNG))).toEqual({ ext: 'png', bytes: PNG });
  });

  it('when an order has documents, then list answers each with its size and time, oldest first, at most the limit', async () => {
    const before = Date.now();
    await p.store.put(9, sha256(PDF), 'pdf', PDF);
    await p.store.put(9, sha256(PNG), 'png', PNG);
    await p.store.put(10, sha256(BINARY), 'jpg', BINARY);

    const listed = await p.store.list(9, 50);
    expect(listed.map((d) => [d.sha256, d.ext, d.size]).sort()).toEqual(
      [
        [sha256(PDF), 'pdf', PDF.length],
        [sha256(PNG), 'png', PNG.length],
      ].sort(),
    );
    for (const d of listed) expect(d.uploadTime).toBeGreaterThanOrEqual(before - 1000);
    // Oldest first; documents stored in the same millisecond by hash.
    expect(listed).toEqual([...listed].sort((a, b) => a.uploadTime - b.uploadTime || a.sha256.localeCompare(b.sha256)));
    expect(await p.store.list(9, 1)).toHaveLength(1);
  });

  it('when a key could name another place (not an order id, not a SHA-256), then it is refused before anything is touched', async () => {
    await expect(p.store.put(7, '../../etc/passwd', 'pdf', PDF)).rejects.toThrow(RangeError);
    await expect(p.store.put(0, sha256(PDF), 'pdf', PDF)).rejects.toThrow(RangeError);
    await expect(p.store.get(7, sha256(PDF).toUpperCase())).rejects.toThrow(RangeError);
    await expect(p.store.list(-1, 50)).rejects.toThrow(RangeError);
  });
});

describe('document store on files: the layout of a SQLite server', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-documents-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('when a document is put, then it is <BOURSE_DATA>/uploads/<orderId>/<sha256>.<ext>, mode 0600 in a directory of mode 0700, and nothing else is left', async () => {
    await new FileDocumentStore(dataDir).put(12, sha256(PDF), 'pdf', PDF);

    const dir = path.join(dataDir, 'uploads', '12');
    expect(readdirSync(dir)).toEqual([`${sha256(PDF)}.pdf`]);
    const file = path.join(dir, `${sha256(PDF)}.pdf`);
    expect(readFileSync(file).equals(PDF)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});

describe('document store on PostgreSQL: the rows every node reads', () => {
  let store: PostgresStore;
  let client: pg.Client;
  beforeEach(async () => {
    const url = await databases.url();
    store = await openPostgresStore({ url });
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  afterEach(async () => {
    await client.end();
    await store.close();
  });

  it('when a document is put, then bourse.documents holds it committed: order, hash, type and the exact bytes', async () => {
    await store.documents.put(12, sha256(BINARY), 'jpg', BINARY);

    const { rows } = await client.query<{ order_id: string; sha256: string; ext: string; content: Buffer }>('SELECT order_id, sha256, ext, content FROM bourse.documents');
    expect(rows).toEqual([{ order_id: '12', sha256: sha256(BINARY), ext: 'jpg', content: BINARY }]);
  });
});
