import { formatUnits } from '../../core/decimal.js';
import { FEE_RATE_SCALE } from '../../ledger/account.js';
import { requireKey, type Endpoint } from '../endpoint.js';

export function accountEndpoints(): Endpoint[] {
  return [
    {
      id: 'A19',
      extraMethods: ['POST'],
      summary: 'Account information',
      method: 'GET',
      group: 'private',
      path: 'account',
      security: 'USER_DATA',
      weight: 5,
      params: [],
      handler: (ctx) => {
        const key = requireKey(ctx);
        const ledger = ctx.exchange.core.ledger;
        const account = ledger.account(key.accountId);
        const balances = [...ledger.assets.values()]
          .sort((a, b) => (a.asset < b.asset ? -1 : 1))
          .map((asset) => {
            const balance = account.balances.get(asset.asset) ?? { free: 0n, locked: 0n };
            return {
              asset: asset.asset,
              assetId: asset.asset,
              assetName: asset.asset,
              total: formatUnits(balance.free + balance.locked, asset.precision),
              free: formatUnits(balance.free, asset.precision),
              locked: formatUnits(balance.locked, asset.precision),
            };
          });
        return {
          canTrade: key.permissions.includes('TRADE'),
          canWithdraw: key.permissions.includes('WITHDRAW'),
          canDeposit: true,
          updateTime: String(account.updateTime),
          accountId: String(account.accountId),
          makerFeeRate: formatUnits(account.makerFeeRate, FEE_RATE_SCALE),
          takerFeeRate: formatUnits(account.takerFeeRate, FEE_RATE_SCALE),
          balances,
        };
      },
    },
  ];
}
