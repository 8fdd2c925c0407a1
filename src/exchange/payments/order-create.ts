import { refuse } from '../../core/payment-errors.js';
import type { CreatePaymentOrderCommand, OrderRequest } from '../../core/payment-commands.js';
import { cryptoSpec, fiatSpec, PENDING_FUND_RAIL, refuseCountryMismatch, type RailSpec } from '../../payments/config.js';
import { formatFixed, unitsOf } from '../../payments/money.js';
import { BENEFICIARY_VALID, NORMAL, type Beneficiary, type Merchant } from '../../payments/model.js';
import { fiatToFiatAmounts, offRampAmounts, onRampAmounts, USD_VALUE_ACCURACY } from '../../payments/order-amounts.js';
import { ORDER, type Money, type OrderLeg, type PaymentOrder } from '../../payments/orders.js';
import { amountOf, openAccountOf } from './funding-records.js';
import { addUsage, checkLimits, usageKey, usdCents, type LimitCharge } from './order-limits.js';
import { clientPrice } from './order-pricing.js';
import { begin } from './order-transitions.js';
import { atomsOf, ownMerchant, type PaymentsContext } from './payments-context.js';

const money = (units: bigint, accuracy: number): Money => ({ units, accuracy });

/** The user's merchant named, or its lowest-numbered verified one (docs/merchant-payments.md "Endpoints served": single-merchant integrations omit it). */
function orderMerchant(p: PaymentsContext, userId: number, merchantId: number | undefined): Merchant {
  if (merchantId !== undefined) return ownMerchant(p, userId, merchantId);
  const own = [...p.state.merchants.values()].filter((m) => m.userId === userId && m.status === NORMAL).sort((a, b) => a.merchantId - b.merchantId);
  return own[0] ?? refuse('MC_NOT_EXIST', 'The user has no verified merchant');
}

function verified(merchant: Merchant): Merchant {
  if (merchant.status !== NORMAL) refuse('NEED_PASS_KYC_OR_KYB', `Merchant ${merchant.merchantId} has not passed KYC`);
  return merchant;
}

function rail(p: PaymentsContext, paymentId: number): RailSpec {
  return p.state.config.rails.find((r) => r.paymentId === paymentId) ?? refuse('PAYMENT_INVALID', `paymentId ${paymentId} is not a rail`);
}

/** docs/merchant-payments.md "Order creation checks" step 6: a valid beneficiary of the merchant, in the fiat. */
function payoutBeneficiary(p: PaymentsContext, merchant: Merchant, userPaymentId: number, fiat: string): Beneficiary {
  const beneficiary = p.state.beneficiaries.get(userPaymentId);
  if (beneficiary === undefined || beneficiary.merchantId !== merchant.merchantId) refuse('PAYMENT_NOT_EXIST', `Beneficiary ${userPaymentId} is not merchant ${merchant.merchantId}'s`);
  if (beneficiary.status !== BENEFICIARY_VALID) refuse('PAYMENT_INVALID', `Beneficiary ${userPaymentId} is not valid (status ${beneficiary.status})`);
  if (beneficiary.fiat !== fiat) refuse('PAYMENT_FIAT_AND_ORDER_NOT_MATCH', `Beneficiary ${userPaymentId} is paid in ${beneficiary.fiat}`);
  return beneficiary;
}

function feeOf(text: string | undefined, accuracy: number): bigint {
  return unitsOf(text ?? '0', accuracy) ?? 0n;
}

/** The fiat of `fiat` in `country`, and its accuracy (docs/merchant-payments.md "Order creation checks" step 3). */
function countryFiat(p: PaymentsContext, country: string, fiat: string): number {
  const spec = fiatSpec(p.state.config, fiat);
  if (spec === undefined) refuse('SYMBOL_INVALID', `Fiat ${fiat} is not configured`);
  refuseCountryMismatch(p.state.config, fiat, country);
  return spec.accuracy;
}

