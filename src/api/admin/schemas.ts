/**
 * The operator API's answers (`/admin/v1`) as JSON Schemas, with the shapes several routes share
 * (user, key, withdrawal, symbol, asset, webhook event, configuration documents) written once.
 * Objects are closed: a member an answer gains must be named here first, or the schema test fails.
 */
import { PERMISSIONS } from '../../core/types.js';
import { RATE_LIMIT_KEYS } from '../../exchange/trading-config.js';
import { EVENT_STATUSES, WEBHOOK_EVENT_TYPES } from '../../payments/webhooks.js';
import { ANSWERS, beneficiarySchema, fundingRecordSchema, merchantAccountSchema, merchantLimitMembers, merchantLimitsExample, merchantSchema, orderSchema } from '../merchant/schemas.js';
import { anyOf, arrayOf, boolean, constant, decimal, described, digits, integer, mapOf, millis, object, oneOfValues, string, type JsonSchema } from '../response-schema.js';

/** A count the configuration checks to be at least `minimum`. */
const count = (minimum = 1): JsonSchema => ({ type: 'integer', minimum });
/** A currency code of the payments catalogue (2 to 16 of A-Z and 0-9). */
const currencyCode: JsonSchema = { type: 'string', pattern: '^[A-Z0-9]{2,16}$' };
/** A time in ms as a string of digits, or "" when not set (the area B webhook views). */
const millisText: JsonSchema = described({ type: 'string', pattern: '^([0-9]+)?$' }, 'ms since the Unix epoch as a string of digits; "" when not set');
const hex64: JsonSchema = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const symbolStatus = oneOfValues(['TRADING', 'HALT', 'BREAK']);
const permissions = arrayOf(oneOfValues(PERMISSIONS));

// ---- users, accounts, keys ----------------------------------------------------------------------

/** O1. */
export const createdUser = object({ userId: digits, accountId: described(digits, 'the main account (index 0)') });
/** O2. */
export const createdSubAccount = object({ accountId: digits, accountIndex: described(integer, '1 for the first sub-account') });
/** O3: the only answer that ever shows the secret. */
export const createdApiKey = object({
  apiKey: described(string, '64 characters'),
  secretKey: described(string, '64 characters; shown only in this answer'),
  permissions,
});
/** O4 rows. */
export const apiKeyRow = object({
  apiKey: string,
  accountId: digits,
  accountIndex: integer,
  permissions,
  ipWhitelist: described(arrayOf(string), 'addresses or CIDR blocks; empty = any address'),
  label: string,
  createdAt: millis,
  revoked: boolean,
});
/** O5. */
export const revokedApiKey = object({ apiKey: string, revoked: constant(true) });

const accountRef = object({ accountId: digits, accountIndex: described(integer, '0 the main account'), name: described(string, '"" for the main account') });
/** O23 rows (system users are left out). */
export const userRow = object({ userId: digits, email: string, type: oneOfValues(['user', 'merchant']), accounts: arrayOf(accountRef) });
/** O24 rows: non-zero balances only. */
export const balanceRow = object({ accountId: digits, accountIndex: integer, asset: string, free: decimal, locked: decimal, total: decimal });

/** O12: the account's rates after the change. */
export const feeRates = object({
  accountId: described(integer, 'a JSON number here, unlike the other operator answers'),
  makerFeeRate: decimal,
  takerFeeRate: decimal,
});

// ---- deposits and withdrawals -------------------------------------------------------------------

/** O6. */
export const createdDeposit = object({ depositId: digits });

/** O7/O8: the withdrawal's record after settlement, its status as area A's number (2 rejected, 6 sent). */
export function settledWithdrawal(status: 2 | 6): JsonSchema {
  return object({
    withdrawalId: digits,
    accountId: digits,
    clientOrderId: string,
    asset: string,
    chainType: string,
    address: string,
    addressExt: string,
    amount: decimal,
    fee: decimal,
    status: described(constant(status), 'docs/spot-api.md "Deposits and withdrawals": 2 rejected, 6 sent'),
    txId: described(string, '"" when rejected'),
    time: millis,
    updateTime: millis,
  });
}

