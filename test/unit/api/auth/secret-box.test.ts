import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSecretBox } from '../../../../src/api/auth/secret-box.js';

const SECRET = 'lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76';
let dataDir: string;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'bourse-secret-box-'));
});

afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function flipFirstByte(base64: string): string {
  const bytes = Buffer.from(base64, 'base64');
  bytes[0] ^= 0x01;
  return bytes.toString('base64');
}

describe('openSecretBox', () => {
  it('when a secret is sealed, then opening gives it back and the sealed text does not contain it', () => {
    const box = openSecretBox(dataDir);
    const sealed = box.seal(SECRET);
    expect(sealed).toMatch(/^v1:[A-Za-z0-9+/=]{16}:[A-Za-z0-9+/=]{24}:[A-Za-z0-9+/=]{88}$/);
    expect(sealed).not.toContain(SECRET);
    expect(box.open(sealed)).toBe(SECRET);
  });

  it('when the same secret is sealed twice, then the IVs and texts differ', () => {
    const box = openSecretBox(dataDir);
    expect(box.seal(SECRET)).not.toBe(box.seal(SECRET));
  });

  it('when the ciphertext, the tag or the IV is altered, then opening throws', () => {
    const box = openSecretBox(dataDir);
    const [version, iv, tag, ciphertext] = box.seal(SECRET).split(':');
    expect(() => box.open([version, iv, tag, flipFirstByte(ciphertext)].join(':'))).toThrow('authentication failed');
    expect(() => box.open([version, iv, flipFirstByte(tag), ciphertext].join(':'))).toThrow('authentication failed');
    expect(() => box.open([version, flipFirstByte(iv), tag, ciphertext].join(':'))).toThrow('authentication failed');
  });

  it('when the sealed text is not of the v1 form, then opening throws', () => {
    const box = openSecretBox(dataDir);
    const [, iv, tag, ciphertext] = box.seal(SECRET).split(':');
    expect(() => box.open(['v2', iv, tag, ciphertext].join(':'))).toThrow('unknown format');
    expect(() => box.open(['v1', iv, tag].join(':'))).toThrow('unknown format');
    expect(() => box.open(['v1', `${iv}!`, tag, ciphertext].join(':'))).toThrow('unknown format');
  });

  it('when the key file is created, then it holds 32 bytes with mode 0600', () => {
    openSecretBox(dataDir);
    const path = join(dataDir, 'secret.key');
    expect(readFileSync(path).length).toBe(32);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('when the box is opened again on the same directory, then the same key opens earlier secrets', () => {
    const sealed = openSecretBox(dataDir).seal(SECRET);
    expect(openSecretBox(dataDir).open(sealed)).toBe(SECRET);
  });

  it('when another directory has another key, then its box cannot open the secret', () => {
    const sealed = openSecretBox(dataDir).seal(SECRET);
    const otherDir = join(dataDir, 'other');
    expect(() => openSecretBox(otherDir).open(sealed)).toThrow('authentication failed');
  });

  it('when the key file exists readable by others, then it is tightened to 0600', () => {
    openSecretBox(dataDir);
    const path = join(dataDir, 'secret.key');
    chmodSync(path, 0o644);
    openSecretBox(dataDir);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('when the key file has the wrong length, then opening the box throws', () => {
    writeFileSync(join(dataDir, 'secret.key'), Buffer.alloc(16), { mode: 0o600 });
    expect(() => openSecretBox(dataDir)).toThrow('expected 32 bytes, found 16');
  });
});