/** Step 9: the order's fiat amount within the fiat's min and max. */
function withinOrderRange(p: PaymentsContext, fiat: string, amount: Money): void {
  const spec = fiatSpec(p.state.config, fiat);
  if (spec === undefined) return;
  const min = unitsOf(spec.orderMin, amount.accuracy) ?? 0n;
  const max = unitsOf(spec.orderMax, amount.accuracy) ?? 0n;
  if (amount.units < min) refuse('ORDER_MIN_AMOUNT', `min ${formatFixed(min, amount.accuracy)} ${fiat}`);
  if (max > 0n && amount.units > max) refuse('ORDER_MAX_AMOUNT', `max ${formatFixed(max, amount.accuracy)} ${fiat}`);
}

/** Step 11: open (non-terminal) orders of the merchant. */
function openOrdersOf(p: PaymentsContext, merchantId: number): number {
  let count = 0;
  for (const orderId of p.state.openOrders) {
    const order = p.state.orders.get(orderId);
    if ((order?.onRamp?.merchantId ?? order?.merchantId) === merchantId) count++;
  }
  return count;
}

/** Step 7: the user's own ACTIVE quote for this conversion, its price locked for the amount quoted. */
function quotedPrice(p: PaymentsContext, cmd: CreatePaymentOrderCommand, from: string, to: string, amount: Money): Money | undefined {
  if (cmd.quoteId === '') return undefined;
  const quote = p.state.quotes.get(cmd.quoteId);
  if (quote === undefined || quote.userId !== cmd.userId || quote.expireTime <= p.ctx.ts) refuse('OTC_QUOTE_EXPIRED', `Quote ${cmd.quoteId} is expired, used or unknown`);
  if (quote.kind !== cmd.order.kind || quote.from !== from || quote.to !== to || amount.units * 10n ** BigInt(quote.amount.accuracy) > quote.amount.units * 10n ** BigInt(amount.accuracy)) {
    refuse('PARAM_IS_INVALID', `quoteId ${cmd.quoteId} was given for another conversion or a smaller amount`);
  }
  return quote.price;
}

/** The desk's free balance must cover what the order reserves from it (-5031). */
function deskCovers(p: PaymentsContext, asset: string, amount: Money): void {
  const desk = p.ledger.account(p.state.deskAccountId);
  if (p.ledger.free(desk, asset) < atomsOf(p, asset, amount.units, amount.accuracy)) refuse('TRADE_TEMP_NOT_PROCEED', `The desk cannot cover ${formatFixed(amount.units, amount.accuracy)} ${asset} now`);
}

function merchantCovers(p: PaymentsContext, merchant: Merchant, asset: string, amount: Money): void {
  if (p.ledger.free(p.ledger.account(merchant.accountId), asset) < atomsOf(p, asset, amount.units, amount.accuracy)) {
    refuse('INSUFFICIENT_BALANCE', `Merchant ${merchant.merchantId} holds less than ${formatFixed(amount.units, amount.accuracy)} ${asset}`);
  }
}

function charges(p: PaymentsContext, userId: number, merchant: Merchant, fiat: string, fiatSide: Money, extra: LimitCharge[]): LimitCharge[] {
  const ts = p.ctx.ts;
  const cents = usdCents(p.state, fiat, fiatSide);
  const userLimit = p.state.userLimits.get(userId) ?? p.state.config.limits.monthLimit;
  // Whole literals: one that spreads a shared base is built on V8's slow path, at every order.
  const usd = (key: string, limit: string, code: LimitCharge['code'], name: string): LimitCharge => ({ key, amount: cents, limit, code, name, accuracy: USD_VALUE_ACCURACY });
  return [
    usd(usageKey.user(userId, ts), userLimit, 'ORDER_UID_EXCEED_LIMIT', 'monthLimit'),
    usd(usageKey.merchantDay(merchant.merchantId, ts), merchant.limits.dayFiatLimit, 'ORDER_MC_EXCEED_LIMIT', 'dayFiatLimit'),
    usd(usageKey.merchantMonth(merchant.merchantId, ts), merchant.limits.monthFiatLimit, 'ORDER_MC_EXCEED_LIMIT', 'monthFiatLimit'),
    ...extra,
  ];
}