/** O27 rows: the status by name. */
export const withdrawalRow = object({
  withdrawalId: digits,
  accountId: digits,
  userId: digits,
  status: oneOfValues(['PENDING', 'REJECTED', 'SENT']),
  asset: string,
  amount: decimal,
  fee: decimal,
  chainType: string,
  address: string,
  txId: described(string, '"" until sent'),
  time: millis,
  updateTime: millis,
});

// ---- assets and symbols -------------------------------------------------------------------------

/** O9. */
export const addedAsset = object({ asset: string, precision: integer });
/** O26 rows. */
export const assetRow = object({
  asset: string,
  precision: integer,
  kind: oneOfValues(['crypto', 'fiat']),
  fullName: string,
  chains: arrayOf(string),
  withdrawFee: decimal,
  minWithdraw: decimal,
  allowDeposit: boolean,
  allowWithdraw: boolean,
});
/** O10 and O11. */
export const symbolStatusAnswer = object({ symbol: string, status: symbolStatus });
/** O25 rows. */
export const symbolRow = object({
  symbol: string,
  status: symbolStatus,
  baseAsset: string,
  quoteAsset: string,
  tickSize: decimal,
  stepSize: decimal,
  minQty: decimal,
  maxQty: decimal,
  minPrice: decimal,
  maxPrice: decimal,
  minNotional: decimal,
});

// ---- bans ---------------------------------------------------------------------------------------

/** O13 rows: bans in force only; O29: the address's ban as the journal holds it after the command. */
export const banRow = object({ ip: string, bannedUntil: millis, banCount: described(count(), 'bans of this IP so far; each lasts longer') });
/** O14. */
export const liftedBan = object({ ip: string, lifted: described(boolean, 'false if no ban was in force') });

// ---- configuration documents --------------------------------------------------------------------

/** O17 and O18: the whole trading configuration (docs/operating.md "Trading settings and listings"). */
export const tradingConfig = object({
  ...Object.fromEntries(RATE_LIMIT_KEYS.map((key) => [key, count()])),
  maxOpenOrdersPerSymbol: count(),
  maxOpenOrdersPerAccount: count(),
  defaultMakerFeeRate: decimal,
  defaultTakerFeeRate: decimal,
  algoOrders: described(boolean, 'stop-loss, take-profit and iceberg orders accepted (docs/spot-api.md "Stop and iceberg orders")'),
  maxAlgoOrdersPerSymbol: described(count(), 'MAX_NUM_ALGO_ORDERS: untriggered stop orders per account and symbol'),
  maxAlgoOrdersPerAccount: described(count(), 'BROKER_MAX_NUM_ALGO_ORDERS: untriggered stop orders per account'),
  maxIcebergParts: described(count(), 'ICEBERG_PARTS: most parts an iceberg order may be cut into'),
});

/** O15 and O16: the payments configuration document (docs/operating.md "Merchant payments settings"). */
export const paymentsConfig = object({
  tokenTtlMs: count(),
  quoteTtlMs: count(),
  acceptWindowMs: count(),
  documentsWindowMs: count(),
  paymentWindowMs: count(),
  releaseHoldMs: count(),
  webhook: object({ timeoutMs: count(), retryGapsMs: arrayOf(count()), jitterPct: count(0), retentionDays: count(), maxInFlightPerUrl: count() }),
  maxMerchantsPerUser: count(),
  maxOpenOrdersPerMerchant: count(),
  defaultCountry: string,
  publicBaseUrl: described(string, '"" = the server\'s own http://<HOST>:<PORT>'),
  limits: object({ monthLimit: decimal, dayFiatLimit: decimal, monthFiatLimit: decimal, monthCryptoLimit: decimal }),
  limitRates: described({ ...mapOf(decimal), propertyNames: currencyCode }, 'USD value of one unit of each currency'),
  fiats: arrayOf(object({ fiat: currencyCode, country: string, accuracy: count(0), orderMin: decimal, orderMax: decimal })),
  cryptos: arrayOf(object({ crypto: currencyCode, accuracy: count(0) })),
  pairs: arrayOf(object({ fiat: currencyCode, crypto: currencyCode, symbol: currencyCode, accuracy: count(0), buy: boolean, sell: boolean })),
  fiatPairs: arrayOf(object({ onRampFiat: currencyCode, offRampFiat: currencyCode, accuracy: count(0) })),
  rails: arrayOf(
    object({
      paymentId: count(),
      paymentMethodName: string,
      fiat: described(anyOf(currencyCode, constant('*')), '"*" for the pending fund (70), which serves every fiat'),
      payInFee: decimal,
      payoutFee: decimal,
      instructionLabels: arrayOf(string),
    }),
  ),
  transferFees: arrayOf(object({ fiat: currencyCode, feeType: described(oneOfValues([0, 1]), '0 fixed amount in the fiat, 1 fraction of the amount'), fee: decimal })),
  spreadBps: { type: 'integer', minimum: 0, maximum: 9999 },
});

