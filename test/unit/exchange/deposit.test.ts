import { describe, it, expect } from 'vitest';
import { FLOW_TYPES } from '../../../src/core/types.js';
import { createCoreHarness } from '../../support/core-harness.js';
import { flowRowOf } from '../../../src/ledger/flow-posting.js';

describe('deposits', () => {
  it('when credited, then a DEPOSIT row and a deposit record are written and the total grows', () => {
    const h = createCoreHarness();
    const accountId = h.addUser();
    const ts = h.now;
    expect(h.ok({ type: 'deposit', accountId, asset: 'BTC', amount: '1.23456789', txId: 'abc' })).toEqual({ depositId: 1 });
    expect(h.lastRows.flows.map(flowRowOf).map(({ flowId: _id, ...rest }) => rest)).toEqual([
      { accountId, asset: 'BTC', flowType: FLOW_TYPES.DEPOSIT, change: '1.23456789', total: '1.23456789', created: ts, seq: h.core.lastSeq },
    ]);
    expect(h.lastRows.deposits).toEqual([{ depositId: 1, accountId, asset: 'BTC', amount: '1.23456789', txId: 'abc', time: ts }]);
    expect(h.core.ledger.totals.get('BTC')).toEqual({ deposits: 123_456_789n, withdrawals: 0n });
  });

  it('when the asset is fiat, then it is credited too', () => {
    const h = createCoreHarness();
    const accountId = h.addUser();
    h.ok({ type: 'deposit', accountId, asset: 'MXN', amount: '500', txId: '' });
    expect(h.balance(accountId, 'MXN')).toEqual({ free: '500', locked: '0' });
  });

  it('when the amount is zero, negative or beyond the precision, then -1130 and nothing is credited', () => {
    const h = createCoreHarness();
    const accountId = h.addUser();
    for (const amount of ['0', '-1', '0.000000001', '1e3']) {
      expect(h.refuse({ type: 'deposit', accountId, asset: 'BTC', amount, txId: '' }).toBody()).toEqual({
        code: -1130,
        msg: "Data sent for paramter 'amount' is not valid.",
      });
    }
    expect(h.core.funds.nextDepositId).toBe(1);
    expect(h.refuse({ type: 'deposit', accountId, asset: 'DOGE', amount: '1', txId: '' }).toBody()).toEqual({ code: -1000, msg: 'asset DOGE does not exist.' });
    expect(h.refuse({ type: 'deposit', accountId: 99, asset: 'BTC', amount: '1', txId: '' }).code).toBe(-1000);
  });
});
