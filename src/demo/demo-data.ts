import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PERMISSIONS, type Command } from '../core/types.js';
import type { ApiKeyRecord } from '../exchange/catalogue-module.js';
import type { Exchange } from '../exchange/exchange.js';
import { generateApiCredential } from '../api/auth/keys.js';
import type { SecretBox } from '../api/auth/secret-box.js';
import { DEMO_ASSETS, DEMO_BALANCES, DEMO_MARKET_MAKER_BALANCES, DEMO_SYMBOLS } from './demo-catalogue.js';
import { demoPaymentCommands } from './demo-payments.js';

export const DEMO_USER_EMAIL = 'demo@bourse.local';
export const DEMO_MERCHANT_EMAIL = 'merchant@bourse.local';
export const DEMO_MARKET_MAKER_EMAIL = 'market-maker@bourse.local';
const DEMO_KEY_LABEL = 'demo';
const MARKET_MAKER_KEY_LABEL = 'demo-market-maker';
const TAKER_KEY_LABEL = 'demo-market-taker';
const TAKER_ACCOUNT_NAME = 'demo-taker';
/** Moved from the market maker's main account to its taker sub-account: a tenth of each balance. */
const TAKER_BALANCES: readonly [string, string][] = DEMO_MARKET_MAKER_BALANCES.map(([asset, amount]) => [asset, String(BigInt(amount) / 10n)]);

export interface DemoCredentials {
  userId: string;
  accountId: string;
  apiKey: string;
  secretKey: string;
  merchantApiKey: string;
  merchantSecretKey: string;
  /** The demo merchant user's "Demo Merchant" (area B), "" when this database has none. */
  merchantId: string;
}

/**
 * Demo catalogue, a funded demo user, a demo merchant and the demo market maker, each with a key
 * (docs/operating.md "Demo data"). Every command is submitted in one event-loop turn, so they form one batch and one
 * journal transaction: a crash while seeding leaves all of it or none, never half a demo.
 */
export async function seedDemo(exchange: Exchange, secretBox: SecretBox, sandbox: boolean): Promise<void> {
  const ledger = exchange.core.ledger;
  // Seeding runs alone on an empty journal: the ids the core will give are its next counters.
  let nextUserId = ledger.nextUserId;
  let nextAccountId = ledger.nextAccountId;
  const commands: Command[] = [...DEMO_ASSETS, ...DEMO_SYMBOLS];
  const fundedUser = (email: string, userType: 'user' | 'merchant', label: string, balances: readonly [string, string][]): void => {
    const userId = nextUserId++;
    const accountId = nextAccountId++;
    commands.push(
      { type: 'createUser', email, userType },
      {
        type: 'createApiKey',
        userId,
        accountIndex: 0,
        apiKey: generateApiCredential(),
        secretSealed: secretBox.seal(generateApiCredential()),
        permissions: [...PERMISSIONS],
        ipWhitelist: [],
        label,
      },
      ...balances.map(([asset, amount]): Command => ({ type: 'deposit', accountId, asset, amount, txId: randomBytes(32).toString('hex') })),
    );
  };
  fundedUser(DEMO_USER_EMAIL, 'user', DEMO_KEY_LABEL, DEMO_BALANCES);
  const merchantUserId = nextUserId;
  fundedUser(DEMO_MERCHANT_EMAIL, 'merchant', DEMO_KEY_LABEL, DEMO_BALANCES);
  // Created after the users above, so the demo user's and merchant's ids stay what they were before it existed.
  fundedUser(DEMO_MARKET_MAKER_EMAIL, 'user', MARKET_MAKER_KEY_LABEL, DEMO_MARKET_MAKER_BALANCES);
  commands.push(...demoPaymentCommands(exchange.core, { nextUserId, nextAccountId, merchantUserId }, sandbox));
  await Promise.all(commands.map((command) => exchange.submit(command)));
}

function activeKey(exchange: Exchange, email: string, label: string): ApiKeyRecord | undefined {
  const core = exchange.core;
  const user = [...core.ledger.users.values()].find((u) => u.email === email);
  if (user === undefined) return undefined;
  return [...core.catalogue.apiKeys.values()].find((k) => k.userId === user.userId && k.label === label && !k.revoked);
}