// ---- ledger check -------------------------------------------------------------------------------

const assetTotals = object({ asset: string, total: decimal, deposits: decimal, withdrawals: decimal, mismatch: decimal }, ['mismatch']);
const accountFlows = object({
  accountId: digits,
  asset: string,
  balance: decimal,
  flows: decimal,
  mismatch: described(anyOf(decimal, constant('flows without a balance')), 'balance minus flows'),
});
const lockedReserved = object({ accountId: digits, asset: string, locked: decimal, reserved: decimal, mismatch: constant('locked balance differs from what is reserved') });

/** O19. */
export const verifyReport = object(
  {
    ok: boolean,
    checkedAt: millis,
    details: described(arrayOf(anyOf(assetTotals, accountFlows, lockedReserved)), 'one entry per asset (totals), then one per mismatch found'),
    replay: described(
      object({ ok: boolean, stateHash: hex64, replayHash: hex64, replicaHash: described(hex64, 'with the core in a worker thread: its replica') }, ['replicaHash']),
      'with replay=1 only',
    ),
  },
  ['replay'],
);

// ---- webhooks -----------------------------------------------------------------------------------

const delivery = object({
  attempt: described(integer, '0 for the entry a deleted webhook adds (nothing sent)'),
  time: millisText,
  url: string,
  httpStatus: described(integer, '0 when no answer came'),
  durationMs: integer,
  result: oneOfValues(['SUCCESS', 'FAILED']),
  error: string,
});
const eventMembers = {
  eventId: { type: 'string', pattern: '^[0-9a-f]{32}$' },
  webhookId: string,
  eventType: oneOfValues(WEBHOOK_EVENT_TYPES),
  objectId: string,
  objectStatus: string,
  status: oneOfValues(EVENT_STATUSES),
  attempts: integer,
  nextAttemptTime: described(millisText, '"" unless PENDING'),
  createTime: millisText,
  deliveredTime: millisText,
  payload: described(string, 'the exact JSON body sent'),
  deliveries: described(arrayOf(delivery), 'the last 20 attempts, newest first'),
} as const satisfies Record<string, JsonSchema>;
/** O21: the event as B41 answers it. */
export const webhookEvent = object(eventMembers);
/** O20 rows (and O32's). */
const operatorEventRow = object({ ...eventMembers, userId: digits, updateTime: described(digits, 'ms of the last change, as a string') });
/** O20. */
export const webhookEventPage = object({ total: integer, events: arrayOf(operatorEventRow) });
/** O22. */
export const webhookPublicKey = object({ publicKey: described({ type: 'string', pattern: '^([A-Za-z0-9+/]+=*)?$' }, 'base64 DER SPKI; "" in a build without the key') });

// ---- the payments desk (O30–O33) ----------------------------------------------------------------

/** One decision's call of the sandbox control API (docs/operating.md "The payments desk"). */
const deskCall = object(
  {
    method: constant('POST'),
    path: described(string, 'below the server, ids filled in; send it with the operator token'),
    body: described(mapOf(anyOf(string, integer)), 'the JSON body to send as it is'),
    reasonField: described(string, "the body member that takes the person's reason"),
    failCodes: described(arrayOf(integer), 'the codes `failCode` may take, the default first'),
  },
  ['reasonField', 'failCodes'],
);
const DECISION_NAMES = ['approve', 'reject', 'rfi', 'documents', 'success', 'fail', 'release', 'expire', 'complete', 'cancel'];
const decisionMembers = {
  actions: described(arrayOf(oneOfValues(DECISION_NAMES)), 'the decisions that apply now; [] when none'),
  calls: described({ ...mapOf(deskCall), propertyNames: { enum: DECISION_NAMES } }, 'the call of each action'),
} as const satisfies Record<string, JsonSchema>;
const times = { createTime: millis, updateTime: described(millis, 'when the object entered its status') } as const;
const labels = mapOf(string);

