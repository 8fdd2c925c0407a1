import { createHash } from 'node:crypto';
import { refuse } from '../../core/payment-errors.js';
import { cryptoSpec } from '../../payments/config.js';
import { formatFixed } from '../../payments/money.js';
import { NORMAL } from '../../payments/model.js';
import type { MerchantContext, MerchantEndpoint } from './merchant-endpoint.js';
import { ANSWERS } from './schemas.js';
import { callerMerchant } from './merchants.js';
import { monthUsed } from './views.js';

/** B12 per chain: token type, minimum (in units of the crypto's accuracy), confirmations (docs/merchant-payments.md "Endpoints served"). */
interface ChainFacts {
  tokenType: string;
  minQuantity: string;
  requiredConfirmNum: number;
  canWithdrawConfirmNum: number;
}

const KNOWN_CHAINS: Record<string, Record<string, ChainFacts>> = {
  USDT: {
    TRC20: { tokenType: 'TRX_TOKEN', minQuantity: '1', requiredConfirmNum: 12, canWithdrawConfirmNum: 20 },
    ERC20: { tokenType: 'ERC20_TOKEN', minQuantity: '10', requiredConfirmNum: 12, canWithdrawConfirmNum: 64 },
    BEP20: { tokenType: 'BEP20_TOKEN', minQuantity: '1', requiredConfirmNum: 15, canWithdrawConfirmNum: 15 },
    POL: { tokenType: 'POL_TOKEN', minQuantity: '1', requiredConfirmNum: 128, canWithdrawConfirmNum: 128 },
  },
  BTC: { BTC: { tokenType: 'BTC', minQuantity: '0.0001', requiredConfirmNum: 1, canWithdrawConfirmNum: 2 } },
};

/** A decimal of the chain table at `accuracy` decimals (values there have at most 4). */
function fixedText(text: string, accuracy: number): string {
  const [whole, fraction = ''] = text.split('.');
  return accuracy === 0 ? whole : `${whole}.${fraction.padEnd(accuracy, '0')}`;
}

function userAccount(ctx: MerchantContext): unknown {
  const core = ctx.exchange.core;
  const user = core.ledger.users.get(ctx.userId);
  const config = core.payments.config;
  return {
    userId: ctx.userId,
    country: config.defaultCountry,
    companyName: user?.email ?? '',
    kycPassed: user?.userType === 'merchant',
    monthLimit: core.payments.state.userLimits.get(ctx.userId) ?? config.limits.monthLimit,
    monthUsed: monthUsed(core, ctx.userId, ctx.exchange.clock()),
  };
}

function cryptoBalances(ctx: MerchantContext): unknown {
  const merchantId = ctx.params.int('merchantId') ?? 0;
  const core = ctx.exchange.core;
  const merchants = merchantId === 0 ? [...core.payments.state.merchants.values()].filter((m) => m.userId === ctx.userId) : [callerMerchant(ctx, merchantId)];
  const balances = core.payments.config.cryptos
    .map((c) => c.crypto)
    .sort()
    .map((asset) => {
      const precision = core.ledger.assets.get(asset)?.precision ?? 8;
      let free = 0n;
      let locked = 0n;
      for (const merchant of merchants) {
        const balance = core.ledger.accounts.get(merchant.accountId)?.balances.get(asset);
        free += balance?.free ?? 0n;
        locked += balance?.locked ?? 0n;
      }
      return { asset, assetId: asset, assetName: asset, total: formatFixed(free + locked, precision), free: formatFixed(free, precision), locked: formatFixed(locked, precision) };
    });
  return { canDeposit: merchants.some((m) => m.status === NORMAL), balances };
}

function depositAddress(ctx: MerchantContext): unknown {
  const { params } = ctx;
  const core = ctx.exchange.core;
  const tokenId = params.str('tokenId', { required: true, max: 16 });
  const chainParam = params.str('chainType', { max: 16 });
  const merchantId = params.int('merchantId', { required: true, min: 1 });
  const crypto = cryptoSpec(core.payments.config, tokenId);
  if (crypto === undefined) refuse('TOKEN_NOT_SUPPORT', `Token ${tokenId} is not supported`);
  const known = KNOWN_CHAINS[tokenId];
  const chains = known !== undefined ? Object.keys(known) : (core.ledger.assets.get(tokenId)?.chains ?? []);
  const chainType = chainParam ?? chains[0];
  if (chainType === undefined || !chains.includes(chainType)) refuse('PARAM_IS_INVALID', `chainType must be one of ${chains.join(', ') || 'the token chains'}`);
  const merchant = callerMerchant(ctx, merchantId);
  if (merchant.status !== NORMAL) refuse('NEED_PASS_KYC_OR_KYB', `Merchant ${merchantId} has not passed KYC`);
  const facts: ChainFacts = known?.[chainType] ?? { tokenType: tokenId, minQuantity: '0', requiredConfirmNum: 0, canWithdrawConfirmNum: 0 };
  // Stable per (merchant, token, chain) and deliberately not a chain address: no real funds can be sent to it.
  const digest = createHash('sha256').update(`${merchant.merchantId}:${tokenId}:${chainType}`).digest('hex').slice(0, 40);
  return {
    allowDeposit: true,
    address: `bourse:${chainType.toLowerCase()}:${digest}`,
    addressExt: '',
    minQuantity: fixedText(facts.minQuantity, crypto.accuracy),
    needAddressTag: false,
    requiredConfirmNum: facts.requiredConfirmNum,
    canWithdrawConfirmNum: facts.canWithdrawConfirmNum,
    tokenType: facts.tokenType,
  };
}

/** B10–B12 (docs/merchant-payments.md "Endpoints served"). */
export function userAssetEndpoints(): MerchantEndpoint[] {
  return [
    { id: 'B10', summary: 'User details and monthly limit', method: 'GET', path: '/v2/user/account', auth: 'TOKEN', params: [], ...ANSWERS.B10, handler: userAccount },
    { id: 'B11', summary: 'Crypto balances', method: 'GET', path: '/v2/assets/account/assets', auth: 'TOKEN', params: [{ name: 'merchantId', type: 'INT' }], ...ANSWERS.B11, handler: cryptoBalances },
    {
      id: 'B12',
      summary: 'Crypto deposit address',
      method: 'GET',
      path: '/v2/assets/depositAddress',
      auth: 'TOKEN',
      params: [
        { name: 'tokenId', type: 'STRING', required: true },
        { name: 'chainType', type: 'STRING' },
        { name: 'merchantId', type: 'INT', required: true },
      ],
      ...ANSWERS.B12,
      handler: depositAddress,
    },
  ];
}
