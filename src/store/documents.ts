/**
 * Where the documents merchants upload with B35 are kept, and where O32 and O33 read them back
 * (docs/operating.md "The payments desk"): content-addressed by order and SHA-256, so storing the
 * same bytes again changes nothing. A SQLite server keeps them as files under
 * `<BOURSE_DATA>/uploads`; a PostgreSQL deployment keeps them in its database
 * (store/postgres/documents.ts), so that every node reads what any node stored and a takeover loses
 * none. The journal names each document (name, size, sha256, type); its bytes are kept only here.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

/** The kinds of file B35 accepts, by the extension they are stored under. */
export const DOCUMENT_EXTENSIONS = ['jpg', 'png', 'pdf'] as const;
export type DocumentExt = (typeof DOCUMENT_EXTENSIONS)[number];

/** One stored document, as O32 lists it. */
export interface StoredDocument {
  sha256: string;
  ext: DocumentExt;
  size: number;
  /** When it was first stored, ms since the epoch. */
  uploadTime: number;
}

export interface DocumentStore {
  /** Stores `bytes` (whose SHA-256 is `sha256`) durably before it resolves; a document already stored is kept as it is. */
  put(orderId: number, sha256: string, ext: DocumentExt, bytes: Buffer): Promise<void>;
  /** One document's bytes and extension; undefined when the order has none with that hash. */
  get(orderId: number, sha256: string): Promise<{ ext: DocumentExt; bytes: Buffer } | undefined>;
  /** The order's documents, oldest first: at most `limit` of them. */
  list(orderId: number, limit: number): Promise<StoredDocument[]>;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const STORED_NAME = /^([0-9a-f]{64})\.(jpg|png|pdf)$/;

/** What every implementation checks alike: a payment order's id. */
export function checkOrderId(orderId: number): void {
  if (!Number.isSafeInteger(orderId) || orderId < 1) throw new RangeError(`a document's order id must be an integer ≥ 1: ${orderId}`);
}

/** What every implementation checks alike: an order id, and a hash that can be nothing but part of a file name. */
export function checkDocumentKey(orderId: number, sha256: string): void {
  checkOrderId(orderId);
  if (!SHA256_HEX.test(sha256)) throw new RangeError(`a document's sha256 must be 64 lower-case hex digits: ${sha256}`);
}

/** Flushes a directory entry (new or renamed file) to disk where the platform allows it. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not every platform can open or sync a directory; the file itself is synced.
  }
}

/** A SQLite server's documents: `<dataDir>/uploads/<orderId>/<sha256>.<ext>`, files mode 0600 in directories mode 0700. */
export class FileDocumentStore implements DocumentStore {
  constructor(private readonly dataDir: string) {}

  private dirOf(orderId: number): string {
    return path.join(this.dataDir, 'uploads', String(orderId));
  }

  /**
   * Written to a temporary name, synced, then renamed, so that the final name only ever holds the
   * whole file; then the directory is synced. A name already there holds these bytes: it is kept.
   */
  async put(orderId: number, sha256: string, ext: DocumentExt, bytes: Buffer): Promise<void> {
    checkDocumentKey(orderId, sha256);
    const dir = this.dirOf(orderId);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const final = path.join(dir, `${sha256}.${ext}`);
    const existing = await stat(final).catch(() => undefined);
    if (existing?.isFile() === true && existing.size === bytes.length) return;
    const temp = path.join(dir, `.${sha256}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await open(temp, 'wx', 0o600);
    try {
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, final);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    await syncDirectory(dir);
  }

  async get(orderId: number, sha256: string): Promise<{ ext: DocumentExt; bytes: Buffer } | undefined> {
    checkDocumentKey(orderId, sha256);
    for (const ext of DOCUMENT_EXTENSIONS) {
      try {
        return { ext, bytes: await readFile(path.join(this.dirOf(orderId), `${sha256}.${ext}`)) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    return undefined;
  }

  /** The stored names of the directory (temporary ones left by a crash are not), their times those of the files. */
  async list(orderId: number, limit: number): Promise<StoredDocument[]> {
    checkOrderId(orderId);
    const dir = this.dirOf(orderId);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const documents: StoredDocument[] = [];
    for (const name of names) {
      const match = STORED_NAME.exec(name);
      if (match === null) continue;
      if (documents.length === limit) break;
      const info = await stat(path.join(dir, name));
      documents.push({ sha256: match[1], ext: match[2] as DocumentExt, size: info.size, uploadTime: Math.trunc(info.mtimeMs) });
    }
    return documents.sort((a, b) => a.uploadTime - b.uploadTime || (a.sha256 < b.sha256 ? -1 : 1));
  }
}
