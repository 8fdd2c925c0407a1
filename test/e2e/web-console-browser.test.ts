/**
 * Story: an operator runs the venue from the console at `/console` in a real browser (Debian's
 * chromium through playwright-core), every action through the operator API. One server and one
 * browser for the file; the steps build on each other (the user created first gets the deposit).
 * Controls are found by their accessible names, as a screen-reader user would find them.
 */
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepScreenshot, launchChromium } from '../support/browser.js';
import { AdminClient, request, SpotClient } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface ApiKeyRow {
  apiKey: string;
  permissions: string[];
  ipWhitelist: string[];
  revoked: boolean;
}

describe('story: the operator console at /console in Chromium', () => {
  let t: TestServer;
  let admin: AdminClient;
  let browser: Browser;
  let page: Page;
  const external: string[] = [];
  let userId = '';
  let accountId = '';

  const openSection = async (name: string): Promise<void> => {
    await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name }).click();
    await expect.poll(() => page.locator('#section-title').innerText()).toBe(name);
  };
  const status = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

  beforeAll(async () => {
    t = await startTestServer();
    admin = new AdminClient(t.url, t.adminToken);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    page.setDefaultTimeout(10_000);
    page.on('request', (r) => {
      if (!r.url().startsWith(t.url)) external.push(r.url());
    });
    await page.goto(`${t.url}/console`);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('when a wrong token is given, then the server\'s message shows; with the right one the console opens, the token kept for this tab only', async () => {
    await page.getByLabel('Admin token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('Invalid admin token.');
    await keepScreenshot(page, 'console-signin-error');

    await page.getByLabel('Admin token').fill(t.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('#section-title').innerText()).toBe('Users & keys');
    const stored = await page.evaluate(() => ({ session: sessionStorage.getItem('bourse.console.adminToken'), local: JSON.stringify(localStorage) }));
    expect(stored.session).toBe(t.adminToken);
    expect(stored.local).not.toContain(t.adminToken);

    // A reload keeps the session (same tab); signing out forgets it.
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('bourse.console.adminToken'))).toBeNull();
    await page.getByLabel('Admin token').fill(t.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Create user' }).waitFor();
  });

  it('when a user is created and given an API key, then the secret is shown once and the key is listed with its permissions and whitelist', async () => {
    await page.getByLabel('E-mail').fill('console-alice@example.com');
    await page.getByRole('button', { name: 'Create user' }).click();
    const done = await status(/Created user/).innerText();
    [, userId, accountId] = /Created user (\d+) with main account (\d+)/.exec(done) ?? [];
    expect(userId).toMatch(/^\d+$/);

    // The server refuses an e-mail already used, and the console shows its message.
    await page.getByLabel('E-mail').fill('console-alice@example.com');
    await page.getByRole('button', { name: 'Create user' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/code -1130/);

    await page.getByRole('button', { name: `Open user ${userId}` }).click();
    const perms = page.getByRole('group', { name: 'Permissions' });
    await perms.getByLabel('WITHDRAW').uncheck();
    await perms.getByLabel('TRANSFER', { exact: true }).uncheck();
    await page.getByLabel('IP whitelist').fill('203.0.113.0/24, 127.0.0.1');
    await page.getByLabel('Key label').fill('console bot');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const secretBox = page.getByRole('region', { name: 'New API key' });
    const apiKey = await secretBox.getByLabel('New API key value').innerText();
    const secret = await secretBox.getByLabel('Secret key value').innerText();
    expect(secret).toMatch(/^[A-Za-z0-9]{64}$/);
    await keepScreenshot(page, 'console-users-light');

    const keys = (await admin.send('GET', `/users/${userId}/api-keys`)).body as ApiKeyRow[];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ apiKey, ipWhitelist: ['203.0.113.0/24', '127.0.0.1'], revoked: false });
    expect(keys[0]?.permissions).not.toContain('WITHDRAW');

    // Once hidden, the secret is nowhere on the page.
    await page.getByRole('button', { name: 'Hide the secret' }).click();
    expect(await page.content()).not.toContain(secret);
    await page.getByRole('region', { name: /^API keys of user/ }).getByText('active').waitFor();

    // A key that works, until it is revoked from the console.
    const client = new SpotClient(t.url, apiKey, secret);
    expect((await client.signed('GET', '/openapi/v1/account')).status).toBe(200);
    const short = `${apiKey.slice(0, 8)}…`;
    await page.getByRole('button', { name: `Revoke key ${short}`, exact: true }).click();
    await page.getByRole('button', { name: `Confirm revoke key ${short}` }).click();
    await status(`Revoked key ${short}`).waitFor();
    await page.getByRole('region', { name: /^API keys of user/ }).getByText('revoked', { exact: true }).waitFor();
    expect((await client.signed('GET', '/openapi/v1/account')).status).not.toBe(200);
  });

  it('when a deposit is credited to the user, then its balance shows the amount exactly as typed; a bad amount shows the server\'s message', async () => {
    await openSection('Deposits & withdrawals');
    await page.getByLabel('Account ID').fill(accountId);
    await page.getByLabel('Asset').fill('USDT');
    await page.getByLabel('Amount').fill('1e3');
    await page.getByRole('button', { name: 'Credit deposit' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/amount/);

    await page.getByLabel('Amount').fill('12345678.12345678');
    await page.getByRole('button', { name: 'Credit deposit' }).click();
    await status(/Deposit \d+: 12345678.12345678 USDT credited/).waitFor();

    await openSection('Users & keys');
    await page.getByRole('button', { name: `Open user ${userId}` }).click();
    const balances = page.getByRole('region', { name: `Balances of user ${userId} (console-alice@example.com)` }).getByRole('row', { name: /USDT/ });
    await expect.poll(() => balances.innerText()).toContain('12345678.12345678');
  });

  it('when the demo user asks for two withdrawals, then the console approves one and rejects the other', async () => {
    const demo = new SpotClient(t.url, t.demo.apiKey, t.demo.secretKey);
    const ask = async (clientOrderId: string): Promise<string> => {
      const answer = await demo.signed('POST', '/openapi/v1/withdraw', { tokenId: 'USDT', chainType: 'TRC20', address: 'TXYZconsole', withdrawQuantity: '100', clientOrderId });
      expect(answer.status).toBe(200);
      return (answer.body as { orderId: string }).orderId;
    };
    const approveId = await ask('console-w1');
    const rejectId = await ask('console-w2');

    await openSection('Deposits & withdrawals');
    await page.getByRole('button', { name: `Approve withdrawal ${approveId}`, exact: true }).click();
    await page.getByLabel(`Tx id for withdrawal ${approveId}`).fill('0xc0ffee');
    await page.getByRole('button', { name: `Confirm approve withdrawal ${approveId}` }).click();
    await status(`Withdrawal ${approveId} approved and sent (tx 0xc0ffee).`).waitFor();

    await page.getByRole('button', { name: `Reject withdrawal ${rejectId}`, exact: true }).click();
    await page.getByLabel(`Reason for rejecting withdrawal ${rejectId}`).fill('address check');
    await page.getByRole('button', { name: `Confirm reject withdrawal ${rejectId}` }).click();
    await status(`Withdrawal ${rejectId} rejected`).waitFor();
    await expect.poll(() => page.getByRole('region', { name: 'Withdrawals' }).getByRole('table').innerText()).not.toContain('TXYZconsole');

    await page.getByLabel('Withdrawal status').selectOption({ label: 'Every status' });
    const table = page.getByRole('region', { name: 'Withdrawals' }).getByRole('table');
    await expect.poll(() => table.getByRole('row', { name: new RegExp(`^${approveId}\\b`) }).innerText()).toContain('SENT');
    expect(await table.getByRole('row', { name: new RegExp(`^${rejectId}\\b`) }).innerText()).toContain('REJECTED');
    const rows = (await admin.send('GET', '/withdrawals')).body as { withdrawalId: string; status: string; txId: string }[];
    expect(rows.find((w) => w.withdrawalId === approveId)).toMatchObject({ status: 'SENT', txId: '0xc0ffee' });
    expect(rows.find((w) => w.withdrawalId === rejectId)).toMatchObject({ status: 'REJECTED', txId: '' });
  });

  it('when a symbol is halted, then orders on it are refused until it is resumed', async () => {
    await openSection('Assets & symbols');
    const row = page.getByRole('region', { name: 'Symbols' }).getByRole('row', { name: /^ETHBTC/ });
    await page.getByRole('button', { name: 'Halt ETHBTC' }).click();
    await status('ETHBTC is now HALT.').waitFor();
    await expect.poll(() => row.innerText()).toContain('HALT');
    await keepScreenshot(page, 'console-markets-light');
    const demo = new SpotClient(t.url, t.demo.apiKey, t.demo.secretKey);
    const order = { symbol: 'ETHBTC', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '0.01' };
    expect(((await demo.signed('POST', '/openapi/v1/order/test', order)).body as { code?: number }).code).toBe(-1151);

    await page.getByRole('button', { name: 'Resume ETHBTC' }).click();
    await status('ETHBTC is now TRADING.').waitFor();
    await expect.poll(() => row.innerText()).toContain('TRADING');
    expect((await demo.signed('POST', '/openapi/v1/order/test', order)).status).toBe(200);
  });

  it('when an asset and a symbol are added, then they are listed and the symbol trades', async () => {
    await page.getByRole('form', { name: 'Add an asset' }).getByLabel('Asset').fill('SOL');
    await page.getByLabel('Precision').fill('8');
    await page.getByLabel('Full name').fill('Solana');
    await page.getByLabel('Withdraw fee').fill('0.01');
    await page.getByRole('button', { name: 'Add asset' }).click();
    await status('Added SOL (precision 8).').waitFor();
    await expect.poll(() => page.getByRole('region', { name: 'Assets' }).getByRole('row', { name: /^SOL/ }).innerText()).toContain('0.01');

    const form = page.getByRole('form', { name: 'Add a symbol' });
    const addSolUsdt = async (): Promise<void> => {
      const fields = { Symbol: 'SOLUSDT', 'Base asset': 'SOL', 'Quote asset': 'USDT', 'Tick size': '0.01', 'Step size': '0.001', 'Min notional': '1' };
      for (const [label, value] of Object.entries(fields)) await form.getByLabel(label).fill(value);
      await page.getByRole('button', { name: 'Add symbol' }).click();
    };
    await addSolUsdt();
    await status('Listed SOLUSDT (TRADING).').waitFor();
    await page.getByRole('button', { name: 'Halt SOLUSDT' }).waitFor();
    // Listing it twice is refused with the server's message.
    await addSolUsdt();
    await expect.poll(() => form.locator('xpath=..').getByRole('alert').innerText()).toMatch(/code -\d+/);
  });

  it('when settings are edited, then only the changed members are sent, and a refused value shows the server\'s message', async () => {
    await openSection('Settings');
    const sent: string[] = [];
    const listener = (r: Request): void => {
      if (r.method() === 'PATCH') sent.push(r.postData() ?? '');
    };
    page.on('request', listener);
    await page.getByLabel('Orders per second').fill('0');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/ordersPerSecond/);
    await page.getByLabel('Orders per second').fill('25');
    await page.getByLabel('Default taker fee rate').fill('0.00080');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await status(/Saved/).waitFor();
    page.off('request', listener);
    // A count goes out as the digits typed, a fee rate as the decimal string typed.
    expect(sent).toEqual(['{"ordersPerSecond":0}', '{"ordersPerSecond":25,"defaultTakerFeeRate":"0.00080"}']);
    expect((await admin.send('GET', '/trading/config')).body).toMatchObject({ ordersPerSecond: 25, defaultTakerFeeRate: '0.0008' });
  });

  it('when the stop and iceberg orders switch is ticked with a new iceberg limit, then the PATCH sends a boolean and a number and GET shows them; unticked, the option is off again', async () => {
    await openSection('Settings');
    const sent: string[] = [];
    const listener = (r: Request): void => {
      if (r.method() === 'PATCH') sent.push(r.postData() ?? '');
    };
    page.on('request', listener);
    const toggle = page.getByRole('checkbox', { name: 'Stop and iceberg orders' });
    expect(await toggle.isChecked()).toBe(false);

    // A limit that is no whole number is the server's to refuse, with its message naming the member.
    await page.getByLabel('Max stop orders per symbol').fill('1.5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain("parameter 'maxAlgoOrdersPerSymbol'; legal range is '1-9007199254740991'");
    await page.getByRole('button', { name: 'Undo changes' }).click();

    await toggle.check();
    await page.getByLabel('Max iceberg parts').fill('12');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await status('Saved: algoOrders = true, maxIcebergParts = 12.').waitFor();
    await keepScreenshot(page, 'console-settings-algo-light');
    expect((await admin.send('GET', '/trading/config')).body).toMatchObject({ algoOrders: true, maxAlgoOrdersPerSymbol: 5, maxIcebergParts: 12 });

    await toggle.uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await status('Saved: algoOrders = false.').waitFor();
    page.off('request', listener);
    expect(sent).toEqual(['{"maxAlgoOrdersPerSymbol":"1.5"}', '{"algoOrders":true,"maxIcebergParts":12}', '{"algoOrders":false}']);
    expect((await admin.send('GET', '/trading/config')).body).toMatchObject({ algoOrders: false, maxIcebergParts: 12 });
  });

  it('when verify is run with replay, then the report says OK with the state hashes', async () => {
    await openSection('Verify');
    await page.getByLabel('Replay').check();
    await page.getByRole('button', { name: 'Run verify' }).click();
    const verdict = page.getByRole('status', { name: 'Verify result' });
    await expect.poll(() => verdict.innerText(), { timeout: 20_000 }).toContain('OK');
    expect(await verdict.innerText()).toContain('with replay');
    expect(await page.getByText('State hash', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('region', { name: 'Totals by asset' }).getByRole('row', { name: /^USDT/ }).count()).toBe(1);
  });

  it('when the metrics glance is open, then it shows numbers from /metrics', async () => {
    await openSection('Metrics');
    const tile = (label: string) => page.locator(`[data-metric="${label}"]`);
    await expect.poll(() => tile('Commands journaled').innerText()).toMatch(/^\d+$/);
    expect(Number(await tile('Commands journaled').innerText())).toBeGreaterThan(10);
    expect(await tile('Open orders').innerText()).toMatch(/^\d+$/);
    expect(await tile('Open connections').innerText()).toMatch(/^\d+$/);
    await keepScreenshot(page, 'console-metrics-light');
  });

  it('when an address is banned by the rate limiter, then the console lists the ban and lifts it', async () => {
    await admin.send('PATCH', '/trading/config', { requestWeightPerMinute: 1, banStrikes: 2 });
    let banned418 = false;
    for (let sent = 0; sent < 6 && !banned418; sent += 1) banned418 = (await request(`${t.url}/openapi/v1/pairs`)).status === 418;
    expect(banned418).toBe(true);
    await admin.send('PATCH', '/trading/config', { requestWeightPerMinute: 3000, banStrikes: 20 });
    const banned = ((await admin.send('GET', '/bans')).body as { ip: string }[]).map((b) => b.ip);
    expect(banned).toHaveLength(1);
    await openSection('Bans');
    await page.getByRole('button', { name: `Lift ban ${banned[0]}` }).click();
    await status(`Lifted the ban of ${banned[0]}.`).waitFor();
    expect((await admin.send('GET', '/bans')).body).toEqual([]);
  });

  it('when shown dark and at phone width, then the console still works (screenshots kept), and nothing came from elsewhere', async () => {
    await openSection('Users & keys');
    await page.getByRole('button', { name: `Open user ${userId}` }).click();
    await page.emulateMedia({ colorScheme: 'dark' });
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).not.toBe('rgb(245, 246, 248)');
    await keepScreenshot(page, 'console-users-dark');
    await openSection('Verify');
    await page.getByRole('button', { name: 'Run verify' }).click();
    await page.getByRole('status', { name: 'Verify result' }).waitFor();
    await keepScreenshot(page, 'console-verify-dark');

    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await openSection('Deposits & withdrawals');
    // Stacked: the fields sit one above the other, and nothing is wider than the screen.
    const [account, asset] = await Promise.all([page.getByLabel('Account ID').boundingBox(), page.getByLabel('Asset').boundingBox()]);
    expect(asset?.y ?? 0).toBeGreaterThan((account?.y ?? 0) + (account?.height ?? 0));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await keepScreenshot(page, 'console-funds-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(external).toEqual([]);
  });
});
