import { expect } from 'vitest';
import { formatUnits } from '../../src/core/decimal.js';
import type { OrderRequest } from '../../src/core/payment-commands.js';
import { FLOW_TYPES } from '../../src/core/types.js';
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

/** Area B's system accounts, which no area A key of a test reaches: the desk D and the fee account FEE. */
export type SystemAccount = 'desk' | 'fee';

const FLOW_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(FLOW_TYPES).map(([name, value]) => [value, name]));

function systemAccountId(s: PaymentsStory, which: SystemAccount): number {
  const core = s.t.server.exchange.core;
  return which === 'desk' ? core.payments.state.deskAccountId : core.ledger.feeAccountId;
}

/** `free/locked` of an asset of D or FEE, read from the core, in A19's canonical decimals. */
export function systemHoldings(s: PaymentsStory, which: SystemAccount, asset: string): string {
  const core = s.t.server.exchange.core;
  const precision = core.ledger.asset(asset).precision;
  const balance = core.ledger.account(systemAccountId(s, which)).balances.get(asset);
  return `${formatUnits(balance?.free ?? 0n, precision)}/${formatUnits(balance?.locked ?? 0n, precision)}`;
}

/** The id of the last flow row written so far: `systemFlows` after it lists only what follows. */
export function flowMark(s: PaymentsStory): number {
  return s.t.server.exchange.core.ledger.nextFlowId - 1;
}

/** Flow rows of D or FEE in an asset after `mark`, oldest first, as `[flowType, change, total]` (as `flowRows`). */
export async function systemFlows(s: PaymentsStory, which: SystemAccount, asset: string, mark: number): Promise<string[][]> {
  const rows = await s.t.server.exchange.history.listFlows({ accountId: systemAccountId(s, which), asset, endFlowId: mark, limit: 1000 });
  return rows.map((f) => [FLOW_NAMES.get(f.flowType) ?? String(f.flowType), f.change, f.total]);
}

/** Limits used as B10, B14 and B16 show them: the user's `monthUsed`, the merchant's three, and `<fiat>.buy`/`<fiat>.sell` per account. */
export async function limitsUsed(client: MerchantClient, merchantId: number): Promise<Record<string, string>> {
  const user = await client.ok<{ monthUsed: string }>('GET', '/v2/user/account');
  const merchants = await client.ok<{ data: { merchantId: number; dayFiatUsed: string; monthFiatUsed: string; monthCryptoUsed: string }[] }>('GET', '/v2/merchants', { pageSize: 1000 });
  const merchant = merchants.data.find((m) => m.merchantId === merchantId);
  if (merchant === undefined) throw new Error(`merchant ${merchantId} is not listed`);
  const accounts = await client.ok<{ data: { fiat: string; buyAmountUsed: string; sellAmountUsed: string }[] }>('GET', '/v2/merchant/accounts', { merchantId });
  return {
    monthUsed: user.monthUsed,
    dayFiatUsed: merchant.dayFiatUsed,
    monthFiatUsed: merchant.monthFiatUsed,
    monthCryptoUsed: merchant.monthCryptoUsed,
    ...Object.fromEntries(accounts.data.flatMap((a) => [[`${a.fiat}.buy`, a.buyAmountUsed], [`${a.fiat}.sell`, a.sellAmountUsed]])),
  };
}

/** B21 rows (newest first) matching `params`. */
export async function fundingRecords(client: MerchantClient, params: Record<string, unknown> = {}): Promise<Record<string, unknown>[]> {
  return (await client.ok<{ data: Record<string, unknown>[] }>('GET', '/v2/merchant/funding/records', { pageSize: 1000, ...params })).data;
}

/** B33 of an order. */
export function orderDetail(client: MerchantClient, orderId: number | string): Promise<Record<string, unknown>> {
  return client.ok<Record<string, unknown>>('GET', '/v2/order/detail', { orderId });
}

/** B25 fields of a US WIRE beneficiary (rail 83, payout fee 15.00) that pass every rule. */
export const WIRE_BENEFICIARY = {
  'Account Owner Type': 'Individual',
  firstName: 'John',
  lastName: 'Smith',
  'Account Number': '000123456789',
  'Routing Number': '021000021',
  'Bank Name': 'Chase',
  'Bank Country/Region': 'US',
  'Street Line1': '1 Main St',
  City: 'New York',
  State: 'NY',
  'Postal Code': '10001',
};

/** A 20000.00 MXN → USD global payment from a merchant's MXN account to a WIRE beneficiary: what B31 asks the core for, but its kind. */
export function globalPaymentOrder(merchantId: number, wireId: number): Omit<Extract<OrderRequest, { kind: 'fiat_to_fiat' }>, 'kind'> {
  return {
    onRampMerchantId: merchantId,
    onRampCountry: 'Mexico',
    onRampFiat: 'MXN',
    onRampFiatAmount: '20000.00',
    onRampPaymentId: 58,
    offRampCountry: 'United States',
    offRampFiat: 'USD',
    offRampPaymentId: wireId,
  };
}

/** B31's body for that global payment. */
export function globalPaymentParams(merchantId: number, wireId: number, clientId: string): Record<string, unknown> {
  return { ...globalPaymentOrder(merchantId, wireId), clientId };
}
