/**
 * API secrets at rest. HMAC verification needs the plain secret, so it cannot be hashed; it is
 * sealed with AES-256-GCM under a key kept beside the database in `<dataDir>/secret.key`, so a
 * copied database alone does not reveal secrets.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface SecretBox {
  /** `v1:<base64 iv>:<base64 tag>:<base64 ciphertext>` with a fresh IV each time. */
  seal(plain: string): string;
  /** The plain text of a sealed value; throws if it was altered or sealed under another key. */
  open(sealed: string): string;
}

const KEY_FILE = 'secret.key';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const OWNER_ONLY = 0o600;
const GROUP_OTHER_BITS = 0o077;
const VERSION = 'v1';
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Opens the box of `dataDir`, creating its key (mode 0600) on first use; with `key`
 * (BOURSE_SECRET_KEY, shared by every node of a deployment), that key instead of the file's.
 */
export function openSecretBox(dataDir: string, key: Buffer = dataDirSecretKey(dataDir)): SecretBox {
  if (key.length !== KEY_BYTES) throw new RangeError(`a secret-sealing key is ${KEY_BYTES} bytes, not ${key.length}`);
  return {
    seal(plain: string): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64'), tag.toString('base64'), ciphertext.toString('base64')].join(':');
    },
    open(sealed: string): string {
      const parts = sealed.split(':');
      if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('sealed secret: unknown format');
      const iv = decodeBase64(parts[1]);
      const tag = decodeBase64(parts[2]);
      const ciphertext = decodeBase64(parts[3]);
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('sealed secret: unknown format');
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
      } catch {
        // Never echo the sealed value or the key: the message names the failure only.
        throw new Error('sealed secret: authentication failed');
      }
    },
  };
}

/** Node's base64 decoder skips bad characters silently; a sealed value must be exact. */
function decodeBase64(text: string): Buffer {
  if (!BASE64.test(text) || text.length % 4 !== 0) throw new Error('sealed secret: unknown format');
  return Buffer.from(text, 'base64');
}

/** `<dataDir>/secret.key`, made (mode 0600) on first use: the key of `openSecretBox(dataDir)`. */
export function dataDirSecretKey(dataDir: string): Buffer {
  return loadOrCreateKey(join(dataDir, KEY_FILE));
}

function loadOrCreateKey(path: string): Buffer {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    // 'wx' fails if the file exists, so two processes starting together never overwrite a key.
    writeFileSync(path, randomBytes(KEY_BYTES), { mode: OWNER_ONLY, flag: 'wx' });
  } catch (error) {
    if (!isErrorCode(error, 'EEXIST')) throw error;
  }
  // A key file restored from a backup or copied by hand may be readable by others: tighten it.
  if ((statSync(path).mode & GROUP_OTHER_BITS) !== 0) chmodSync(path, OWNER_ONLY);
  const key = readFileSync(path);
  if (key.length !== KEY_BYTES) throw new Error(`${path}: expected ${KEY_BYTES} bytes, found ${key.length}`);
  return key;
}

function isErrorCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
