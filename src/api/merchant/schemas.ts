/**
 * The answers of area B as JSON Schemas of `data` (docs/merchant-payments.md "Values and rounding", docs/merchant-payments.md "Endpoints served", docs/merchant-payments.md "The simulator and the sandbox API"), with an example of
 * each: the shapes several endpoints share (merchant, account, beneficiary, funding record, order,
 * quote, webhook, …) are written once here, and every registry entry takes its `response` and
 * `example` from `ANSWERS`. The schema test (test/api/merchant/response-schemas.test.ts) checks real
 * answers against them, so a field added to a view without its schema fails there.
 */
import { FUNDING_TYPES } from '../../payments/model.js';
import { EVENT_STATUSES, WEBHOOK_EVENT_TYPES, WEBHOOK_STATUS } from '../../payments/webhooks.js';
import { ORDER } from '../../payments/orders.js';
import { anyOf, arrayOf, boolean, constant, decimal, described, integer, mapOf, millis, nullable, object, oneOfValues, string, type JsonSchema } from '../response-schema.js';

/** What a registry entry declares of its successful answer. */
export interface Answer {
  response: JsonSchema;
  example: unknown;
}

// ── Scalars of area B ────────────────────────────────────────────────────────────────────────────

/** docs/merchant-payments.md "Values and rounding": ms since the epoch as a string of digits. */
const msText: JsonSchema = { type: 'string', pattern: '^[0-9]+$', description: 'ms since the Unix epoch, as a string' };
/** A time that may not have happened yet: ms as a string, or "" (0 on the inside). */
const msTextOrEmpty: JsonSchema = { type: 'string', pattern: '^([0-9]+)?$', description: 'ms since the Unix epoch as a string, or "" when not (yet) set' };
/** 32 lowercase hex: webhook and event ids. */
const hexId: JsonSchema = { type: 'string', pattern: '^[0-9a-f]{32}$' };
/** Labels of a rail's form (beneficiary, deposit instructions) → values. */
const fields: JsonSchema = mapOf(string);
const countryName = described(string, 'country name as B1/B2 list it');
const fiatCode = described(string, 'fiat code');
const cryptoCode = described(string, 'crypto code');
const orderStatus = oneOfValues(Object.values(ORDER));
const merchantStatus = described(oneOfValues([1, 2, 3, 4]), '1 authenticating, 2 normal, 3 failed, 4 incomplete');
const accountStatus = described(oneOfValues([1, 2, 3, 4]), '1 authenticating, 2 normal, 3 failed, 4 incomplete');
const beneficiaryStatus = described(oneOfValues([1, 2, 3]), '1 valid, 2 authenticating, 3 failed');
const fundingStatus = described(oneOfValues([1, 2, 3]), '1 pending, 2 completed, 3 canceled');
const webhookStatus = oneOfValues(Object.values(WEBHOOK_STATUS));

/** docs/merchant-payments.md "Answers and errors" page: `listKey` holds the rows. */
function page(listKey: 'data' | 'record', row: JsonSchema): JsonSchema {
  return object({ currentPage: integer, size: integer, total: integer, [listKey]: arrayOf(row) });
}

function pageExample(listKey: 'data' | 'record', rows: readonly unknown[]): Record<string, unknown> {
  return { currentPage: 1, size: 10, total: rows.length, [listKey]: rows };
}

// ── Shared shapes ────────────────────────────────────────────────────────────────────────────────

const T = 1750000000000;
const ms = (offset = 0): string => String(T + offset);

/** A merchant's limits and what it has used of them this day and month: members of B14 rows and of O31's `limits`. */
export const merchantLimitMembers = {
  dayFiatLimit: decimal,
  dayFiatUsed: decimal,
  monthFiatLimit: decimal,
  monthFiatUsed: decimal,
  monthCryptoLimit: decimal,
  monthCryptoUsed: decimal,
} as const satisfies Record<string, JsonSchema>;
/** `merchantLimitMembers` as the examples show them. */
export const merchantLimitsExample = {
  dayFiatLimit: '25000.00',
  dayFiatUsed: '1000.00',
  monthFiatLimit: '100000.00',
  monthFiatUsed: '1000.00',
  monthCryptoLimit: '15000.00',
  monthCryptoUsed: '52.17',
};

