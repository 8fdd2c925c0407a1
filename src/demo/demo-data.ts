import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PERMISSIONS } from '../core/types.js';
import type { ApiKeyRecord } from '../exchange/exchange-core.js';
import type { Exchange } from '../exchange/exchange.js';
import { generateApiCredential } from '../api/auth/keys.js';
import type { SecretBox } from '../api/auth/secret-box.js';
import { DEMO_ASSETS, DEMO_BALANCES, DEMO_SYMBOLS } from './demo-catalogue.js';

export const DEMO_USER_EMAIL = 'demo@bourse.local';
export const DEMO_MERCHANT_EMAIL = 'merchant@bourse.local';

export interface DemoCredentials {
  userId: string;
  accountId: string;
  apiKey: string;
  secretKey: string;
  merchantApiKey: string;
  merchantSecretKey: string;
}

/** Demo catalogue, a funded demo user and a demo merchant, each with a key (operator.md). */
export async function seedDemo(exchange: Exchange, secretBox: SecretBox): Promise<void> {
  for (const command of DEMO_ASSETS) await exchange.submit(command);
  for (const command of DEMO_SYMBOLS) await exchange.submit(command);
  for (const [email, userType] of [
    [DEMO_USER_EMAIL, 'user'],
    [DEMO_MERCHANT_EMAIL, 'merchant'],
  ] as const) {
    const { userId, accountId } = await exchange.submit<{ userId: number; accountId: number }>({ type: 'createUser', email, userType });
    await exchange.submit({
      type: 'createApiKey',
      userId,
      accountIndex: 0,
      apiKey: generateApiCredential(),
      secretSealed: secretBox.seal(generateApiCredential()),
      permissions: [...PERMISSIONS],
      ipWhitelist: [],
      label: 'demo',
    });
    for (const [asset, amount] of DEMO_BALANCES) {
      await exchange.submit({ type: 'deposit', accountId, asset, amount, txId: randomBytes(32).toString('hex') });
    }
  }
}

/**
 * Writes `<dataDir>/demo-credentials.json` from the state when it is missing: the sealed secrets
 * are in the journal, so a crash between seeding and writing loses nothing.
 */
export function writeDemoCredentials(exchange: Exchange, secretBox: SecretBox, dataDir: string): DemoCredentials | undefined {
  const file = path.join(dataDir, 'demo-credentials.json');
  const core = exchange.core;
  const users = [...core.ledger.users.values()];
  const demo = users.find((u) => u.email === DEMO_USER_EMAIL);
  const merchant = users.find((u) => u.email === DEMO_MERCHANT_EMAIL);
  if (demo === undefined || merchant === undefined) return undefined;
  const keyOf = (userId: number): ApiKeyRecord | undefined =>
    [...core.apiKeys.values()].find((k) => k.userId === userId && k.label === 'demo' && !k.revoked);
  const demoKey = keyOf(demo.userId);
  const merchantKey = keyOf(merchant.userId);
  if (demoKey === undefined || merchantKey === undefined) return undefined;
  const credentials: DemoCredentials = {
    userId: String(demo.userId),
    accountId: String(demo.accountIds[0]),
    apiKey: demoKey.apiKey,
    secretKey: secretBox.open(demoKey.secretSealed),
    merchantApiKey: merchantKey.apiKey,
    merchantSecretKey: secretBox.open(merchantKey.secretSealed),
  };
  if (!existsSync(file)) writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return credentials;
}
