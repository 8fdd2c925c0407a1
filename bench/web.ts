/**
 * The trading page's first paint: first paint (FP), first contentful paint (FCP) and "markets listed"
 * (the app has fetched exchangeInfo and rendered the market list) of `/` in Chromium, beside FP/FCP of
 * a trivial static HTML page served by the same server through the same route code, and the page's
 * gzipped JavaScript beside its 250 KB budget.
 *
 * The server runs in this process with the demo data; the pages are built into a temporary folder
 * (BOURSE_WEB_OUT) whose `console.html` is replaced by the trivial page, so `/console` is the
 * reference: same server, same handler, no script. Each run is a fresh browser context (empty cache)
 * on a warm server (one unmeasured visit of each page first).
 *
 *   BENCH_WEB_RUNS (15): measured visits of each page
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../test/support/browser.js';

const BUDGET_KB = 250;
const TRIVIAL = '<!doctype html><html lang="en"><meta charset="utf-8"><title>hello</title><p>Hello, Bourse.</p></html>\n';

interface Visit {
  fp: number;
  fcp: number;
  ready?: number;
}

async function visit(browser: Browser, url: string, app: boolean): Promise<Visit> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  let ready: number | undefined;
  if (app) {
    await page.locator('.market-table tbody tr').first().waitFor({ timeout: 15_000 });
    ready = await page.evaluate(() => performance.now());
  }
  // Paint entries arrive after the frame: wait for FCP to be recorded.
  // A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
  const paints = (await page.evaluate(`new Promise((resolve) => {
    const read = () => Object.fromEntries(performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]));
    let tries = 120;
    const poll = () => {
      const found = read();
      if (found['first-contentful-paint'] !== undefined || tries-- === 0) resolve(found);
      else requestAnimationFrame(poll);
    };
    poll();
  })`)) as Record<string, number>;
  await context.close();
  return { fp: paints['first-paint'] ?? NaN, fcp: paints['first-contentful-paint'] ?? NaN, ready };
}

function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor((sorted.length - 1) / 2)]!;
}

export async function main(): Promise<void> {
  const runs = Math.max(1, Number(process.env.BENCH_WEB_RUNS ?? '15'));
  const webOut = mkdtempSync(path.join(tmpdir(), 'bourse-bench-web-'));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-bench-data-'));
  process.env.BOURSE_WEB_OUT = webOut;
  // Imported after BOURSE_WEB_OUT is set: both read it when loaded.
  const { buildWeb } = await import('../web/build.js');
  await buildWeb(true);
  writeFileSync(path.join(webOut, 'console.html'), TRIVIAL);
  const script = /src="\/web\/([^"]+\.js)"/.exec(readFileSync(path.join(webOut, 'trade.html'), 'utf8'))?.[1];
  if (script === undefined || !readdirSync(webOut).includes(script)) throw new Error('trade.html names no built script');
  const gzippedKb = gzipSync(readFileSync(path.join(webOut, script)), { level: 9 }).length / 1024;

  const { startServer } = await import('../src/main.js');
  const server = await startServer({ PORT: '0', BOURSE_DATA: dataDir, LOG_LEVEL: 'silent', BOURSE_DEMO: '1', BOURSE_DEMO_MARKET_MAKER: '0' });
  const browser = await launchChromium();
  try {
    await visit(browser, `${server.url}/`, true);
    await visit(browser, `${server.url}/console`, false);
    const trade: Visit[] = [];
    const trivial: Visit[] = [];
    for (let i = 0; i < runs; i++) {
      trade.push(await visit(browser, `${server.url}/`, true));
      trivial.push(await visit(browser, `${server.url}/console`, false));
    }
    const row = (name: string, a: number, b: number) => console.log(`${name.padEnd(26)} ${a.toFixed(1).padStart(8)} ms  ${b.toFixed(1).padStart(8)} ms  ${(a / b).toFixed(2).padStart(6)}×`);
    console.log(`web page first paint, Chromium headless, median of ${runs} cold-cache visits on a warm server`);
    console.log(`${''.padEnd(26)} ${'/ (trade)'.padStart(11)}  ${'static'.padStart(11)}  ${'ratio'.padStart(7)}`);
    row('first paint', median(trade.map((v) => v.fp)), median(trivial.map((v) => v.fp)));
    row('first contentful paint', median(trade.map((v) => v.fcp)), median(trivial.map((v) => v.fcp)));
    console.log(`${'markets listed (/ only)'.padEnd(26)} ${median(trade.map((v) => v.ready ?? NaN)).toFixed(1).padStart(8)} ms`);
    console.log(`bundle ${script}: ${gzippedKb.toFixed(1)} KB gzipped of a ${BUDGET_KB} KB budget (${((gzippedKb / BUDGET_KB) * 100).toFixed(0)} %)`);
  } finally {
    await browser.close();
    await server.close();
    rmSync(webOut, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  }
}
