import { describe, it, expect } from 'vitest';
import { BourseError } from '../../../src/core/errors.js';
import { emptyDerivedRows } from '../../../src/core/types.js';
import { Ledger, type PostingContext } from '../../../src/ledger/ledger.js';
import { flowRowOf } from '../../../src/ledger/flow-posting.js';

function ledgerWithBtc(): Ledger {
  const ledger = new Ledger();
  ledger.addAsset({
    asset: 'BTC',
    precision: 8,
    kind: 'crypto',
    fullName: 'Bitcoin',
    chains: ['BTC'],
    withdrawFeeAtoms: 50_000n,
    minWithdrawAtoms: 100_000n,
    allowDeposit: true,
    allowWithdraw: true,
  });
  return ledger;
}

function context(seq = 7, ts = 1_700_000_000_123): PostingContext {
  return { seq, ts, rows: emptyDerivedRows(), recordRows: true, recordFlows: true, touched: new Map() };
}

describe('Ledger accounts', () => {
  it('when created, then the FEE account is the main account of the system user', () => {
    const ledger = new Ledger();
    expect(ledger.feeAccountId).toBe(1);
    expect(ledger.users.get(1)?.userType).toBe('system');
    expect(ledger.account(1).accountIndex).toBe(0);
  });

  it('when a sub-account is added, then it takes the next index and its main account fee rates', () => {
    const ledger = new Ledger();
    const user = ledger.createUser('a@example.com', 'user');
    const main = ledger.account(user.accountIds[0]);
    expect(main.makerFeeRate).toBe(100_000n);
    main.makerFeeRate = 20_000n;
    main.takerFeeRate = 70_000n;
    const sub = ledger.createAccount(user, 'bot');
    expect(sub.accountIndex).toBe(1);
    expect([sub.makerFeeRate, sub.takerFeeRate]).toEqual([20_000n, 70_000n]);
    expect(user.accountIds).toEqual([2, 3]);
  });
});

describe('Ledger.post', () => {
  it('when free is credited and debited, then each change writes a row with its signed change and the total after it', () => {
    const ledger = ledgerWithBtc();
    const account = ledger.account(ledger.createUser('a', 'user').accountIds[0]);
    const ctx = context();
    ledger.post(ctx, account, 'BTC', 150_000_000n, 'DEPOSIT');
    ledger.lock(ctx, account, 'BTC', 50_000_000n);
    ledger.post(ctx, account, 'BTC', -12_345_678n, 'TRANSFER');
    expect(ctx.rows.flows.map(flowRowOf)).toEqual([
      { flowId: 1, accountId: 2, asset: 'BTC', flowType: 4, change: '1.5', total: '1.5', created: 1_700_000_000_123, seq: 7 },
      { flowId: 2, accountId: 2, asset: 'BTC', flowType: 3, change: '-0.12345678', total: '1.37654322', created: 1_700_000_000_123, seq: 7 },
    ]);
    expect(account.balances.get('BTC')).toEqual({ free: 87_654_322n, locked: 50_000_000n });
    expect(account.updateTime).toBe(1_700_000_000_123);
    expect([...ctx.touched.keys()]).toEqual([2]);
  });

  it('when a negative change comes from locked, then locked pays it and free is untouched', () => {
    const ledger = ledgerWithBtc();
    const account = ledger.account(ledger.createUser('a', 'user').accountIds[0]);
    const ctx = context();
    ledger.post(ctx, account, 'BTC', 100n, 'DEPOSIT');
    ledger.lock(ctx, account, 'BTC', 60n);
    ledger.post(ctx, account, 'BTC', -60n, 'WITHDRAW', true);
    expect(account.balances.get('BTC')).toEqual({ free: 40n, locked: 0n });
    expect(flowRowOf(ctx.rows.flows[1])).toMatchObject({ flowType: 33, change: '-0.0000006', total: '0.0000004' });
  });

  it('when the change is zero, then no row is written and the account is not touched', () => {
    const ledger = ledgerWithBtc();
    const account = ledger.account(ledger.createUser('a', 'user').accountIds[0]);
    const ctx = context();
    ledger.post(ctx, account, 'BTC', 0n, 'FEE');
    expect(ctx.rows.flows).toEqual([]);
    expect(ctx.touched.size).toBe(0);
    expect(ledger.nextFlowId).toBe(1);
  });

  it('when a change would make free or locked negative, then it throws and changes nothing', () => {
    const ledger = ledgerWithBtc();
    const account = ledger.account(ledger.createUser('a', 'user').accountIds[0]);
    const ctx = context();
    ledger.post(ctx, account, 'BTC', 10n, 'DEPOSIT');
    expect(() => ledger.post(ctx, account, 'BTC', -11n, 'TRANSFER')).toThrow('free BTC of account 2 would go negative');
    expect(() => ledger.post(ctx, account, 'BTC', -1n, 'TRADE', true)).toThrow('locked BTC of account 2 would go negative');
    expect(account.balances.get('BTC')).toEqual({ free: 10n, locked: 0n });
    expect(ctx.rows.flows.length).toBe(1);
  });
});

