import { createHash } from 'node:crypto';
import type { AssetKind, OrderStatus, OrderType, Permission, Side, SymbolStatus, TimeInForce, UserType, WithdrawalRow } from '../core/types.js';
import { OrderBook } from '../engine/order-book.js';
import { buildSymbolSpec, type SymbolSpec } from '../engine/symbol-spec.js';
import type { Account } from '../ledger/account.js';
import { ExchangeCore, type ApiKeyRecord } from './exchange-core.js';
import { ClientOrderIds, type ClientOrderIdsImage } from './client-order-ids.js';
import type { LiveOrder } from './live-order.js';

/**
 * The whole core state as canonical JSON: maps become arrays sorted by key, bigints decimal
 * strings, books their orders in priority order. Equal states give equal text, hence equal hashes.
 */
/** 2: client order ids as `ClientOrderIdsImage` (1 listed every order's id; still read). */
const IMAGE_VERSION = 2;

interface CoreImage {
  version: typeof IMAGE_VERSION;
  lastSeq: number;
  lastTs: number;
  counters: Record<string, number>;
  limits: { maxOpenOrdersPerSymbol: number; maxOpenOrdersPerAccount: number };
  defaultFeeRates: [string, string];
  assets: {
    asset: string;
    precision: number;
    kind: AssetKind;
    fullName: string;
    chains: string[];
    withdrawFeeAtoms: string;
    minWithdrawAtoms: string;
    allowDeposit: boolean;
    allowWithdraw: boolean;
    deposits: string;
    withdrawals: string;
  }[];
  users: { userId: number; email: string; userType: UserType; accountIds: number[] }[];
  accounts: {
    accountId: number;
    userId: number;
    accountIndex: number;
    name: string;
    makerFeeRate: string;
    takerFeeRate: string;
    updateTime: number;
    balances: [string, string, string][];
  }[];
  symbols: {
    symbol: string;
    baseAsset: string;
    quoteAsset: string;
    status: SymbolStatus;
    values: string[];
    bookVersion: number;
    bids: number[];
    asks: number[];
  }[];
  orders: {
    orderId: number;
    accountId: number;
    symbol: string;
    clientOrderId: string;
    side: Side;
    type: OrderType;
    timeInForce: TimeInForce;
    priceTicks: number;
    origLots: number;
    quoteAmountAtoms: string;
    executedLots: number;
    cumQuoteAtoms: string;
    lockedAtoms: string;
    status: OrderStatus;
    time: number;
    updateTime: number;
  }[];
  clientOrderIds: ClientOrderIdsImage;
  apiKeys: ApiKeyRecord[];
  withdrawals: { row: WithdrawalRow; amountAtoms: string; feeAtoms: string }[];
  withdrawalClientIds: [number, [string, number][]][];
  transferClientIds: [number, [string, string][]][];
}

const SPEC_VALUES = [
  'tickSizeAtto',
  'stepSizeAtto',
  'minPriceAtto',
  'maxPriceAtto',
  'minQtyAtto',
  'maxQtyAtto',
  'minNotionalAtto',
] as const satisfies readonly (keyof SymbolSpec)[];

