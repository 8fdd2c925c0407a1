import { FLOW_TYPES } from '../../core/types.js';
import {
  anyOf,
  arrayOf,
  boolean,
  constant,
  decimal,
  described,
  digits,
  integer,
  millis,
  object,
  oneOfValues,
  string,
  tuple,
  type JsonSchema,
} from '../response-schema.js';

/**
 * Answer shapes that more than one spot endpoint shares (docs/spot-api.md "Endpoints"), each with a typical value the
 * reference shows. Times are strings of digits in records (orders, trades, funding), JSON numbers
 * in market data and A2: that is what the wire carries.
 */

/** A time in ms since the Unix epoch, written as a string of digits. */
export const millisText: JsonSchema = described(digits, 'ms since the Unix epoch, as a string');

/** The empty object some endpoints answer (A1, A12, A27, A28). */
export const emptyObject: JsonSchema = object({});

const SIDES = ['BUY', 'SELL'];
const ORDER_TYPES = ['LIMIT', 'MARKET', 'LIMIT_MAKER', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'];
const TIME_IN_FORCE = ['GTC', 'IOC', 'FOK'];
const ORDER_STATUSES = ['NEW', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'PENDING_CANCEL', 'REJECTED'];

const ORDER_MEMBERS: Readonly<Record<string, JsonSchema>> = {
  accountId: digits,
  exchangeId: digits,
  symbol: string,
  symbolName: string,
  orderId: digits,
  clientOrderId: string,
  price: described(decimal, '"0" for MARKET orders'),
  origQty: decimal,
  executedQty: decimal,
  cummulativeQuoteQty: decimal,
  avgPrice: decimal,
  status: oneOfValues(ORDER_STATUSES),
  timeInForce: oneOfValues(TIME_IN_FORCE),
  type: oneOfValues(ORDER_TYPES),
  side: oneOfValues(SIDES),
  stopPrice: described(decimal, '"0" unless a stop order (the algoOrders option)'),
  icebergQty: described(decimal, '"0" unless an iceberg order (the algoOrders option)'),
  time: millisText,
  updateTime: millisText,
  isWorking: boolean,
};

/** The order record of docs/spot-api.md "Orders" (A13, A16, A17, A18). */
export const orderSchema: JsonSchema = object(ORDER_MEMBERS);

export const orderExample = {
  accountId: '1000000001',
  exchangeId: '301',
  symbol: 'BTCUSDT',
  symbolName: 'BTCUSDT',
  orderId: '1024',
  clientOrderId: 'my-order-1',
  price: '64250.5',
  origQty: '0.02',
  executedQty: '0.005',
  cummulativeQuoteQty: '321.2525',
  avgPrice: '64250.5',
  status: 'PARTIALLY_FILLED',
  timeInForce: 'GTC',
  type: 'LIMIT',
  side: 'BUY',
  stopPrice: '0',
  icebergQty: '0',
  time: '1732579200000',
  updateTime: '1732579201250',
  isWorking: true,
};

/** A fill of A11's taker order. */
export const fillSchema: JsonSchema = object({ price: decimal, qty: decimal, commission: decimal, commissionAsset: string, tradeId: digits });

/** A11: the record after the engine step, `transactTime` and the taker's fills (empty when it rested whole). */
export const newOrderSchema: JsonSchema = object({ ...ORDER_MEMBERS, transactTime: millisText, fills: arrayOf(fillSchema) });

export const newOrderExample = {
  ...orderExample,
  orderId: '1025',
  clientOrderId: 'my-order-2',
  origQty: '0.01',
  executedQty: '0.01',
  cummulativeQuoteQty: '642.505',
  status: 'FILLED',
  isWorking: false,
  time: '1732579205000',
  updateTime: '1732579205000',
  transactTime: '1732579205000',
  fills: [{ price: '64250.5', qty: '0.01', commission: '0.00001', commissionAsset: 'BTC', tradeId: '5120' }],
};

/** A14: the record after the cancel and when it happened. */
export const canceledOrderSchema: JsonSchema = object({ ...ORDER_MEMBERS, transactTime: millisText });

export const canceledOrderExample = {
  ...orderExample,
  status: 'CANCELED',
  isWorking: false,
  updateTime: '1732579300000',
  transactTime: '1732579300000',
};

/** A20's record: coinsph's and the SDKs' field names together (docs/spot-api.md "Deposits and withdrawals"). */
export const accountTradeSchema: JsonSchema = object({
  id: digits,
  symbol: string,
  symbolName: string,
  orderId: digits,
  matchOrderId: digits,
  price: decimal,
  qty: decimal,
  quoteQty: decimal,
  commission: decimal,
  commissionAsset: string,
  time: millisText,
  isBuyer: boolean,
  isMaker: boolean,
  fee: object({ feeTokenId: string, feeTokenName: string, fee: decimal }),
  feeTokenId: string,
  feeAmount: decimal,
  makerRebate: constant('0'),
});

export const accountTradeExample = {
  id: '5120',
  symbol: 'BTCUSDT',
  symbolName: 'BTCUSDT',
  orderId: '1025',
  matchOrderId: '1019',
  price: '64250.5',
  qty: '0.01',
  quoteQty: '642.505',
  commission: '0.00001',
  commissionAsset: 'BTC',
  time: '1732579205000',
  isBuyer: true,
  isMaker: false,
  fee: { feeTokenId: 'BTC', feeTokenName: 'BTC', fee: '0.00001' },
  feeTokenId: 'BTC',
  feeAmount: '0.00001',
  makerRebate: '0',
};

/** A8's field set with BHEX and Binance-style names (docs/spot-api.md "Market data"). */
export const ticker24hSchema: JsonSchema = object({
  time: millis,
  openTime: millis,
  closeTime: millis,
  symbol: string,
  bestBidPrice: decimal,
  bestAskPrice: decimal,
  bidPrice: decimal,
  bidQty: decimal,
  askPrice: decimal,
  askQty: decimal,
  lastPrice: decimal,
  openPrice: decimal,
  highPrice: decimal,
  lowPrice: decimal,
  prevClosePrice: decimal,
  priceChange: decimal,
  priceChangePercent: decimal,
  weightedAvgPrice: decimal,
  volume: decimal,
  quoteVolume: decimal,
  count: integer,
});

export const ticker24hExample = {
  time: 1732579260000,
  openTime: 1732492860000,
  closeTime: 1732579260000,
  symbol: 'BTCUSDT',
  bestBidPrice: '64250.5',
  bestAskPrice: '64251',
  bidPrice: '64250.5',
  bidQty: '0.42',
  askPrice: '64251',
  askQty: '0.135',
  lastPrice: '64250.5',
  openPrice: '63010',
  highPrice: '64800',
  lowPrice: '62890.25',
  prevClosePrice: '63005.75',
  priceChange: '1240.5',
  priceChangePercent: '0.0196',
  weightedAvgPrice: '63920.17',
  volume: '12.481',
  quoteVolume: '797848.642',
  count: 1832,
};

export const priceTickerSchema: JsonSchema = object({ symbol: string, price: decimal });
export const priceTickerExample = { symbol: 'BTCUSDT', price: '64250.5' };

export const bookTickerSchema: JsonSchema = object({ symbol: string, bidPrice: decimal, bidQty: decimal, askPrice: decimal, askQty: decimal, time: millis });
export const bookTickerExample = { symbol: 'BTCUSDT', bidPrice: '64250.5', bidQty: '0.42', askPrice: '64251', askQty: '0.135', time: 1732579260000 };

/** One symbol's answer with `symbol`, a list with `symbols` or neither (A8–A10). */
export function oneOrList(item: JsonSchema): JsonSchema {
  return anyOf(item, arrayOf(item));
}

/** A book level, `[price, qty]`. */
export const levelSchema: JsonSchema = tuple(decimal, decimal);

/** A7's bar: open time, OHLC, volume, close time, quote volume, trades, taker buy base and quote volume. */
export const klineSchema: JsonSchema = tuple(millis, decimal, decimal, decimal, decimal, decimal, millis, decimal, integer, decimal, decimal);

/** The deposit record of A21. */
export const depositSchema: JsonSchema = object({
  time: millisText,
  orderId: digits,
  accountId: digits,
  token: string,
  tokenId: string,
  tokenName: string,
  address: described(string, 'the A22 address of the first chain; "" for a fiat asset'),
  addressTag: constant(''),
  fromAddress: constant(''),
  fromAddressTag: constant(''),
  quantity: decimal,
  status: constant(2),
  statusCode: constant('DEPOSIT_CAN_WITHDRAW'),
  requiredConfirmNum: constant(0),
  confirmNum: constant(0),
  txid: string,
  txidUrl: constant(''),
});

export const depositExample = {
  time: '1732579100000',
  orderId: '77',
  accountId: '1000000001',
  token: 'USDT',
  tokenId: 'USDT',
  tokenName: 'USDT',
  address: 'bourse:trc20:3f1c0a9d5e6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d',
  addressTag: '',
  fromAddress: '',
  fromAddressTag: '',
  quantity: '2500',
  status: 2,
  statusCode: 'DEPOSIT_CAN_WITHDRAW',
  requiredConfirmNum: 0,
  confirmNum: 0,
  txid: '9c2b6f0e4a1d3c5b7e9f1a2c4e6b8d0f2a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2b',
  txidUrl: '',
};

/** The withdrawal record of A24/A25: 1 auditing, 2 rejected, 6 sent. */
export const withdrawalSchema: JsonSchema = object({
  time: millisText,
  orderId: digits,
  clientOrderId: string,
  accountId: digits,
  tokenId: string,
  tokenName: string,
  chainType: string,
  address: string,
  addressExt: string,
  quantity: decimal,
  arriveQuantity: decimal,
  statusCode: oneOfValues(['BROKER_AUDITING_STATUS', 'BROKER_REJECT_STATUS', 'WITHDRAWAL_SUCCESS_STATUS']),
  status: oneOfValues([1, 2, 6]),
  txid: described(string, '"" until the operator sends it'),
  txidUrl: constant(''),
  walletHandleTime: described(millisText, '"0" while auditing'),
  feeTokenId: string,
  feeTokenName: string,
  fee: decimal,
  requiredConfirmNum: constant(0),
  confirmNum: constant(0),
  kernelId: constant(''),
  isInternalTransfer: constant(false),
});

export const withdrawalExample = {
  time: '1732579400000',
  orderId: '31',
  clientOrderId: 'w-20241126-1',
  accountId: '1000000001',
  tokenId: 'USDT',
  tokenName: 'USDT',
  chainType: 'TRC20',
  address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
  addressExt: '',
  quantity: '100',
  arriveQuantity: '100',
  statusCode: 'WITHDRAWAL_SUCCESS_STATUS',
  status: 6,
  txid: '5e1f7a3c9b2d4e6f8a0c1b3d5f7e9a2c4b6d8f0e1a3c5b7d9f2e4a6c8b0d1f3e',
  txidUrl: '',
  walletHandleTime: '1732580000000',
  feeTokenId: 'USDT',
  feeTokenName: 'USDT',
  fee: '1',
  requiredConfirmNum: 0,
  confirmNum: 0,
  kernelId: '',
  isInternalTransfer: false,
};

/** The balance flow row of A31 (docs/spot-api.md "Balance flow"). */
export const flowSchema: JsonSchema = object({
  id: digits,
  accountId: digits,
  token: string,
  tokenId: string,
  tokenName: string,
  flowTypeValue: oneOfValues(Object.values(FLOW_TYPES)),
  flowType: oneOfValues(Object.keys(FLOW_TYPES)),
  flowName: string,
  change: described(decimal, 'signed'),
  total: described(decimal, 'free + locked of the asset right after this row'),
  created: millisText,
});

export const flowExample = {
  id: '2048',
  accountId: '1000000001',
  token: 'USDT',
  tokenId: 'USDT',
  tokenName: 'USDT',
  flowTypeValue: 51,
  flowType: 'USER_ACCOUNT_TRANSFER',
  flowName: 'Transfer',
  change: '-250.25',
  total: '749.75',
  created: '1732579500000',
};