function accountLimit(p: PaymentsContext, merchant: Merchant, fiat: string, side: 'buy' | 'sell', amount: Money): LimitCharge {
  const account = p.state.merchantAccounts.get(`${merchant.merchantId}:${fiat}`);
  const ts = p.ctx.ts;
  return {
    key: side === 'buy' ? usageKey.accountBuy(merchant.merchantId, fiat, ts) : usageKey.accountSell(merchant.merchantId, fiat, ts),
    amount: amount.units,
    accuracy: amount.accuracy,
    limit: (side === 'buy' ? account?.buyAmountLimit : account?.sellAmountLimit) ?? '0',
    code: 'ORDER_MC_EXCEED_LIMIT',
    name: side === 'buy' ? 'buyAmountLimit' : 'sellAmountLimit',
  };
}

function blankOrder(p: PaymentsContext, cmd: CreatePaymentOrderCommand): PaymentOrder {
  const zero = money(0n, 0);
  return {
    orderId: p.state.nextOrderId,
    userId: cmd.userId,
    kind: cmd.order.kind,
    clientId: cmd.clientId,
    remark: cmd.remark,
    quoteId: cmd.quoteId,
    status: ORDER.REVIEW,
    failCode: 0,
    failReason: '',
    hasRefund: false,
    traceNumber: '',
    documents: 0,
    createTime: p.ctx.ts,
    updateTime: p.ctx.ts,
    completedTime: 0,
    merchantId: 0,
    country: '',
    fiat: '',
    crypto: '',
    paymentId: 0,
    userPaymentId: 0,
    orderPrice: zero,
    fiatAmount: zero,
    fiatFee: zero,
    cryptoAmount: zero,
    gross: zero,
    onRamp: undefined,
    offRamp: undefined,
    deadline: undefined,
    usage: [],
    // Its first status (10, or 30 on behalf) is logged by the first move, `begin`, like every other.
    statusLog: [],
  };
}

type Planned = { order: PaymentOrder; charges: LimitCharge[]; fundedFromPendingFund: boolean };

