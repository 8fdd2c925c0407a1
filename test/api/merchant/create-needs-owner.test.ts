/**
 * A create makes an object its user owns, so the core refuses every create for a user that does
 * not exist or does not own the merchant it names, whoever calls (docs/merchant-payments.md "Order creation checks"). The operator's calls reach the core
 * as user 0, which actions on existing objects read as "any object"; a create for user 0 once made
 * an order (or beneficiary, claim, transfer, merchant account) owned by nobody. Each create of the
 * payments module is submitted to a real server's core, as the HTTP edge would submit it, for user
 * 0, a user that does not exist, a user that is not a merchant user, and another merchant user:
 * creates that name a merchant are -5006 (no such merchant of that user), the others -5033 (not a
 * merchant user); afterwards nothing was created or reserved and verify holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentError } from '../../../src/core/payment-errors.js';
import type { OrderRequest } from '../../../src/core/payment-commands.js';
import type { Command } from '../../../src/core/types.js';
import { onboardedMerchant, SPEI_BENEFICIARY } from '../../support/merchant-client.js';
import { exampleBooks } from '../../support/payments-market.js';
import { globalPaymentOrder, paymentsStory, WIRE_BENEFICIARY, type PaymentsStory } from '../../support/payments-story.js';

type Caller = 'user 0' | 'an unknown user' | 'a user that is not a merchant user' | 'another merchant user';

const CALLERS: readonly Caller[] = ['user 0', 'an unknown user', 'a user that is not a merchant user', 'another merchant user'];

interface Ids {
  merchantId: number;
  otherMerchantId: number;
  speiId: number;
  wireId: number;
}

/** A payment order create as B29–B31 submit it, or as S13 places it on the user's behalf. */
const createOrder = (userId: number, clientId: string, order: OrderRequest, onBehalf = false): Command => ({ type: 'createPaymentOrder', userId, onBehalf, clientId, remark: '', quoteId: '', order });

/** Each create of the payments module, for `userId`, naming the scene's merchants and beneficiaries where it names any. */
const CREATES: readonly { name: string; namesMerchant: boolean; command: (userId: number, ids: Ids) => Command }[] = [
  {
    name: 'an on-ramp order (B29)',
    namesMerchant: true,
    command: (userId, ids) => createOrder(userId, 'owner-f2c', { kind: 'fiat_to_crypto', country: 'Mexico', crypto: 'USDT', fiat: 'MXN', fiatAmount: '1000.00', paymentId: 58, merchantId: ids.merchantId }),
  },
  {
    name: 'an off-ramp order placed on behalf (S13)',
    namesMerchant: true,
    command: (userId, ids) => createOrder(userId, 'owner-c2f', { kind: 'crypto_to_fiat', country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '10.0000', userPaymentId: 70, merchantId: ids.merchantId }, true),
  },
  {
    name: 'a global payment (B31)',
    namesMerchant: true,
    command: (userId, ids) => createOrder(userId, 'owner-f2f', { kind: 'fiat_to_fiat', ...globalPaymentOrder(ids.merchantId, ids.wireId) }),
  },
  {
    name: 'a merchant account (B15)',
    namesMerchant: true,
    command: (userId, ids) => ({ type: 'activateMerchantAccount', userId, merchantId: ids.merchantId, fiat: 'EUR', fieldList: {}, verifyToken: 'owner-verify' }),
  },
  {
    name: 'a beneficiary (B25)',
    namesMerchant: true,
    command: (userId, ids) => ({
      type: 'addBeneficiary',
      userId,
      merchantId: ids.merchantId,
      paymentId: 58,
      country: 'Mexico',
      fiat: 'MXN',
      realName: '',
      fieldList: { 'CLABE number': '012180000000000099', 'Beneficiary Name': 'Ana Ruiz' },
      accountKey: '012180000000000099',
      remark: '',
    }),
  },
  {
    name: 'a claim of pending funds (B18)',
    namesMerchant: true,
    command: (userId, ids) => ({ type: 'claimFunds', userId, merchantId: ids.merchantId, clientId: 'owner-claim', fiat: 'MXN', amount: '10.00', userPaymentId: ids.speiId }),
  },
  {
    name: 'a transfer between merchants (B20)',
    namesMerchant: true,
    command: (userId, ids) => ({ type: 'transferFunds', userId, clientId: 'owner-transfer', fromMerchantId: ids.merchantId, toMerchantId: ids.otherMerchantId, fiat: 'MXN', paymentId: 70, fiatAmount: '10.00' }),
  },
  {
    name: 'a quote (B22 createQuoteId)',
    namesMerchant: false,
    command: (userId) => ({ type: 'createQuote', userId, quoteId: '0123456789abcdef0123456789abcdef', kind: 'fiat_to_crypto', from: 'MXN', to: 'USDT', amount: '1000.00' }),
  },
  {
    name: 'a merchant (B13)',
    namesMerchant: false,
    command: (userId) => ({ type: 'createMerchant', userId, merchantName: 'Owner Test', email: 'owner@example.mx', merchantType: 'BUSINESS', callbackUrl: 'https://merchant.example/kyc-done', languageCode: 'en', remark: '', kycToken: 'owner-kyc' }),
  },
];