/** B14 rows, docs/merchant-payments.md "The simulator and the sandbox API" KYC and limits. */
export const merchantSchema = object({
  merchantId: integer,
  country: countryName,
  merchantName: string,
  email: string,
  merchantType: described(oneOfValues([1, 2]), '1 individual, 2 business'),
  status: merchantStatus,
  rejectReason: string,
  ...merchantLimitMembers,
  remark: string,
  createTime: msText,
  updateTime: msText,
});
const merchantExample = {
  merchantId: 2,
  country: 'Mexico',
  merchantName: 'Acme MX',
  email: 'ops@acme.mx',
  merchantType: 2,
  status: 2,
  rejectReason: '',
  ...merchantLimitsExample,
  remark: '',
  createTime: ms(),
  updateTime: ms(1200),
};

/** B16 rows, docs/merchant-payments.md "The simulator and the sandbox API" account review. */
export const merchantAccountSchema = object({
  merchantId: integer,
  fiat: fiatCode,
  balance: described(decimal, 'the pending fund in this fiat'),
  status: accountStatus,
  buyAmountLimit: decimal,
  buyAmountUsed: decimal,
  sellAmountLimit: decimal,
  sellAmountUsed: decimal,
  paymentId: integer,
  paymentMethodName: string,
  failReason: string,
  createTime: msText,
  updateTime: msText,
});
const merchantAccountExample = {
  merchantId: 2,
  fiat: 'MXN',
  balance: '1000.00',
  status: 2,
  buyAmountLimit: '0.00',
  buyAmountUsed: '1000.00',
  sellAmountLimit: '0.00',
  sellAmountUsed: '0.00',
  paymentId: 58,
  paymentMethodName: 'Automated SPEI - Arcus',
  failReason: '',
  createTime: ms(2000),
  updateTime: ms(2100),
};

/** B26 rows, docs/merchant-payments.md "The simulator and the sandbox API" beneficiary review. */
export const beneficiarySchema = object({
  id: described(integer, 'userPaymentId'),
  merchantId: integer,
  country: countryName,
  fiat: fiatCode,
  paymentId: integer,
  paymentMethodName: string,
  realName: string,
  status: beneficiaryStatus,
  failReason: string,
  hasRefundAccount: oneOfValues([0, 1]),
  fieldList: fields,
  remark: string,
  createTime: described(millis, 'ms since the Unix epoch (a number here, unlike most area B times)'),
});
const speiFields = { 'CLABE number': '012180001234567891', 'Account number/card': '', 'Beneficiary Name': 'Juan Perez' };
const beneficiaryExample = {
  id: 1003,
  merchantId: 2,
  country: 'Mexico',
  fiat: 'MXN',
  paymentId: 58,
  paymentMethodName: 'Automated SPEI - Arcus',
  realName: 'Juan Perez',
  status: 1,
  failReason: '',
  hasRefundAccount: 0,
  fieldList: speiFields,
  remark: '',
  createTime: T + 3000,
};

/** B21 rows, docs/merchant-payments.md "The simulator and the sandbox API" funding settlement. */
export const fundingRecordSchema = object({
  txId: integer,
  merchantId: integer,
  merchantName: string,
  clientId: string,
  orderId: described(string, 'the order behind it, or ""'),
  fiat: fiatCode,
  totalAmount: decimal,
  amount: decimal,
  fee: decimal,
  userPaymentId: integer,
  type: oneOfValues(FUNDING_TYPES),
  status: fundingStatus,
  createTime: msText,
  updateTime: msText,
});
const fundingRecordExample = {
  txId: 3000003,
  merchantId: 2,
  merchantName: 'Acme MX',
  clientId: 'claim-0001',
  orderId: '',
  fiat: 'MXN',
  totalAmount: '505.00',
  amount: '500.00',
  fee: '5.00',
  userPaymentId: 1003,
  type: 'WITHDRAW',
  status: 2,
  createTime: ms(4000),
  updateTime: ms(4500),
};

/** B10, docs/merchant-payments.md "The simulator and the sandbox API" user limit. */
const userAccountSchema = object({ userId: integer, country: countryName, companyName: string, kycPassed: boolean, monthLimit: decimal, monthUsed: decimal });
const userAccountExample = { userId: 12, country: 'Mexico', companyName: 'ops@acme.mx', kycPassed: true, monthLimit: '250000.00', monthUsed: '1000.00' };