const merchantQueueRow = object({
  userId: digits,
  merchantId: digits,
  merchantName: string,
  email: string,
  merchantType: oneOfValues(['INDIVIDUAL', 'BUSINESS']),
  country: string,
  status: constant(1),
  ...times,
  ...decisionMembers,
});
const accountQueueRow = object({ userId: digits, merchantId: digits, merchantName: string, fiat: currencyCode, status: constant(1), fieldList: described(labels, 'what the merchant submitted'), ...times, ...decisionMembers });
const beneficiaryQueueRow = object({
  userId: digits,
  merchantId: digits,
  merchantName: string,
  beneficiaryId: described(digits, 'userPaymentId'),
  fiat: currencyCode,
  country: string,
  paymentId: integer,
  paymentMethodName: string,
  realName: string,
  fieldList: labels,
  status: constant(2),
  ...times,
  ...decisionMembers,
});
/** An order as a person decides it (O30 rows); a fiat_to_fiat order shows its on-ramp merchant and fiat, and its off-ramp side. */
const orderQueueRow = object(
  {
    userId: digits,
    merchantId: described(digits, 'fiat_to_fiat: the on-ramp merchant'),
    merchantName: string,
    orderId: digits,
    clientId: string,
    kind: oneOfValues(['fiat_to_crypto', 'crypto_to_fiat', 'fiat_to_fiat']),
    status: integer,
    orderPrice: decimal,
    documents: described(integer, 'files uploaded so far (B35)'),
    deadlineTime: described(millis, 'when its waiting window ends; 0 when none runs'),
    fiat: currencyCode,
    fiatAmount: decimal,
    crypto: currencyCode,
    cryptoAmount: decimal,
    offRampMerchantId: digits,
    offRampFiat: currencyCode,
    offRampFiatAmount: decimal,
    offArriveRampFiatAmount: decimal,
    beneficiaryId: described(digits, 'the payout beneficiary (70: the pending fund)'),
    ...times,
    ...decisionMembers,
  },
  ['crypto', 'cryptoAmount', 'offRampMerchantId', 'offRampFiat', 'offRampFiatAmount', 'offArriveRampFiatAmount', 'beneficiaryId'],
);
const fundingQueueRow = object({
  userId: digits,
  merchantId: digits,
  merchantName: string,
  txId: digits,
  type: oneOfValues(['DEPOSIT', 'WITHDRAW']),
  status: constant(1),
  fiat: currencyCode,
  totalAmount: decimal,
  amount: decimal,
  fee: decimal,
  beneficiaryId: described(digits, 'WITHDRAW: the beneficiary paid; 0 for a DEPOSIT'),
  clientId: string,
  orderId: string,
  payerName: string,
  payerAccount: string,
  traceNumber: string,
  ...times,
  ...decisionMembers,
});
const queueOf = (queue: string, row: JsonSchema): JsonSchema => object({ queue: constant(queue), count: described(integer, 'all waiting, not only the rows shown'), rows: described(arrayOf(row), 'newest first, at most `limit`') });

/** O30: every queue, in this order, each present (count 0 when empty). */
export const deskQueuesAnswer = object({
  queues: {
    type: 'array',
    prefixItems: [
      queueOf('merchantsKyc', merchantQueueRow),
      queueOf('merchantAccounts', accountQueueRow),
      queueOf('beneficiaries', beneficiaryQueueRow),
      queueOf('ordersReview', orderQueueRow),
      queueOf('ordersDocuments', orderQueueRow),
      queueOf('payouts', orderQueueRow),
      queueOf('fundingRecords', fundingQueueRow),
    ],
    items: false,
    minItems: 7,
  },
});

/** `schema`'s members (a closed object of response-schema.ts) with `extra` added. */
function withMembers(schema: JsonSchema, extra: Record<string, JsonSchema>): JsonSchema {
  return object({ ...(schema.properties as Record<string, JsonSchema>), ...extra });
}

