import { formatUnits } from '../../core/decimal.js';
import { BourseError } from '../../core/errors.js';
import type { Exchange } from '../../exchange/exchange.js';
import type { DocumentStore } from '../../store/documents.js';
import { beneficiaryView, fundingView, merchantAccountView, merchantView, monthUsed } from '../merchant/views.js';
import { accountDecisions, beneficiaryDecisions, merchantDecisions, orderDecisions } from './desk-calls.js';
import { DOCUMENT_MEDIA_TYPES, orderDocument, orderDocuments, orderEvents, orderPostings, statusHistory, unknownOrder } from './desk-order-trail.js';
import { deskQueues } from './desk-queues.js';
import { OPERATOR_PREFIX, operatorEndpoint, type OperatorEndpoint } from './operator-endpoint.js';
import * as P from './path-params.js';
import * as Q from './query-params.js';
import { DESK_EXAMPLES, deskDocument, deskMerchant, deskOrder, deskQueuesAnswer } from './schemas.js';

const DEFAULT_QUEUE_ROWS = 50;
const MAX_QUEUE_ROWS = 500;
/** O31's first pages. */
const FIRST_PAGE = 20;

/** O33's address of a document, as O32 lists it. */
const documentPath = '/payments/orders/:orderId/documents/:documentId';
const documentUrl = (orderId: number, documentId: string): string => `${OPERATOR_PREFIX}${documentPath.replace(':orderId', String(orderId)).replace(':documentId', documentId)}`;

/**
 * The payments desk (docs/operating.md "The payments desk"): what waits for a person, with the
 * sandbox control call of each decision; a merchant and an order looked up whole; an order's
 * uploaded documents. Current state comes from the committed core, history from the store.
 */
export function paymentsDeskEndpoints(exchange: Exchange, documents: DocumentStore | undefined): OperatorEndpoint[] {
  const core = (): Exchange['core'] => exchange.core;
  const orderOf = (orderId: number) => core().payments.state.orders.get(orderId) ?? unknownOrder(orderId);
  return [
    operatorEndpoint({
      id: 'O30',
      summary: 'What waits for a person, queue by queue, newest first, with the call of each decision',
      method: 'GET',
      path: '/payments/queues',
      response: deskQueuesAnswer,
      example: DESK_EXAMPLES.queues,
      params: { query: { limit: Q.withDefault(Q.integer({ min: 1, max: MAX_QUEUE_ROWS, description: 'rows per queue (the count is of all)' }), DEFAULT_QUEUE_ROWS) } },
      handler: ({ query }) => ({ queues: deskQueues(core(), query.limit) }),
    }),
    operatorEndpoint({
      id: 'O31',
      summary: 'A merchant whole: accounts, balances, limits and usage, beneficiaries, newest orders and funding records',
      method: 'GET',
      path: '/payments/merchants/:merchantId',
      response: deskMerchant,
      example: DESK_EXAMPLES.merchant,
      params: { path: { merchantId: P.id('merchant') } },
      handler: async ({ path }) => {
        const c = core();
        const state = c.payments.state;
        const merchant = state.merchants.get(path.merchantId);
        if (merchant === undefined) throw new BourseError('NOT_FOUND', [`merchant ${path.merchantId}`]);
        const now = exchange.clock();
        const { userId, merchantId } = merchant;
        const accounts = [...state.merchantAccounts.values()].filter((a) => a.merchantId === merchantId).sort((a, b) => a.createTime - b.createTime);
        const ledgerAccount = c.ledger.accounts.get(merchant.accountId);
        const balances = [...(ledgerAccount?.balances.entries() ?? [])]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([asset, balance]) => {
            const precision = c.ledger.asset(asset).precision;
            return { asset, free: formatUnits(balance.free, precision), locked: formatUnits(balance.locked, precision), total: formatUnits(balance.free + balance.locked, precision) };
          });
        const beneficiaries = [...state.beneficiaries.values()].filter((b) => b.merchantId === merchantId).sort((a, b) => b.createTime - a.createTime || b.userPaymentId - a.userPaymentId);
        const orders = await exchange.history.listPaymentOrders({ userId, merchantId, offset: 0, limit: FIRST_PAGE });
        const funding = await exchange.history.listFundingRecords({ userId, merchantId, offset: 0, limit: FIRST_PAGE });
        return {
          userId: String(userId),
          accountId: String(merchant.accountId),
          merchant: merchantView(c, merchant, now),
          ...merchantDecisions(merchant),
          accounts: accounts.map((a) => ({ ...merchantAccountView(c, a, now), fieldList: { ...a.fieldList }, ...accountDecisions(a) })),
          balances,
          limits: {
            monthLimit: state.userLimits.get(userId) ?? state.config.limits.monthLimit,
            monthUsed: monthUsed(c, userId, now),
            ...Object.fromEntries((['dayFiatLimit', 'dayFiatUsed', 'monthFiatLimit', 'monthFiatUsed', 'monthCryptoLimit', 'monthCryptoUsed'] as const).map((name) => [name, merchantView(c, merchant, now)[name]])),
          },
          modes: c.payments.modesOf(userId),
          beneficiaries: beneficiaries.map((b) => ({ ...beneficiaryView(c, b), ...beneficiaryDecisions(b) })),
          orders: { total: orders.total, rows: orders.rows },
          fundingRecords: { total: funding.total, rows: funding.rows.map(fundingView) },
        };
      },
    }),
    operatorEndpoint({
      id: 'O32',
      summary: 'A payment order whole: statuses with times, ledger postings, webhook events and attempts, uploaded documents',
      method: 'GET',
      path: '/payments/orders/:orderId',
      response: deskOrder,
      example: DESK_EXAMPLES.order,
      params: { path: { orderId: P.id('order') } },
      handler: async ({ path }) => {
        const order = orderOf(path.orderId);
        const detail = await exchange.history.getPaymentOrder(order.userId, order.orderId);
        if (detail === undefined) unknownOrder(order.orderId);
        const webhookEvents = await orderEvents(exchange, order);
        const { history, historyComplete } = statusHistory(order, webhookEvents);
        return {
          userId: String(order.userId),
          order: detail,
          ...orderDecisions(order),
          deadlineTime: order.deadline?.at ?? 0,
          history,
          historyComplete,
          postings: await orderPostings(exchange, order, history),
          webhookEvents,
          documents: await orderDocuments(documents, order.orderId, (documentId) => documentUrl(order.orderId, documentId)),
        };
      },
    }),
    operatorEndpoint({
      id: 'O33',
      summary: 'One document uploaded for an order (B35), its bytes shown inline',
      method: 'GET',
      path: documentPath,
      response: deskDocument,
      example: DESK_EXAMPLES.document,
      produces: DOCUMENT_MEDIA_TYPES,
      params: { path: { orderId: P.id('order'), documentId: P.text('the document id (64 hex digits, as O32 lists it)') } },
      handler: ({ path }) => {
        orderOf(path.orderId);
        return orderDocument(documents, path.orderId, path.documentId);
      },
    }),
  ];
}