const byKey = <T>(a: [string, T], b: [string, T]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

function imageOf(core: ExchangeCore): CoreImage {
  const ledger = core.ledger;
  const sortedEntries = <V>(map: Map<string, V>): [string, V][] => [...map.entries()].sort(byKey);
  return {
    version: IMAGE_VERSION,
    lastSeq: core.lastSeq,
    lastTs: core.lastTs,
    counters: {
      nextOrderId: core.nextOrderId,
      nextTradeId: core.nextTradeId,
      nextDepositId: core.nextDepositId,
      nextWithdrawalId: core.nextWithdrawalId,
      nextUserId: ledger.nextUserId,
      nextAccountId: ledger.nextAccountId,
      nextFlowId: ledger.nextFlowId,
    },
    limits: { ...core.limits },
    defaultFeeRates: [ledger.defaultMakerFeeRate.toString(), ledger.defaultTakerFeeRate.toString()],
    assets: sortedEntries(ledger.assets).map(([, a]) => {
      const totals = ledger.totals.get(a.asset) ?? { deposits: 0n, withdrawals: 0n };
      return {
        asset: a.asset,
        precision: a.precision,
        kind: a.kind,
        fullName: a.fullName,
        chains: [...a.chains],
        withdrawFeeAtoms: a.withdrawFeeAtoms.toString(),
        minWithdrawAtoms: a.minWithdrawAtoms.toString(),
        allowDeposit: a.allowDeposit,
        allowWithdraw: a.allowWithdraw,
        deposits: totals.deposits.toString(),
        withdrawals: totals.withdrawals.toString(),
      };
    }),
    users: [...ledger.users.values()]
      .sort((a, b) => a.userId - b.userId)
      .map((u) => ({ userId: u.userId, email: u.email, userType: u.userType, accountIds: [...u.accountIds] })),
    accounts: [...ledger.accounts.values()]
      .sort((a, b) => a.accountId - b.accountId)
      .map((a) => ({
        accountId: a.accountId,
        userId: a.userId,
        accountIndex: a.accountIndex,
        name: a.name,
        makerFeeRate: a.makerFeeRate.toString(),
        takerFeeRate: a.takerFeeRate.toString(),
        updateTime: a.updateTime,
        balances: sortedEntries(a.balances).map(([asset, b]): [string, string, string] => [asset, b.free.toString(), b.locked.toString()]),
      })),
    symbols: sortedEntries(core.symbols).map(([, s]) => ({
      symbol: s.spec.symbol,
      baseAsset: s.spec.baseAsset,
      quoteAsset: s.spec.quoteAsset,
      status: s.spec.status,
      values: SPEC_VALUES.map((key) => s.spec[key].toString()),
      bookVersion: s.book.version,
      bids: [...s.book.bids.orders()].map((o) => o.orderId),
      asks: [...s.book.asks.orders()].map((o) => o.orderId),
    })),
    orders: [...core.liveOrders.values()]
      .sort((a, b) => a.orderId - b.orderId)
      .map((o) => ({
        ...o,
        quoteAmountAtoms: o.quoteAmountAtoms.toString(),
        cumQuoteAtoms: o.cumQuoteAtoms.toString(),
        lockedAtoms: o.lockedAtoms.toString(),
      })),
    clientOrderIds: core.clientOrderIds.image(core.nextOrderId),
    apiKeys: sortedEntries(core.apiKeys).map(([, k]) => ({ ...k, permissions: [...k.permissions], ipWhitelist: [...k.ipWhitelist] })),
    withdrawals: [...core.withdrawals.values()]
      .sort((a, b) => a.row.withdrawalId - b.row.withdrawalId)
      .map((w) => ({ row: { ...w.row }, amountAtoms: w.amountAtoms.toString(), feeAtoms: w.feeAtoms.toString() })),
    withdrawalClientIds: [...core.withdrawalClientIds.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([accountId, ids]) => [accountId, sortedEntries(ids)]),
    transferClientIds: [...core.transferClientIds.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([accountId, ids]) => [accountId, sortedEntries(ids)]),
  };
}

/** Canonical JSON text of the core state. */
export function serializeCore(core: ExchangeCore): string {
  return JSON.stringify(imageOf(core));
}

/** SHA-256 (hex) of the canonical state. */
export function hashState(stateJson: string): string {
  return createHash('sha256').update(stateJson).digest('hex');
}

export function stateHash(core: ExchangeCore): string {
  return hashState(serializeCore(core));
}

/** What a stored snapshot may hold: this version's image, or an older one still read. */
type StoredImage = Omit<CoreImage, 'version' | 'clientOrderIds'> &
  ({ version: 1; clientOrderIds: [number, [string, number][]][] } | { version: typeof IMAGE_VERSION; clientOrderIds: ClientOrderIdsImage });

/** Rebuilds a core from `serializeCore` output. */
export function restoreCore(stateJson: string): ExchangeCore {
  return restoreSnapshot(stateJson).core;
}

/**
 * Rebuilds a core from a snapshot's text, also from an older version's; `current` says whether
 * that text is what `serializeCore` writes today (only then can the rebuilt state hash to it).
 */
export function restoreSnapshot(stateJson: string): { core: ExchangeCore; current: boolean } {
  const image = JSON.parse(stateJson) as StoredImage;
  if (image.version !== 1 && image.version !== IMAGE_VERSION) throw new Error(`unknown snapshot version ${String((image as { version: unknown }).version)}`);
  const core = new ExchangeCore();
  const ledger = core.ledger;
  ledger.users.clear();
  ledger.accounts.clear();
  core.lastSeq = image.lastSeq;
  core.lastTs = image.lastTs;
  const c = image.counters;
  core.nextOrderId = c.nextOrderId;
  core.nextTradeId = c.nextTradeId;
  core.nextDepositId = c.nextDepositId;
  core.nextWithdrawalId = c.nextWithdrawalId;
  ledger.nextUserId = c.nextUserId;
  ledger.nextAccountId = c.nextAccountId;
  ledger.nextFlowId = c.nextFlowId;
  core.limits = { ...image.limits };
  ledger.defaultMakerFeeRate = BigInt(image.defaultFeeRates[0]);
  ledger.defaultTakerFeeRate = BigInt(image.defaultFeeRates[1]);
  for (const a of image.assets) {
    ledger.addAsset({
      asset: a.asset,
      precision: a.precision,
      kind: a.kind,
      fullName: a.fullName,
      chains: a.chains,
      withdrawFeeAtoms: BigInt(a.withdrawFeeAtoms),
      minWithdrawAtoms: BigInt(a.minWithdrawAtoms),
      allowDeposit: a.allowDeposit,
      allowWithdraw: a.allowWithdraw,
    });
    ledger.totals.set(a.asset, { deposits: BigInt(a.deposits), withdrawals: BigInt(a.withdrawals) });
  }
  for (const u of image.users) ledger.users.set(u.userId, { ...u, accountIds: [...u.accountIds] });
  for (const a of image.accounts) {
    const account: Account = {
      accountId: a.accountId,
      userId: a.userId,
      accountIndex: a.accountIndex,
      name: a.name,
      makerFeeRate: BigInt(a.makerFeeRate),
      takerFeeRate: BigInt(a.takerFeeRate),
      updateTime: a.updateTime,
      balances: new Map(a.balances.map(([asset, free, locked]) => [asset, { free: BigInt(free), locked: BigInt(locked) }])),
      openOrderCount: 0,
      openOrdersBySymbol: new Map(),
    };
    ledger.accounts.set(account.accountId, account);
  }
  for (const o of image.orders) {
    const order: LiveOrder = {
      ...o,
      quoteAmountAtoms: BigInt(o.quoteAmountAtoms),
      cumQuoteAtoms: BigInt(o.cumQuoteAtoms),
      lockedAtoms: BigInt(o.lockedAtoms),
    };
    core.liveOrders.set(order.orderId, order);
    core.openOrderIdsOf(order.accountId).add(order.orderId);
    const account = ledger.account(order.accountId);
    account.openOrderCount++;
    account.openOrdersBySymbol.set(order.symbol, (account.openOrdersBySymbol.get(order.symbol) ?? 0) + 1);
  }
  for (const s of image.symbols) {
    const base = ledger.asset(s.baseAsset);
    const quote = ledger.asset(s.quoteAsset);
    const [tick, step, minPrice, maxPrice, minQty, maxQty, minNotional] = s.values.map((v) => BigInt(v));
    const spec = buildSymbolSpec({
      symbol: s.symbol,
      baseAsset: s.baseAsset,
      quoteAsset: s.quoteAsset,
      basePrecision: base.precision,
      quotePrecision: quote.precision,
      tickSizeAtto: tick,
      stepSizeAtto: step,
      minPriceAtto: minPrice,
      maxPriceAtto: maxPrice,
      minQtyAtto: minQty,
      maxQtyAtto: maxQty,
      minNotionalAtto: minNotional,
    });
    if (typeof spec === 'string') throw new Error(`snapshot symbol ${s.symbol}: ${spec}`);
    spec.status = s.status;
    const book = new OrderBook();
    for (const orderId of [...s.bids, ...s.asks]) {
      const order = core.liveOrders.get(orderId);
      if (order === undefined) throw new Error(`snapshot book ${s.symbol} names unknown order ${orderId}`);
      book.add(orderId, order.accountId, order.side === 'BUY', order.priceTicks, order.origLots - order.executedLots);
    }
    book.version = s.bookVersion;
    core.symbols.set(s.symbol, { spec, book });
  }
  core.clientOrderIds = image.version === 1 ? ClientOrderIds.fromEntries(image.clientOrderIds) : ClientOrderIds.fromImage(image.clientOrderIds);
  for (const k of image.apiKeys) core.apiKeys.set(k.apiKey, { ...k, permissions: [...k.permissions] as Permission[] });
  for (const w of image.withdrawals) {
    core.withdrawals.set(w.row.withdrawalId, { row: { ...w.row }, amountAtoms: BigInt(w.amountAtoms), feeAtoms: BigInt(w.feeAtoms) });
  }
  for (const [accountId, ids] of image.withdrawalClientIds) core.withdrawalClientIds.set(accountId, new Map(ids));
  for (const [accountId, ids] of image.transferClientIds) core.transferClientIds.set(accountId, new Map(ids));
  return { core, current: image.version === IMAGE_VERSION };
}