/** O31. */
export const deskMerchant = object({
  userId: digits,
  accountId: described(digits, "the merchant's ledger account M"),
  merchant: described(merchantSchema, 'as B14 shows it'),
  ...decisionMembers,
  accounts: described(arrayOf(withMembers(merchantAccountSchema, { fieldList: labels, ...decisionMembers })), 'as B16 shows them, with what was submitted'),
  balances: described(arrayOf(object({ asset: string, free: decimal, locked: decimal, total: decimal })), "M's balances, every asset it holds"),
  limits: object({
    monthLimit: described(decimal, "the user's, USD"),
    monthUsed: decimal,
    ...merchantLimitMembers,
  }),
  modes: described(ANSWERS.S1.response, "the user's simulator modes"),
  beneficiaries: arrayOf(withMembers(beneficiarySchema, decisionMembers)),
  orders: described(object({ total: integer, rows: arrayOf(orderSchema) }), 'the newest 20, as B33 shows them'),
  fundingRecords: described(object({ total: integer, rows: arrayOf(fundingRecordSchema) }), 'the newest 20, as B21 shows them'),
});

/** O32. */
export const deskOrder = object({
  userId: digits,
  order: described(orderSchema, 'as B33 shows it'),
  ...decisionMembers,
  deadlineTime: described(millis, 'when its waiting window ends; 0 when none runs'),
  history: described(arrayOf(object({ status: integer, time: millis })), 'statuses entered, oldest first, each with the time of the command that entered it (the order\'s status log)'),
  historyComplete: described(boolean, 'false only for an order restored from a snapshot older than status logs whose webhook events do not reach back to its creation'),
  postings: described(
    arrayOf(object({ flowId: digits, seq: integer, accountId: digits, account: described(string, '"merchant <id>", "desk" or "fee"'), asset: string, flowType: integer, flowName: string, change: decimal, total: decimal, time: millis })),
    'the balance-flow rows of the commands that moved it, oldest first',
  ),
  webhookEvents: described(arrayOf(operatorEventRow), 'as O20 shows them, oldest first'),
  documents: arrayOf(
    object({
      documentId: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      name: string,
      contentType: oneOfValues(['image/jpeg', 'image/png', 'application/pdf']),
      size: integer,
      uploadTime: millis,
      url: described(string, 'O33, below the server'),
    }),
  ),
});

/** O33: the file itself. */
export const deskDocument = described({ type: 'string' }, "the file's bytes, with its own content type");

// ---- examples -----------------------------------------------------------------------------------

const KEY = 'vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A';
const SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';
const EVENT_ID = '3f0c2a9e1b7d4c58a6e2f1d09b8c7a65';
const WEBHOOK_ID = '8d1e5b2c7a9f4e6d0c3b1a2f5e8d7c6b';
const NOW = 1_764_115_200_000;

