/**
 * The trading page at `/` stays light: its JavaScript, built as `npm run build` builds it, is at most
 * 250 KB gzipped (issue 16). Built into a temporary folder so it never races the shared dist/web.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUDGET = 250 * 1024;

describe('the web bundle of /', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'bourse-web-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('when built, then the scripts trade.html loads are at most 250 KB gzipped', () => {
    execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'web', 'build.ts'), '--force'], { cwd: root, env: { ...process.env, BOURSE_WEB_OUT: out }, stdio: 'pipe' });
    const html = readFileSync(path.join(out, 'trade.html'), 'utf8');
    const scripts = [...html.matchAll(/<script[^>]*src="\/web\/([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    const files = readdirSync(out);
    let gzipped = 0;
    for (const script of scripts) {
      expect(files).toContain(script);
      gzipped += gzipSync(readFileSync(path.join(out, script)), { level: 9 }).length;
    }
    console.log(`trade page JS: ${(gzipped / 1024).toFixed(1)} KB gzipped (budget ${BUDGET / 1024} KB)`);
    expect(gzipped).toBeGreaterThan(1000);
    expect(gzipped).toBeLessThanOrEqual(BUDGET);
  });
});
