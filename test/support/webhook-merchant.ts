import type { Command } from '../../src/core/types.js';
import type { ExchangeCore } from '../../src/exchange/exchange-core.js';
import { demoCatalogue } from './core-harness.js';

/**
 * Through `submit`, from an empty core: the demo catalogue, payments in sandbox mode, a merchant
 * user (Acme MX) with an active MXN account, the desk funded, a fixed USDT/MXN price, and an
 * ORDER_WEBHOOK registered as `webhookId` at `url`. The delivery worker tests start here.
 */
export async function setUpWebhookMerchant(
  core: ExchangeCore,
  submit: <T = unknown>(command: Command) => Promise<T>,
  webhookId: string,
  url: string,
): Promise<{ userId: number; merchantId: number }> {
  for (const command of demoCatalogue()) await submit(command);
  await submit({ type: 'paymentsSetUp', sandbox: true });
  const { userId } = await submit<{ userId: number }>({ type: 'createUser', email: 'ops@acme.mx', userType: 'merchant' });
  const { merchantId } = await submit<{ merchantId: number }>({
    type: 'createMerchant', userId, merchantName: 'Acme MX', email: 'acme@example.mx', merchantType: 'BUSINESS',
    callbackUrl: 'https://acme.example/kyc-done', languageCode: 'en', remark: '', kycToken: 'kyc-acme',
  });
  await submit({ type: 'activateMerchantAccount', userId, merchantId, fiat: 'MXN', fieldList: {}, verifyToken: 'verify-acme-MXN' });
  await submit({ type: 'deposit', accountId: core.payments.state.deskAccountId, asset: 'USDT', amount: '1000000', txId: 'desk-usdt' });
  await submit({ type: 'setPriceOverride', userId, from: 'USDT', to: 'MXN', price: '19.0000' });
  await submit({ type: 'registerWebhook', userId, webhookId, eventType: 'ORDER_WEBHOOK', url });
  return { userId, merchantId };
}