export const EXAMPLES = {
  createdUser: { userId: '7', accountId: '12' },
  createdSubAccount: { accountId: '13', accountIndex: 1 },
  createdApiKey: { apiKey: KEY, secretKey: SECRET, permissions: ['MARKET_DATA', 'USER_DATA', 'TRADE'] },
  apiKeys: [
    { apiKey: KEY, accountId: '12', accountIndex: 0, permissions: ['MARKET_DATA', 'USER_DATA', 'TRADE'], ipWhitelist: ['203.0.113.0/24'], label: 'trading bot', createdAt: NOW, revoked: false },
  ],
  revokedApiKey: { apiKey: KEY, revoked: true },
  createdDeposit: { depositId: '41' },
  withdrawal(status: 2 | 6) {
    return {
      withdrawalId: '9',
      accountId: '12',
      clientOrderId: 'w-20251126-1',
      asset: 'USDT',
      chainType: 'TRC20',
      address: 'TXYZabc123',
      addressExt: '',
      amount: '100',
      fee: '1',
      status,
      txId: status === 6 ? '0x5e8f0c3d1b2a' : '',
      time: NOW,
      updateTime: NOW + 60_000,
    };
  },
  addedAsset: { asset: 'SOL', precision: 9 },
  symbolStatus: (status: string) => ({ symbol: 'SOLUSDT', status }),
  feeRates: { accountId: 12, makerFeeRate: '0.0005', takerFeeRate: '0.001' },
  bans: [{ ip: '198.51.100.7', bannedUntil: NOW + 120_000, banCount: 1 }],
  ban: { ip: '203.0.113.9', bannedUntil: NOW + 86_400_000, banCount: 1 },
  liftedBan: { ip: '198.51.100.7', lifted: true },
  verify: {
    ok: true,
    checkedAt: NOW,
    details: [
      { asset: 'BTC', total: '12.5', deposits: '13', withdrawals: '0.5' },
      { asset: 'USDT', total: '250000', deposits: '250100', withdrawals: '100' },
    ],
    replay: { ok: true, stateHash: 'a3f1'.repeat(16), replayHash: 'a3f1'.repeat(16) },
  },
  webhookEvent: {
    eventId: EVENT_ID,
    webhookId: WEBHOOK_ID,
    eventType: 'FUNDING_WEBHOOK',
    objectId: '31',
    objectStatus: '2',
    status: 'PENDING',
    attempts: 1,
    nextAttemptTime: String(NOW + 5000),
    createTime: String(NOW),
    deliveredTime: '',
    payload: '{"webhookId":"8d1e5b2c7a9f4e6d0c3b1a2f5e8d7c6b","eventId":"3f0c2a9e1b7d4c58a6e2f1d09b8c7a65","eventType":"FUNDING_WEBHOOK","txId":"31","status":"2"}',
    deliveries: [{ attempt: 1, time: String(NOW + 20), url: 'https://merchant.example/hooks', httpStatus: 200, durationMs: 160, result: 'SUCCESS', error: '' }],
  },
  publicKey: { publicKey: 'MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=' },
  users: [
    {
      userId: '7',
      email: 'ana@example.com',
      type: 'user',
      accounts: [
        { accountId: '12', accountIndex: 0, name: '' },
        { accountId: '13', accountIndex: 1, name: 'savings' },
      ],
    },
  ],
  balances: [
    { accountId: '12', accountIndex: 0, asset: 'USDT', free: '899', locked: '101', total: '1000' },
    { accountId: '13', accountIndex: 1, asset: 'BTC', free: '0.25', locked: '0', total: '0.25' },
  ],
  symbols: [
    { symbol: 'BTCUSDT', status: 'TRADING', baseAsset: 'BTC', quoteAsset: 'USDT', tickSize: '0.01', stepSize: '0.000001', minQty: '0.000001', maxQty: '1000000', minPrice: '0.01', maxPrice: '10000000', minNotional: '1' },
  ],
  assets: [
    { asset: 'BTC', precision: 8, kind: 'crypto', fullName: 'Bitcoin', chains: ['BTC'], withdrawFee: '0.0002', minWithdraw: '0.001', allowDeposit: true, allowWithdraw: true },
    { asset: 'MXN', precision: 2, kind: 'fiat', fullName: 'Mexican peso', chains: [], withdrawFee: '0', minWithdraw: '0', allowDeposit: false, allowWithdraw: false },
  ],
  withdrawals: [
    { withdrawalId: '9', accountId: '12', userId: '7', status: 'PENDING', asset: 'USDT', amount: '100', fee: '1', chainType: 'TRC20', address: 'TXYZabc123', txId: '', time: NOW, updateTime: NOW },
  ],
};

const deskCallExample = (path: string, body: Record<string, string | number>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ method: 'POST', path: `/sandbox/v2${path}`, body, ...extra });
const reviewCalls = (orderId: string): Record<string, unknown> =>
  Object.fromEntries(['approve', 'reject', 'rfi', 'documents'].map((decision) => [decision, deskCallExample(`/orders/${orderId}/review`, { decision })]));

