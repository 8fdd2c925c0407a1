import { BourseError } from '../../core/errors.js';
import type { SymbolStatus } from '../../core/types.js';
import type { Exchange } from '../../exchange/exchange.js';
import { FORMATS } from '../params.js';
import * as B from './body-members.js';
import { operatorEndpoint, type OperatorEndpoint } from './operator-endpoint.js';
import * as P from './path-params.js';
import * as S from './schemas.js';

const SYMBOL_STATUSES: readonly SymbolStatus[] = ['TRADING', 'HALT', 'BREAK'];
const NAME_FORM = '1 to 20 of A-Z and 0-9';

/**
 * What trades and at what cost (docs/operating.md "Trading settings and listings"), O9–O12:
 * assets, symbols and their status, an account's fee rates. The core checks every value against
 * the catalogue (precision, tick and step multiples); these routes check the form.
 */
export function marketEndpoints(exchange: Exchange): OperatorEndpoint[] {
  return [
    operatorEndpoint({
      id: 'O9',
      summary: 'Add an asset',
      method: 'POST',
      path: '/assets',
      response: S.addedAsset,
      example: S.EXAMPLES.addedAsset,
      params: {
        body: B.members({
          asset: B.required(B.text({ pattern: FORMATS.token, description: NAME_FORM })),
          precision: B.required(B.integer()),
          kind: B.oneOf(['crypto', 'fiat'], { description: 'default crypto' }),
          fullName: B.text({ description: 'default the asset' }),
          chains: B.strings({ description: 'default [asset] for crypto, [] for fiat' }),
          withdrawFee: B.decimal({ description: 'default 0' }),
          minWithdraw: B.decimal({ description: 'default 0' }),
          allowDeposit: B.flag({ description: 'default true for crypto, false for fiat' }),
          allowWithdraw: B.flag({ description: 'default true for crypto, false for fiat' }),
        }),
      },
      handler: ({ body }) => {
        const kind = body.kind ?? 'crypto';
        return exchange.submit({
          type: 'addAsset',
          asset: body.asset,
          precision: body.precision,
          kind,
          fullName: body.fullName ?? body.asset,
          chains: body.chains ?? (kind === 'crypto' ? [body.asset] : []),
          withdrawFee: body.withdrawFee ?? '0',
          minWithdraw: body.minWithdraw ?? '0',
          allowDeposit: body.allowDeposit ?? kind === 'crypto',
          allowWithdraw: body.allowWithdraw ?? kind === 'crypto',
        });
      },
    }),
    operatorEndpoint({
      id: 'O10',
      summary: 'List a symbol (it starts in TRADING)',
      method: 'POST',
      path: '/symbols',
      response: S.symbolStatusAnswer,
      example: S.EXAMPLES.symbolStatus('TRADING'),
      params: {
        body: B.members({
          symbol: B.required(B.text({ pattern: FORMATS.symbol, description: NAME_FORM })),
          baseAsset: B.required(B.text()),
          quoteAsset: B.required(B.text()),
          tickSize: B.required(B.decimal()),
          stepSize: B.required(B.decimal()),
          minPrice: B.decimal({ description: 'default tickSize' }),
          maxPrice: B.decimal({ description: 'default 10000000' }),
          minQty: B.decimal({ description: 'default stepSize' }),
          maxQty: B.decimal({ description: 'default 1000000' }),
          minNotional: B.required(B.decimal()),
        }),
      },
      handler: ({ body }) =>
        exchange.submit({
          type: 'addSymbol',
          symbol: body.symbol,
          baseAsset: body.baseAsset,
          quoteAsset: body.quoteAsset,
          tickSize: body.tickSize,
          stepSize: body.stepSize,
          minPrice: body.minPrice ?? body.tickSize,
          maxPrice: body.maxPrice ?? '10000000',
          minQty: body.minQty ?? body.stepSize,
          maxQty: body.maxQty ?? '1000000',
          minNotional: body.minNotional,
        }),
    }),
    operatorEndpoint({
      id: 'O11',
      summary: "Set a symbol's status: halt or resume trading",
      method: 'PATCH',
      path: '/symbols/:symbol',
      response: S.symbolStatusAnswer,
      example: S.EXAMPLES.symbolStatus('HALT'),
      params: {
        path: { symbol: P.text('the symbol, in any case') },
        body: B.members({ status: B.required(B.oneOf(SYMBOL_STATUSES)) }),
      },
      handler: ({ path, body }) => exchange.submit({ type: 'setSymbolStatus', symbol: path.symbol.toUpperCase(), status: body.status }),
    }),
    operatorEndpoint({
      id: 'O12',
      summary: "Set an account's fee rates",
      method: 'PATCH',
      path: '/accounts/:accountId',
      response: S.feeRates,
      example: S.EXAMPLES.feeRates,
      params: {
        path: { accountId: P.id('account') },
        body: B.members({
          makerFeeRate: B.decimal({ description: 'at least one of the two' }),
          takerFeeRate: B.decimal({ description: 'at least one of the two' }),
        }),
      },
      handler: ({ path, body: { makerFeeRate, takerFeeRate } }) => {
        if (makerFeeRate === undefined && takerFeeRate === undefined) throw new BourseError('MANDATORY_PARAM', ['makerFeeRate']);
        return exchange.submit({ type: 'setFeeRates', accountId: path.accountId, makerFeeRate, takerFeeRate });
      },
    }),
  ];
}
