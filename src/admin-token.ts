import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The operator API's bearer token: `BOURSE_ADMIN_TOKEN`, else `<dataDir>/admin-token` (mode
 * 0600), generated on first start. `generated` tells the caller to say where it is (never the token itself).
 */
export function resolveAdminToken(dataDir: string, fromEnv: string | undefined): { token: string; generated: boolean } {
  if (fromEnv !== undefined) return { token: fromEnv, generated: false };
  const file = path.join(dataDir, 'admin-token');
  if (existsSync(file)) {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
    const token = readFileSync(file, 'utf8').trim();
    if (token.length > 0) return { token, generated: false };
  }
  const token = randomBytes(32).toString('hex');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { token, generated: true };
}
