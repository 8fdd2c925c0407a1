import { refuse } from '../../core/payment-errors.js';
import type {
  ActivateMerchantAccountCommand,
  CreateMerchantCommand,
  MerchantKycCommand,
  RelinkMerchantCommand,
  ReviewMerchantAccountCommand,
  SetMerchantLimitsCommand,
  SetUserLimitCommand,
} from '../../core/payment-commands.js';
import { fiatSpec } from '../../payments/config.js';
import { formatFixed, unitsOf } from '../../payments/money.js';
import { AUTHENTICATING, FAILED, INCOMPLETE, NORMAL, type Merchant, type MerchantAccount } from '../../payments/model.js';
import { decideLater, merchantOf, merchantUserOf, modesOf, ownMerchant, staleDecision, type Dropped, type PaymentsContext } from './payments-context.js';
import { accountKey } from './payments-state.js';

/** Fiats a merchant account may be opened in (B15); USD and EUR need their terms accepted first. */
const ACCOUNT_FIATS = ['MXN', 'USD', 'EUR'];
const TERMS_FIATS = new Set(['USD', 'EUR']);
const LIMIT_ACCURACY = 2;

/**
 * What a command answers is the object as this command left it: follow-ups applied in the same
 * batch change the live object before the answer is sent, and a create answer shows the first state.
 */
function copyOf<T>(value: T): T {
  return structuredClone(value);
}

/** B13, new merchant: status 4 with a KYC link; its ledger account M is a new sub-account of the user. */
export function createMerchant(p: PaymentsContext, cmd: CreateMerchantCommand): { merchantId: number; kycToken: string } {
  const { state, ledger } = p;
  const user = merchantUserOf(p, cmd.userId);
  const own = [...state.merchants.values()].filter((m) => m.userId === cmd.userId);
  const name = cmd.merchantName.toLowerCase();
  if (own.some((m) => m.merchantName.toLowerCase() === name)) refuse('MC_NAME_EXIST', `Merchant name ${cmd.merchantName} is taken`);
  const email = cmd.email.toLowerCase();
  if (own.some((m) => m.email.toLowerCase() === email)) refuse('EMAIL_EXIST', `E-mail ${cmd.email} is taken`);
  if (own.length >= state.config.maxMerchantsPerUser) refuse('EXCEEDED_MC_NUMBER', `At most ${state.config.maxMerchantsPerUser} merchants per user`);
  const merchantId = state.nextMerchantId++;
  const account = ledger.createAccount(user, `merchant ${merchantId}`);
  account.merchantLedger = true;
  const merchant: Merchant = {
    merchantId,
    userId: cmd.userId,
    accountId: account.accountId,
    merchantName: cmd.merchantName,
    email: cmd.email,
    merchantType: cmd.merchantType,
    country: state.config.defaultCountry,
    status: INCOMPLETE,
    rejectReason: '',
    callbackUrl: cmd.callbackUrl,
    languageCode: cmd.languageCode,
    remark: cmd.remark,
    kycToken: cmd.kycToken,
    limits: { dayFiatLimit: state.config.limits.dayFiatLimit, monthFiatLimit: state.config.limits.monthFiatLimit, monthCryptoLimit: state.config.limits.monthCryptoLimit },
    createTime: p.ctx.ts,
    updateTime: p.ctx.ts,
  };
  state.merchants.set(merchantId, merchant);
  scheduleKyc(p, merchant);
  return { merchantId, kycToken: cmd.kycToken };
}

/** B13, re-link form: a merchant in 3 or 4 gets a new link (the old one dies) and is back in 4. */
export function relinkMerchant(p: PaymentsContext, cmd: RelinkMerchantCommand): { merchantId: number; kycToken: string } {
  const merchant = merchantOf(p, cmd.userId, cmd.merchantId);
  if (merchant.status === AUTHENTICATING) refuse('MC_KYC_REVIEWING', `Merchant ${merchant.merchantId} is under review`);
  if (merchant.status === NORMAL) refuse('MC_KYC_END', `Merchant ${merchant.merchantId} is already verified`);
  merchant.status = INCOMPLETE;
  merchant.rejectReason = '';
  merchant.callbackUrl = cmd.callbackUrl;
  if (cmd.languageCode !== undefined) merchant.languageCode = cmd.languageCode;
  merchant.kycToken = cmd.kycToken;
  merchant.updateTime = p.ctx.ts;
  scheduleKyc(p, merchant);
  return { merchantId: merchant.merchantId, kycToken: cmd.kycToken };
}