function planOnRamp(p: PaymentsContext, cmd: CreatePaymentOrderCommand, req: Extract<OrderRequest, { kind: 'fiat_to_crypto' }>): Planned {
  const config = p.state.config;
  const pair = config.pairs.find((x) => x.fiat === req.fiat && x.crypto === req.crypto);
  if (pair === undefined) refuse('SYMBOL_INVALID', `${req.fiat}/${req.crypto} is not a configured pair`);
  if (!pair.buy) refuse('SYMBOL_BUY_CLOSED', `Buying ${req.crypto} with ${req.fiat} is closed`);
  const fiatAccuracy = countryFiat(p, req.country, req.fiat);
  const crypto = cryptoSpec(config, req.crypto) ?? refuse('TOKEN_NOT_SUPPORT', `Token ${req.crypto} is not supported`);
  const fiatAmount = money(amountOf(req.fiatAmount, fiatAccuracy, 'fiatAmount'), fiatAccuracy);
  const payIn = rail(p, req.paymentId);
  if (payIn.paymentId !== PENDING_FUND_RAIL && payIn.fiat !== req.fiat) refuse('PAYMENT_FIAT_AND_ORDER_NOT_MATCH', `Rail ${payIn.paymentId} takes ${payIn.fiat}, not ${req.fiat}`);
  const merchant = verified(orderMerchant(p, cmd.userId, req.merchantId));
  openAccountOf(p, merchant, req.fiat);
  const fee = money(feeOf(payIn.payInFee, fiatAccuracy), fiatAccuracy);
  const size = money(fiatAmount.units - fee.units, fiatAccuracy);
  const price = quotedPrice(p, cmd, req.fiat, req.crypto, fiatAmount) ?? clientPrice(p.state, p.ports.books, { userId: cmd.userId, kind: req.kind, fiat: req.fiat, crypto: req.crypto, toFiat: '', size: size.units > 0n ? size : undefined });
  if (price === undefined) refuse('RATE_INVALID', `No price for ${req.crypto} in ${req.fiat} now`);
  withinOrderRange(p, req.fiat, fiatAmount);
  const amounts = onRampAmounts(fiatAmount.units, fee.units, fiatAccuracy, price.units, price.accuracy, crypto.accuracy);
  if (!amounts.positive) refuse('ORDER_MIN_AMOUNT', 'Nothing would be left after the fee');
  const order = blankOrder(p, cmd);
  Object.assign(order, {
    merchantId: merchant.merchantId,
    country: req.country,
    fiat: req.fiat,
    crypto: req.crypto,
    paymentId: payIn.paymentId,
    orderPrice: price,
    fiatAmount,
    fiatFee: fee,
    cryptoAmount: money(amounts.cryptoAmount, crypto.accuracy),
  });
  return { order, charges: charges(p, cmd.userId, merchant, req.fiat, fiatAmount, [accountLimit(p, merchant, req.fiat, 'buy', fiatAmount)]), fundedFromPendingFund: payIn.paymentId === PENDING_FUND_RAIL };
}

function planOffRamp(p: PaymentsContext, cmd: CreatePaymentOrderCommand, req: Extract<OrderRequest, { kind: 'crypto_to_fiat' }>): Planned {
  const config = p.state.config;
  const pair = config.pairs.find((x) => x.fiat === req.fiat && x.crypto === req.crypto);
  if (pair === undefined) refuse('SYMBOL_INVALID', `${req.crypto}/${req.fiat} is not a configured pair`);
  if (!pair.sell) refuse('SYMBOL_SELL_CLOSED', `Selling ${req.crypto} for ${req.fiat} is closed`);
  const fiatAccuracy = countryFiat(p, req.country, req.fiat);
  const crypto = cryptoSpec(config, req.crypto) ?? refuse('TOKEN_NOT_SUPPORT', `Token ${req.crypto} is not supported`);
  const cryptoAmount = money(amountOf(req.cryptoAmount, crypto.accuracy, 'cryptoAmount'), crypto.accuracy);
  const merchant = verified(orderMerchant(p, cmd.userId, req.merchantId));
  openAccountOf(p, merchant, req.fiat);
  let fee = money(0n, fiatAccuracy);
  if (req.userPaymentId !== PENDING_FUND_RAIL) {
    const beneficiary = payoutBeneficiary(p, merchant, req.userPaymentId, req.fiat);
    fee = money(feeOf(config.rails.find((r) => r.paymentId === beneficiary.paymentId)?.payoutFee, fiatAccuracy), fiatAccuracy);
  }
  const price = quotedPrice(p, cmd, req.crypto, req.fiat, cryptoAmount) ?? clientPrice(p.state, p.ports.books, { userId: cmd.userId, kind: req.kind, fiat: req.fiat, crypto: req.crypto, toFiat: '', size: cryptoAmount });
  if (price === undefined) refuse('RATE_INVALID', `No price for ${req.crypto} in ${req.fiat} now`);
  const amounts = offRampAmounts(cryptoAmount.units, crypto.accuracy, price.units, price.accuracy, fee.units, fiatAccuracy);
  const gross = money(amounts.gross, fiatAccuracy);
  withinOrderRange(p, req.fiat, gross);
  if (!amounts.positive) refuse('ORDER_MIN_AMOUNT', 'Nothing would be left after the fee');
  const fiatAmount = money(amounts.fiatAmount, fiatAccuracy);
  const order = blankOrder(p, cmd);
  Object.assign(order, { merchantId: merchant.merchantId, country: req.country, fiat: req.fiat, crypto: req.crypto, userPaymentId: req.userPaymentId, orderPrice: price, fiatAmount, fiatFee: fee, cryptoAmount, gross });
  const cryptoCharge: LimitCharge = {
    key: usageKey.merchantCrypto(merchant.merchantId, p.ctx.ts),
    amount: usdCents(p.state, req.crypto, cryptoAmount),
    accuracy: USD_VALUE_ACCURACY,
    limit: merchant.limits.monthCryptoLimit,
    code: 'ORDER_MC_EXCEED_LIMIT',
    name: 'monthCryptoLimit',
  };
  return { order, charges: charges(p, cmd.userId, merchant, req.fiat, gross, [cryptoCharge, accountLimit(p, merchant, req.fiat, 'sell', fiatAmount)]), fundedFromPendingFund: false };
}

