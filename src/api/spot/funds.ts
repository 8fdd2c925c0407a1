import { BourseError } from '../../core/errors.js';
import type { DepositRow, WithdrawalRow } from '../../core/types.js';
import type { AssetSpec } from '../../ledger/asset.js';
import { depositAddress, TOKEN_TYPES } from '../../ledger/deposit-address.js';
import { requireKey, type Endpoint, type ParamDoc, type RequestContext } from '../endpoint.js';
import { FORMATS, readClientOrderId, readDecimal, readLimit, readLong, readString, readTimeRange, type Params } from '../params.js';
import { arrayOf, boolean, constant, digits, object, string } from '../response-schema.js';
import { depositExample, depositSchema, withdrawalExample, withdrawalSchema } from './schemas.js';

const WITHDRAWAL_STATUS_CODES: Readonly<Record<number, string>> = {
  1: 'BROKER_AUDITING_STATUS',
  2: 'BROKER_REJECT_STATUS',
  6: 'WITHDRAWAL_SUCCESS_STATUS',
};

/** `token` or its alias `tokenId`, as a listed asset; absent is fine. */
function tokenFilter(ctx: RequestContext): string | undefined {
  const text = readString(ctx.params, 'token', { pattern: FORMATS.token }) ?? readString(ctx.params, 'tokenId', { pattern: FORMATS.token });
  if (text !== undefined && !ctx.exchange.core.ledger.assets.has(text)) throw new BourseError('INVALID_PARAM_VALUE', ['token']);
  return text;
}

function fundingQuery(ctx: RequestContext): { accountId: number; asset?: string; startTime?: number; endTime?: number; fromId?: number; limit: number } {
  const params = ctx.params;
  const asset = tokenFilter(ctx);
  const { startTime, endTime } = readTimeRange(params);
  const fromId = readLong(params, 'fromId', { zeroIsAbsent: true });
  return { accountId: requireKey(ctx).accountId, asset, startTime, endTime, fromId, limit: readLimit(params, { default: 500, max: 1000 }) };
}

/** A crypto asset and one of its chains (default the first); -1130 otherwise. */
function cryptoAndChain(ctx: RequestContext, params: Params): { asset: AssetSpec; chainType: string } {
  const tokenId = readString(params, 'tokenId', { pattern: FORMATS.token, required: true });
  const asset = ctx.exchange.core.ledger.assets.get(tokenId);
  if (asset === undefined || asset.kind !== 'crypto') throw new BourseError('INVALID_PARAM_VALUE', ['tokenId']);
  const chainText = readString(params, 'chainType', { pattern: /^[A-Z0-9]{1,20}$/ });
  const chainType = chainText ?? asset.chains[0];
  if (chainType === undefined || !asset.chains.includes(chainType)) throw new BourseError('INVALID_PARAM_VALUE', ['chainType']);
  return { asset, chainType };
}

function depositRecord(ctx: RequestContext, row: DepositRow): Record<string, unknown> {
  const asset = ctx.exchange.core.ledger.assets.get(row.asset);
  const firstChain = asset?.kind === 'crypto' ? asset.chains[0] : undefined;
  return {
    time: String(row.time),
    orderId: String(row.depositId),
    accountId: String(row.accountId),
    token: row.asset,
    tokenId: row.asset,
    tokenName: row.asset,
    address: firstChain === undefined ? '' : depositAddress(row.accountId, row.asset, firstChain),
    addressTag: '',
    fromAddress: '',
    fromAddressTag: '',
    quantity: row.amount,
    status: 2,
    statusCode: 'DEPOSIT_CAN_WITHDRAW',
    requiredConfirmNum: 0,
    confirmNum: 0,
    txid: row.txId,
    txidUrl: '',
  };
}

/** The withdrawal record of A24/A25. */
export function withdrawalRecord(row: WithdrawalRow): Record<string, unknown> {
  return {
    time: String(row.time),
    orderId: String(row.withdrawalId),
    clientOrderId: row.clientOrderId,
    accountId: String(row.accountId),
    tokenId: row.asset,
    tokenName: row.asset,
    chainType: row.chainType,
    address: row.address,
    addressExt: row.addressExt,
    quantity: row.amount,
    arriveQuantity: row.amount,
    statusCode: WITHDRAWAL_STATUS_CODES[row.status] ?? 'BROKER_AUDITING_STATUS',
    status: row.status,
    txid: row.txId,
    txidUrl: '',
    walletHandleTime: row.status === 1 ? '0' : String(row.updateTime),
    feeTokenId: row.asset,
    feeTokenName: row.asset,
    fee: row.fee,
    requiredConfirmNum: 0,
    confirmNum: 0,
    kernelId: '',
    isInternalTransfer: false,
  };
}

const LIST_PARAMS: readonly ParamDoc[] = [
  { name: 'token', type: 'STRING', description: 'alias tokenId' },
  { name: 'startTime', type: 'LONG' },
  { name: 'endTime', type: 'LONG' },
  { name: 'fromId', type: 'LONG', description: 'the first `limit` with larger ids' },
  { name: 'limit', type: 'INT', description: 'default 500, max 1000' },
];