/** docs/merchant-payments.md "Lifecycles" transitions: submit 4 → 1, approve 1 → 2, reject 1 → 3; any other -5104. */
export function merchantKyc(p: PaymentsContext, cmd: MerchantKycCommand): Merchant | Dropped {
  const merchant = merchantOf(p, cmd.userId, cmd.merchantId);
  const from = cmd.action === 'submit' ? INCOMPLETE : AUTHENTICATING;
  if (merchant.status !== from) return staleDecision(p, cmd.due, `Merchant ${merchant.merchantId} is in status ${merchant.status}; ${cmd.action} needs ${from}`);
  p.state.decisions.delete(`kyc:${merchant.merchantId}`);
  merchant.updateTime = p.ctx.ts;
  if (cmd.action === 'submit') {
    merchant.status = AUTHENTICATING;
  } else if (cmd.action === 'approve') {
    merchant.status = NORMAL;
  } else {
    merchant.status = FAILED;
    merchant.rejectReason = cmd.rejectReason !== undefined && cmd.rejectReason !== '' ? cmd.rejectReason : 'KYC rejected';
  }
  scheduleKyc(p, merchant);
  return copyOf(merchant);
}

/** The simulator's next KYC step for the merchant's status, when its user's mode is automatic. */
function scheduleKyc(p: PaymentsContext, merchant: Merchant): void {
  const mode = modesOf(p.state, merchant.userId).kyc;
  if (mode === 'manual') return;
  const key = `kyc:${merchant.merchantId}`;
  if (merchant.status === INCOMPLETE) decideLater(p, key, { type: 'merchantKyc', userId: 0, merchantId: merchant.merchantId, action: 'submit' });
  if (merchant.status === AUTHENTICATING) {
    decideLater(p, key, { type: 'merchantKyc', userId: 0, merchantId: merchant.merchantId, action: mode, ...(mode === 'reject' ? { rejectReason: 'Rejected by the sandbox (mode kyc=reject)' } : {}) });
  }
}

/** B15: opens (or re-submits) the merchant's account in a fiat (docs/merchant-payments.md "Lifecycles"). */
export function activateMerchantAccount(p: PaymentsContext, cmd: ActivateMerchantAccountCommand): MerchantAccount {
  const { state } = p;
  const merchant = ownMerchant(p, cmd.userId, cmd.merchantId);
  if (merchant.status !== NORMAL) refuse('NEED_PASS_KYC_OR_KYB', `Merchant ${merchant.merchantId} has not passed KYC`);
  if (!ACCOUNT_FIATS.includes(cmd.fiat) || fiatSpec(state.config, cmd.fiat) === undefined) refuse('FIAT_INVALID', `Fiat ${cmd.fiat} is not supported`);
  const key = accountKey(merchant.merchantId, cmd.fiat);
  let account = state.merchantAccounts.get(key);
  if (account?.status === AUTHENTICATING) refuse('MC_ACCOUNT_REVIEWING', `The ${cmd.fiat} account of merchant ${merchant.merchantId} is under review`);
  if (account?.status === NORMAL) refuse('MC_ACCOUNT_END', `The ${cmd.fiat} account of merchant ${merchant.merchantId} is already active`);
  const needsTerms = TERMS_FIATS.has(cmd.fiat);
  if (account === undefined) {
    account = {
      merchantId: merchant.merchantId,
      fiat: cmd.fiat,
      status: INCOMPLETE,
      failReason: '',
      fieldList: {},
      verifyToken: '',
      buyAmountLimit: '0.00',
      sellAmountLimit: '0.00',
      createTime: p.ctx.ts,
      updateTime: p.ctx.ts,
    };
    state.merchantAccounts.set(key, account);
  }
  account.fieldList = { ...cmd.fieldList };
  account.failReason = '';
  account.status = needsTerms ? INCOMPLETE : AUTHENTICATING;
  account.verifyToken = needsTerms ? cmd.verifyToken : '';
  account.updateTime = p.ctx.ts;
  scheduleAccountReview(p, merchant, account);
  return copyOf(account);
}