/** O30–O33. */
export const DESK_EXAMPLES = {
  queues: {
    queues: [
      {
        queue: 'merchantsKyc',
        count: 1,
        rows: [
          {
            userId: '7',
            merchantId: '2',
            merchantName: 'Acme MX',
            email: 'ops@acme.mx',
            merchantType: 'BUSINESS',
            country: 'Mexico',
            status: 1,
            createTime: NOW,
            updateTime: NOW + 1000,
            actions: ['approve', 'reject'],
            calls: {
              approve: deskCallExample('/merchants/2/kyc', { action: 'approve' }),
              reject: deskCallExample('/merchants/2/kyc', { action: 'reject', rejectReason: '' }, { reasonField: 'rejectReason' }),
            },
          },
        ],
      },
      { queue: 'merchantAccounts', count: 0, rows: [] },
      { queue: 'beneficiaries', count: 0, rows: [] },
      {
        queue: 'ordersReview',
        count: 1,
        rows: [
          {
            userId: '7',
            merchantId: '2',
            merchantName: 'Acme MX',
            orderId: '10000001',
            clientId: 'order-0001',
            kind: 'fiat_to_crypto',
            status: 10,
            orderPrice: '19.2639',
            documents: 0,
            deadlineTime: 0,
            fiat: 'MXN',
            fiatAmount: '1000.00',
            crypto: 'USDT',
            cryptoAmount: '51.8586',
            createTime: NOW + 5000,
            updateTime: NOW + 5000,
            actions: ['approve', 'reject', 'rfi', 'documents'],
            calls: reviewCalls('10000001'),
          },
        ],
      },
      { queue: 'ordersDocuments', count: 0, rows: [] },
      {
        queue: 'payouts',
        count: 1,
        rows: [
          {
            userId: '7',
            merchantId: '2',
            merchantName: 'Acme MX',
            orderId: '10000002',
            clientId: 'sell-0001',
            kind: 'crypto_to_fiat',
            status: 40,
            orderPrice: '19.0542',
            documents: 0,
            deadlineTime: 0,
            fiat: 'MXN',
            fiatAmount: '947.71',
            crypto: 'USDT',
            cryptoAmount: '50.0000',
            beneficiaryId: '1003',
            createTime: NOW + 6000,
            updateTime: NOW + 6100,
            actions: ['success', 'fail'],
            calls: {
              success: deskCallExample('/orders/10000002/payout', { result: 'success' }),
              fail: deskCallExample('/orders/10000002/payout', { result: 'fail', failCode: -7001 }, { failCodes: [-7001, -7000] }),
            },
          },
        ],
      },
      {
        queue: 'fundingRecords',
        count: 1,
        rows: [
          {
            userId: '7',
            merchantId: '2',
            merchantName: 'Acme MX',
            txId: '3000004',
            type: 'DEPOSIT',
            status: 1,
            fiat: 'MXN',
            totalAmount: '5000.00',
            amount: '5000.00',
            fee: '0.00',
            beneficiaryId: '0',
            clientId: '',
            orderId: '',
            payerName: 'CENTAURE SA DE CV',
            payerAccount: '684180168000000000',
            traceNumber: 'BRS20251126000004',
            createTime: NOW + 7000,
            updateTime: NOW + 7000,
            actions: ['complete', 'cancel'],
            calls: {
              complete: deskCallExample('/funding/3000004/complete', {}),
              cancel: deskCallExample('/funding/3000004/cancel', { failReason: '' }, { reasonField: 'failReason' }),
            },
          },
        ],
      },
    ],
  },
  merchant: {
    userId: '7',
    accountId: '15',
    merchant: ANSWERS.S3.example,
    actions: [],
    calls: {},
    accounts: [{ ...ANSWERS.S4.example, fieldList: { idNoType: 'RFC', idNo: 'ACM010101AB1' }, actions: [], calls: {} }],
    balances: [
      { asset: 'MXN', free: '1000', locked: '0', total: '1000' },
      { asset: 'USDT', free: '448.1414', locked: '0', total: '448.1414' },
    ],
    limits: {
      monthLimit: '250000.00',
      monthUsed: '1000.00',
      ...merchantLimitsExample,
    },
    modes: ANSWERS.S1.example,
    beneficiaries: [{ ...ANSWERS.S5.example, actions: [], calls: {} }],
    orders: { total: 1, rows: [ANSWERS.B33.example] },
    fundingRecords: { total: 1, rows: [ANSWERS.S8.example] },
  },
  order: {
    userId: '7',
    order: ANSWERS.B33.example,
    actions: [],
    calls: {},
    deadlineTime: NOW + 1_805_010,
    history: [
      { status: 10, time: NOW + 5000 },
      { status: 40, time: NOW + 5010 },
    ],
    historyComplete: true,
    postings: [],
    webhookEvents: [{ ...EXAMPLES.webhookEvent, eventType: 'ORDER_WEBHOOK', objectId: '10000001', objectStatus: '40', status: 'DELIVERED', nextAttemptTime: '', userId: '7', updateTime: String(NOW + 5090) }],
    documents: [
      {
        documentId: 'a3f1'.repeat(16),
        name: `${'a3f1'.repeat(16)}.pdf`,
        contentType: 'application/pdf',
        size: 48213,
        uploadTime: NOW + 5008,
        url: `/admin/v1/payments/orders/10000001/documents/${'a3f1'.repeat(16)}`,
      },
    ],
  },
  document: '%PDF-1.7 …',
};
