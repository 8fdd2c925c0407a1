import { formatAtto, formatUnits } from '../../core/decimal.js';
import { BourseError } from '../../core/errors.js';
import type { Exchange } from '../../exchange/exchange.js';
import type { Account, User } from '../../ledger/account.js';
import { arrayOf } from '../response-schema.js';
import { operatorEndpoint, type OperatorEndpoint } from './operator-endpoint.js';
import * as P from './path-params.js';
import * as Q from './query-params.js';
import { assetRow, balanceRow, EXAMPLES, symbolRow, userRow, withdrawalRow } from './schemas.js';

/** Withdrawal statuses by name (docs/spot-api.md "Deposits and withdrawals": 1 auditing, 2 rejected, 6 sent). */
const WITHDRAWAL_STATUSES = { PENDING: 1, REJECTED: 2, SENT: 6 } as const;
type WithdrawalStatusName = keyof typeof WITHDRAWAL_STATUSES;
const STATUS_NAMES = Object.keys(WITHDRAWAL_STATUSES) as WithdrawalStatusName[];
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

function statusName(status: number): string {
  return STATUS_NAMES.find((name) => WITHDRAWAL_STATUSES[name] === status) ?? String(status);
}

/**
 * The operator's read-only lists (`bourse user list`, `user balances`, `symbol list`, `asset list`,
 * `withdrawal list`): what the core holds now, ids and amounts as strings (docs/operating.md "Values").
 */
export function listingEndpoints(exchange: Exchange): OperatorEndpoint[] {
  const ledger = () => exchange.core.ledger;
  const accountView = (account: Account) => ({
    accountId: String(account.accountId),
    accountIndex: account.accountIndex,
    name: account.name,
  });
  const userOf = (userId: number): User => {
    const user = ledger().users.get(userId);
    if (user === undefined || user.userType === 'system') throw new BourseError('NOT_FOUND', [`user ${userId}`]);
    return user;
  };

  return [
    operatorEndpoint({
      id: 'O23',
      summary: 'List the users with their accounts, by userId (system users left out)',
      method: 'GET',
      path: '/users',
      response: arrayOf(userRow),
      example: EXAMPLES.users,
      // Paged by id rather than by offset: users created while an operator pages do not shift the pages.
      params: {
        query: {
          fromUserId: Q.withDefault(Q.integer({ description: 'users with this id or a higher one; the next page is from the last userId + 1' }), 0),
          limit: Q.withDefault(Q.integer({ min: 1, max: MAX_LIMIT, description: 'a shorter page is the last' }), DEFAULT_LIMIT),
        },
      },
      handler: ({ query: { fromUserId, limit } }) =>
        [...ledger().users.values()]
          .filter((user) => user.userType !== 'system' && user.userId >= fromUserId)
          .sort((a, b) => a.userId - b.userId)
          .slice(0, limit)
          .map((user) => ({
            userId: String(user.userId),
            email: user.email,
            type: user.userType,
            accounts: user.accountIds.map((accountId) => accountView(ledger().account(accountId))),
          })),
    }),
    operatorEndpoint({
      id: 'O24',
      summary: "A user's balances, account by account (non-zero balances only)",
      method: 'GET',
      path: '/users/:userId/balances',
      response: arrayOf(balanceRow),
      example: EXAMPLES.balances,
      params: { path: { userId: P.id('user') } },
      handler: ({ path }) => {
        const user = userOf(path.userId);
        const rows: Record<string, unknown>[] = [];
        for (const accountId of user.accountIds) {
          const account = ledger().account(accountId);
          for (const [asset, balance] of [...account.balances.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
            if (balance.free === 0n && balance.locked === 0n) continue;
            const precision = ledger().asset(asset).precision;
            rows.push({
              accountId: String(accountId),
              accountIndex: account.accountIndex,
              asset,
              free: formatUnits(balance.free, precision),
              locked: formatUnits(balance.locked, precision),
              total: formatUnits(balance.free + balance.locked, precision),
            });
          }
        }
        return rows;
      },
    }),
    operatorEndpoint({
      id: 'O25',
      summary: 'List the symbols with their status and filters',
      method: 'GET',
      path: '/symbols',
      response: arrayOf(symbolRow),
      example: EXAMPLES.symbols,
      handler: () =>
        [...exchange.core.spot.symbols.values()]
          .map(({ spec }) => ({
            symbol: spec.symbol,
            status: spec.status,
            baseAsset: spec.baseAsset,
            quoteAsset: spec.quoteAsset,
            tickSize: formatAtto(spec.tickSizeAtto),
            stepSize: formatAtto(spec.stepSizeAtto),
            minQty: formatAtto(spec.minQtyAtto),
            maxQty: formatAtto(spec.maxQtyAtto),
            minPrice: formatAtto(spec.minPriceAtto),
            maxPrice: formatAtto(spec.maxPriceAtto),
            minNotional: formatAtto(spec.minNotionalAtto),
          }))
          .sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0)),
    }),
    operatorEndpoint({
      id: 'O26',
      summary: 'List the assets',
      method: 'GET',
      path: '/assets',
      response: arrayOf(assetRow),
      example: EXAMPLES.assets,
      handler: () =>
        [...ledger().assets.values()]
          .map((spec) => ({
            asset: spec.asset,
            precision: spec.precision,
            kind: spec.kind,
            fullName: spec.fullName,
            chains: spec.chains,
            withdrawFee: formatUnits(spec.withdrawFeeAtoms, spec.precision),
            minWithdraw: formatUnits(spec.minWithdrawAtoms, spec.precision),
            allowDeposit: spec.allowDeposit,
            allowWithdraw: spec.allowWithdraw,
          }))
          .sort((a, b) => (a.asset < b.asset ? -1 : a.asset > b.asset ? 1 : 0)),
    }),
    operatorEndpoint({
      id: 'O27',
      summary: 'List withdrawals, newest first (ids for approve and reject)',
      method: 'GET',
      path: '/withdrawals',
      response: arrayOf(withdrawalRow),
      example: EXAMPLES.withdrawals,
      params: {
        query: {
          status: Q.oneOf(STATUS_NAMES, { ignoreCase: true, description: 'in any case; default every status' }),
          limit: Q.withDefault(Q.integer({ min: 1, max: MAX_LIMIT }), DEFAULT_LIMIT),
        },
      },
      handler: ({ query: { status: wanted, limit } }) => {
        const status = wanted === undefined ? undefined : WITHDRAWAL_STATUSES[wanted];
        return [...exchange.core.funds.withdrawals.values()]
          .filter((w) => status === undefined || w.row.status === status)
          .sort((a, b) => b.row.withdrawalId - a.row.withdrawalId)
          .slice(0, limit)
          .map(({ row }) => ({
            withdrawalId: String(row.withdrawalId),
            accountId: String(row.accountId),
            userId: String(ledger().accounts.get(row.accountId)?.userId ?? ''),
            status: statusName(row.status),
            asset: row.asset,
            amount: row.amount,
            fee: row.fee,
            chainType: row.chainType,
            address: row.address,
            txId: row.txId,
            time: row.time,
            updateTime: row.updateTime,
          }));
      },
    }),
  ];
}
