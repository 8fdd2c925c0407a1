import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { publicKeyFingerprint, resolveWebhookKey, WEBHOOK_KEY_FILE } from '../../../src/webhooks/webhook-key.js';

describe('webhook signing key (docs/operating.md "Merchant payments settings", docs/webhooks.md "Verifying the signature")', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bourse-webhook-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('when first started, then an RSA-2048 PKCS#8 key is written with mode 0600; later starts read the same key', () => {
    const first = resolveWebhookKey(dir);
    const file = path.join(dir, WEBHOOK_KEY_FILE);
    expect(first.generated).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(first.privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    const again = resolveWebhookKey(dir);
    expect(again.generated).toBe(false);
    expect(again.publicKeyBase64).toBe(first.publicKeyBase64);
  });

  it('when a receiver verifies as docs/webhooks.md "Verifying the signature" shows, then a body signed with the key passes and a changed body fails', () => {
    const key = resolveWebhookKey(dir);
    const body = Buffer.from('{"eventId":"0c1d"}');
    const signature = sign('sha256', body, key.privateKey);
    const publicKey = createPublicKey({ key: Buffer.from(key.publicKeyBase64, 'base64'), format: 'der', type: 'spki' });
    expect(verify('sha256', body, publicKey, signature)).toBe(true);
    expect(verify('sha256', Buffer.from('{"eventId":"0c1e"}'), publicKey, signature)).toBe(false);
  });

  it('when fingerprinted, then it is the SHA-256 of the DER public key in hex, as openssl computes it from the key file, not of the base64 text', () => {
    const key = resolveWebhookKey(dir);
    const der = execFileSync('openssl', ['pkey', '-in', path.join(dir, WEBHOOK_KEY_FILE), '-pubout', '-outform', 'DER']);
    const fromOpenssl = /([0-9a-f]{64})\s*$/.exec(execFileSync('openssl', ['dgst', '-sha256'], { input: der }).toString('utf8'))?.[1];
    expect(publicKeyFingerprint(key.publicKeyBase64)).toBe(fromOpenssl);
    expect(publicKeyFingerprint(key.publicKeyBase64)).not.toBe(createHash('sha256').update(key.publicKeyBase64).digest('hex'));
  });

  it('when the file holds a key that is not RSA, then the start stops with the reason', () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(path.join(dir, WEBHOOK_KEY_FILE), privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    expect(() => resolveWebhookKey(dir)).toThrow('is not an RSA private key');
  });
});
