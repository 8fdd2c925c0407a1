/**
 * Story: stop and iceberg orders on the trading page at `/` in Chromium (docs/web.md "Trading",
 * docs/spot-api.md "Stop and iceberg orders"). With the algoOrders option off the form is as it always
 * was; the operator turns it on, and after a reload the form offers the four stop types with a stop
 * price, and an iceberg quantity on GTC limit kinds. A stop-limit sell placed from the page waits
 * (A17: NEW, isWorking false, out of the book), the open-orders list says so, and a trade at its stop
 * price makes it work and rest in the book, live. An iceberg shows only its part in the book.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepScreenshot, launchChromium } from '../support/browser.js';
import { AdminClient, SpotClient } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { createFundedTrader } from '../support/trading-setup.js';

interface Depth {
  bids: [string, string][];
  asks: [string, string][];
}
interface OpenOrder {
  orderId: string;
  type: string;
  side: string;
  price: string;
  stopPrice: string;
  origQty: string;
  status: string;
  isWorking: boolean;
}

const BASIC_TYPES = ['LIMIT', 'MARKET', 'LIMIT_MAKER'];
const STOP_TYPES = ['STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'];

describe('story: stop and iceberg orders on the trading page in Chromium', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let spot: SpotClient;
  let maker: SpotClient;
  let taker: SpotClient;
  const pageErrors: string[] = [];

  const form = (): Locator => page.locator('.order-form');
  const typeOptions = async (): Promise<string[]> => page.getByLabel('Order type').locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  // "Price" is also inside "Stop price", and "Quantity" inside "Iceberg quantity".
  const priceField = (): Locator => page.getByLabel(/^Price/);
  const stopPriceField = (): Locator => page.getByLabel(/^Stop price/);
  const quantityField = (): Locator => page.getByLabel(/^Quantity/);
  const icebergField = (): Locator => page.getByLabel(/^Iceberg quantity/);
  const depth = async (): Promise<Depth> => (await spot.get('/openapi/quote/v1/depth', { symbol: 'BTCUSDT', limit: 50 })).body as Depth;
  const openOrders = async (): Promise<OpenOrder[]> => (await spot.signed('GET', '/openapi/v1/openOrders', { symbol: 'BTCUSDT' })).body as OpenOrder[];
  const setOption = async (algoOrders: boolean): Promise<void> => {
    const answer = await new AdminClient(t.url, t.adminToken).send('PATCH', '/trading/config', { algoOrders });
    if (answer.status !== 200) throw new Error(`PATCH /admin/v1/trading/config: ${answer.text}`);
  };
  /** One trade between the maker and the taker at `price`, which becomes the last price. */
  const tradeAt = async (price: string): Promise<void> => {
    for (const [client, side] of [
      [maker, 'BUY'],
      [taker, 'SELL'],
    ] as const) {
      const answer = await client.signed('POST', '/openapi/v1/order', { symbol: 'BTCUSDT', side, type: 'LIMIT', timeInForce: 'GTC', price, quantity: '0.001' }, { place: 'body' });
      if (answer.status !== 200) throw new Error(`order at ${price}: ${answer.text}`);
    }
  };
  const statusLine = async (): Promise<string> => form().locator('[role="status"]').innerText();
  const alertLine = async (): Promise<string> => form().locator('[role="alert"]').innerText();

  beforeAll(async () => {
    t = await startTestServer();
    spot = new SpotClient(t.url, t.demo.apiKey, t.demo.secretKey);
    const funds: [string, string][] = [
      ['BTC', '1'],
      ['USDT', '1000000'],
    ];
    const makerKeys = await createFundedTrader(t.url, t.adminToken, 'algo-maker', funds);
    const takerKeys = await createFundedTrader(t.url, t.adminToken, 'algo-taker', funds);
    maker = new SpotClient(t.url, makerKeys.apiKey, makerKeys.secretKey);
    taker = new SpotClient(t.url, takerKeys.apiKey, takerKeys.secretKey);
    // A last price of 60000, and an empty book again.
    await tradeAt('60000');
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${t.url}/#BTCUSDT`);
    await page.getByLabel('API key').fill(t.demo.apiKey);
    await page.getByLabel('Secret').fill(t.demo.secretKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('when the option is off, then the form offers only limit, market and limit maker, with no stop price or iceberg field', async () => {
    await expect.poll(typeOptions).toEqual(BASIC_TYPES);
    expect(await stopPriceField().count()).toBe(0);
    expect(await icebergField().count()).toBe(0);
  });

  it('when the option is turned on and the page reloaded, then the form offers the four stop types, a stop price for them, and an iceberg quantity only for GTC limit kinds', async () => {
    await setOption(true);
    await page.reload();
    // The key is kept by the tab: the page signs in again by itself.
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await expect.poll(typeOptions).toEqual([...BASIC_TYPES, ...STOP_TYPES]);
    expect(await icebergField().count()).toBe(1);
    await page.getByLabel('Time in force').selectOption('IOC');
    expect(await icebergField().count()).toBe(0);
    await page.getByLabel('Time in force').selectOption('GTC');
    await page.getByLabel('Order type').selectOption('STOP_LOSS');
    expect(await stopPriceField().count()).toBe(1);
    expect(await priceField().count()).toBe(0);
    expect(await icebergField().count()).toBe(0);
    await page.getByLabel('Order type').selectOption('STOP_LOSS_LIMIT');
    expect(await stopPriceField().count()).toBe(1);
    expect(await priceField().count()).toBe(1);
    expect(await icebergField().count()).toBe(1);
  });

  it('when a stop price is off the tick size, then the page says so before sending anything', async () => {
    await page.getByRole('button', { name: 'Sell', exact: true }).click();
    await page.getByLabel('Order type').selectOption('STOP_LOSS_LIMIT');
    await stopPriceField().fill('59000.001');
    await priceField().fill('58900');
    await quantityField().fill('0.01');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(alertLine).toContain('Stop price must be a multiple of 0.01 USDT');
  });

  it('when a stop-loss sell above the last price is sent, then the server refuses it: it would trigger at once', async () => {
    await page.getByLabel('Order type').selectOption('STOP_LOSS');
    await stopPriceField().fill('61000');
    await quantityField().fill('0.01');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(alertLine).toContain('The exchange refused the order: Order would trigger immediately. (-2010)');
  });

  let stopOrderId = '';
  it('when a stop-limit sell is placed from the page, then A17 shows it NEW and not working, out of the book, and the page lists it with its stop price as waiting', async () => {
    await page.getByLabel('Order type').selectOption('STOP_LOSS_LIMIT');
    await stopPriceField().fill('59000');
    await priceField().fill('58900');
    await quantityField().fill('0.01');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(statusLine).toMatch(/^Order \d+: new, waiting for its stop price\.$/);
    stopOrderId = /Order (\d+)/.exec(await statusLine())![1]!;
    expect(await openOrders()).toEqual([
      expect.objectContaining({ orderId: stopOrderId, type: 'STOP_LOSS_LIMIT', side: 'SELL', price: '58900', stopPrice: '59000', origQty: '0.01', status: 'NEW', isWorking: false }),
    ]);
    expect((await depth()).asks).toEqual([]);
    const row = page.locator(`.orders-table tr[data-order-id="${stopOrderId}"]`);
    await expect.poll(async () => row.locator('td').allInnerTexts()).toEqual([
      expect.any(String),
      'BTCUSDT',
      'Stop loss limit',
      'Sell',
      '58900',
      '59000',
      '0.01',
      '0',
      'Waiting for trigger',
      'Cancel',
    ]);
    expect(await page.locator('.orders-table th').allInnerTexts()).toContain('Stop');
    await keepScreenshot(page, 'trade-stop-waiting');
  });

  it('when a trade reaches its stop price, then the order works: it rests in the book at its limit and the page shows it as new, live', async () => {
    await tradeAt('59000');
    await expect.poll(openOrders).toEqual([expect.objectContaining({ orderId: stopOrderId, status: 'NEW', isWorking: true })]);
    expect((await depth()).asks).toEqual([['58900', '0.01']]);
    const row = page.locator(`.orders-table tr[data-order-id="${stopOrderId}"]`);
    await expect.poll(async () => row.locator('td').nth(8).innerText()).toBe('New');
    await expect.poll(async () => page.locator('.book-ask tr td:first-child').first().innerText()).toContain('58900');
  });

  it('when an iceberg limit sell is placed from the page, then the book shows only its part', async () => {
    await page.getByLabel('Order type').selectOption('LIMIT');
    await priceField().fill('61000');
    await quantityField().fill('0.05');
    await icebergField().fill('0.01');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(statusLine).toMatch(/^Order \d+: new\.$/);
    const icebergId = /Order (\d+)/.exec(await statusLine())![1]!;
    expect((await openOrders()).find((o) => o.orderId === icebergId)).toMatchObject({ origQty: '0.05', status: 'NEW', isWorking: true });
    expect((await depth()).asks).toEqual([
      ['58900', '0.01'],
      ['61000', '0.01'],
    ]);
  });

  it('when the option is turned off and the page reloaded, then the stop types are gone again and the placed orders stay listed; nothing failed', async () => {
    await setOption(false);
    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await expect.poll(typeOptions).toEqual(BASIC_TYPES);
    expect(await icebergField().count()).toBe(0);
    await expect.poll(async () => page.locator(`.orders-table tr[data-order-id="${stopOrderId}"]`).count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });
});
