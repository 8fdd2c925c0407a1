import { formatUnits } from '../../core/decimal.js';
import { FEE_RATE_SCALE } from '../../ledger/account.js';
import { requireKey, type Endpoint } from '../endpoint.js';
import { arrayOf, boolean, constant, decimal, digits, object, string } from '../response-schema.js';
import { millisText } from './schemas.js';

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
      response: object({
        canTrade: boolean,
        canWithdraw: boolean,
        canDeposit: constant(true),
        updateTime: millisText,
        accountId: digits,
        makerFeeRate: decimal,
        takerFeeRate: decimal,
        balances: arrayOf(object({ asset: string, assetId: string, assetName: string, total: decimal, free: decimal, locked: decimal })),
      }),
      example: {
        canTrade: true,
        canWithdraw: true,
        canDeposit: true,
        updateTime: '1732579205000',
        accountId: '1000000001',
        makerFeeRate: '0.001',
        takerFeeRate: '0.001',
        balances: [
          { asset: 'BTC', assetId: 'BTC', assetName: 'BTC', total: '1.2499', free: '1.2299', locked: '0.02' },
          { asset: 'USDT', assetId: 'USDT', assetName: 'USDT', total: '48357.495', free: '47072.485', locked: '1285.01' },
        ],
      },
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
