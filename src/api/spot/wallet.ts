import { formatUnits } from '../../core/decimal.js';
import { requireKey, type Endpoint } from '../endpoint.js';
import { arrayOf, boolean, constant, decimal, digits, object, string } from '../response-schema.js';

/**
 * All coins information, as the coins.ph-style wallet API answers it. Not part of the BHEX API
 * itself: ccxt `coinsph` calls it from `loadMarkets()` whenever a key is set, so a client of this
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
      response: arrayOf(
        object({
          coin: string,
          name: string,
          depositAllEnable: boolean,
          withdrawAllEnable: boolean,
          free: decimal,
          locked: decimal,
          transferPrecision: digits,
          transferMinQuantity: constant('0'),
          networkList: arrayOf(
            object({
              network: string,
              name: string,
              depositEnable: boolean,
              withdrawEnable: boolean,
              withdrawFee: decimal,
              withdrawIntegerMultiple: decimal,
              withdrawMin: decimal,
              withdrawMax: decimal,
              minConfirm: constant('0'),
              sameAddress: constant(false),
            }),
          ),
          legalMoney: boolean,
          isLegalMoney: boolean,
        }),
      ),
      example: [
        {
          coin: 'BTC',
          name: 'Bitcoin',
          depositAllEnable: true,
          withdrawAllEnable: true,
          free: '1.2299',
          locked: '0.02',
          transferPrecision: '8',
          transferMinQuantity: '0',
          networkList: [
            {
              network: 'BTC',
              name: 'BTC',
              depositEnable: true,
              withdrawEnable: true,
              withdrawFee: '0.0005',
              withdrawIntegerMultiple: '0.00000001',
              withdrawMin: '0.001',
              withdrawMax: '1000000000',
              minConfirm: '0',
              sameAddress: false,
            },
          ],
          legalMoney: false,
          isLegalMoney: false,
        },
        {
          coin: 'USD',
          name: 'US Dollar',
          depositAllEnable: false,
          withdrawAllEnable: false,
          free: '0',
          locked: '0',
          transferPrecision: '8',
          transferMinQuantity: '0',
          networkList: [],
          legalMoney: true,
          isLegalMoney: true,
        },
      ],
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
