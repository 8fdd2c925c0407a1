import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/**
 * docs/webhooks.md "Verifying the signature": RSASSA-PKCS1-v1_5 with SHA-256 over the exact body bytes, as lowercase hex. Signed on
 * libuv's thread pool: an RSA-2048 signature costs about 0.3 ms, which the event loop need not wait for.
 */
export function signBody(privateKey: KeyObject, body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    sign('sha256', body, privateKey, (error, signature) => (error === null ? resolve(signature.toString('hex')) : reject(error)));
  });
}

/** What a receiver does (docs/webhooks.md "Verifying the signature"): verifies the raw bytes against the published base64 DER key. */
export function verifyBody(publicKeyBase64: string, body: Buffer, signatureHex: string): boolean {
  if (!/^[0-9a-f]+$/.test(signatureHex)) return false;
  const key = createPublicKey({ key: Buffer.from(publicKeyBase64, 'base64'), format: 'der', type: 'spki' });
  return verify('sha256', body, key, Buffer.from(signatureHex, 'hex'));
}