/**
 * The demo market maker's key and secret, from the state (the sealed secret is journaled), or
 * undefined when this database was seeded without a market maker.
 */
export function findDemoMarketMakerKey(exchange: Exchange, secretBox: SecretBox): { apiKey: string; secretKey: string } | undefined {
  const key = activeKey(exchange, DEMO_MARKET_MAKER_EMAIL, MARKET_MAKER_KEY_LABEL);
  if (key === undefined) return undefined;
  return { apiKey: key.apiKey, secretKey: secretBox.open(key.secretSealed) };
}

/**
 * The key of the market maker's taker sub-account, which now and then crosses the spread so the
 * demo market has trades (self-trade prevention forbids the maker's own account to take from
 * itself). Made on first use, in one batch: sub-account, key, and a tenth of the maker's funds
 * moved to it; undefined when this database has no market maker.
 */
export async function ensureDemoTakerKey(exchange: Exchange, secretBox: SecretBox): Promise<{ apiKey: string; secretKey: string } | undefined> {
  const found = activeKey(exchange, DEMO_MARKET_MAKER_EMAIL, TAKER_KEY_LABEL);
  if (found !== undefined) return { apiKey: found.apiKey, secretKey: secretBox.open(found.secretSealed) };
  const maker = activeKey(exchange, DEMO_MARKET_MAKER_EMAIL, MARKET_MAKER_KEY_LABEL);
  const user = maker === undefined ? undefined : exchange.core.ledger.users.get(maker.userId);
  if (user === undefined) return undefined;
  const mainAccountId = user.accountIds[0];
  // Submitted in one event-loop turn, one batch: the ids are the core's next counters.
  const accountId = exchange.core.ledger.nextAccountId;
  const accountIndex = user.accountIds.length;
  const apiKey = generateApiCredential();
  const secretKey = generateApiCredential();
  const commands: Command[] = [
    { type: 'createSubAccount', userId: user.userId, name: TAKER_ACCOUNT_NAME },
    { type: 'createApiKey', userId: user.userId, accountIndex, apiKey, secretSealed: secretBox.seal(secretKey), permissions: [...PERMISSIONS], ipWhitelist: [], label: TAKER_KEY_LABEL },
    ...TAKER_BALANCES.map(([asset, amount]): Command => ({ type: 'transfer', fromAccountId: mainAccountId, toAccountId: accountId, asset, amount, flowType: 'USER_ACCOUNT_TRANSFER' })),
  ];
  await Promise.all(commands.map((command) => exchange.submit(command)));
  return { apiKey, secretKey };
}

/**
 * Writes `<dataDir>/demo-credentials.json` from the state when it is missing: the sealed secrets
 * are in the journal, so a crash between seeding and writing loses nothing.
 */
export function writeDemoCredentials(exchange: Exchange, secretBox: SecretBox, dataDir: string): DemoCredentials | undefined {
  const file = path.join(dataDir, 'demo-credentials.json');
  const demo = [...exchange.core.ledger.users.values()].find((u) => u.email === DEMO_USER_EMAIL);
  const demoKey = activeKey(exchange, DEMO_USER_EMAIL, DEMO_KEY_LABEL);
  const merchantKey = activeKey(exchange, DEMO_MERCHANT_EMAIL, DEMO_KEY_LABEL);
  if (demo === undefined || demoKey === undefined || merchantKey === undefined) return undefined;
  const credentials: DemoCredentials = {
    userId: String(demo.userId),
    accountId: String(demo.accountIds[0]),
    apiKey: demoKey.apiKey,
    secretKey: secretBox.open(demoKey.secretSealed),
    merchantApiKey: merchantKey.apiKey,
    merchantSecretKey: secretBox.open(merchantKey.secretSealed),
    merchantId: String([...exchange.core.payments.state.merchants.values()].find((m) => m.userId === merchantKey.userId)?.merchantId ?? ''),
  };
  if (!existsSync(file)) writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return credentials;
}