/** B22, B23. */
const quoteSchema = object({
  price: described(decimal, 'units of `to` per one `from`'),
  quoteId: described(string, '"" unless createQuoteId'),
  expireTime: msTextOrEmpty,
});

const orderTail = {
  quoteId: string,
  remark: string,
  failCode: described(integer, '0, or a docs/merchant-payments.md "Failure codes" code'),
  failReason: string,
  createTime: msText,
  updateTime: msText,
  completedTime: msTextOrEmpty,
};

/** B33 of fiat_to_crypto and crypto_to_fiat; `hidden` are left out of B34 rows. */
function cryptoOrderSchema(listed: boolean): JsonSchema {
  return object({
    orderId: described({ type: 'string', pattern: '^[0-9]+$' }, 'a string here, a number in the create answers'),
    clientId: string,
    orderType: oneOfValues(['fiat_to_crypto', 'crypto_to_fiat']),
    merchantId: integer,
    paymentId: integer,
    userPaymentId: integer,
    country: countryName,
    crypto: cryptoCode,
    fiat: fiatCode,
    orderPrice: decimal,
    cryptoAmount: decimal,
    fiatAmount: decimal,
    fiatFee: decimal,
    orderStatus,
    hasRefund: oneOfValues([0, 1]),
    ...(listed ? {} : { traceNumber: string, paymentInfo: described(fields, 'f2c: where to pay (with Reference); c2f: the beneficiary') }),
    ...orderTail,
  });
}

/** B33 of fiat_to_fiat. */
function globalOrderSchema(listed: boolean): JsonSchema {
  return object({
    orderId: { type: 'string', pattern: '^[0-9]+$' },
    clientId: string,
    orderType: constant('fiat_to_fiat'),
    onRampMerchantId: integer,
    onRampPaymentId: integer,
    onRampCountry: countryName,
    onRampFiat: fiatCode,
    onRampFiatAmount: decimal,
    onRampFiatFee: decimal,
    offRampMerchantId: integer,
    offRampPaymentId: integer,
    offRampCountry: countryName,
    offRampFiat: fiatCode,
    offRampFiatAmount: decimal,
    offRampFiatFee: decimal,
    offArriveRampFiatAmount: decimal,
    orderPrice: decimal,
    orderStatus,
    hasRefund: oneOfValues([0, 1]),
    ...(listed ? {} : { traceNumber: string, onRampPaymentInfo: fields, offRampPaymentInfo: fields }),
    ...orderTail,
  });
}

/** B33 and the docs/merchant-payments.md "The simulator and the sandbox API" order actions: the order as its last committed state wrote it. */
export const orderSchema = anyOf(cryptoOrderSchema(false), globalOrderSchema(false));
const orderRowSchema = anyOf(cryptoOrderSchema(true), globalOrderSchema(true));

const onRampOrderExample = {
  orderId: '10000001',
  clientId: 'order-0001',
  orderType: 'fiat_to_crypto',
  merchantId: 2,
  paymentId: 58,
  userPaymentId: 0,
  country: 'Mexico',
  crypto: 'USDT',
  fiat: 'MXN',
  orderPrice: '19.2639',
  cryptoAmount: '51.8586',
  fiatAmount: '1000.00',
  fiatFee: '1.00',
  orderStatus: 40,
  hasRefund: 0,
  traceNumber: '',
  paymentInfo: { 'Cuenta CLABE': '706180000000000002', 'Beneficiary Name': 'Acme MX', Reference: '10000001' },
  quoteId: '',
  remark: '',
  failCode: 0,
  failReason: '',
  createTime: ms(5000),
  updateTime: ms(5010),
  completedTime: '',
};
const globalOrderExample = {
  orderId: '10000003',
  clientId: 'gp-0001',
  orderType: 'fiat_to_fiat',
  onRampMerchantId: 2,
  onRampPaymentId: 58,
  onRampCountry: 'Mexico',
  onRampFiat: 'MXN',
  onRampFiatAmount: '20000.00',
  onRampFiatFee: '1.00',
  offRampMerchantId: 2,
  offRampPaymentId: 1004,
  offRampCountry: 'United States',
  offRampFiat: 'USD',
  offRampFiatAmount: '103.66',
  offRampFiatFee: '15.00',
  offArriveRampFiatAmount: '88.66',
  orderPrice: '0.051857',
  orderStatus: 60,
  hasRefund: 0,
  traceNumber: 'BRP20250615000003',
  onRampPaymentInfo: { 'Cuenta CLABE': '706180000000000002', 'Beneficiary Name': 'Acme MX', Reference: '10000003' },
  offRampPaymentInfo: { 'Account Owner Type': 'Individual', firstName: 'John', lastName: 'Smith', 'Account Number': '000123456789', 'Routing Number': '021000021', 'Bank Name': 'Chase' },
  quoteId: '',
  remark: '',
  failCode: 0,
  failReason: '',
  createTime: ms(6000),
  updateTime: ms(6400),
  completedTime: ms(6400),
};
const LIST_HIDDEN = new Set(['traceNumber', 'paymentInfo', 'onRampPaymentInfo', 'offRampPaymentInfo']);
const listed = (order: Record<string, unknown>): Record<string, unknown> => Object.fromEntries(Object.entries(order).filter(([key]) => !LIST_HIDDEN.has(key)));

