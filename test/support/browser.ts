import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** The chromium binary, or a failure that says how to install it (browser tests fail, never skip). */
function chromiumPath(): string {
  let found = '';
  try {
    found = execSync('command -v chromium', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    found = existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : '';
  }
  if (found === '') {
    throw new Error('chromium is not installed: browser tests drive pages in a real browser; install it with `apt-get update && apt-get install -y chromium`');
  }
  return found;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/**
 * Where screenshots are kept for review after a test run: `BOURSE_SCREENSHOTS`, else
 * `test-artifacts/screenshots` in the project (ignored by git).
 */
export function screenshotDir(): string {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const dir = process.env.BOURSE_SCREENSHOTS ?? path.join(root, 'test-artifacts', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Saves a full-page screenshot as `<name>.png` in the screenshot folder and returns its path. */
export async function keepScreenshot(page: Page, name: string): Promise<string> {
  const file = path.join(screenshotDir(), `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (statSync(file).size < 1000) throw new Error(`screenshot ${file} is nearly empty`);
  return file;
}

/**
 * Resolves once the page has rendered three more frames: what a change set off (a resize observer,
 * a redraw scheduled for the next frame) has run and been laid out, so no fixed wait is needed.
 */
export async function renderedFrames(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let i = 0; i < 3; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
  });
}
