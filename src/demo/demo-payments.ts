import { randomBytes } from 'node:crypto';
import type { Command } from '../core/types.js';
import type { ExchangeCore } from '../exchange/exchange-core.js';

/** What the desk holds on first start (docs/operating.md "Demo data"): it takes the other side of every conversion. */
export const DEMO_DESK_BALANCES: readonly [string, string][] = [
  ['USDT', '1000000'],
  ['BTC', '20'],
  ['MXN', '20000000.00'],
  ['USD', '1000000.00'],
  ['EUR', '1000000.00'],
];

export const DEMO_MERCHANT_NAME = 'Demo Merchant';
const DEMO_BENEFICIARY_CLABE = '012180001234567891';

/**
 * Area B's demo (docs/operating.md "Demo data"), as commands appended to the demo seeding batch: the desk and its funds,
 * "Demo Merchant" (BUSINESS, verified) of the demo merchant user with an active MXN account, a
 * pending fund of 100000.00 MXN that arrived as a bank DEPOSIT, 10000 USDT, and a valid SPEI
 * beneficiary. Every credit is a ledger deposit, so `verify` holds. `ids` are the counters the
 * core will use (seeding runs alone on an empty journal); where the user's modes are manual
 * (`BOURSE_SANDBOX=0`), the decisions the simulator would take are spelled out.
 */
export function demoPaymentCommands(core: ExchangeCore, ids: { nextUserId: number; nextAccountId: number; merchantUserId: number }, sandbox: boolean): Command[] {
  const deskAccountId = ids.nextAccountId;
  const merchantAccountId = ids.nextAccountId + 1;
  const merchantId = core.payments.state.nextMerchantId;
  const txId = core.payments.state.nextTxId;
  const userId = ids.merchantUserId;
  const deposit = (accountId: number, asset: string, amount: string): Command => ({ type: 'deposit', accountId, asset, amount, txId: randomBytes(32).toString('hex') });
  const commands: Command[] = [
    { type: 'paymentsSetUp', sandbox },
    ...DEMO_DESK_BALANCES.map(([asset, amount]) => deposit(deskAccountId, asset, amount)),
    {
      type: 'createMerchant',
      userId,
      merchantName: DEMO_MERCHANT_NAME,
      email: 'pay@demo-merchant.mx',
      merchantType: 'BUSINESS',
      callbackUrl: 'http://127.0.0.1:8080/docs',
      languageCode: 'en',
      remark: 'Bourse demo',
      kycToken: randomBytes(16).toString('hex'),
    },
  ];
  if (!sandbox) {
    commands.push({ type: 'merchantKyc', userId: 0, merchantId, action: 'submit' }, { type: 'merchantKyc', userId: 0, merchantId, action: 'approve' });
  }
  commands.push({ type: 'activateMerchantAccount', userId, merchantId, fiat: 'MXN', fieldList: {}, verifyToken: '' });
  if (!sandbox) commands.push({ type: 'reviewMerchantAccount', userId: 0, merchantId, fiat: 'MXN', action: 'approve' });
  commands.push({
    type: 'bankArrival',
    userId: 0,
    merchantId,
    fiat: 'MXN',
    amount: '100000.00',
    reference: '',
    traceNumber: '',
    payerName: 'Demo Payer SA de CV',
    payerAccount: '684180168000000000',
    cardNo: '',
    taxId: 'DPA200101AB1',
    description: 'Demo pending fund',
  });
  if (!sandbox) commands.push({ type: 'settleFunding', userId: 0, txId, action: 'complete' });
  commands.push(deposit(merchantAccountId, 'USDT', '10000'), {
    type: 'addBeneficiary',
    userId,
    merchantId,
    paymentId: 58,
    country: 'Mexico',
    fiat: 'MXN',
    realName: 'Juan Perez',
    fieldList: { 'CLABE number': DEMO_BENEFICIARY_CLABE, 'Account number/card': '', 'Beneficiary Name': 'Juan Perez' },
    accountKey: DEMO_BENEFICIARY_CLABE,
    remark: 'Demo beneficiary',
  });
  if (!sandbox) commands.push({ type: 'reviewBeneficiary', userId: 0, userPaymentId: core.payments.state.nextBeneficiaryId, action: 'approve' });
  return commands;
}
