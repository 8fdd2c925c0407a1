import { BourseError } from '../../core/errors.js';
import { FLOW_NAMES, FLOW_TYPES, flowTypeName, type FlowRow, type FlowTypeName } from '../../core/types.js';
import type { Account, User } from '../../ledger/account.js';
import { depositAddress } from '../../ledger/deposit-address.js';
import { requireKey, type Endpoint, type RequestContext } from '../endpoint.js';
import { FORMATS, readClientOrderId, readDecimal, readInt, readLimit, readLong, readString, readTimeRange } from '../params.js';
import { arrayOf, constant, digits, integer, object, string } from '../response-schema.js';
import { flowExample, flowSchema } from './schemas.js';

/** Account types of the seed: 1 token trading, 2 options, 3 contracts; only 1 holds accounts here. */
const TOKEN_ACCOUNT_TYPE = 1;
/** A32 `businessType`: the flow type of both rows. */
const USER_TRANSFER_TYPES: readonly FlowTypeName[] = ['TRANSFER', 'ACTIVITY_AWARD', 'INVITATION_REFERRAL_BONUS', 'REGISTER_BONUS', 'AIRDROP', 'MINE_REWARD'];

function keyAccount(ctx: RequestContext): { account: Account; user: User } {
  const ledger = ctx.exchange.core.ledger;
  const account = ledger.account(requireKey(ctx).accountId);
  const user = ledger.users.get(account.userId);
  if (user === undefined) throw new Error(`account ${account.accountId} has no user`);
  return { account, user };
}

/** The user's account named by type and index: type 1–3 (else -1130); 2, 3 or an unknown index are -1171. */
function namedAccount(ctx: RequestContext, user: User, typeName: string, indexName: string, required: boolean): Account {
  const type = readInt(ctx.params, typeName, { required }) ?? TOKEN_ACCOUNT_TYPE;
  const index = readInt(ctx.params, indexName, { required }) ?? 0;
  if (type < 1 || type > 3) throw new BourseError('INVALID_PARAM_VALUE', [typeName]);
  const accountId = type === TOKEN_ACCOUNT_TYPE ? user.accountIds[index] : undefined;
  if (accountId === undefined) throw new BourseError('ACCOUNT_NOT_FOUND');
  return ctx.exchange.core.ledger.account(accountId);
}

function flowRecord(row: FlowRow): Record<string, unknown> {
  const name = flowTypeName(row.flowType) ?? 'TRANSFER';
  return {
    id: String(row.flowId),
    accountId: String(row.accountId),
    token: row.asset,
    tokenId: row.asset,
    tokenName: row.asset,
    flowTypeValue: row.flowType,
    flowType: name,
    flowName: FLOW_NAMES[name],
    change: row.change,
    total: row.total,
    created: String(row.created),
  };
}

interface AddressBook {
  accounts: number;
  assets: number;
  owners: Map<string, number>;
}

/** A22 addresses → account ids, rebuilt only when accounts or assets were added. */
const addressBooks = new WeakMap<object, AddressBook>();

/** The account an A22 address belongs to (main or sub-account), if any. */
function accountOfAddress(ctx: RequestContext, address: string): Account | undefined {
  const ledger = ctx.exchange.core.ledger;
  let book = addressBooks.get(ledger);
  if (book === undefined || book.accounts !== ledger.accounts.size || book.assets !== ledger.assets.size) {
    const owners = new Map<string, number>();
    for (const account of ledger.accounts.values()) {
      for (const asset of ledger.assets.values()) {
        for (const chain of asset.chains) owners.set(depositAddress(account.accountId, asset.asset, chain), account.accountId);
      }
    }
    book = { accounts: ledger.accounts.size, assets: ledger.assets.size, owners };
    addressBooks.set(ledger, book);
  }
  const accountId = book.owners.get(address);
  return accountId === undefined ? undefined : ledger.accounts.get(accountId);
}

