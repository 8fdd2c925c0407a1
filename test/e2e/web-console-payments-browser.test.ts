/**
 * Story: a payments operator runs a `BOURSE_SANDBOX=0` deployment (every review and payout waits
 * for a person) from the "Payments" section of `/console` in a real browser (Debian's chromium
 * through playwright-core). The merchant acts through /v2 and the bank through the sandbox API with
 * the admin token; every decision is clicked in the page (the queues name the sandbox call of
 * each), and each outcome is checked through /v2. One server and one page for the file; the steps
 * build on each other. Controls are found by their accessible names.
 */
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepScreenshot, launchChromium } from '../support/browser.js';
import { adminSandbox, BUSINESS_FIELDS, SPEI_BENEFICIARY } from '../support/merchant-client.js';
import { exampleBooks } from '../support/payments-market.js';
import { fundingRecords, orderDetail, paymentsStory, type PaymentsStory } from '../support/payments-story.js';

/** A 1×1 PNG, so that the page can draw the uploaded document. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

interface WebhookEventPage {
  events: { eventId: string; objectId: string; attempts: number }[];
}

describe('story: the payments desk of /console in Chromium, with BOURSE_SANDBOX=0', () => {
  let s: PaymentsStory;
  let browser: Browser;
  let page: Page;
  const external: string[] = [];
  let merchantId = 0;
  let beneficiaryId = 0;
  let orderId = 0;

  /** A sandbox call the bank (or the merchant's own side) makes, with the admin token: its `data`. */
  const bank = async <T,>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await adminSandbox<T>(s.t.url, s.t.adminToken, method, path, body);
    expect({ code: answer.code, detail: answer.detail }).toEqual({ code: 200, detail: '' });
    return answer.data;
  };
  const status = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text });
  /** A panel by its title (its table is a region of the same name, inside it). */
  const region = (name: string) => page.getByRole('region', { name, exact: true }).first();
  const view = async (name: string): Promise<void> => {
    await page.getByRole('navigation', { name: 'Payments views' }).getByRole('button', { name }).click();
  };
  const refreshQueues = async (): Promise<void> => {
    await view('Queues');
    await page.getByRole('button', { name: 'Refresh queues' }).click();
  };
  const count = (queue: string) => page.locator(`[data-queue="${queue}"] .tile-value`);
  /** Clicks a decision and its confirm; `fill` runs between (a reason, a code). */
  const decide = async (label: string, what: string, fill?: () => Promise<void>): Promise<void> => {
    await page.getByRole('button', { name: `${label} ${what}`, exact: true }).click();
    await fill?.();
    await page.getByRole('button', { name: `Confirm ${label.toLowerCase()} ${what}`, exact: true }).click();
  };

  beforeAll(async () => {
    s = await paymentsStory({ BOURSE_SANDBOX: '0' });
    await exampleBooks(s.op);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    page.setDefaultTimeout(10_000);
    page.on('request', (r) => {
      if (!r.url().startsWith(s.t.url) && !r.url().startsWith('blob:')) external.push(r.url());
    });
    await page.goto(`${s.t.url}/console#payments`);
    await page.getByLabel('Admin token').fill(s.t.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Payments views' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.t.stop();
  });

  it('when a merchant has submitted its KYC, then it waits in its queue and "Approve" from the page makes it normal (2) on /v2', async () => {
    // Order events go to a target production refuses to reach: each attempt fails at once, and the order look-up lists them.
    await s.client.ok('POST', '/v2/webhook', { eventType: 'ORDER_WEBHOOK', url: 'https://127.0.0.1:9/hooks' });
    ({ merchantId } = await s.client.ok<{ merchantId: number }>('POST', '/v2/merchants', {
      merchantName: 'Desk MX',
      email: 'desk@example.mx',
      merchantType: 'BUSINESS',
      callbackUrl: 'https://merchant.example/kyc-done',
    }));
    await bank('POST', `/merchants/${merchantId}/kyc`, { action: 'submit' });

    await refreshQueues();
    await expect.poll(() => count('merchantsKyc').innerText()).toBe('1');
    const row = region('Merchants in KYC review').getByRole('row', { name: new RegExp(`merchant ${merchantId}\\b`) });
    expect(await row.innerText()).toContain('Desk MX');
    await decide('Approve', `merchant ${merchantId}`);
    await status(`Approve merchant ${merchantId}: done (status 2).`).waitFor();
    await expect.poll(() => count('merchantsKyc').innerText()).toBe('0');
    const merchants = await s.client.ok<{ data: { merchantId: number; status: number }[] }>('GET', '/v2/merchants', {});
    expect(merchants.data.find((m) => m.merchantId === merchantId)?.status).toBe(2);
  });

  it('when its MXN account and a beneficiary wait for review, then both are approved from the page, and /v2 shows them active', async () => {
    await s.client.ok('POST', '/v2/merchant/accounts', { merchantId, fiat: 'MXN', fieldList: BUSINESS_FIELDS });
    const added = await s.client.ok<{ id: number; status: number }>('POST', '/v2/payments', { merchantId, paymentId: 58, country: 'Mexico', fiat: 'MXN', realName: 'Juan Perez', fieldJson: SPEI_BENEFICIARY });
    expect(added.status).toBe(2);
    beneficiaryId = added.id;

    await refreshQueues();
    await expect.poll(() => count('merchantAccounts').innerText()).toBe('1');
    expect(await count('beneficiaries').innerText()).toBe('1');
    await decide('Approve', `merchant ${merchantId} MXN account`);
    await status(`Approve merchant ${merchantId} MXN account: done (status 2).`).waitFor();
    await decide('Approve', `beneficiary ${beneficiaryId}`);
    await status(`Approve beneficiary ${beneficiaryId}: done (status 1).`).waitFor();

    const accounts = await s.client.ok<{ data: { fiat: string; status: number }[] }>('GET', '/v2/merchant/accounts', { merchantId });
    expect(accounts.data.map((a) => [a.fiat, a.status])).toEqual([['MXN', 2]]);
    const beneficiaries = await s.client.ok<{ record: { id: number; status: number }[] }>('GET', '/v2/payments', {});
    expect(beneficiaries.record.find((b) => b.id === beneficiaryId)?.status).toBe(1);
  });

  it('when an off-ramp waits in review, then the page asks for documents (31); the upload takes it to its payout (40), and the look-up shows the document inline', async () => {
    await bank('POST', '/crypto-deposits', { merchantId, crypto: 'USDT', amount: '100' });
    const offRamp = { merchantId, country: 'Mexico', crypto: 'USDT', fiat: 'MXN', cryptoAmount: '50.0000', userPaymentId: beneficiaryId, clientId: 'desk-sell-1' };
    ({ orderId } = await s.client.ok<{ orderId: number }>('POST', '/v2/order/crypto_to_fiat', offRamp));
    expect((await orderDetail(s.client, orderId)).orderStatus).toBe(10);

    await refreshQueues();
    await expect.poll(() => count('ordersReview').innerText()).toBe('1');
    expect(await region('Orders in review (10, 12)').getByRole('row', { name: new RegExp(`order ${orderId}\\b`) }).innerText()).toContain('50.0000');
    await decide('Ask for documents', `order ${orderId}`);
    await status(`Ask for documents order ${orderId}: done (status 31).`).waitFor();
    expect((await orderDetail(s.client, orderId)).orderStatus).toBe(31);
    await expect.poll(() => count('ordersDocuments').innerText()).toBe('1');

    const form = new FormData();
    form.set('orderId', String(orderId));
    form.set('orderType', 'crypto_to_fiat');
    form.append('files', new Blob([PNG], { type: 'image/png' }), 'invoice.png');
    const uploaded = await fetch(`${s.t.url}/v2/order/invoice`, { method: 'POST', headers: { 'X-BH-TOKEN': s.client.token }, body: form });
    expect(((await uploaded.json()) as { code: number }).code).toBe(200);
    expect((await orderDetail(s.client, orderId)).orderStatus).toBe(40);

    await refreshQueues();
    await expect.poll(() => count('payouts').innerText()).toBe('1');
    await page.getByRole('button', { name: `Open order ${orderId}` }).first().click();
    const history = region(`Status history of order ${orderId}`);
    await expect.poll(() => history.innerText()).toMatch(/10[\s\S]*31[\s\S]*40/);
    const documents = region(`Documents of order ${orderId}`);
    const name = (await documents.getByRole('row').nth(1).getByRole('cell').first().innerText()).trim();
    expect(name).toMatch(/^[0-9a-f]{64}\.png$/);
    await page.getByRole('button', { name: `View document ${name.slice(0, 12)}….png` }).click();
    const image = page.getByRole('img', { name });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => [img.src.slice(0, 5), img.naturalWidth])).toEqual(['blob:', 1]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await keepScreenshot(page, 'console-payments-order-light');
  });

  it('when the payout is marked sent from the queue and the order released from its look-up, then /v2 shows 50 then 60, with the postings and each webhook event listed', async () => {
    await refreshQueues();
    await decide('Mark payout sent', `order ${orderId}`);
    await status(`Mark payout sent order ${orderId}: done (status 50).`).waitFor();
    expect((await orderDetail(s.client, orderId)).orderStatus).toBe(50);
    await expect.poll(() => count('payouts').innerText()).toBe('0');

    await page.getByRole('navigation', { name: 'Payments views' }).getByRole('button', { name: 'Order look-up' }).click();
    await page.getByRole('button', { name: 'Refresh order' }).click();
    await decide('Release', `order ${orderId}`);
    await status(`Release order ${orderId}: done (status 60).`).waitFor();
    const detail = await orderDetail(s.client, orderId);
    expect(detail).toMatchObject({ orderStatus: 60, cryptoAmount: '50.0000', fiatAmount: '947.71' });

    const postings = region(`Ledger postings of order ${orderId}`);
    await expect.poll(() => postings.innerText()).toContain('947.71');
    const events = region(`Webhook events of order ${orderId}`);
    await expect.poll(() => events.getByRole('row').count()).toBe(6); // the head, then 10, 31, 40, 50, 60

    // Resend the first event (the creation's, tried once and waiting for its next try): one more attempt shows in O20.
    const first = (await events.getByRole('row').nth(1).getByRole('cell').first().innerText()).trim();
    const attemptsOf = async (): Promise<number> => {
      const answer = await s.op.ok<WebhookEventPage>('GET', `/webhooks/events?objectId=${orderId}`);
      return answer.events.find((e) => e.eventId.startsWith(first))?.attempts ?? 0;
    };
    await expect.poll(attemptsOf).toBeGreaterThanOrEqual(1);
    const before = await attemptsOf();
    await page.getByRole('button', { name: `Resend event ${first}` }).click();
    await status(`Event ${first} sent again.`).waitFor();
    await expect.poll(attemptsOf).toBe(before + 1);
  });

  it('when two bank deposits wait, then one is completed from the page; the other, cancelled meanwhile through the API, is refused with the API\'s message', async () => {
    const arrive = async (amount: string): Promise<string> => String((await bank<{ result: string; txId: number }>('POST', '/deposits', { merchantId, fiat: 'MXN', amount })).txId);
    const kept = await arrive('500.00');
    const stale = await arrive('250.00');
    await refreshQueues();
    await expect.poll(() => count('fundingRecords').innerText()).toBe('2');

    await decide('Complete', `funding record ${kept}`);
    await status(`Complete funding record ${kept}: done (status 2).`).waitFor();
    await expect.poll(() => count('fundingRecords').innerText()).toBe('1');

    // Behind the page's back: the row it shows is stale, and the server refuses its decision.
    await bank('POST', `/funding/${stale}/cancel`, { failReason: 'returned by the bank' });
    await decide('Complete', `funding record ${stale}`);
    const refusal = region('Funding records pending (1)').getByRole('alert');
    await expect.poll(() => refusal.innerText()).toMatch(/^INVALID_STATE: .+ \(code -5104\)$/);
    await keepScreenshot(page, 'console-payments-refused-light');
    await page.getByRole('button', { name: 'Refresh queues' }).click();
    await expect.poll(() => count('fundingRecords').innerText()).toBe('0');

    const records = await fundingRecords(s.client, { merchantId });
    expect(records.filter((r) => r.type === 'DEPOSIT').map((r) => [String(r.txId), r.amount, r.status])).toEqual([
      [stale, '250.00', 3],
      [kept, '500.00', 2],
    ]);
  });

  it('when the merchant is looked up, then its accounts, balances (M), limits, orders and funding records show as the server sends them', async () => {
    await view('Merchant look-up');
    await page.getByLabel('Merchant ID').fill(String(merchantId));
    await page.getByRole('button', { name: 'Look up merchant' }).click();
    const balances = region(`Balances (M) of merchant ${merchantId}`);
    await expect.poll(() => balances.getByRole('row', { name: /USDT/ }).innerText()).toMatch(/USDT\s+50\s+0\s+50/);
    expect(await balances.getByRole('row', { name: /MXN/ }).innerText()).toMatch(/MXN\s+500\s+0\s+500/);
    expect(await region(`Merchant accounts of merchant ${merchantId}`).getByRole('row', { name: /MXN/ }).innerText()).toContain('MXN');
    expect(await region(`Limits and usage of merchant ${merchantId}`).innerText()).toContain('monthCryptoUsed');
    expect(await region(`Funding records of merchant ${merchantId}`).getByRole('row').count()).toBeGreaterThanOrEqual(3);
    await region(`Newest orders of merchant ${merchantId}`).getByRole('button', { name: `Open order ${orderId}` }).click();
    await expect.poll(() => region(`Order ${orderId}`).innerText()).toContain('947.71');
  });

  it('when the payments configuration and a user\'s modes are edited, then only the changed members are sent, exactly as typed, and a refused value shows the server\'s message', async () => {
    await view('Payments settings');
    const sent: string[] = [];
    const listener = (r: Request): void => {
      if (r.method() === 'PATCH' || r.method() === 'PUT') sent.push(r.postData() ?? '');
    };
    page.on('request', listener);
    await page.getByLabel('quoteTtlMs', { exact: true }).fill('1e4');
    await page.getByRole('button', { name: 'Save payments configuration' }).click();
    await expect.poll(() => region('Payments configuration').getByRole('alert').innerText()).toMatch(/quoteTtlMs/);
    await page.getByLabel('quoteTtlMs', { exact: true }).fill('15000');
    await page.getByLabel('webhook.timeoutMs', { exact: true }).fill('3000');
    await page.getByRole('button', { name: 'Save payments configuration' }).click();
    await status('Saved: quoteTtlMs = 15000, webhook.timeoutMs = 3000.').waitFor();

    await page.getByLabel('Merchant user ID').fill(s.userId);
    await page.getByRole('button', { name: 'Show modes' }).click();
    await page.getByLabel('Payouts (payout)').selectOption('success');
    await page.getByLabel('Payout failure code (payoutFailCode)').selectOption('-7000');
    await page.getByRole('button', { name: 'Save modes' }).click();
    await status(`Modes of user ${s.userId}: payout = success, payoutFailCode = -7000.`).waitFor();
    page.off('request', listener);

    expect(sent).toEqual(['{"quoteTtlMs":"1e4"}', '{"quoteTtlMs":15000,"webhook":{"timeoutMs":3000}}', '{"payout":"success","payoutFailCode":-7000}']);
    expect(await s.op.ok('GET', '/payments/config')).toMatchObject({ quoteTtlMs: 15000, webhook: { timeoutMs: 3000 } });
    expect((await adminSandbox(s.t.url, s.t.adminToken, 'GET', `/modes?userId=${s.userId}`)).data).toEqual({
      kyc: 'manual',
      accountReview: 'manual',
      beneficiaryReview: 'manual',
      orderReview: 'manual',
      payout: 'success',
      payoutFailCode: -7000,
      deposit: 'manual',
    });
  });

  it('when shown dark and at phone width, then the desk still fits (screenshots kept), and nothing came from elsewhere', async () => {
    await view('Merchant look-up');
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(245, 246, 248)');
    await keepScreenshot(page, 'console-payments-merchant-dark');
    await view('Queues');
    await page.getByRole('button', { name: 'Refresh queues' }).click();
    await expect.poll(() => count('payouts').innerText()).toBe('0');
    await keepScreenshot(page, 'console-payments-queues-dark');

    await page.setViewportSize({ width: 390, height: 844 });
    for (const name of ['Queues', 'Order look-up', 'Merchant look-up', 'Payments settings']) {
      await view(name);
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    }
    await keepScreenshot(page, 'console-payments-settings-phone');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(external).toEqual([]);
  });
});