function planGlobal(p: PaymentsContext, cmd: CreatePaymentOrderCommand, req: Extract<OrderRequest, { kind: 'fiat_to_fiat' }>): Planned {
  const config = p.state.config;
  if (req.onRampFiat === req.offRampFiat || !config.fiatPairs.some((x) => x.onRampFiat === req.onRampFiat && x.offRampFiat === req.offRampFiat)) {
    refuse('SYMBOL_INVALID', `${req.onRampFiat} → ${req.offRampFiat} is not a configured pair`);
  }
  const onAccuracy = countryFiat(p, req.onRampCountry, req.onRampFiat);
  const offAccuracy = countryFiat(p, req.offRampCountry, req.offRampFiat);
  const onAmount = money(amountOf(req.onRampFiatAmount, onAccuracy, 'onRampFiatAmount'), onAccuracy);
  if (req.onRampPaymentId === PENDING_FUND_RAIL || req.offRampPaymentId === PENDING_FUND_RAIL) refuse('SYMBOL_AND_PAYMENT_NOT_MATCH', 'A global payment goes bank to bank: 70 is not allowed');
  const payIn = rail(p, req.onRampPaymentId);
  if (payIn.fiat !== req.onRampFiat) refuse('PAYMENT_FIAT_AND_ORDER_NOT_MATCH', `Rail ${payIn.paymentId} takes ${payIn.fiat}, not ${req.onRampFiat}`);
  const onMerchant = verified(orderMerchant(p, cmd.userId, req.onRampMerchantId));
  const offMerchant = verified(req.offRampMerchantId === undefined ? onMerchant : ownMerchant(p, cmd.userId, req.offRampMerchantId));
  openAccountOf(p, onMerchant, req.onRampFiat);
  openAccountOf(p, offMerchant, req.offRampFiat);
  const beneficiary = payoutBeneficiary(p, offMerchant, req.offRampPaymentId, req.offRampFiat);
  const onFee = money(feeOf(payIn.payInFee, onAccuracy), onAccuracy);
  const offFee = money(feeOf(config.rails.find((r) => r.paymentId === beneficiary.paymentId)?.payoutFee, offAccuracy), offAccuracy);
  const size = money(onAmount.units - onFee.units, onAccuracy);
  const rate =
    quotedPrice(p, cmd, req.onRampFiat, req.offRampFiat, onAmount) ??
    clientPrice(p.state, p.ports.books, { userId: cmd.userId, kind: req.kind, fiat: req.onRampFiat, crypto: '', toFiat: req.offRampFiat, size: size.units > 0n ? size : undefined });
  if (rate === undefined) refuse('RATE_INVALID', `No rate for ${req.onRampFiat} → ${req.offRampFiat} now`);
  withinOrderRange(p, req.onRampFiat, onAmount);
  const amounts = fiatToFiatAmounts(onAmount.units, onFee.units, onAccuracy, rate.units, rate.accuracy, offFee.units, offAccuracy);
  if (!amounts.positive) refuse('ORDER_MIN_AMOUNT', 'Nothing would arrive after the fees');
  const onRamp: OrderLeg = { merchantId: onMerchant.merchantId, country: req.onRampCountry, fiat: req.onRampFiat, paymentId: payIn.paymentId, amount: onAmount, fee: onFee };
  const offAmount = money(amounts.offRampFiatAmount, offAccuracy);
  const offRamp = { merchantId: offMerchant.merchantId, country: req.offRampCountry, fiat: req.offRampFiat, paymentId: beneficiary.userPaymentId, amount: offAmount, fee: offFee, arrive: money(amounts.offArriveRampFiatAmount, offAccuracy) };
  const order = blankOrder(p, cmd);
  Object.assign(order, { merchantId: onMerchant.merchantId, orderPrice: rate, onRamp, offRamp });
  const extra = [accountLimit(p, onMerchant, req.onRampFiat, 'buy', onAmount), accountLimit(p, offMerchant, req.offRampFiat, 'sell', offAmount)];
  return { order, charges: charges(p, cmd.userId, onMerchant, req.onRampFiat, onAmount, extra), fundedFromPendingFund: false };
}

