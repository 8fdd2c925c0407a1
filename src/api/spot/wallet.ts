import { formatUnits } from '../../core/decimal.js';
import { requireKey, type Endpoint } from '../endpoint.js';

/**
 * All coins information, as the coins.ph-style wallet API answers it. Not in the seed or area A's
 * tables: ccxt `coinsph` calls it from `loadMarkets()` whenever a key is set, so a client of this
 * family cannot start without it. Balances are the key's account's.
 */
export function walletEndpoints(): Endpoint[] {
  return [
    {
      id: 'W-config',
      summary: 'All coins information (wallet configuration, for ccxt coinsph)',
      method: 'GET',
      extraMethods: ['POST'],
      group: 'wallet',
      path: 'config/getall',
      security: 'USER_DATA',
      weight: 10,
      params: [],
      handler: (ctx) => {
        const ledger = ctx.exchange.core.ledger;
        const account = ledger.account(requireKey(ctx).accountId);
        return [...ledger.assets.values()]
          .sort((a, b) => (a.asset < b.asset ? -1 : 1))
          .map((asset) => {
            const crypto = asset.kind === 'crypto';
            const balance = account.balances.get(asset.asset) ?? { free: 0n, locked: 0n };
            const step = formatUnits(1n, asset.precision);
            return {
              coin: asset.asset,
              name: asset.fullName,
              depositAllEnable: crypto && asset.allowDeposit,
              withdrawAllEnable: crypto && asset.allowWithdraw,
              free: formatUnits(balance.free, asset.precision),
              locked: formatUnits(balance.locked, asset.precision),
              transferPrecision: String(asset.precision),
              transferMinQuantity: '0',
              networkList: crypto
                ? asset.chains.map((chain) => ({
                    network: chain,
                    name: chain,
                    depositEnable: asset.allowDeposit,
                    withdrawEnable: asset.allowWithdraw,
                    withdrawFee: formatUnits(asset.withdrawFeeAtoms, asset.precision),
                    withdrawIntegerMultiple: step,
                    withdrawMin: formatUnits(asset.minWithdrawAtoms, asset.precision),
                    withdrawMax: '1000000000',
                    minConfirm: '0',
                    sameAddress: false,
                  }))
                : [],
              legalMoney: !crypto,
              isLegalMoney: !crypto,
            };
          });
      },
    },
  ];
}
