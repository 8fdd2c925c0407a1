/**
 * The desk D (docs/merchant-payments.md) is a system user, yet the operator may rebalance it through area A with an
 * API key of its user: a key can be made for it, and it trades like any account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../../support/answers.js';
import { balance } from '../../support/account-reads.js';
import { Operator } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

describe('a key for the desk', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t.stop());

  it('when the operator makes a key for the desk user, then the desk reads its balances and places an order through area A', async () => {
    const core = t.server.exchange.core;
    const deskUserId = core.ledger.account(core.payments.state.deskAccountId).userId;
    const op = new Operator(t);
    const desk = await op.keyOf(String(deskUserId));
    expect(await balance(desk, 'USDT')).toMatchObject({ free: '1000000' });
    const order = ok<{ status: string }>(await desk.signed('POST', '/openapi/v1/order', { symbol: 'USDTMXN', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', price: '25', quantity: '10' }));
    expect(order.status).toBe('NEW');
    // The fee account stays out of reach.
    expect((await op.admin.send('POST', `/users/${core.ledger.account(core.ledger.feeAccountId).userId}/api-keys`, {})).status).toBe(404);
  });
});