/** B36–B38 (with the deployment's key). */
const webhookSchema = object({
  webhookId: hexId,
  eventType: oneOfValues(WEBHOOK_EVENT_TYPES),
  url: string,
  status: described(webhookStatus, '10 active, 20 disabled, 30 deleted'),
  publicKey: described(string, 'base64 DER SPKI of the key that signs deliveries'),
});
const webhookExample = {
  webhookId: '3f2a9c0d5e6b4a7f8e9d0c1b2a3f4e5d',
  eventType: 'ORDER_WEBHOOK',
  url: 'https://merchant.example/hooks/bourse',
  status: 10,
  publicKey: 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA1IDh3fJ1jaqBV+zYuNCZ8Yai/pbsQ5ryaXH+YeWtf+E6HO6D1bEDfiUxzgTbLv2iv/U5QOy+0ovKLOWXtzpjYX5cmKb5RbBFka8Srjmz0MxXD46Ol/4QFStiVuwvLXmGaVrNRZGdppMsUM15EEWZpVsAzsLHQpzJRM+1NJn6Sc14KvpBHUHe8HyO5ZEe93etUaT66oOdM7S/8R8eVesjJqLRiUaZue4Vjo22BEvfxtmWmeADbJC53hUqrmSWf3OTOphaRT1HHSkzA0JVvOWXPqmYLgw18tslByMoeY4FHGXZwL90ywS7TQgwiM0+5fw0vS91p3izMF2+7HaODaPVUQIDAQAB',
};

/** B40 rows, B41. */
const webhookEventSchema = object({
  eventId: hexId,
  webhookId: hexId,
  eventType: oneOfValues(WEBHOOK_EVENT_TYPES),
  objectId: described(string, 'orderId or txId'),
  objectStatus: string,
  status: oneOfValues(EVENT_STATUSES),
  attempts: integer,
  nextAttemptTime: msTextOrEmpty,
  createTime: msText,
  deliveredTime: msTextOrEmpty,
  payload: described(string, 'the exact body delivered'),
  deliveries: arrayOf(
    object({
      attempt: integer,
      time: msText,
      url: string,
      httpStatus: integer,
      durationMs: integer,
      result: oneOfValues(['SUCCESS', 'FAILED']),
      error: string,
    }),
  ),
});
const webhookEventExample = {
  eventId: '9b1e3c5a7d2f4e6a8c0b1d3f5a7c9e0b',
  webhookId: '3f2a9c0d5e6b4a7f8e9d0c1b2a3f4e5d',
  eventType: 'ORDER_WEBHOOK',
  objectId: '10000001',
  objectStatus: '40',
  status: 'DELIVERED',
  attempts: 1,
  nextAttemptTime: '',
  createTime: ms(5010),
  deliveredTime: ms(5090),
  payload:
    '{"webhookId":"3f2a9c0d5e6b4a7f8e9d0c1b2a3f4e5d","eventId":"9b1e3c5a7d2f4e6a8c0b1d3f5a7c9e0b","eventType":"ORDER_WEBHOOK","orderId":"10000001","clientId":"order-0001","userId":"7","merchantId":2,"orderType":"BUY","fiat":"MXN","fiatAmount":"1000.00","fiatFee":"1.00","crypto":"USDT","cryptoAmount":"51.8586","orderPrice":"19.2639","orderStatus":"40","failCode":0,"failReason":"","createTime":"1750000005000","updateTime":"1750000005010"}',
  deliveries: [{ attempt: 1, time: ms(5050), url: 'https://merchant.example/hooks/bourse', httpStatus: 200, durationMs: 38, result: 'SUCCESS', error: '' }],
};

