import type { DemoCredentials } from '../../src/demo/demo-data.js';
import { AdminClient } from './clients.js';
import type { Trader } from './order-load.js';

/**
 * Rate limits live in memory (a restart restores the defaults), and a load test would otherwise
 * spend its time on 429s and then an IP ban: lift them after every start.
 */
export async function liftRateLimits(url: string, adminToken: string): Promise<void> {
  const answer = await new AdminClient(url, adminToken).send('PATCH', '/trading/config', {
    requestWeightPerMinute: 1_000_000_000,
    ordersPerSecond: 1_000_000_000,
    ordersPerDay: 1_000_000_000,
    banStrikes: 1_000_000_000,
  });
  if (answer.status !== 200) throw new Error(`PATCH /admin/v1/trading/config answered ${answer.status} ${answer.text}`);
}

export function demoTrader(demo: DemoCredentials): Trader {
  return { name: 'demo', apiKey: demo.apiKey, secretKey: demo.secretKey };
}

async function adminCall<T>(admin: AdminClient, method: string, path: string, body: unknown): Promise<T> {
  const answer = await admin.send(method, path, body);
  if (answer.status !== 200) throw new Error(`${method} /admin/v1${path} answered ${answer.status} ${answer.text}`);
  return answer.body as T;
}

/** A trader with the ids the operator API names it by. */
export interface FundedTrader extends Trader {
  userId: string;
  accountId: string;
}

/** A second user, made and funded through the operator API like any operator would. */
export async function createFundedTrader(url: string, adminToken: string, name: string, funds: readonly [string, string][]): Promise<FundedTrader> {
  const admin = new AdminClient(url, adminToken);
  const user = await adminCall<{ userId: string; accountId: string }>(admin, 'POST', '/users', { email: `${name}@bourse.test` });
  const key = await adminCall<{ apiKey: string; secretKey: string }>(admin, 'POST', `/users/${user.userId}/api-keys`, { label: name });
  for (const [asset, amount] of funds) await adminCall(admin, 'POST', '/deposits', { accountId: user.accountId, asset, amount });
  return { name, apiKey: key.apiKey, secretKey: key.secretKey, userId: user.userId, accountId: user.accountId };
}
