/**
 * Story: the two sandbox pages of area B (docs/merchant-payments.md "Lifecycles") driven in a real browser
 * (Debian's `chromium` through playwright-core). With `kyc: manual` and `accountReview: manual` the
 * pages have the work to do: a merchant's KYC link submits (4 → 1), approves (→ 2) or rejects (→ 3)
 * and sends the browser to `callbackUrl?merchantId=<id>&status=<status>`, here a small local
 * server; a USD account's verify link needs its checkbox before "Accept the terms" moves it 4 → 1;
 * an unknown token is a 404 page. Chromium missing is a failure, never a skip.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keepScreenshot, launchChromium } from '../../support/browser.js';
import { BUSINESS_FIELDS } from '../../support/merchant-client.js';
import { paymentsStory, type PaymentsStory } from '../../support/payments-story.js';

/** The merchant's site behind `callbackUrl`: it records each request URL and answers a small page. */
async function callbackSite(): Promise<{ server: Server; base: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    // The browser also asks for /favicon.ico, at its own moment: not a landing.
    if (req.url === '/favicon.ico') return void res.writeHead(404).end();
    hits.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Merchant site</title><h1 id="landed">Back at the merchant</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

describe('story: the KYC and verify pages in a real browser', () => {
  let s: PaymentsStory;
  let browser: Browser;
  let page: Page;
  let site: Awaited<ReturnType<typeof callbackSite>>;
  let seq = 0;

  const createMerchant = async (name: string): Promise<{ merchantId: number; kycLink: string }> =>
    s.client.ok('POST', '/v2/merchants', { merchantName: name, email: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.mx`, merchantType: 'BUSINESS', callbackUrl: `${site.base}/kyc-done?shop=7` });
  const merchantRow = async (name: string): Promise<{ merchantId: number; status: number; rejectReason: string }> =>
    (await s.client.ok<{ data: { merchantId: number; status: number; rejectReason: string }[] }>('GET', '/v2/merchants', { merchantName: name })).data[0];
  const screenshot = async (name: string): Promise<void> => {
    await keepScreenshot(page, `sandbox-${++seq}-${name}`);
  };

  /** Opens the KYC link, clicks `button` and waits for the merchant's site. */
  const kycThroughPage = async (name: string, button: string, shot?: string): Promise<{ merchantId: number; landed: URL }> => {
    const { merchantId, kycLink } = await createMerchant(name);
    const opened = await page.goto(kycLink);
    expect(opened?.status()).toBe(200);
    await expect.poll(() => page.locator('#status').innerText()).toBe(`Merchant ${merchantId} · status 4 (incomplete)`);
    expect(await page.title()).toBe(`KYC: ${name} · Bourse sandbox`);
    if (shot !== undefined) await screenshot(shot);
    await Promise.all([page.waitForURL((url) => url.origin === site.base), page.getByRole('button', { name: button, exact: true }).click()]);
    await page.locator('#landed').waitFor();
    return { merchantId, landed: new URL(page.url()) };
  };

  // A browser that cannot start fails every test with the reason (a failing beforeAll would show
  // them as skipped).
  let noBrowser: Error | undefined;

  beforeAll(async () => {
    site = await callbackSite();
    s = await paymentsStory();
    expect(await s.client.ok('PUT', '/sandbox/v2/modes', { kyc: 'manual', accountReview: 'manual' })).toMatchObject({ kyc: 'manual', accountReview: 'manual' });
    try {
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 900, height: 640 } });
      page.setDefaultTimeout(5_000);
    } catch (error) {
      noBrowser = error instanceof Error ? error : new Error(String(error));
    }
  });
  beforeEach(() => {
    if (noBrowser !== undefined) throw noBrowser;
  });
  afterAll(async () => {
    await browser?.close();
    await s?.t.stop();
    await new Promise((resolve) => (site?.server === undefined ? resolve(undefined) : site.server.close(resolve)));
  });

  it('1. "Submit KYC" moves the merchant 4 → 1 and lands on callbackUrl?merchantId=<id>&status=1', async () => {
    const { merchantId, landed } = await kycThroughPage('Pages Submit', 'Submit KYC', 'kyc');
    expect(landed.pathname).toBe('/kyc-done');
    expect(Object.fromEntries(landed.searchParams)).toEqual({ shop: '7', merchantId: String(merchantId), status: '1' });
    expect(site.hits.at(-1)).toBe(`/kyc-done?shop=7&merchantId=${merchantId}&status=1`);
    expect(await merchantRow('Pages Submit')).toMatchObject({ merchantId, status: 1, rejectReason: '' });
  });

  it('2. "Approve (sandbox)" lands on status=2; the page of a verified merchant has no buttons', async () => {
    const { merchantId, landed } = await kycThroughPage('Pages Approve', 'Approve (sandbox)');
    expect(landed.searchParams.get('merchantId')).toBe(String(merchantId));
    expect(landed.searchParams.get('status')).toBe('2');
    expect(await merchantRow('Pages Approve')).toMatchObject({ merchantId, status: 2, rejectReason: '' });
    await page.goBack();
    await page.reload();
    await expect.poll(() => page.locator('#status').innerText()).toBe(`Merchant ${merchantId} · status 2 (normal)`);
    expect(await page.getByRole('button').count()).toBe(0);
  });

  it('3. "Reject (sandbox)" lands on status=3 and B14 carries a rejectReason', async () => {
    const { merchantId, landed } = await kycThroughPage('Pages Reject', 'Reject (sandbox)');
    expect(landed.searchParams.get('merchantId')).toBe(String(merchantId));
    expect(landed.searchParams.get('status')).toBe('3');
    const row = await merchantRow('Pages Reject');
    expect(row).toMatchObject({ merchantId, status: 3 });
    expect(row.rejectReason).not.toBe('');
  });

  it('4. the verify page needs its checkbox; accepting the terms moves USD 4 → 1', async () => {
    const { merchantId } = await createMerchant('Pages Verified');
    for (const action of ['submit', 'approve']) await s.client.ok('POST', `/sandbox/v2/merchants/${merchantId}/kyc`, { action });
    const usd = await s.client.ok<{ status: number; verifyLink: string }>('POST', '/v2/merchant/accounts', { merchantId, fiat: 'USD', fieldList: BUSINESS_FIELDS });
    expect(usd.status).toBe(4);
    const usdStatus = async (): Promise<unknown> => (await s.client.ok<{ data: { status: number }[] }>('GET', '/v2/merchant/accounts', { merchantId, fiat: 'USD' })).data[0]?.status;

    const posts: string[] = [];
    const recordPost = (r: Request): void => {
      if (r.method() === 'POST') posts.push(r.url());
    };
    page.on('request', recordPost);
    expect((await page.goto(usd.verifyLink))?.status()).toBe(200);
    await expect.poll(() => page.locator('#status').innerText()).toBe(`Merchant ${merchantId} · USD account · status 4 (incomplete)`);
    await screenshot('verify');
    const checkbox = page.getByRole('checkbox', { name: 'I accept the terms of the USD account.' });
    const accept = page.getByRole('button', { name: 'Accept the terms', exact: true });
    expect(await checkbox.isChecked()).toBe(false);
    await accept.click();
    // HTML `required`: the browser refuses the submission, nothing is posted, the account waits in 4.
    expect(await checkbox.evaluate((el) => (el as HTMLInputElement).validity.valueMissing)).toBe(true);
    expect(await usdStatus()).toBe(4);
    expect(page.url()).toBe(usd.verifyLink);
    expect(posts).toEqual([]);

    await checkbox.check();
    await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST' && r.url() === usd.verifyLink), accept.click()]);
    await page.getByText('Thank you: the terms are accepted.').waitFor();
    expect(await page.locator('#status').innerText()).toBe(`Merchant ${merchantId} · USD account · status 1 (authenticating)`);
    expect(await accept.count()).toBe(0);
    expect(posts).toEqual([usd.verifyLink]);
    page.off('request', recordPost);
    await screenshot('verify-accepted');
    expect(await usdStatus()).toBe(1);
  });

  it('5. an unknown token is a 404 page on both paths', async () => {
    for (const kind of ['kyc', 'verify']) {
      const answer = await page.goto(`${s.t.url}/sandbox/${kind}/${'0'.repeat(32)}`);
      expect(answer?.status()).toBe(404);
      expect(answer?.headers()['content-type']).toMatch(/^text\/html/);
      expect(await page.locator('h1').innerText()).toBe('Link not valid');
    }
    await screenshot('unknown');
    await s.verified();
  });
});