/** docs/merchant-payments.md "Lifecycles" review steps: verify 4 → 1 (terms accepted), approve 1 → 2, reject 1 → 3. */
export function reviewMerchantAccount(p: PaymentsContext, cmd: ReviewMerchantAccountCommand): MerchantAccount | Dropped {
  const merchant = merchantOf(p, cmd.userId, cmd.merchantId);
  const account = p.state.merchantAccounts.get(accountKey(merchant.merchantId, cmd.fiat));
  if (account === undefined) refuse('MC_ACCOUNT_NOT_EXIST', `Merchant ${merchant.merchantId} has no ${cmd.fiat} account`);
  const from = cmd.action === 'verify' ? INCOMPLETE : AUTHENTICATING;
  if (account.status !== from) return staleDecision(p, cmd.due, `The ${cmd.fiat} account is in status ${account.status}; ${cmd.action} needs ${from}`);
  p.state.decisions.delete(`account:${merchant.merchantId}:${cmd.fiat}`);
  account.updateTime = p.ctx.ts;
  if (cmd.action === 'verify') {
    account.status = AUTHENTICATING;
  } else if (cmd.action === 'approve') {
    account.status = NORMAL;
  } else {
    account.status = FAILED;
    account.failReason = cmd.failReason !== undefined && cmd.failReason !== '' ? cmd.failReason : 'Account review rejected';
  }
  scheduleAccountReview(p, merchant, account);
  return copyOf(account);
}

function scheduleAccountReview(p: PaymentsContext, merchant: Merchant, account: MerchantAccount): void {
  const mode = modesOf(p.state, merchant.userId).accountReview;
  if (mode === 'manual') return;
  const key = `account:${merchant.merchantId}:${account.fiat}`;
  const base = { type: 'reviewMerchantAccount', userId: 0, merchantId: merchant.merchantId, fiat: account.fiat } as const;
  if (account.status === INCOMPLETE) decideLater(p, key, { ...base, action: 'verify' });
  if (account.status === AUTHENTICATING) {
    decideLater(p, key, { ...base, action: mode, ...(mode === 'reject' ? { failReason: 'Rejected by the sandbox (mode accountReview=reject)' } : {}) });
  }
}

/** A limit of docs/merchant-payments.md "Amount limits" as money with 2 decimals; ≥ 0, `0` = no cap. */
function limitValue(text: string, name: string): string {
  const units = unitsOf(text, LIMIT_ACCURACY);
  if (units === undefined) refuse('PARAM_IS_INVALID', `${name} must be a decimal ≥ 0 with at most ${LIMIT_ACCURACY} decimals`);
  return formatFixed(units, LIMIT_ACCURACY);
}

/** docs/merchant-payments.md "The simulator and the sandbox API" merchant limits; every value is checked before any is set. */
export function setMerchantLimits(p: PaymentsContext, cmd: SetMerchantLimitsCommand): Merchant {
  const merchant = merchantOf(p, cmd.userId, cmd.merchantId);
  const day = cmd.dayFiatLimit === undefined ? undefined : limitValue(cmd.dayFiatLimit, 'dayFiatLimit');
  const month = cmd.monthFiatLimit === undefined ? undefined : limitValue(cmd.monthFiatLimit, 'monthFiatLimit');
  const crypto = cmd.monthCryptoLimit === undefined ? undefined : limitValue(cmd.monthCryptoLimit, 'monthCryptoLimit');
  const accounts = Object.entries(cmd.accounts ?? {}).map(([fiat, limits]) => {
    const account = p.state.merchantAccounts.get(accountKey(merchant.merchantId, fiat));
    if (account === undefined) refuse('MC_ACCOUNT_NOT_EXIST', `Merchant ${merchant.merchantId} has no ${fiat} account`);
    return {
      account,
      buy: limits.buyAmountLimit === undefined ? undefined : limitValue(limits.buyAmountLimit, `accounts.${fiat}.buyAmountLimit`),
      sell: limits.sellAmountLimit === undefined ? undefined : limitValue(limits.sellAmountLimit, `accounts.${fiat}.sellAmountLimit`),
    };
  });
  if (day !== undefined) merchant.limits.dayFiatLimit = day;
  if (month !== undefined) merchant.limits.monthFiatLimit = month;
  if (crypto !== undefined) merchant.limits.monthCryptoLimit = crypto;
  for (const { account, buy, sell } of accounts) {
    if (buy !== undefined) account.buyAmountLimit = buy;
    if (sell !== undefined) account.sellAmountLimit = sell;
    account.updateTime = p.ctx.ts;
  }
  merchant.updateTime = p.ctx.ts;
  return copyOf(merchant);
}

/** docs/merchant-payments.md "The simulator and the sandbox API" user limit. */
export function setUserLimit(p: PaymentsContext, cmd: SetUserLimitCommand): { monthLimit: string } {
  merchantUserOf(p, cmd.userId);
  const monthLimit = limitValue(cmd.monthLimit, 'monthLimit');
  p.state.userLimits.set(cmd.userId, monthLimit);
  return { monthLimit };
}
