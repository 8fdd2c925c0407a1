import type { Command } from '../src/core/types.js';

/** The one market every core benchmark trades: tick 0.01, step 1, so quote amounts have 2 decimals (docs/spot-api.md "MARKET BUY amount"). */
export const BASE_ASSET = 'BENCH';
export const QUOTE_ASSET = 'USDT';
export const SYMBOL = 'BENCHUSDT';
export const TICK_DECIMALS = 2;
export const FIRST_TS = 1_700_000_000_000;

/**
 * Lists the bench market and creates `accounts` users funded far beyond what a stream can lock or
 * trade away (so -1131 stays rare). `apply` runs one command and returns its result; the account
 * ids are the ones the core assigned, in user order.
 */
export function setUpBenchMarket(apply: (command: Command) => unknown, accounts: number): number[] {
  for (const asset of [BASE_ASSET, QUOTE_ASSET]) {
    apply({ type: 'addAsset', asset, precision: 8, kind: 'crypto', fullName: asset, chains: [], withdrawFee: '0', minWithdraw: '0', allowDeposit: true, allowWithdraw: true });
  }
  apply({
    type: 'addSymbol',
    symbol: SYMBOL,
    baseAsset: BASE_ASSET,
    quoteAsset: QUOTE_ASSET,
    tickSize: '0.01',
    stepSize: '1',
    minPrice: '0.01',
    maxPrice: '10000000',
    minQty: '1',
    maxQty: '1000000',
    minNotional: '1',
  });
  const accountIds: number[] = [];
  for (let a = 0; a < accounts; a++) {
    const { accountId } = apply({ type: 'createUser', email: `bench${a}@example.com`, userType: 'user' }) as { accountId: number };
    accountIds.push(accountId);
    apply({ type: 'deposit', accountId, asset: BASE_ASSET, amount: '1000000000', txId: `bench-${a}-base` });
    apply({ type: 'deposit', accountId, asset: QUOTE_ASSET, amount: '1000000000000', txId: `bench-${a}-quote` });
  }
  return accountIds;
}
