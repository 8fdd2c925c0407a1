import { randomBytes } from 'node:crypto';
import type { Exchange } from '../../exchange/exchange.js';
import * as B from './body-members.js';
import { operatorEndpoint, type OperatorEndpoint } from './operator-endpoint.js';
import * as P from './path-params.js';
import * as S from './schemas.js';

/** A transaction id the operator did not give: 64 random hex digits, as a chain's would be. */
const randomTxId = (): string => randomBytes(32).toString('hex');

/**
 * Deposits credited and withdrawals settled by the operator (docs/operating.md), O6–O8: a
 * simulated chain or bank on one side, the spot API's records on the other.
 */
export function fundsEndpoints(exchange: Exchange): OperatorEndpoint[] {
  const withdrawalId = P.id('withdrawal');
  const settled = async (withdrawal: Promise<Record<string, unknown>>): Promise<Record<string, unknown>> => {
    const row = await withdrawal;
    return { ...row, withdrawalId: String(row.withdrawalId), accountId: String(row.accountId) };
  };

  return [
    operatorEndpoint({
      id: 'O6',
      summary: 'Credit a deposit (a simulated chain or bank arrival)',
      method: 'POST',
      path: '/deposits',
      response: S.createdDeposit,
      example: S.EXAMPLES.createdDeposit,
      params: {
        body: B.members({
          accountId: B.required(B.integer()),
          asset: B.required(B.text()),
          amount: B.required(B.decimal({ description: 'greater than 0' })),
          txId: B.text({ description: 'default a random 64-hex id' }),
        }),
      },
      handler: async ({ body }) => {
        const { depositId } = await exchange.submit<{ depositId: number }>({
          type: 'deposit',
          accountId: body.accountId,
          asset: body.asset.toUpperCase(),
          amount: body.amount,
          txId: body.txId ?? randomTxId(),
        });
        return { depositId: String(depositId) };
      },
    }),
    operatorEndpoint({
      id: 'O7',
      summary: 'Approve a pending withdrawal',
      method: 'POST',
      path: '/withdrawals/:id/approve',
      response: S.settledWithdrawal(6),
      example: S.EXAMPLES.withdrawal(6),
      params: {
        path: { id: withdrawalId },
        body: B.members({ txId: B.text({ description: 'default a random 64-hex id' }) }),
      },
      handler: ({ path, body }) =>
        settled(exchange.submit({ type: 'settleWithdrawal', withdrawalId: path.id, approve: true, txId: body.txId ?? randomTxId(), reason: '' })),
    }),
    operatorEndpoint({
      id: 'O8',
      summary: 'Reject a pending withdrawal',
      method: 'POST',
      path: '/withdrawals/:id/reject',
      response: S.settledWithdrawal(2),
      example: S.EXAMPLES.withdrawal(2),
      params: {
        path: { id: withdrawalId },
        body: B.members({ reason: B.text() }),
      },
      handler: ({ path, body }) => settled(exchange.submit({ type: 'settleWithdrawal', withdrawalId: path.id, approve: false, txId: '', reason: body.reason ?? '' })),
    }),
  ];
}