/**
 * B29–B31 and docs/merchant-payments.md "The simulator and the sandbox API" place-on-behalf: the checks of docs/merchant-payments.md "Order creation checks" in their order (first failure wins; nothing
 * created or reserved before the last passes), then the order in 10 (or 30) with its reservations.
 */
export function createPaymentOrder(p: PaymentsContext, cmd: CreatePaymentOrderCommand): { orderId: number } {
  const { state } = p;
  const earlier = cmd.clientId === '' ? undefined : state.orderClientIds.get(cmd.userId)?.get(cmd.clientId);
  if (earlier !== undefined) refuse('REPEATED_SUBMIT_REQUEST', `clientId ${cmd.clientId} was used by order ${earlier}`, { orderId: String(earlier) });
  const plan = cmd.order.kind === 'fiat_to_crypto' ? planOnRamp(p, cmd, cmd.order) : cmd.order.kind === 'crypto_to_fiat' ? planOffRamp(p, cmd, cmd.order) : planGlobal(p, cmd, cmd.order);
  const { order } = plan;
  checkLimits(state, plan.charges);
  if (openOrdersOf(p, order.onRamp?.merchantId ?? order.merchantId) >= state.config.maxOpenOrdersPerMerchant) {
    refuse('PEND_ORDER_NUM_LIMIT', `At most ${state.config.maxOpenOrdersPerMerchant} open orders per merchant`);
  }
  const merchant = state.merchants.get(order.merchantId) as Merchant;
  if (order.kind === 'crypto_to_fiat') merchantCovers(p, merchant, order.crypto, order.cryptoAmount);
  if (plan.fundedFromPendingFund) merchantCovers(p, merchant, order.fiat, order.fiatAmount);
  if (order.kind === 'fiat_to_crypto') deskCovers(p, order.crypto, order.cryptoAmount);
  if (order.kind === 'crypto_to_fiat') deskCovers(p, order.fiat, order.gross);
  if (order.offRamp !== undefined) deskCovers(p, order.offRamp.fiat, order.offRamp.amount);

  state.nextOrderId++;
  state.orders.set(order.orderId, order);
  state.openOrders.add(order.orderId);
  if (cmd.clientId !== '') {
    let ids = state.orderClientIds.get(cmd.userId);
    if (ids === undefined) {
      ids = new Map();
      state.orderClientIds.set(cmd.userId, ids);
    }
    ids.set(cmd.clientId, order.orderId);
  }
  if (cmd.quoteId !== '') state.quotes.delete(cmd.quoteId);
  addUsage(state, order, plan.charges);
  begin(p, order, cmd.onBehalf);
  return { orderId: order.orderId };
}
