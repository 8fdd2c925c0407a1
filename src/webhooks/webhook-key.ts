import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The deployment's webhook signing key (docs/operating.md "Merchant payments settings", docs/webhooks.md "Verifying the signature"): one RSA-2048 pair for every webhook. */
export interface WebhookKey {
  privateKey: KeyObject;
  /** What B36–B38 show as `publicKey`: base64 DER SubjectPublicKeyInfo, no PEM armour. */
  publicKeyBase64: string;
  /** True when this start made the key (first start, or the file was removed to rotate it). */
  generated: boolean;
}

export const WEBHOOK_KEY_FILE = 'webhook-key.pem';
const RSA_BITS = 2048;

/**
 * The key's fingerprint, one form everywhere (the server's start log, `bourse webhooks receive`,
 * docs/webhooks.md "Verifying the signature"): SHA-256 of the DER bytes that `publicKey` encodes,
 * lowercase hex, so `openssl pkey -pubout -outform DER | openssl dgst -sha256` gives the same.
 */
export function publicKeyFingerprint(publicKeyBase64: string): string {
  return createHash('sha256').update(Buffer.from(publicKeyBase64, 'base64')).digest('hex');
}

/**
 * `<dataDir>/webhook-key.pem` (PKCS#8, mode 0600), generated when missing: replacing the file and
 * restarting rotates the key. A file that is not an RSA private key stops the start, since every
 * receiver verifies with the public key it was given.
 */
export function resolveWebhookKey(dataDir: string, pem?: string): WebhookKey {
  // BOURSE_WEBHOOK_KEY: every node of a deployment signs with the same key (docs/deployment.md "Settings").
  if (pem !== undefined) return webhookKeyOf(pem, 'BOURSE_WEBHOOK_KEY', false);
  const file = path.join(dataDir, WEBHOOK_KEY_FILE);
  let generated = false;
  if (!existsSync(file)) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: RSA_BITS });
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    generated = true;
  } else if ((statSync(file).mode & 0o077) !== 0) {
    chmodSync(file, 0o600);
  }
  return webhookKeyOf(readFileSync(file), file, generated);
}

function webhookKeyOf(pem: string | Buffer, source: string, generated: boolean): WebhookKey {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    throw new Error(`${source} is not a private key in PEM`);
  }
  if (privateKey.asymmetricKeyType !== 'rsa') throw new Error(`${source} is not an RSA private key`);
  const publicKeyBase64 = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
  return { privateKey, publicKeyBase64, generated };
}