export function fundsEndpoints(): Endpoint[] {
  return [
    {
      id: 'A21',
      summary: 'Account deposit list',
      method: 'GET',
      extraMethods: ['POST'],
      group: 'private',
      path: 'depositOrders',
      security: 'USER_DATA',
      weight: 5,
      params: LIST_PARAMS,
      response: arrayOf(depositSchema),
      example: [depositExample],
      handler: async (ctx) => (await ctx.exchange.history.listDeposits(fundingQuery(ctx))).map((row) => depositRecord(ctx, row)),
    },
    {
      id: 'A22',
      summary: 'Deposit address',
      method: 'GET',
      extraMethods: ['POST'],
      group: 'private',
      path: 'depositAddress',
      security: 'USER_DATA',
      weight: 1,
      params: [
        { name: 'tokenId', type: 'STRING', required: true },
        { name: 'chainType', type: 'STRING', description: 'default the first chain of the asset' },
      ],
      response: object({
        allowDeposit: boolean,
        address: string,
        addressExt: constant(''),
        minQuantity: constant('0'),
        needAddressTag: constant(false),
        requiredConfirmNum: constant(0),
        canWithdrawConfirmNum: constant(0),
        tokenType: string,
      }),
      example: {
        allowDeposit: true,
        address: 'bourse:trc20:3f1c0a9d5e6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d',
        addressExt: '',
        minQuantity: '0',
        needAddressTag: false,
        requiredConfirmNum: 0,
        canWithdrawConfirmNum: 0,
        tokenType: 'TRX_TOKEN',
      },
      handler: (ctx) => {
        const { asset, chainType } = cryptoAndChain(ctx, ctx.params);
        return {
          allowDeposit: asset.allowDeposit,
          address: depositAddress(requireKey(ctx).accountId, asset.asset, chainType),
          addressExt: '',
          minQuantity: '0',
          needAddressTag: false,
          requiredConfirmNum: 0,
          canWithdrawConfirmNum: 0,
          tokenType: TOKEN_TYPES[chainType] ?? chainType,
        };
      },
    },
    {
      id: 'A23',
      summary: 'Withdraw',
      method: 'POST',
      group: 'private',
      path: 'withdraw',
      security: 'WITHDRAW',
      weight: 1,
      params: [
        { name: 'tokenId', type: 'STRING', required: true },
        { name: 'clientOrderId', type: 'STRING', required: true },
        { name: 'address', type: 'STRING', required: true },
        { name: 'addressExt', type: 'STRING' },
        { name: 'withdrawQuantity', type: 'DECIMAL', required: true },
        { name: 'chainType', type: 'STRING' },
      ],
      response: object({ status: constant(0), success: constant(true), needBrokerAudit: constant(true), orderId: digits }),
      example: { status: 0, success: true, needBrokerAudit: true, orderId: '31' },
      handler: async (ctx) => {
        const params = ctx.params;
        const { asset, chainType } = cryptoAndChain(ctx, params);
        if (!asset.allowWithdraw) throw new BourseError('INVALID_PARAM_VALUE', ['tokenId']);
        const clientOrderId = readClientOrderId(params, 'clientOrderId', { required: true });
        const address = readString(params, 'address', { pattern: FORMATS.address, required: true });
        const addressExt = readString(params, 'addressExt', { pattern: FORMATS.addressExt }) ?? '';
        const quantity = readDecimal(params, 'withdrawQuantity', { required: true });
        const result = await ctx.exchange.submit<{ withdrawalId: number }>({
          type: 'withdraw',
          accountId: requireKey(ctx).accountId,
          asset: asset.asset,
          amount: quantity.text,
          address,
          addressExt,
          chainType,
          clientOrderId,
        });
        return { status: 0, success: true, needBrokerAudit: true, orderId: String(result.withdrawalId) };
      },
    },
    {
      id: 'A24',
      summary: 'Withdrawal list',
      method: 'GET',
      extraMethods: ['POST'],
      group: 'private',
      path: 'withdrawalOrders',
      security: 'USER_DATA',
      weight: 5,
      params: LIST_PARAMS,
      response: arrayOf(withdrawalSchema),
      example: [withdrawalExample],
      handler: async (ctx) => (await ctx.exchange.history.listWithdrawals(fundingQuery(ctx))).map(withdrawalRecord),
    },
    {
      id: 'A25',
      summary: 'Withdrawal detail',
      method: 'GET',
      extraMethods: ['POST'],
      group: 'private',
      path: 'withdraw/detail',
      security: 'USER_DATA',
      weight: 2,
      params: [
        { name: 'orderId', type: 'LONG' },
        { name: 'clientOrderId', type: 'STRING' },
      ],
      response: withdrawalSchema,
      example: withdrawalExample,
      handler: async (ctx) => {
        const withdrawalId = readLong(ctx.params, 'orderId', { zeroIsAbsent: true });
        const clientOrderId = readClientOrderId(ctx.params, 'clientOrderId');
        if (withdrawalId === undefined && clientOrderId === undefined) throw new BourseError('ONE_OF_PARAMS', ['orderId', 'clientOrderId']);
        const row = await ctx.exchange.history.getWithdrawal(requireKey(ctx).accountId, { withdrawalId, clientOrderId });
        if (row === undefined) throw new BourseError('ORDER_NOT_FOUND');
        return withdrawalRecord(row);
      },
    },
  ];
}