/** docs/merchant-payments.md "The simulator and the sandbox API" modes. */
const modesSchema = object({
  kyc: oneOfValues(['approve', 'reject', 'manual']),
  accountReview: oneOfValues(['approve', 'reject', 'manual']),
  beneficiaryReview: oneOfValues(['approve', 'reject', 'manual']),
  orderReview: oneOfValues(['approve', 'rfi', 'documents', 'reject', 'manual']),
  payout: oneOfValues(['success', 'fail', 'manual']),
  payoutFailCode: oneOfValues([-7001, -7000]),
  deposit: oneOfValues(['complete', 'manual']),
});
const modesExample = { kyc: 'approve', accountReview: 'approve', beneficiaryReview: 'approve', orderReview: 'approve', payout: 'success', payoutFailCode: -7001, deposit: 'complete' };

/** docs/merchant-payments.md "The simulator and the sandbox API" bank arrival (deposit, or an order's pay-in). */
const arrivalSchema = object({
  result: described(oneOfValues(['ORDER_PAID', 'REFUND', 'DEPOSIT']), 'what the arrival became'),
  orderId: described(string, 'the order paid or refunded, "" for a deposit'),
  txId: described(integer, 'the funding record, 0 when an order was paid'),
});

/** B29–B31, docs/merchant-payments.md "The simulator and the sandbox API" place-on-behalf. */
const createdOrderSchema = object({ orderId: described(integer, 'a number here, a string in B33/B34') });

const paymentRow = object({ paymentId: integer, fiatFee: decimal, paymentType: described(constant(1), 'automatic') });
const pairRow = object({ country: countryName, fiat: fiatCode, crypto: cryptoCode, accuracy: integer });
const speiRow = { paymentId: 58, fiatFee: '1.00', paymentType: 1 };
const pendingFundRow = { paymentId: 70, fiatFee: '0.00', paymentType: 1 };

const TRUE: Answer = { response: constant(true), example: true };

// ── Per endpoint ─────────────────────────────────────────────────────────────────────────────────

