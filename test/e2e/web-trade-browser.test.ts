/**
 * Story: a person trades from the web page at `/` in a real browser (Debian's chromium through
 * playwright-core). Signed out it is a market view (the demo books, markets, chart); signed in with the
 * demo key it places, shows and cancels orders, trades against the book, shows the server's refusals,
 * and keeps balances live. It works in the dark theme and at phone width. Screenshots are kept in
 * test-artifacts/screenshots; with BOURSE_UPDATE_README_SHOTS=1 the README's docs/images/trade.png is rewritten.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepScreenshot, launchChromium, renderedFrames } from '../support/browser.js';
import { SpotClient } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { createFundedTrader } from '../support/trading-setup.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Depth {
  bids: [string, string][];
  asks: [string, string][];
}

describe('story: the trading page at / in Chromium', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let spot: SpotClient;
  const external: string[] = [];
  const pageErrors: string[] = [];

  const depth = async (): Promise<Depth> => (await spot.get('/openapi/quote/v1/depth', { symbol: 'BTCUSDT', limit: 50 })).body as Depth;
  const balance = async (asset: string): Promise<string> => {
    const account = (await spot.signed('GET', '/openapi/v1/account')).body as { balances: { asset: string; free: string }[] };
    return account.balances.find((b) => b.asset === asset)?.free ?? '0';
  };
  const bookPrices = async (side: 'bid' | 'ask'): Promise<string[]> =>
    page.locator(`.book-${side} tr td:first-child`).evaluateAll((cells) => cells.map((cell) => (cell.textContent ?? '').replace('●', '').trim()));
  const fillOrder = async (side: 'Buy' | 'Sell', type: string, price: string, quantity: string): Promise<void> => {
    await page.getByRole('button', { name: side, exact: true }).click();
    await page.getByLabel('Order type').selectOption(type);
    if (price !== '') await page.getByLabel('Price').fill(price);
    await page.getByLabel('Quantity').fill(quantity);
    await page.getByRole('button', { name: 'Place order' }).click();
  };

  beforeAll(async () => {
    t = await startTestServer();
    spot = new SpotClient(t.url, t.demo.apiKey, t.demo.secretKey);
    // A second trader keeps a two-sided BTCUSDT book (the demo market maker is off in tests) and
    // a third trades twice against it, so the chart and the ticker have something to show.
    const maker = await createFundedTrader(t.url, t.adminToken, 'web-maker', [
      ['BTC', '100'],
      ['USDT', '10000000'],
    ]);
    const makerClient = new SpotClient(t.url, maker.apiKey, maker.secretKey);
    const place = async (side: string, price: string, quantity: string) => {
      const answer = await makerClient.signed('POST', '/openapi/v1/order', { symbol: 'BTCUSDT', side, type: 'LIMIT', timeInForce: 'GTC', price, quantity }, { place: 'body' });
      if (answer.status !== 200) throw new Error(`maker order: ${answer.text}`);
    };
    for (let level = 0; level < 6; level++) {
      await place('BUY', String(60000 - level * 60), `0.${level + 1}5`);
      await place('SELL', String(60060 + level * 60), `0.${level + 2}5`);
    }
    const taker = await createFundedTrader(t.url, t.adminToken, 'web-taker', [
      ['BTC', '1'],
      ['USDT', '100000'],
    ]);
    const takerClient = new SpotClient(t.url, taker.apiKey, taker.secretKey);
    for (const [side, quantity] of [
      ['SELL', '0.01'],
      ['BUY', '0.02'],
    ] as const) {
      const answer = await takerClient.signed('POST', '/openapi/v1/order', { symbol: 'BTCUSDT', side, type: 'MARKET', quantity: side === 'BUY' ? '1201.2' : quantity }, { place: 'body' });
      if (answer.status !== 200) throw new Error(`taker order: ${answer.text}`);
    }
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    page.setDefaultTimeout(15_000);
    page.on('request', (request) => {
      if (!request.url().startsWith(t.url) && !request.url().startsWith(t.url.replace('http', 'ws'))) external.push(request.url());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${t.url}/#BTCUSDT`);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('when opened without a key, then the market list, the demo book and the chart are shown, read-only', async () => {
    const symbols = ((await spot.get('/openapi/v1/exchangeInfo')).body as { symbols: { symbol: string }[] }).symbols.map((s) => s.symbol);
    await expect.poll(async () => page.locator('.market-table tbody tr').count()).toBe(symbols.length);
    // Every symbol has its 24 h change; BTCUSDT (the only one traded) its last price too.
    for (const symbol of symbols) await expect.poll(async () => page.locator(`.market-table tr[data-symbol="${symbol}"] td.num`).nth(1).innerText()).toMatch(/%$/);
    await expect.poll(async () => page.locator('.market-table tr[data-symbol="BTCUSDT"] td.num').first().innerText()).toBe('60060');
    await expect.poll(async () => page.locator('.trades-table tbody tr').count()).toBe(2);
    const book = await depth();
    await expect.poll(async () => (await bookPrices('bid'))[0]).toBe(book.bids[0]![0]);
    await expect.poll(async () => (await bookPrices('ask')).at(-1)).toBe(book.asks[0]![0]);
    expect((await bookPrices('bid')).length).toBeGreaterThan(1);
    expect((await bookPrices('ask')).length).toBeGreaterThan(1);
    expect(await page.locator('.chart canvas').count()).toBeGreaterThan(0);
    await expect.poll(async () => page.getByLabel('Interval').locator('option').allInnerTexts()).toEqual(['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M']);
    await expect(page.getByRole('button', { name: 'Place order' }).isDisabled()).resolves.toBe(true);
    await expect(page.getByLabel('API key').isVisible()).resolves.toBe(true);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    await keepScreenshot(page, 'trade-market-light');
  });

  it('when the demo key and secret are entered, then the page is signed in and shows the balances, and the secret is not kept in localStorage or cookies', async () => {
    await page.getByLabel('API key').fill(t.demo.apiKey);
    await page.getByLabel('Secret').fill('not-the-secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(async () => page.locator('.sign-in [role="alert"]').innerText()).toContain('Signature for this request is not valid. (-1022)');
    await page.getByLabel('Secret').fill(t.demo.secretKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await expect.poll(async () => page.locator('.balances-table tr[data-asset="BTC"] td').nth(1).innerText()).toBe(await balance('BTC'));
    await expect.poll(async () => page.locator('.balances .dot.on').count()).toBe(1);
    const stored = await page.evaluate(() => ({ local: JSON.stringify({ ...localStorage }), cookies: document.cookie }));
    expect(stored.local).not.toContain(t.demo.secretKey);
    expect(stored.cookies).toBe('');
  });

  it('when a filter is broken, then the page says which before sending anything', async () => {
    let sent = 0;
    const count = (request: { url(): string; method(): string }) => {
      if (request.method() === 'POST' && request.url().includes('/openapi/v1/order')) sent += 1;
    };
    page.on('request', count);
    await fillOrder('Buy', 'LIMIT', '50000.001', '0.001');
    await expect.poll(async () => page.locator('.order-form [role="alert"]').innerText()).toContain('Price must be a multiple of 0.01');
    await fillOrder('Buy', 'LIMIT', '50000', '0.0000001');
    await expect.poll(async () => page.locator('.order-form [role="alert"]').innerText()).toContain('Quantity must be at least 0.000001');
    await fillOrder('Buy', 'LIMIT', '100', '0.000001');
    await expect.poll(async () => page.locator('.order-form [role="alert"]').innerText()).toContain('must be at least 1 USDT');
    page.off('request', count);
    expect(sent).toBe(0);
  });

  let orderId = '';
  it('when a LIMIT buy below the book is placed, then it is in open orders and its level is in the book', async () => {
    await fillOrder('Buy', 'LIMIT', '55555.55', '0.002');
    await expect.poll(async () => page.locator('.order-form [role="status"]').innerText()).toMatch(/^Order \d+: new\.$/);
    orderId = /Order (\d+)/.exec(await page.locator('.order-form [role="status"]').innerText())![1]!;
    const row = page.locator(`.orders-table tr[data-order-id="${orderId}"]`);
    await row.waitFor();
    expect(await row.innerText()).toContain('55555.55');
    await expect.poll(async () => bookPrices('bid')).toContain('55555.55');
    await expect.poll(async () => page.locator('.balances-table tr[data-asset="USDT"] td').nth(2).innerText()).not.toBe('0');
  });

  it('when its Cancel button is pressed, then it leaves open orders and the book', async () => {
    await page.getByRole('button', { name: `Cancel order ${orderId}` }).click();
    await expect.poll(async () => page.locator(`.orders-table tr[data-order-id="${orderId}"]`).count()).toBe(0);
    await expect.poll(async () => bookPrices('bid')).not.toContain('55555.55');
    await page.getByRole('tab', { name: /Order history/ }).click();
    await expect.poll(async () => page.locator(`.orders-table tr[data-order-id="${orderId}"]`).innerText()).toContain('Canceled');
    await page.getByRole('tab', { name: /Open orders/ }).click();
  });

  it('when a buy crosses the book, then the trade shows in my trades and recent trades, the balances change live, and the chart has a candle', async () => {
    const before = await balance('BTC');
    const bestAsk = (await depth()).asks[0]![0];
    await fillOrder('Buy', 'LIMIT', bestAsk, '0.003');
    await expect.poll(async () => page.locator('.order-form [role="status"]').innerText()).toContain('filled');
    await expect.poll(async () => page.locator('.trades-table tbody tr').first().innerText()).toContain(bestAsk);
    await page.getByRole('tab', { name: /My trades/ }).click();
    await expect.poll(async () => page.locator('.my-trades-table tbody tr').first().innerText()).toContain(bestAsk);
    expect(await page.locator('.my-trades-table tbody tr').first().innerText()).toContain('0.003');
    const after = await balance('BTC');
    expect(after).not.toBe(before);
    await expect.poll(async () => page.locator('.balances-table tr[data-asset="BTC"] td').nth(1).innerText()).toBe(after);
    await expect.poll(async () => page.locator('.balances-table tr[data-asset="USDT"] td').nth(1).innerText()).toBe(await balance('USDT'));
    // The chart: bars loaded (no "no trades" note) and candle-coloured pixels drawn on its canvas.
    await page.getByLabel('Interval').selectOption('5m');
    await expect.poll(async () => page.locator('.chart-status').count()).toBe(0);
    await expect
      .poll(async () =>
        page.evaluate(() => {
          const colour = getComputedStyle(document.documentElement).getPropertyValue('--buy').trim();
          const probe = document.createElement('canvas').getContext('2d')!;
          probe.fillStyle = colour;
          const hex = probe.fillStyle.slice(1);
          const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
          let hits = 0;
          for (const canvas of document.querySelectorAll<HTMLCanvasElement>('.chart canvas')) {
            const context = canvas.getContext('2d');
            if (context === null || canvas.width === 0) continue;
            const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
            for (let i = 0; i < pixels.length; i += 4) if (Math.abs(pixels[i]! - r!) < 8 && Math.abs(pixels[i + 1]! - g!) < 8 && Math.abs(pixels[i + 2]! - b!) < 8) hits += 1;
          }
          return hits;
        }),
      )
      .toBeGreaterThan(20);
    await page.evaluate(() => window.scrollTo(0, 0));
    await keepScreenshot(page, 'trade-signed-in-light');
    if (process.env.BOURSE_UPDATE_README_SHOTS === '1') {
      mkdirSync(path.join(root, 'docs', 'images'), { recursive: true });
      copyFileSync(await keepScreenshot(page, 'trade-readme'), path.join(root, 'docs', 'images', 'trade.png'));
    }
  });

  it('when the server refuses an order that passes the filters, then its message is shown', async () => {
    await fillOrder('Sell', 'LIMIT', '70000', '999');
    await expect.poll(async () => page.locator('.order-form [role="alert"]').innerText()).toContain('The exchange refused the order: Balance insufficient');
  });

  it('when a MARKET sell and a crossing LIMIT_MAKER are sent, then the first fills and the second is refused by the server', async () => {
    const earlier = await page.locator('.order-form [role="status"]').innerText();
    await fillOrder('Sell', 'MARKET', '', '0.001');
    await expect.poll(async () => page.locator('.order-form [role="status"]').innerText()).toMatch(/^Order \d+: filled\.$/);
    expect(await page.locator('.order-form [role="status"]').innerText()).not.toBe(earlier);
    const bestBid = (await depth()).bids[0]![0];
    await fillOrder('Sell', 'LIMIT_MAKER', bestBid, '0.001');
    await expect.poll(async () => page.locator('.order-form [role="alert"]').innerText()).toContain('The exchange refused the order: Order would immediately match and take.');
  });

  it('when the theme is switched to dark, then the page is dark', async () => {
    const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect.poll(async () => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe(light);
    // The chart takes the new colours on a later frame.
    await renderedFrames(page);
    await keepScreenshot(page, 'trade-dark');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
  });

  it('when the window is phone-wide, then the panels stack without horizontal scroll', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    // The chart follows its panel's size through a resize observer, on the next frames.
    await renderedFrames(page);
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    const chart = await page.locator('.chart-panel').boundingBox();
    const form = await page.locator('.order-form').boundingBox();
    expect(form!.y).toBeGreaterThan(chart!.y + chart!.height - 1);
    await keepScreenshot(page, 'trade-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('when Sign out is pressed, then the key is forgotten and the page is a market view again; nothing came from elsewhere and nothing failed', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }))).not.toContain(t.demo.secretKey);
    expect(await page.locator('.orders-table').count()).toBe(0);
    expect(external).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
