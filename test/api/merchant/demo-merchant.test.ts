/**
 * Area B's demo (docs/operating.md "Demo data"): the demo merchant user owns "Demo Merchant" (BUSINESS, verified) with an
 * active MXN account holding a pending fund of 100000.00 MXN that arrived as a DEPOSIT record,
 * 10000 USDT and one valid SPEI beneficiary; the desk is funded; every credit is a ledger deposit,
 * so verify holds. The same with BOURSE_SANDBOX=0, where every mode is manual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DESK_BALANCES } from '../../../src/demo/demo-payments.js';
import { MerchantClient } from '../../support/merchant-client.js';
import { startTestServer, type TestServer } from '../../support/server.js';

describe.each([['1'], ['0']])('demo merchant with BOURSE_SANDBOX=%s', (sandbox) => {
  let t: TestServer;
  let client: MerchantClient;

  beforeAll(async () => {
    t = await startTestServer({ BOURSE_SANDBOX: sandbox });
    client = await MerchantClient.connect(t.url, t.demo.merchantApiKey, t.demo.merchantSecretKey);
  });
  afterAll(async () => t.stop());

  it('then "Demo Merchant" is a verified business with an active MXN account holding 100000.00', async () => {
    const merchants = await client.ok<{ total: number; data: Record<string, unknown>[] }>('GET', '/v2/merchants');
    expect(merchants.total).toBe(1);
    expect(merchants.data[0]).toMatchObject({ merchantId: Number(t.demo.merchantId), merchantName: 'Demo Merchant', merchantType: 2, status: 2 });
    const accounts = await client.ok<{ data: Record<string, unknown>[] }>('GET', '/v2/merchant/accounts');
    expect(accounts.data.map((a) => [a.fiat, a.status, a.balance])).toEqual([['MXN', 2, '100000.00']]);
    const records = await client.ok<{ data: Record<string, unknown>[] }>('GET', '/v2/merchant/funding/records');
    expect(records.data.map((r) => [r.type, r.status, r.amount])).toEqual([['DEPOSIT', 2, '100000.00']]);
  });

  it('then it holds 10000 USDT and one valid SPEI beneficiary', async () => {
    const assets = await client.ok<{ canDeposit: boolean; balances: Record<string, string>[] }>('GET', '/v2/assets/account/assets');
    expect(assets.canDeposit).toBe(true);
    expect(assets.balances.find((b) => b.asset === 'USDT')).toMatchObject({ total: '10000.00000000', free: '10000.00000000', locked: '0.00000000' });
    const beneficiaries = await client.ok<{ record: Record<string, unknown>[] }>('GET', '/v2/payments');
    expect(beneficiaries.record.map((b) => [b.paymentId, b.fiat, b.status])).toEqual([[58, 'MXN', 1]]);
  });

  it('then the desk is funded, the modes follow BOURSE_SANDBOX, and verify holds', async () => {
    const core = t.server.exchange.core;
    const desk = core.ledger.account(core.payments.state.deskAccountId);
    for (const [asset, amount] of DEMO_DESK_BALANCES) {
      const precision = core.ledger.asset(asset).precision;
      const [whole, fraction = ''] = amount.split('.');
      expect(desk.balances.get(asset)?.free, asset).toBe(BigInt(whole + fraction.padEnd(precision, '0')));
    }
    const modes = await client.call('GET', '/sandbox/v2/modes');
    // With 0, docs/merchant-payments.md "The simulator and the sandbox API" takes only the operator's token: the demo's decisions were spelled out as commands.
    if (sandbox === '1') expect(modes.data).toMatchObject({ kyc: 'approve', deposit: 'complete' });
    else expect([modes.status, modes.code]).toEqual([404, -5102]);
    const verify = await fetch(`${t.url}/admin/v1/verify?replay=1`, { headers: { Authorization: `Bearer ${t.adminToken}` } });
    expect(((await verify.json()) as { ok: boolean }).ok).toBe(true);
  });
});