describe('the core refuses a create for a user that does not exist or does not own the merchant named, whoever calls', () => {
  let s: PaymentsStory;
  let ids: Ids;
  let userIds: Record<Caller, number>;
  let before: unknown;

  /** What a create would change: the module's counters and maps, the ledger's accounts, and every balance of the desk and the merchants. */
  const footprint = (): unknown => {
    const core = s.t.server.exchange.core;
    const state = core.payments.state;
    const balances = (accountId: number): string[] => [...core.ledger.account(accountId).balances].map(([asset, b]) => `${asset} ${b.free}/${b.locked}`);
    const merchantAccount = (merchantId: number): number => state.merchants.get(merchantId)?.accountId ?? -1;
    return {
      counters: [state.nextMerchantId, state.nextOrderId, state.nextBeneficiaryId, state.nextTxId, core.ledger.accounts.size],
      sizes: [state.orders.size, state.quotes.size, state.merchantAccounts.size, state.beneficiaries.size, state.pendingFunding.size, state.orderClientIds.size, state.claimClientIds.size, state.transferClientIds.size],
      desk: balances(state.deskAccountId),
      merchant: balances(merchantAccount(ids.merchantId)),
      otherMerchant: balances(merchantAccount(ids.otherMerchantId)),
    };
  };

  const refusal = async (command: Command): Promise<number | string> => {
    try {
      await s.t.server.exchange.submit(command);
      return 'accepted';
    } catch (error) {
      if (error instanceof PaymentError) return error.code;
      throw error;
    }
  };

  beforeAll(async () => {
    s = await paymentsStory();
    await exampleBooks(s.op);
    const merchantId = await onboardedMerchant(s.client, 'Acme MX', ['MXN', 'USD']);
    const otherMerchantId = await onboardedMerchant(s.client, 'Acme Two');
    await s.client.ok('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '5000.00' });
    await s.client.ok('POST', '/sandbox/v2/crypto-deposits', { merchantId, crypto: 'USDT', amount: '100' });
    const speiId = (await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', fieldJson: SPEI_BENEFICIARY })).id;
    const wireId = (await s.client.ok<{ id: number }>('POST', '/v2/payments', { merchantId, paymentId: 83, country: 'United States', fiat: 'USD', realName: 'John Smith', fieldJson: WIRE_BENEFICIARY })).id;
    ids = { merchantId, otherMerchantId, speiId, wireId };
    const plain = await s.op.user();
    const demoMerchantUser = s.t.server.exchange.core.payments.state.merchants.get(Number(s.t.demo.merchantId))?.userId ?? -1;
    userIds = { 'user 0': 0, 'an unknown user': 999_999, 'a user that is not a merchant user': Number(plain.userId), 'another merchant user': demoMerchantUser };
    before = footprint();
  });
  afterAll(async () => s.t.stop());

  const rows = CREATES.flatMap((create) =>
    CALLERS.filter((caller) => create.namesMerchant || caller !== 'another merchant user').map((caller) => ({ create, caller, code: create.namesMerchant ? -5006 : -5033 })),
  );

  it.each(rows.map((row) => [row.create.name, row.caller, row.code, row] as const))('when %s reaches the core for %s, then it is refused with %i', async (_name, _caller, code, row) => {
    expect(await refusal(row.create.command(userIds[row.caller], ids))).toBe(code);
  });

  it('when every one of them was refused, then nothing was created or reserved, and verify holds', async () => {
    expect(footprint()).toEqual(before);
    await s.verified();
  });

  it('when the same creates reach the core for the user who owns the merchant, then each is accepted (the rows above failed on ownership alone)', async () => {
    for (const create of CREATES) expect([create.name, await refusal(create.command(Number(s.userId), ids))]).toEqual([create.name, 'accepted']);
  });
});