export function subAccountEndpoints(): Endpoint[] {
  return [
    {
      id: 'A29',
      summary: 'Sub-account list',
      method: 'POST',
      extraMethods: ['GET'],
      group: 'private',
      path: 'subAccount/query',
      security: 'SUB_ACCOUNT_LIST',
      weight: 5,
      mainKeyOnly: true,
      params: [],
      response: arrayOf(object({ accountId: digits, accountName: string, accountType: constant(1), accountIndex: integer })),
      example: [
        { accountId: '1000000001', accountName: 'main', accountType: 1, accountIndex: 0 },
        { accountId: '1000000007', accountName: 'bot-a', accountType: 1, accountIndex: 1 },
      ],
      handler: (ctx) => {
        const { user } = keyAccount(ctx);
        return user.accountIds.map((accountId) => {
          const account = ctx.exchange.core.ledger.account(accountId);
          return { accountId: String(accountId), accountName: account.name, accountType: TOKEN_ACCOUNT_TYPE, accountIndex: account.accountIndex };
        });
      },
    },
    {
      id: 'A30',
      summary: 'Internal account transfer',
      method: 'POST',
      group: 'private',
      path: 'transfer',
      extraPaths: ['/openapi/v1/subAccount/transfer'],
      security: 'ACCOUNT_TRANSFER',
      weight: 1,
      params: [
        { name: 'fromAccountType', type: 'INT', description: 'required with a main-account key' },
        { name: 'fromAccountIndex', type: 'INT', description: 'required with a main-account key' },
        { name: 'toAccountType', type: 'INT', description: 'required with a main-account key' },
        { name: 'toAccountIndex', type: 'INT', description: 'required with a main-account key' },
        { name: 'tokenId', type: 'STRING', required: true },
        { name: 'amount', type: 'DECIMAL', required: true },
      ],
      response: object({ success: constant(true) }),
      example: { success: true },
      handler: async (ctx) => {
        const { account, user } = keyAccount(ctx);
        const isMainKey = account.accountIndex === 0;
        const ledger = ctx.exchange.core.ledger;
        // A sub key always sends from itself to its main account; the four parameters are ignored.
        const from = isMainKey ? namedAccount(ctx, user, 'fromAccountType', 'fromAccountIndex', true) : account;
        const to = isMainKey ? namedAccount(ctx, user, 'toAccountType', 'toAccountIndex', true) : ledger.account(user.accountIds[0]);
        const tokenId = readString(ctx.params, 'tokenId', { pattern: FORMATS.token, required: true });
        if (!ledger.assets.has(tokenId)) throw new BourseError('INVALID_PARAM_VALUE', ['tokenId']);
        const amount = readDecimal(ctx.params, 'amount', { required: true });
        if (from.accountId === to.accountId) throw new BourseError('TRANSFER_FAILED', ['the source and the target are the same account']);
        if (from.accountIndex !== 0 && to.accountIndex !== 0) throw new BourseError('TRANSFER_FAILED', ['either side must be the main account']);
        await ctx.exchange.submit({
          type: 'transfer',
          fromAccountId: from.accountId,
          toAccountId: to.accountId,
          asset: tokenId,
          amount: amount.text,
          flowType: 'USER_ACCOUNT_TRANSFER',
        });
        return { success: true };
      },
    },
    {
      id: 'A31',
      summary: 'Check balance flow',
      method: 'POST',
      extraMethods: ['GET'],
      group: 'private',
      path: 'balance_flow',
      extraPaths: ['/openapi/v1/balanceFlow'],
      security: 'BALANCE_FLOW',
      weight: 5,
      params: [
        { name: 'accountType', type: 'INT', description: 'default 1' },
        { name: 'accountIndex', type: 'INT', description: 'default 0' },
        { name: 'tokenId', type: 'STRING' },
        { name: 'flowType', type: 'INT' },
        { name: 'fromFlowId', type: 'LONG', description: 'ids below it' },
        { name: 'endFlowId', type: 'LONG', description: 'ids above it' },
        { name: 'startTime', type: 'LONG' },
        { name: 'endTime', type: 'LONG' },
        { name: 'limit', type: 'INT', description: 'default 50, max 100' },
      ],
      response: arrayOf(flowSchema),
      example: [flowExample],
      handler: async (ctx) => {
        const { account, user } = keyAccount(ctx);
        const params = ctx.params;
        const target = account.accountIndex === 0 ? namedAccount(ctx, user, 'accountType', 'accountIndex', false) : account;
        const tokenId = readString(params, 'tokenId', { pattern: FORMATS.token });
        if (tokenId !== undefined && !ctx.exchange.core.ledger.assets.has(tokenId)) throw new BourseError('INVALID_PARAM_VALUE', ['tokenId']);
        const flowType = readInt(params, 'flowType', { zeroIsAbsent: true });
        if (flowType !== undefined && flowTypeName(flowType) === undefined) throw new BourseError('INVALID_PARAM_VALUE', ['flowType']);
        const { startTime, endTime } = readTimeRange(params);
        const rows = await ctx.exchange.history.listFlows({
          accountId: target.accountId,
          asset: tokenId,
          flowType,
          fromFlowId: readLong(params, 'fromFlowId', { zeroIsAbsent: true }),
          endFlowId: readLong(params, 'endFlowId', { zeroIsAbsent: true }),
          startTime,
          endTime,
          limit: readLimit(params, { default: 50, max: 100 }),
        });
        return rows.map(flowRecord);
      },
    },
    {
      id: 'A32',
      summary: 'User transfer',
      method: 'POST',
      group: 'private',
      path: 'user/transfer',
      security: 'TRANSFER',
      weight: 1,
      mainKeyOnly: true,
      params: [
        { name: 'targetUserId', type: 'LONG' },
        { name: 'address', type: 'STRING', description: 'an A22 address naming its user' },
        { name: 'clientOrderId', type: 'STRING', required: true },
        { name: 'tokenId', type: 'STRING', required: true },
        { name: 'amount', type: 'DECIMAL', required: true },
        { name: 'businessType', type: 'INT', required: true, description: '3, 67, 68, 69, 70 or 71' },
      ],
      response: object({ ret: constant(0) }),
      example: { ret: 0 },
      handler: async (ctx) => {
        const { account, user } = keyAccount(ctx);
        const params = ctx.params;
        const ledger = ctx.exchange.core.ledger;
        const targetUserId = readLong(params, 'targetUserId', { zeroIsAbsent: true });
        const address = readString(params, 'address', { pattern: FORMATS.address });
        if (targetUserId === undefined && address === undefined) throw new BourseError('ONE_OF_PARAMS', ['targetUserId', 'address']);
        const clientOrderId = readClientOrderId(params, 'clientOrderId', { required: true });
        const tokenId = readString(params, 'tokenId', { pattern: FORMATS.token, required: true });
        if (!ledger.assets.has(tokenId)) throw new BourseError('INVALID_PARAM_VALUE', ['tokenId']);
        const amount = readDecimal(params, 'amount', { required: true });
        const businessType = readInt(params, 'businessType', { required: true });
        const flowType = USER_TRANSFER_TYPES.find((name) => FLOW_TYPES[name] === businessType);
        if (flowType === undefined) throw new BourseError('INVALID_PARAM_VALUE', ['businessType']);
        let target: User | undefined;
        if (targetUserId !== undefined) {
          target = ledger.users.get(targetUserId);
          if (target === undefined || target.userType === 'system') throw new BourseError('USER_NOT_FOUND');
        }
        if (address !== undefined) {
          const byAddress = accountOfAddress(ctx, address);
          if (byAddress === undefined) throw new BourseError(target === undefined ? 'USER_NOT_FOUND' : 'INVALID_PARAM_VALUE', ['address']);
          if (target !== undefined && target.userId !== byAddress.userId) throw new BourseError('INVALID_PARAM_VALUE', ['address']);
          target = ledger.users.get(byAddress.userId);
        }
        if (target === undefined) throw new BourseError('USER_NOT_FOUND');
        if (target.userId === user.userId) throw new BourseError('INVALID_PARAM_VALUE', ['targetUserId']);
        await ctx.exchange.submit({
          type: 'transfer',
          fromAccountId: account.accountId,
          toAccountId: target.accountIds[0],
          asset: tokenId,
          amount: amount.text,
          flowType,
          clientOrderId,
        });
        return { ret: 0 };
      },
    },
  ];
}
