import { describe, it, expect } from 'vitest';
import { FLOW_TYPES, type WithdrawCommand, type WithdrawalRow } from '../../../src/core/types.js';
import { createCoreHarness } from '../../support/core-harness.js';
import { flowRowOf } from '../../../src/ledger/flow-posting.js';

function withdrawal(accountId: number, amount: string, overrides: Partial<WithdrawCommand> = {}): WithdrawCommand {
  return {
    type: 'withdraw',
    accountId,
    asset: 'USDT',
    amount,
    address: 'TXYZ123',
    addressExt: '',
    chainType: 'TRC20',
    clientOrderId: 'w-1',
    ...overrides,
  };
}

/** USDT in the demo catalogue: withdrawal fee 1, minimum 10. */
function setup() {
  const h = createCoreHarness();
  const accountId = h.funded({ USDT: '100' });
  return { h, accountId };
}

describe('withdrawals (docs/spot-api.md "Deposits and withdrawals")', () => {
  it('when requested, then amount + fee is locked, a status 1 record is written and no flow row', () => {
    const { h, accountId } = setup();
    const ts = h.now;
    expect(h.ok(withdrawal(accountId, '50'))).toEqual({ withdrawalId: 1 });
    expect(h.balance(accountId, 'USDT')).toEqual({ free: '49', locked: '51' });
    expect(h.lastRows.flows).toEqual([]);
    expect(h.lastRows.withdrawals).toEqual([
      {
        withdrawalId: 1,
        accountId,
        clientOrderId: 'w-1',
        asset: 'USDT',
        chainType: 'TRC20',
        address: 'TXYZ123',
        addressExt: '',
        amount: '50',
        fee: '1',
        status: 1,
        txId: '',
        time: ts,
        updateTime: ts,
      },
    ]);
  });

  it('when approved, then WITHDRAW and WITHDRAWAL_FEE leave the locked balance, the FEE account gets the fee, and only the amount leaves the exchange', () => {
    const { h, accountId } = setup();
    h.ok(withdrawal(accountId, '50'));
    const ts = h.now;
    const row = h.ok<WithdrawalRow>({ type: 'settleWithdrawal', withdrawalId: 1, approve: true, txId: 'chain-tx', reason: '' });
    expect(row).toMatchObject({ withdrawalId: 1, status: 6, txId: 'chain-tx', updateTime: ts, amount: '50', fee: '1' });
    expect(h.lastRows.withdrawals).toEqual([row]);
    expect(h.lastRows.flows.map(flowRowOf).map((f) => [f.accountId, f.asset, f.flowType, f.change, f.total])).toEqual([
      [accountId, 'USDT', FLOW_TYPES.WITHDRAW, '-50', '50'],
      [accountId, 'USDT', FLOW_TYPES.WITHDRAWAL_FEE, '-1', '49'],
      [h.feeAccountId, 'USDT', FLOW_TYPES.WITHDRAWAL_FEE, '1', '1'],
    ]);
    expect(h.balance(accountId, 'USDT')).toEqual({ free: '49', locked: '0' });
    expect(h.balance(h.feeAccountId, 'USDT')).toEqual({ free: '1', locked: '0' });
    expect(h.core.ledger.verifyTotals().find((t) => t.asset === 'USDT')).toEqual({
      asset: 'USDT',
      total: 5_000_000_000n,
      deposits: 10_000_000_000n,
      withdrawals: 5_000_000_000n,
    });
  });

  it('when rejected, then everything is unlocked, status 2, and no flow row', () => {
    const { h, accountId } = setup();
    h.ok(withdrawal(accountId, '50'));
    const row = h.ok<WithdrawalRow>({ type: 'settleWithdrawal', withdrawalId: 1, approve: false, txId: '', reason: 'address on a ban list' });
    expect(row).toMatchObject({ status: 2, txId: '' });
    expect(h.lastRows.flows).toEqual([]);
    expect(h.balance(accountId, 'USDT')).toEqual({ free: '100', locked: '0' });
  });

  it('when a settled withdrawal is settled again, either way, then -1130 and nothing changes', () => {
    const { h, accountId } = setup();
    h.ok(withdrawal(accountId, '50'));
    h.ok(withdrawal(accountId, '20', { clientOrderId: 'w-2' }));
    h.ok({ type: 'settleWithdrawal', withdrawalId: 1, approve: true, txId: 't', reason: '' });
    h.ok({ type: 'settleWithdrawal', withdrawalId: 2, approve: false, txId: '', reason: '' });
    for (const [withdrawalId, approve] of [[1, true], [1, false], [2, true], [2, false]] as const) {
      expect(h.refuse({ type: 'settleWithdrawal', withdrawalId, approve, txId: 'x', reason: '' }).toBody()).toEqual({
        code: -1130,
        msg: "Data sent for paramter 'status' is not valid.",
      });
    }
    expect(h.balance(accountId, 'USDT')).toEqual({ free: '49', locked: '0' });
    expect(h.refuse({ type: 'settleWithdrawal', withdrawalId: 9, approve: true, txId: '', reason: '' }).toBody()).toEqual({
      code: -1000,
      msg: 'withdrawal 9 does not exist.',
    });
  });

  it('when the same clientOrderId comes again with the same values, then the first reply is returned and nothing more is locked', () => {
    const { h, accountId } = setup();
    h.ok(withdrawal(accountId, '50'));
    expect(h.ok(withdrawal(accountId, '50.000'))).toEqual({ withdrawalId: 1 });
    expect(h.balance(accountId, 'USDT')).toEqual({ free: '49', locked: '51' });
    expect(h.core.funds.withdrawals.size).toBe(1);
  });

  it('when the same clientOrderId comes with other values, then -1174', () => {
    const { h, accountId } = setup();
    h.ok(withdrawal(accountId, '50'));
    const others: Partial<WithdrawCommand>[] = [{ amount: '40' }, { address: 'OTHER' }, { addressExt: 'memo' }, { chainType: 'ERC20' }, { asset: 'BTC' }];
    for (const override of others) {
      expect(h.refuse(withdrawal(accountId, '50', override)).toBody()).toEqual({ code: -1174, msg: 'Repeated submit request.' });
    }
    expect(h.ok(withdrawal(accountId, '40', { clientOrderId: 'w-2' }))).toEqual({ withdrawalId: 2 });
  });

  it('when amount + fee exceeds the free balance, then -1131; exactly the free balance is accepted', () => {
    const { h, accountId } = setup();
    expect(h.refuse(withdrawal(accountId, '99.00000001')).code).toBe(-1131);
    h.ok(withdrawal(accountId, '99'));
    expect(h.balance(accountId, 'USDT')).toEqual({ free: '0', locked: '100' });
  });

  it('when the amount or asset is not allowed, then -1130 names the parameter', () => {
    const { h, accountId } = setup();
    h.deposit(accountId, 'MXN', '1000');
    const bad = (code: string) => ({ code: -1130, msg: `Data sent for paramter '${code}' is not valid.` });
    expect(h.refuse(withdrawal(accountId, '9.99')).toBody()).toEqual(bad('withdrawQuantity'));
    expect(h.refuse(withdrawal(accountId, '0')).toBody()).toEqual(bad('withdrawQuantity'));
    expect(h.refuse(withdrawal(accountId, '50.000000001')).toBody()).toEqual(bad('withdrawQuantity'));
    expect(h.refuse(withdrawal(accountId, '-50')).toBody()).toEqual(bad('withdrawQuantity'));
    expect(h.refuse(withdrawal(accountId, '100', { asset: 'MXN' })).toBody()).toEqual(bad('tokenId'));
    expect(h.refuse(withdrawal(accountId, '100', { asset: 'DOGE' })).toBody()).toEqual(bad('tokenId'));
    expect(h.core.funds.withdrawals.size).toBe(0);
    h.ok(withdrawal(accountId, '10'));
  });
});