export const ANSWERS = {
  B0: { response: object({ token: string, expireTime: msText }), example: { token: '2f6c1b0e-8d7a-4c3b-9e5f-1a2b3c4d5e6f', expireTime: ms(7_200_000) } },
  B1: {
    response: arrayOf(object({ country: countryName, abbr: described(string, 'ISO 3166-1 alpha-2, or "" when the name is not a CLDR name') })),
    example: [
      { country: 'Mexico', abbr: 'MX' },
      { country: 'United States', abbr: 'US' },
    ],
  },
  B2: {
    response: arrayOf(object({ country: countryName, fiat: fiatCode, accuracy: integer })),
    example: [
      { country: 'Mexico', fiat: 'MXN', accuracy: 2 },
      { country: 'United States', fiat: 'USD', accuracy: 2 },
    ],
  },
  B3: { response: arrayOf(object({ crypto: cryptoCode, accuracy: integer })), example: [{ crypto: 'USDT', accuracy: 4 }] },
  B4: { response: arrayOf(pairRow), example: [{ country: 'Mexico', fiat: 'MXN', crypto: 'USDT', accuracy: 4 }] },
  B5: { response: arrayOf(pairRow), example: [{ country: 'Mexico', fiat: 'MXN', crypto: 'USDT', accuracy: 4 }] },
  B6: {
    response: arrayOf(object({ onRampCountry: countryName, onRampFiat: fiatCode, offRampCountry: countryName, offRampFiat: fiatCode, accuracy: integer })),
    example: [{ onRampCountry: 'Mexico', onRampFiat: 'MXN', offRampCountry: 'United States', offRampFiat: 'USD', accuracy: 5 }],
  },
  B7: {
    response: object({ country: countryName, fiat: fiatCode, crypto: cryptoCode, paymentList: arrayOf(paymentRow) }),
    example: { country: 'Mexico', fiat: 'MXN', crypto: 'USDT', paymentList: [speiRow, pendingFundRow] },
  },
  B8: {
    response: object({ country: countryName, fiat: fiatCode, crypto: cryptoCode, paymentList: arrayOf(paymentRow) }),
    example: { country: 'Mexico', fiat: 'MXN', crypto: 'USDT', paymentList: [{ paymentId: 58, fiatFee: '5.00', paymentType: 1 }, pendingFundRow] },
  },
  B9: {
    response: object({ onRampCountry: countryName, onRampFiat: fiatCode, offRampCountry: countryName, offRampFiat: fiatCode, paymentListFrom: arrayOf(paymentRow), paymentListTo: arrayOf(paymentRow) }),
    example: { onRampCountry: 'Mexico', onRampFiat: 'MXN', offRampCountry: 'United States', offRampFiat: 'USD', paymentListFrom: [speiRow], paymentListTo: [{ paymentId: 83, fiatFee: '15.00', paymentType: 1 }] },
  },
  B10: { response: userAccountSchema, example: userAccountExample },
  B11: {
    response: object({
      canDeposit: boolean,
      balances: arrayOf(object({ asset: cryptoCode, assetId: string, assetName: string, total: decimal, free: decimal, locked: decimal })),
    }),
    example: { canDeposit: true, balances: [{ asset: 'USDT', assetId: 'USDT', assetName: 'USDT', total: '500.00000000', free: '500.00000000', locked: '0.00000000' }] },
  },
  B12: {
    response: object({
      allowDeposit: boolean,
      address: string,
      addressExt: string,
      minQuantity: decimal,
      needAddressTag: boolean,
      requiredConfirmNum: integer,
      canWithdrawConfirmNum: integer,
      tokenType: string,
    }),
    example: {
      allowDeposit: true,
      address: 'bourse:trc20:5d41402abc4b2a76b9719d911017c592ae1b3c4d',
      addressExt: '',
      minQuantity: '1.0000',
      needAddressTag: false,
      requiredConfirmNum: 12,
      canWithdrawConfirmNum: 20,
      tokenType: 'TRX_TOKEN',
    },
  },
  B13: {
    response: object({ merchantId: integer, kycLink: described(string, 'the KYC page of this deployment') }),
    example: { merchantId: 2, kycLink: 'https://bourse.example/sandbox/kyc/8c6f0e2b9a7d4c1e3f5a6b7c8d9e0f1a' },
  },
  B14: { response: page('data', merchantSchema), example: pageExample('data', [merchantExample]) },
  B15: {
    response: object({ fiat: fiatCode, status: accountStatus, verifyLink: described(string, 'USD/EUR: the verify page; "" for MXN'), failReason: string }),
    example: { fiat: 'USD', status: 1, verifyLink: 'https://bourse.example/sandbox/verify/0a1b2c3d4e5f60718293a4b5c6d7e8f9', failReason: '' },
  },
  B16: { response: page('data', merchantAccountSchema), example: pageExample('data', [merchantAccountExample]) },
  B17: {
    response: object({ fiat: fiatCode, paymentMethodName: string, fieldList: fields }),
    example: { fiat: 'MXN', paymentMethodName: 'Automated SPEI - Arcus', fieldList: { 'Cuenta CLABE': '706180000000000002', 'Beneficiary Name': 'Acme MX' } },
  },
  B18: {
    response: object({
      txId: integer,
      merchantId: integer,
      clientId: string,
      fiat: fiatCode,
      totalAmount: decimal,
      amount: decimal,
      fee: decimal,
      userPaymentId: integer,
      status: fundingStatus,
      createTime: msText,
    }),
    example: { txId: 3000003, merchantId: 2, clientId: 'claim-0001', fiat: 'MXN', totalAmount: '505.00', amount: '500.00', fee: '5.00', userPaymentId: 1003, status: 1, createTime: ms(4000) },
  },
  B19: {
    response: object({ fiat: fiatCode, feeType: described(oneOfValues([0, 1]), '0 a fixed amount, 1 a fraction of the amount'), fee: decimal }),
    example: { fiat: 'MXN', feeType: 0, fee: '2.00' },
  },
  B20: {
    response: object({
      clientId: string,
      fromId: described(integer, 'the TRANSFER_OUT record'),
      toId: described(integer, 'the TRANSFER_IN record'),
      fiat: fiatCode,
      fiatAmount: decimal,
      totalFiatAmount: decimal,
      fee: decimal,
      createTime: described(millis, 'ms since the Unix epoch (a number here, unlike most area B times)'),
    }),
    example: { clientId: 'tr-0001', fromId: 3000005, toId: 3000006, fiat: 'MXN', fiatAmount: '10.00', totalFiatAmount: '12.00', fee: '2.00', createTime: T + 8000 },
  },
  B21: { response: page('data', fundingRecordSchema), example: pageExample('data', [fundingRecordExample]) },
  B22: { response: quoteSchema, example: { price: '0.05191056', quoteId: 'c0ffee00112233445566778899aabbcc', expireTime: ms(30_000) } },
  B23: { response: quoteSchema, example: { price: '0.051857', quoteId: '', expireTime: '' } },
  B24: {
    response: described(mapOf(constant('')), "the rail's labels, each mapped to \"\""),
    example: { 'CLABE number': '', 'Account number/card': '', 'Beneficiary Name': '' },
  },
  B25: { response: object({ id: described(integer, 'userPaymentId'), status: beneficiaryStatus, failReason: string }), example: { id: 1003, status: 1, failReason: '' } },
  B26: { response: page('record', beneficiarySchema), example: pageExample('record', [beneficiaryExample]) },
  B27: TRUE,
  B28: TRUE,
  B29: { response: createdOrderSchema, example: { orderId: 10000001 } },
  B30: { response: createdOrderSchema, example: { orderId: 10000002 } },
  B31: { response: createdOrderSchema, example: { orderId: 10000003 } },
  B32: TRUE,
  B33: { response: orderSchema, example: onRampOrderExample },
  B34: { response: page('record', orderRowSchema), example: pageExample('record', [listed(globalOrderExample), listed(onRampOrderExample)]) },
  B35: TRUE,
  B36: { response: webhookSchema, example: webhookExample },
  B37: { response: arrayOf(webhookSchema), example: [webhookExample] },
  B38: { response: webhookSchema, example: { ...webhookExample, status: 20 } },
  B39: { response: object({ result: constant(true) }), example: { result: true } },
  B40: { response: page('record', webhookEventSchema), example: pageExample('record', [webhookEventExample]) },
  B41: { response: webhookEventSchema, example: { ...webhookEventExample, status: 'PENDING', nextAttemptTime: ms(9000), deliveredTime: '' } },

  S1: { response: modesSchema, example: modesExample },
  S2: { response: modesSchema, example: { ...modesExample, payout: 'manual' } },
  S3: { response: merchantSchema, example: merchantExample },
  S4: { response: merchantAccountSchema, example: merchantAccountExample },
  S5: { response: beneficiarySchema, example: beneficiaryExample },
  S6: { response: arrivalSchema, example: { result: 'DEPOSIT', orderId: '', txId: 3000002 } },
  S7: { response: object({ merchantId: integer, crypto: cryptoCode, amount: decimal }), example: { merchantId: 2, crypto: 'USDT', amount: '500.0000' } },
  S8: { response: nullable(fundingRecordSchema), example: fundingRecordExample },
  S9: { response: nullable(fundingRecordSchema), example: { ...fundingRecordExample, status: 3 } },
  S10: { response: merchantSchema, example: { ...merchantExample, dayFiatLimit: '50000.00' } },
  S11: { response: userAccountSchema, example: { ...userAccountExample, monthLimit: '500000.00' } },
  S12: { response: createdOrderSchema, example: { orderId: 10000004 } },
  S13: { response: createdOrderSchema, example: { orderId: 10000005 } },
  S14: { response: createdOrderSchema, example: { orderId: 10000006 } },
  S15: { response: orderSchema, example: { ...onRampOrderExample, orderStatus: 30 } },
  S16: { response: arrivalSchema, example: { result: 'ORDER_PAID', orderId: '10000001', txId: 0 } },
  S17: { response: orderSchema, example: globalOrderExample },
  S18: { response: orderSchema, example: { ...onRampOrderExample, orderStatus: 70, failCode: -7004, failReason: 'ORDER_UNPAID_TIMEOUT', completedTime: ms(5900) } },
  S19: { response: orderSchema, example: { ...onRampOrderExample, orderType: 'crypto_to_fiat', paymentId: 0, userPaymentId: 1003, paymentInfo: speiFields, orderStatus: 60, completedTime: ms(5900) } },
  S20: { response: object({ quoteId: string, status: constant('EXPIRED') }), example: { quoteId: 'c0ffee00112233445566778899aabbcc', status: 'EXPIRED' } },
  S21: { response: object({ from: string, to: string, price: decimal }), example: { from: 'MXN', to: 'USDT', price: '19.0000' } },
  S22: TRUE,
} satisfies Record<string, Answer>;


