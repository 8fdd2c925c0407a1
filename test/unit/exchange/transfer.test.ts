import { describe, it, expect } from 'vitest';
import { FLOW_TYPES, type TransferCommand } from '../../../src/core/types.js';
import { stateHash } from '../../../src/exchange/snapshot.js';
import { createCoreHarness, limit } from '../../support/core-harness.js';
import { flowRowOf } from '../../../src/ledger/flow-posting.js';

function setup() {
  const h = createCoreHarness();
  const { userId, accountId: main } = h.ok<{ userId: number; accountId: number }>({ type: 'createUser', email: 't@example.com', userType: 'user' });
  const { accountId: sub } = h.ok<{ accountId: number }>({ type: 'createSubAccount', userId, name: 'bot' });
  h.deposit(main, 'USDT', '100');
  return { h, main, sub };
}

function transfer(fromAccountId: number, toAccountId: number, amount: string, overrides: Partial<TransferCommand> = {}): TransferCommand {
  return { type: 'transfer', fromAccountId, toAccountId, asset: 'USDT', amount, flowType: 'USER_ACCOUNT_TRANSFER', ...overrides };
}

describe('transfers between accounts', () => {
  it('when made, then both sides move with one row each of the given flow type', () => {
    const { h, main, sub } = setup();
    expect(h.ok(transfer(main, sub, '30.5'))).toEqual({ success: true });
    expect(h.lastRows.flows.map(flowRowOf).map((f) => [f.accountId, f.asset, f.flowType, f.change, f.total])).toEqual([
      [main, 'USDT', FLOW_TYPES.USER_ACCOUNT_TRANSFER, '-30.5', '69.5'],
      [sub, 'USDT', FLOW_TYPES.USER_ACCOUNT_TRANSFER, '30.5', '30.5'],
    ]);
    h.ok(transfer(sub, main, '0.5', { flowType: 'AIRDROP' }));
    expect(h.lastRows.flows.map(flowRowOf).map((f) => [f.flowType, f.change])).toEqual([
      [FLOW_TYPES.AIRDROP, '-0.5'],
      [FLOW_TYPES.AIRDROP, '0.5'],
    ]);
    expect(h.balance(main, 'USDT')).toEqual({ free: '70', locked: '0' });
    expect(h.balance(sub, 'USDT')).toEqual({ free: '30', locked: '0' });
  });

  it('when the source has less free than the amount, then -1131 and neither side moves', () => {
    const { h, main, sub } = setup();
    h.place(limit(main, 'BTCUSDT', 'BUY', '10', '2'));
    const before = stateHash(h.core);
    expect(h.refuse(transfer(main, sub, '80.00000001')).toBody()).toEqual({ code: -1131, msg: 'Balance insufficient' });
    expect(stateHash(h.core)).toBe(before);
    expect(h.ok(transfer(main, sub, '80'))).toEqual({ success: true });
    expect(h.balance(main, 'USDT')).toEqual({ free: '0', locked: '20' });
  });

  it('when source and target are the same account, then -1172', () => {
    const { h, main } = setup();
    expect(h.refuse(transfer(main, main, '1')).toBody()).toEqual({
      code: -1172,
      msg: 'Balance transfer failed: the source and the target are the same account',
    });
  });

  it('when the amount is zero, beyond the precision or the asset unknown, then -1130', () => {
    const { h, main, sub } = setup();
    expect(h.refuse(transfer(main, sub, '0')).code).toBe(-1130);
    expect(h.refuse(transfer(main, sub, '1.000000001')).code).toBe(-1130);
    expect(h.refuse(transfer(main, sub, '1', { asset: 'DOGE' })).toBody()).toEqual({ code: -1130, msg: "Data sent for paramter 'tokenId' is not valid." });
    expect(h.balance(main, 'USDT')).toEqual({ free: '100', locked: '0' });
  });

  it('when an account does not exist, then -1000 names it', () => {
    const { h, main } = setup();
    expect(h.refuse(transfer(main, 99, '1')).toBody()).toEqual({ code: -1000, msg: 'account 99 does not exist.' });
  });
});
