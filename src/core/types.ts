/**
 * Shared vocabulary of the core: the commands the state machine accepts, and the rows it derives
 * for the store. Commands are plain JSON (amounts as decimal strings) so that the journal stores
 * them as they are and a replay feeds them back unchanged. Everything random (keys, secrets,
 * transaction ids) is drawn outside the core and carried inside the command.
 */

import type { PaymentCommand } from './payment-commands.js';
import type { WebhookCommand } from './webhook-commands.js';
import type { ModuleRow } from '../payments/rows.js';

export type Side = 'BUY' | 'SELL';
export type OrderType = 'LIMIT' | 'MARKET' | 'LIMIT_MAKER' | StopOrderType;
/** The algo order types of docs/spot-api.md "Stop and iceberg orders": placed untriggered, fired by the last trade price. */
export type StopOrderType = 'STOP_LOSS' | 'STOP_LOSS_LIMIT' | 'TAKE_PROFIT' | 'TAKE_PROFIT_LIMIT';
export const STOP_ORDER_TYPES: readonly StopOrderType[] = ['STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'];
export type TimeInForce = 'GTC' | 'IOC' | 'FOK';
export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'PENDING_CANCEL' | 'REJECTED';
export type SymbolStatus = 'TRADING' | 'HALT' | 'BREAK';
export type UserType = 'user' | 'merchant' | 'system';
export type AssetKind = 'crypto' | 'fiat';

