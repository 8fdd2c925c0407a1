import { describe, it, expect } from 'vitest';
import { FLOW_TYPES } from '../../../src/core/types.js';
import { createCoreHarness, limit } from '../../support/core-harness.js';
import { flowRowOf } from '../../../src/ledger/flow-posting.js';

const { TRADE, FEE } = FLOW_TYPES;

/** A resting seller at maker 0.001 / taker 0.003 and a buyer at maker 0.0005 / taker 0.002. */
function setup() {
  const h = createCoreHarness();
  const seller = h.funded({ BTC: '1' }, { maker: '0.001', taker: '0.003' });
  const buyer = h.funded({ USDT: '10000' }, { maker: '0.0005', taker: '0.002' });
  return { h, seller, buyer, fee: h.feeAccountId };
}

describe('fees (docs/spot-api.md "Locks, fees and rounding") and fill postings (docs/spot-api.md "Accounts and balances")', () => {
  it('when a buyer takes a resting sell, then each side pays its own rate in the asset it receives, rounded up, and the FEE account gets both', () => {
    const { h, seller, buyer, fee } = setup();
    h.place(limit(seller, 'BTCUSDT', 'SELL', '30000.01', '0.123457'));
    const ts = h.now;
    const result = h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000.01', '0.123457'));
    // Buyer: 0.123457 × 0.002 = 0.000246914 BTC → 0.00024692. Seller: 3703.71123457 × 0.001 = 3.70371123457 USDT → 3.70371124.
    expect(result.fills).toEqual([{ price: '30000.01', qty: '0.123457', commission: '0.00024692', commissionAsset: 'BTC', tradeId: 1 }]);
    const row = { created: ts, seq: h.core.lastSeq };
    expect(h.lastRows.flows.map(flowRowOf).map(({ flowId: _id, ...rest }) => rest)).toEqual([
      { accountId: buyer, asset: 'BTC', flowType: TRADE, change: '0.123457', total: '0.123457', ...row },
      { accountId: buyer, asset: 'USDT', flowType: TRADE, change: '-3703.71123457', total: '6296.28876543', ...row },
      { accountId: buyer, asset: 'BTC', flowType: FEE, change: '-0.00024692', total: '0.12321008', ...row },
      { accountId: fee, asset: 'BTC', flowType: FEE, change: '0.00024692', total: '0.00024692', ...row },
      { accountId: seller, asset: 'BTC', flowType: TRADE, change: '-0.123457', total: '0.876543', ...row },
      { accountId: seller, asset: 'USDT', flowType: TRADE, change: '3703.71123457', total: '3703.71123457', ...row },
      { accountId: seller, asset: 'USDT', flowType: FEE, change: '-3.70371124', total: '3700.00752333', ...row },
      { accountId: fee, asset: 'USDT', flowType: FEE, change: '3.70371124', total: '3.70371124', ...row },
    ]);
    const flowIds = h.lastRows.flows.map(flowRowOf).map((f) => f.flowId);
    expect(flowIds).toEqual(Array.from({ length: 8 }, (_, i) => flowIds[0] + i));
    expect(h.lastRows.trades).toEqual([
      {
        tradeId: 1,
        accountId: buyer,
        symbol: 'BTCUSDT',
        orderId: 2,
        matchOrderId: 1,
        price: '30000.01',
        qty: '0.123457',
        quoteQty: '3703.71123457',
        commission: '0.00024692',
        commissionAsset: 'BTC',
        isBuyer: true,
        isMaker: false,
        time: ts,
      },
      {
        tradeId: 1,
        accountId: seller,
        symbol: 'BTCUSDT',
        orderId: 1,
        matchOrderId: 2,
        price: '30000.01',
        qty: '0.123457',
        quoteQty: '3703.71123457',
        commission: '3.70371124',
        commissionAsset: 'USDT',
        isBuyer: false,
        isMaker: true,
        time: ts,
      },
    ]);
    expect(h.balance(buyer, 'BTC')).toEqual({ free: '0.12321008', locked: '0' });
    expect(h.balance(buyer, 'USDT')).toEqual({ free: '6296.28876543', locked: '0' });
    expect(h.balance(seller, 'USDT')).toEqual({ free: '3700.00752333', locked: '0' });
    expect(h.balance(fee, 'BTC')).toEqual({ free: '0.00024692', locked: '0' });
    expect(h.balance(fee, 'USDT')).toEqual({ free: '3.70371124', locked: '0' });
  });

  it('when a seller takes a resting buy, then the seller pays its taker rate and the buyer its maker rate', () => {
    const { h, seller, buyer } = setup();
    h.place(limit(buyer, 'BTCUSDT', 'BUY', '10000', '0.5'));
    const result = h.place(limit(seller, 'BTCUSDT', 'SELL', '10000', '0.5'));
    expect(result.fills).toEqual([{ price: '10000', qty: '0.5', commission: '15', commissionAsset: 'USDT', tradeId: 1 }]);
    expect(h.lastRows.trades.map((t) => [t.commission, t.commissionAsset, t.isMaker])).toEqual([
      ['0.00025', 'BTC', true],
      ['15', 'USDT', false],
    ]);
    expect(h.balance(buyer, 'BTC')).toEqual({ free: '0.49975', locked: '0' });
    expect(h.balance(seller, 'USDT')).toEqual({ free: '4985', locked: '0' });
  });

  it('when the fee is a fraction of an atom, then it is rounded up to one atom', () => {
    const { h, seller, buyer, fee } = setup();
    h.place(limit(seller, 'BTCUSDT', 'SELL', '30000', '0.000034'));
    h.place(limit(buyer, 'BTCUSDT', 'BUY', '30000', '0.000034'));
    // 0.000034 × 0.002 = 0.000000068 → 0.00000007; 1.02 × 0.001 = 0.00102 exactly.
    expect(h.lastRows.trades.map((t) => t.commission)).toEqual(['0.00000007', '0.00102']);
    expect(h.balance(fee, 'BTC').free).toBe('0.00000007');
  });

  it('when one order fills against two makers, then each fill rounds its own fee', () => {
    const { h, seller, buyer } = setup();
    h.deposit(buyer, 'USDT', '10000');
    h.place(limit(seller, 'BTCUSDT', 'SELL', '1000000', '0.000001'));
    h.place(limit(seller, 'BTCUSDT', 'SELL', '1000000', '0.000001'));
    const result = h.place(limit(buyer, 'BTCUSDT', 'BUY', '1000000', '0.000002'));
    expect(result.fills.map((f) => f.commission)).toEqual(['0.00000001', '0.00000001']);
    expect(h.balance(buyer, 'BTC').free).toBe('0.00000198');
  });

  it('when a rate is zero, then that side writes no FEE row and the FEE account gets nothing of that asset', () => {
    const h = createCoreHarness();
    const seller = h.funded({ BTC: '1' }, { maker: '0.001', taker: '0.001' });
    const buyer = h.funded({ USDT: '10000' }, { maker: '0', taker: '0' });
    h.place(limit(seller, 'BTCUSDT', 'SELL', '20000', '0.1'));
    h.place(limit(buyer, 'BTCUSDT', 'BUY', '20000', '0.1'));
    expect(h.lastRows.flows.map(flowRowOf).map((f) => [f.accountId, f.asset, f.flowType, f.change])).toEqual([
      [buyer, 'BTC', TRADE, '0.1'],
      [buyer, 'USDT', TRADE, '-2000'],
      [seller, 'BTC', TRADE, '-0.1'],
      [seller, 'USDT', TRADE, '2000'],
      [seller, 'USDT', FEE, '-2'],
      [h.feeAccountId, 'USDT', FEE, '2'],
    ]);
    expect(h.lastRows.trades[0].commission).toBe('0');
    expect(h.core.ledger.account(h.feeAccountId).balances.has('BTC')).toBe(false);
  });

  it('when a user has the default rates, then both sides pay 0.001', () => {
    const h = createCoreHarness();
    const seller = h.addUser();
    const buyer = h.addUser();
    h.deposit(seller, 'BTC', '1');
    h.deposit(buyer, 'USDT', '10000');
    h.place(limit(seller, 'BTCUSDT', 'SELL', '20000', '0.1'));
    h.place(limit(buyer, 'BTCUSDT', 'BUY', '20000', '0.1'));
    expect(h.lastRows.trades.map((t) => t.commission)).toEqual(['0.0001', '2']);
  });

  it('when fee rates are set, then they are checked (0 to 0.1, at most 8 decimals) and a new sub-account copies its main account', () => {
    const h = createCoreHarness();
    const { userId, accountId } = h.ok<{ userId: number; accountId: number }>({ type: 'createUser', email: 'f@example.com', userType: 'user' });
    expect(h.ok({ type: 'setFeeRates', accountId, makerFeeRate: '0.00012345', takerFeeRate: '0.1' })).toEqual({
      accountId,
      makerFeeRate: '0.00012345',
      takerFeeRate: '0.1',
    });
    expect(h.refuse({ type: 'setFeeRates', accountId, makerFeeRate: '0.100000001' }).toBody()).toEqual({
      code: -1130,
      msg: "Data sent for paramter 'makerFeeRate' is not valid.",
    });
    expect(h.refuse({ type: 'setFeeRates', accountId, takerFeeRate: '0.10000001' }).code).toBe(-1130);
    expect(h.ok({ type: 'setFeeRates', accountId, takerFeeRate: '0.002' })).toMatchObject({ makerFeeRate: '0.00012345', takerFeeRate: '0.002' });
    const { accountId: sub } = h.ok<{ accountId: number }>({ type: 'createSubAccount', userId, name: '' });
    const subAccount = h.core.ledger.account(sub);
    expect([subAccount.makerFeeRate, subAccount.takerFeeRate, subAccount.name]).toEqual([12_345n, 200_000n, 'sub1']);
  });
});
