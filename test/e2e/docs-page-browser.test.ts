/**
 * Story: a person opens `/docs` in a real browser (Debian's chromium through playwright-core). The
 * reference renders from `/openapi.json` with every operation of the three interfaces listed, the
 * search box narrows the list to matching operations, and an operation opens on its answer's
 * example. Chromium missing is a failure, never a skip.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepScreenshot, launchChromium, renderedFrames } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface Document {
  paths: Record<string, Record<string, { summary: string }>>;
}

describe('story: the API reference at /docs in Chromium', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let doc: Document;
  const external: string[] = [];

  beforeAll(async () => {
    t = await startTestServer();
    doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as Document;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(15_000);
    page.on('request', (request) => {
      if (!request.url().startsWith(t.url)) external.push(request.url());
    });
    await page.goto(`${t.url}/docs`);
    await page.locator('.opblock').first().waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it('when the page is scrolled to its end, then every operation of the document is listed, and nothing was fetched from elsewhere', async () => {
    // Swagger UI renders only the part of the list in view: read it a screen at a time, each read
    // once the frames after a scroll have rendered, until a scroll moves no more.
    const listed = new Set<string>();
    for (let moved = true; moved; ) {
      const seen = await page.locator('.opblock').evaluateAll((blocks) =>
        blocks.map((block) => {
          const method = block.querySelector('.opblock-summary-method')?.textContent ?? '';
          const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
          return `${method.toLowerCase()} ${path}`;
        }),
      );
      for (const op of seen) listed.add(op);
      const y = await page.evaluate(() => window.scrollY);
      await page.evaluate(() => window.scrollBy(0, 600));
      await renderedFrames(page);
      moved = (await page.evaluate(() => window.scrollY)) !== y;
    }
    const expected = Object.entries(doc.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`));
    expect(expected.length).toBeGreaterThan(150);
    expect(expected.filter((op) => !listed.has(op))).toEqual([]);
    expect(external).toEqual([]);
    expect(await page.locator('.info .title').innerText()).toContain('Bourse API');
    await page.evaluate(() => window.scrollTo(0, 0));
    await keepScreenshot(page, 'docs');
  });

  it('when "open orders" is typed into the search box, then only operations about open orders remain', async () => {
    await page.getByPlaceholder('Filter by tag').fill('openOrders');
    const visiblePaths = async (): Promise<string[]> => page.locator('.opblock-summary-path').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-path') ?? ''));
    // The filter applies after a short debounce: wait for the list to change.
    await expect.poll(async () => (await visiblePaths()).filter((p) => !p.toLowerCase().includes('openorders'))).toEqual([]);
    const paths = await visiblePaths();
    expect(paths).toContain('/openapi/v1/openOrders');
    await page.getByPlaceholder('Filter by tag').fill('');
  });

  it('when an operation is opened, then its answer schema and example are shown', async () => {
    await page.getByPlaceholder('Filter by tag').fill('/openapi/quote/v1/depth');
    const depth = page.locator('.opblock', { has: page.locator('[data-path="/openapi/quote/v1/depth"]') }).first();
    await depth.locator('.opblock-summary').click();
    await expect.poll(async () => depth.locator('.responses-wrapper').innerText()).toContain('200');
    await expect.poll(async () => depth.locator('.responses-wrapper').innerText()).toMatch(/Example Value|Schema/);
  });
});