describe('Ledger.lock and unlock', () => {
  it('when more than free is locked, then -1131 is thrown and nothing moves', () => {
    const ledger = ledgerWithBtc();
    const account = ledger.account(ledger.createUser('a', 'user').accountIds[0]);
    ledger.post(context(), account, 'BTC', 10n, 'DEPOSIT');
    let error: unknown;
    try {
      ledger.lock(context(), account, 'BTC', 11n);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BourseError);
    expect((error as BourseError).code).toBe(-1131);
    expect(account.balances.get('BTC')).toEqual({ free: 10n, locked: 0n });
  });

  it('when locked and unlocked, then free and locked move and no row is written', () => {
    const ledger = ledgerWithBtc();
    const account = ledger.account(ledger.createUser('a', 'user').accountIds[0]);
    const ctx = context();
    ledger.post(ctx, account, 'BTC', 10n, 'DEPOSIT');
    ledger.lock(ctx, account, 'BTC', 7n);
    ledger.unlock(ctx, account, 'BTC', 3n);
    expect(account.balances.get('BTC')).toEqual({ free: 6n, locked: 4n });
    expect(ctx.rows.flows.length).toBe(1);
    expect(() => ledger.unlock(ctx, account, 'BTC', 5n)).toThrow('unlock 5 > locked 4 of BTC');
  });

  it('when only locked or unlocked, then the account update time moves and its stream is told, though no row is written', () => {
    const ledger = ledgerWithBtc();
    const account = ledger.account(ledger.createUser('a', 'user').accountIds[0]);
    ledger.post(context(1, 1_000), account, 'BTC', 10n, 'DEPOSIT');
    const locking = context(2, 2_000);
    ledger.lock(locking, account, 'BTC', 7n);
    expect([account.updateTime, [...locking.touched], locking.rows.flows.length]).toEqual([2_000, [[2, ['BTC']]], 0]);
    const unlocking = context(3, 3_000);
    ledger.unlock(unlocking, account, 'BTC', 7n);
    expect([account.updateTime, [...unlocking.touched], unlocking.rows.flows.length]).toEqual([3_000, [[2, ['BTC']]], 0]);
    // Nothing moved: nothing to tell.
    const idle = context(4, 4_000);
    ledger.unlock(idle, account, 'BTC', 0n);
    expect([account.updateTime, idle.touched.size]).toEqual([3_000, 0]);
  });
});

describe('Ledger.fee', () => {
  const ledger = new Ledger();

  it('when received × rate has a fraction of an atom, then the fee is rounded up to the next atom', () => {
    // 0.00000123 BTC × 0.001 = 0.00000000123 → 0.00000001
    expect(ledger.fee(123n, 100_000n)).toBe(1n);
    // 1.23456789 × 0.001 = 0.00123456789 → 0.00123457
    expect(ledger.fee(123_456_789n, 100_000n)).toBe(123_457n);
  });

  it('when received × rate is a whole number of atoms, then it is not rounded', () => {
    expect(ledger.fee(100_000_000n, 100_000n)).toBe(100_000n);
  });

  it('when the rate or the amount is zero, then the fee is zero', () => {
    expect(ledger.fee(123n, 0n)).toBe(0n);
    expect(ledger.fee(0n, 100_000n)).toBe(0n);
  });

  it('when rounding up would exceed what was received, then the fee is capped at it', () => {
    expect(ledger.fee(1n, 10_000_000n)).toBe(1n);
    expect(ledger.fee(3n, 100_000_000n)).toBe(3n);
  });
});

describe('Ledger.verifyTotals', () => {
  it('when balances move between accounts, then each asset total stays deposits minus withdrawals', () => {
    const ledger = ledgerWithBtc();
    const a = ledger.account(ledger.createUser('a', 'user').accountIds[0]);
    const b = ledger.account(ledger.createUser('b', 'user').accountIds[0]);
    const ctx = context();
    ledger.post(ctx, a, 'BTC', 500n, 'DEPOSIT');
    ledger.totals.set('BTC', { deposits: 500n, withdrawals: 0n });
    ledger.post(ctx, a, 'BTC', -200n, 'TRANSFER');
    ledger.post(ctx, b, 'BTC', 200n, 'TRANSFER');
    ledger.lock(ctx, b, 'BTC', 50n);
    expect(ledger.verifyTotals()).toEqual([{ asset: 'BTC', total: 500n, deposits: 500n, withdrawals: 0n }]);
  });

  it('when a balance is negative, then it throws', () => {
    const ledger = ledgerWithBtc();
    const a = ledger.account(ledger.createUser('a', 'user').accountIds[0]);
    a.balances.set('BTC', { free: -1n, locked: 0n });
    expect(() => ledger.verifyTotals()).toThrow('negative balance BTC in 2');
  });
});