/** Security types of docs/spot-api.md "Security types and permissions", which are also the permission names of a key. */
export const PERMISSIONS = [
  'MARKET_DATA',
  'USER_STREAM',
  'USER_DATA',
  'TRADE',
  'SUB_ACCOUNT_LIST',
  'ACCOUNT_TRANSFER',
  'BALANCE_FLOW',
  'TRANSFER',
  'WITHDRAW',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Balance flow types of docs/spot-api.md "Balance flow" (name → id). */
export const FLOW_TYPES = {
  TRADE: 1,
  FEE: 2,
  TRANSFER: 3,
  DEPOSIT: 4,
  MAKER_REWARD: 27,
  PNL: 28,
  SETTLEMENT: 30,
  LIQUIDATION: 31,
  FUNDING_SETTLEMENT: 32,
  WITHDRAW: 33,
  WITHDRAWAL_FEE: 35,
  USER_ACCOUNT_TRANSFER: 51,
  OTC_BUY_COIN: 65,
  OTC_SELL_COIN: 66,
  ACTIVITY_AWARD: 67,
  INVITATION_REFERRAL_BONUS: 68,
  REGISTER_BONUS: 69,
  AIRDROP: 70,
  MINE_REWARD: 71,
  OTC_FEE: 73,
  OTC_TRADE: 200,
} as const;
export type FlowTypeName = keyof typeof FLOW_TYPES;

/** `flowName` of each flow type (docs/spot-api.md "Balance flow"). */
export const FLOW_NAMES: Readonly<Record<FlowTypeName, string>> = {
  TRADE: 'Trade',
  FEE: 'Fee',
  TRANSFER: 'Transfer',
  DEPOSIT: 'Deposit',
  MAKER_REWARD: 'Maker reward',
  PNL: 'PnL',
  SETTLEMENT: 'Settlement',
  LIQUIDATION: 'Liquidation',
  FUNDING_SETTLEMENT: 'Funding settlement',
  WITHDRAW: 'Withdraw',
  WITHDRAWAL_FEE: 'Withdrawal fee',
  USER_ACCOUNT_TRANSFER: 'Transfer',
  OTC_BUY_COIN: 'OTC buy',
  OTC_SELL_COIN: 'OTC sell',
  ACTIVITY_AWARD: 'Campaign reward',
  INVITATION_REFERRAL_BONUS: 'Referral bonus',
  REGISTER_BONUS: 'Registration reward',
  AIRDROP: 'Airdrop',
  MINE_REWARD: 'Mining reward',
  OTC_FEE: 'OTC fee',
  OTC_TRADE: 'OTC trade',
};

/** The flow type name of an id, if it is one. */
export function flowTypeName(id: number): FlowTypeName | undefined {
  return (Object.keys(FLOW_TYPES) as FlowTypeName[]).find((name) => FLOW_TYPES[name] === id);
}

// ---------------------------------------------------------------- commands

export interface CreateUserCommand {
  type: 'createUser';
  email: string;
  userType: UserType;
  /**
   * Refuse an e-mail another user has. Set by the operator API; absent in commands journaled before
   * the rule, so that an old journal still replays as it was accepted.
   */
  uniqueEmail?: boolean;
}
export interface CreateSubAccountCommand {
  type: 'createSubAccount';
  userId: number;
  name: string;
}
export interface CreateApiKeyCommand {
  type: 'createApiKey';
  userId: number;
  accountIndex: number;
  apiKey: string;
  /** The secret sealed with the data directory's key (never the plain secret). */
  secretSealed: string;
  permissions: Permission[];
  ipWhitelist: string[];
  label: string;
}
export interface RevokeApiKeyCommand {
  type: 'revokeApiKey';
  apiKey: string;
}
export interface AddAssetCommand {
  type: 'addAsset';
  asset: string;
  precision: number;
  kind: AssetKind;
  fullName: string;
  chains: string[];
  withdrawFee: string;
  minWithdraw: string;
  allowDeposit: boolean;
  allowWithdraw: boolean;
}
export interface AddSymbolCommand {
  type: 'addSymbol';
  symbol: string;
  baseAsset: string;
  quoteAsset: string;
  tickSize: string;
  stepSize: string;
  minPrice: string;
  maxPrice: string;
  minQty: string;
  maxQty: string;
  minNotional: string;
}
export interface SetSymbolStatusCommand {
  type: 'setSymbolStatus';
  symbol: string;
  status: SymbolStatus;
}
export interface SetFeeRatesCommand {
  type: 'setFeeRates';
  accountId: number;
  makerFeeRate?: string;
  takerFeeRate?: string;
}
export interface DepositCommand {
  type: 'deposit';
  accountId: number;
  asset: string;
  amount: string;
  txId: string;
}
export interface WithdrawCommand {
  type: 'withdraw';
  accountId: number;
  asset: string;
  amount: string;
  address: string;
  addressExt: string;
  chainType: string;
  clientOrderId: string;
}
export interface SettleWithdrawalCommand {
  type: 'settleWithdrawal';
  withdrawalId: number;
  approve: boolean;
  txId: string;
  reason: string;
}
export interface TransferCommand {
  type: 'transfer';
  fromAccountId: number;
  toAccountId: number;
  asset: string;
  amount: string;
  flowType: FlowTypeName;
  /** A32: unique per source account; a retry with the same values is answered again, other values -1174. */
  clientOrderId?: string;
}
export interface PlaceOrderCommand {
  type: 'placeOrder';
  accountId: number;
  symbol: string;
  side: Side;
  orderType: OrderType;
  timeInForce: TimeInForce;
  /** Base quantity; for MARKET BUY the quote amount (docs/spot-api.md "MARKET BUY amount"). */
  quantity: string;
  /** Limit price; absent for MARKET. */
  price?: string;
  /** Trigger price of a stop order (docs/spot-api.md "Stop and iceberg orders"); absent otherwise. */
  stopPrice?: string;
  /** Visible part of an iceberg order, in base; absent otherwise. */
  icebergQty?: string;
  clientOrderId?: string;
  /** Client's request time and window, checked against the sequencer's time (docs/spot-api.md "Timestamp and recvWindow"). */
  timestamp?: number;
  recvWindow?: number;
  /** A12: validate against current state, change nothing. */
  test?: boolean;
}
export interface CancelOrderCommand {
  type: 'cancelOrder';
  accountId: number;
  orderId?: number;
  clientOrderId?: string;
}
export interface CancelOrdersCommand {
  type: 'cancelOrders';
  accountId: number;
  symbol?: string;
  side?: Side;
}

/** Trading settings the core enforces (docs/operating.md "Trading settings and listings" `trading/config`); absent fields stay as they are. */
export interface SetTradingConfigCommand {
  type: 'setTradingConfig';
  maxOpenOrdersPerSymbol?: number;
  maxOpenOrdersPerAccount?: number;
  defaultMakerFeeRate?: string;
  defaultTakerFeeRate?: string;
  /** Rate limits and bans (docs/spot-api.md "Rate limits") and the listenKey validity (docs/spot-api.md "User data streams"): held by the core, enforced by the API's limiter. */
  requestWeightPerMinute?: number;
  ordersPerSecond?: number;
  ordersPerDay?: number;
  banStrikes?: number;
  banBaseMs?: number;
  banMaxMs?: number;
  listenKeyTtlMs?: number;
  /** Stop and iceberg orders (docs/spot-api.md "Stop and iceberg orders") and their limits. */
  algoOrders?: boolean;
  maxAlgoOrdersPerSymbol?: number;
  maxAlgoOrdersPerAccount?: number;
  maxIcebergParts?: number;
}

/** A26 (docs/spot-api.md "User data streams"): the edge drew `listenKey` (64 of [A-Za-z0-9]) for the account of `apiKey`, which issued it. */
export interface OpenListenKeyCommand {
  type: 'openListenKey';
  listenKey: string;
  accountId: number;
  apiKey: string;
}
/** A27: the listenKey's validity restarts at the command's stamp. */
export interface KeepaliveListenKeyCommand {
  type: 'keepaliveListenKey';
  listenKey: string;
  accountId: number;
}
/** A28: the listenKey ends. */
export interface CloseListenKeyCommand {
  type: 'closeListenKey';
  listenKey: string;
  accountId: number;
}

/**
 * An IP ban of docs/spot-api.md "Rate limits", journaled so that every node of a deployment (and every restart)
 * refuses the address: the node whose limiter started it submits it (through the leader), as does the operator (O29).
 */
export interface IpBannedCommand {
  type: 'ipBanned';
  /** As the limiter keys it: IPv4 dotted, IPv6 in its compressed lower-case form. */
  ip: string;
  /** End of the ban, ms since the epoch. */
  bannedUntil: number;
  /** n of "the n-th ban", which set its length. */
  banCount: number;
}
/** O14: the ban on `ip` ends, and its count is forgotten. */
export interface IpBanLiftedCommand {
  type: 'ipBanLifted';
  ip: string;
}

export type Command =
  | CreateUserCommand
  | CreateSubAccountCommand
  | CreateApiKeyCommand
  | RevokeApiKeyCommand
  | AddAssetCommand
  | AddSymbolCommand
  | SetSymbolStatusCommand
  | SetFeeRatesCommand
  | DepositCommand
  | WithdrawCommand
  | SettleWithdrawalCommand
  | TransferCommand
  | PlaceOrderCommand
  | CancelOrderCommand
  | CancelOrdersCommand
  | SetTradingConfigCommand
  | OpenListenKeyCommand
  | KeepaliveListenKeyCommand
  | CloseListenKeyCommand
  | IpBannedCommand
  | IpBanLiftedCommand
  | PaymentCommand
  | WebhookCommand;

export type CommandType = Command['type'];

/** A command as the sequencer stamped it: its place in the one order, and the time it was taken. */
export interface StampedCommand {
  seq: number;
  ts: number;
  command: Command;
}

// ---------------------------------------------------------------- derived rows (read models)

/** Order record in its latest state; amounts as canonical decimal strings. */
export interface OrderRow {
  orderId: number;
  accountId: number;
  symbol: string;
  clientOrderId: string;
  side: Side;
  type: OrderType;
  timeInForce: TimeInForce;
  price: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  status: OrderStatus;
  /** `"0"` when unset. */
  stopPrice: string;
  /** `"0"` when unset. */
  icebergQty: string;
  /** Open and, for a stop order, triggered: what the record's `isWorking` and W1 `w` show. */
  isWorking: boolean;
  time: number;
  updateTime: number;
}

/** One side of a trade: each trade yields a row for the buyer and one for the seller. */
export interface TradeRow {
  tradeId: number;
  accountId: number;
  symbol: string;
  orderId: number;
  matchOrderId: number;
  price: string;
  qty: string;
  quoteQty: string;
  commission: string;
  commissionAsset: string;
  isBuyer: boolean;
  isMaker: boolean;
  time: number;
}

export interface FlowRow {
  flowId: number;
  accountId: number;
  asset: string;
  flowType: number;
  /** Signed canonical decimal. */
  change: string;
  /** free + locked of that asset right after this row. */
  total: string;
  created: number;
  /** Sequence number of the command that made the row. */
  seq: number;
}

/**
 * A balance-flow row as the ledger derives it: amounts in atoms of the asset, formatted as
 * `FlowRow` text by the writer, off the matching path.
 */
export interface FlowPosting {
  flowId: number;
  accountId: number;
  asset: string;
  flowType: number;
  changeAtoms: bigint;
  /** free + locked of that asset right after this row. */
  totalAtoms: bigint;
  /** The asset's decimals, which the atoms count in. */
  precision: number;
  created: number;
  seq: number;
}

export interface DepositRow {
  depositId: number;
  accountId: number;
  asset: string;
  amount: string;
  txId: string;
  time: number;
}

export interface WithdrawalRow {
  withdrawalId: number;
  accountId: number;
  clientOrderId: string;
  asset: string;
  chainType: string;
  address: string;
  addressExt: string;
  amount: string;
  fee: string;
  /** 1 auditing, 2 rejected, 6 sent (docs/spot-api.md "Deposits and withdrawals"). */
  status: number;
  txId: string;
  time: number;
  updateTime: number;
}

/** A fill as the order it belongs to saw it. */
export interface FillFacts {
  tradeId: number;
  price: string;
  qty: string;
  commission: string;
  commissionAsset: string;
  isMaker: boolean;
  matchOrderId: number;
}

/** What one step did to one order (acceptance, a fill, a cancel), in engine order: W1 `executionReport`. */
export interface OrderEvent {
  kind: 'order';
  seq: number;
  time: number;
  accountId: number;
  /** The order after the event. */
  order: OrderRow;
  fill?: FillFacts;
}

/** The assets whose free or locked balance one step changed in one account: W1 `outboundAccountInfo`. */
export interface BalanceAtoms {
  asset: string;
  free: bigint;
  locked: bigint;
  /** The asset's decimals, which the atoms count in. */
  precision: number;
}

export interface BalanceEvent {
  kind: 'balance';
  seq: number;
  time: number;
  accountId: number;
  /** Free and locked of each changed asset right after the step, by asset name, in atoms (formatted by the stream that sends them). */
  balances: BalanceAtoms[];
}

export type CoreEvent = OrderEvent | BalanceEvent;

/**
 * Rows derived from the commands of one batch, written in the same transaction; `events` are not
 * stored: they feed the user data streams after the commit.
 */
export interface DerivedRows {
  orders: OrderRow[];
  trades: TradeRow[];
  flows: FlowPosting[];
  deposits: DepositRow[];
  withdrawals: WithdrawalRow[];
  events: CoreEvent[];
  /** Area B's typed rows (funding records, payment orders, webhooks), in the order derived. */
  moduleRows: ModuleRow[];
  /**
   * Commands a command made due at once (an automatic decision, docs/merchant-payments.md "Lifecycles"): the sequencer
   * applies each right after it, in the same batch, as a journaled command of its own. Not stored.
   */
  followUps: Command[];
}

export function emptyDerivedRows(): DerivedRows {
  return { orders: [], trades: [], flows: [], deposits: [], withdrawals: [], events: [], moduleRows: [], followUps: [] };
}

const ROW_LISTS = ['orders', 'trades', 'flows', 'deposits', 'withdrawals', 'events', 'moduleRows', 'followUps'] as const satisfies readonly (keyof DerivedRows)[];

/** How many rows of each kind there are now, to undo what a refused command appended. */
export function markRows(rows: DerivedRows): number[] {
  return ROW_LISTS.map((list) => rows[list].length);
}

export function truncateRows(rows: DerivedRows, marks: readonly number[]): void {
  ROW_LISTS.forEach((list, i) => (rows[list].length = marks[i]));
}

export function derivedRowCount(rows: DerivedRows): number {
  return ROW_LISTS.reduce((sum, list) => (list === 'events' || list === 'followUps' ? sum : sum + rows[list].length), 0);
}
