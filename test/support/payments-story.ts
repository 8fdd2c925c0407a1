import { expect } from 'vitest';
import { flows, holdings } from './account-reads.js';
import type { SpotClient } from './clients.js';
import { Operator } from './fixtures.js';
import { merchantUser, type MerchantClient } from './merchant-client.js';
import { startTestServer, type TestServer } from './server.js';

/** One server for a story file, an operator, and a fresh merchant-type user connected to area B. */
export interface PaymentsStory {
  t: TestServer;
  op: Operator;
  userId: string;
  client: MerchantClient;
  /** An area A client of the user's `accountIndex`-th account (merchant n's M is index n). */
  ledgerOf(accountIndex: number): Promise<SpotClient>;
  /** `verify` with replay: balances equal flows, totals equal deposits minus withdrawals, locks equal reservations. */
  verified(): Promise<void>;
}

export async function paymentsStory(env: Record<string, string> = {}): Promise<PaymentsStory> {
  const t = await startTestServer(env);
  const op = new Operator(t);
  const { userId, client } = await merchantUser(op, t.url);
  return {
    t,
    op,
    userId,
    client,
    ledgerOf: (accountIndex) => op.keyOf(userId, { accountIndex }),
    async verified() {
      const report = await op.ok<{ ok: boolean; details: unknown[] }>('GET', '/verify?replay=1');
      expect(report.details.filter((d) => (d as { mismatch?: string }).mismatch !== undefined)).toEqual([]);
      expect(report.ok).toBe(true);
    },
  };
}

/** `free/locked` of MXN in an account, as area A's A19 shows it. */
export async function mxnOf(ledger: SpotClient): Promise<string> {
  return (await holdings(ledger, ['MXN'])).MXN;
}

/** A31 rows of an asset as `[flowType, change, total]`. */
export async function flowRows(ledger: SpotClient, tokenId: string): Promise<string[][]> {
  return (await flows(ledger, { tokenId })).map((f) => [f.flowType, f.change, f.total]);
}
