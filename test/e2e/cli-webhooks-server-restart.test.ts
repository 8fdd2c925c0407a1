/**
 * Story: the webhook debugger against a server process that restarts (docs/webhooks.md "The webhook
 * debugger"). `bourse webhooks receive` prints the key's fingerprint, the same one the server logged
 * at start and openssl computes from the key file. `bourse webhooks events --follow` polls every
 * 100 ms, so a restart of a few seconds spans dozens of failed polls: it says once that the server
 * is away and once that it is back, keeps following, prints the event made after the restart, and
 * never piles up abort listeners (no MaxListenersExceededWarning).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBourse, type RunningBourse } from '../support/cli-run.js';
import { startChildServer, type ChildServer } from '../support/child-server.js';
import { MerchantClient } from '../support/merchant-client.js';

const FOLLOW_INTERVAL_MS = 100;
/** How long each awaited line may take: some waits span a restart of the child server. */
const WAIT_MS = 15_000;

describe('story: the webhook debugger while the server process restarts', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-cli-restart-'));
  let child: ChildServer;
  let client: MerchantClient;
  let merchantId: number;
  const running: RunningBourse[] = [];

  /** `bourse …` in this process (as the binary runs it); afterAll stops what a test left running. */
  const start = (argv: string[]): RunningBourse => {
    const run = startBourse(argv, { BOURSE_URL: child.url, BOURSE_ADMIN_TOKEN: child.adminToken });
    running.push(run);
    return run;
  };
  const deposit = async (traceNumber: string): Promise<string> => {
    const { txId } = await client.ok<{ txId: number }>('POST', '/sandbox/v2/deposits', { merchantId, fiat: 'MXN', amount: '250.00', traceNumber });
    return String(txId);
  };

  beforeAll(async () => {
    child = await startChildServer({ dataDir });
    client = await MerchantClient.connect(child.url, child.demo.merchantApiKey, child.demo.merchantSecretKey);
    merchantId = Number(child.demo.merchantId);
  });
  afterAll(async () => {
    for (const run of running) await run.stop().catch(() => undefined);
    await child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when webhooks receive starts, then it prints the fingerprint the server logged: SHA-256 of the DER public key, as openssl computes it from the key file', async () => {
    const receiver = start(['webhooks', 'receive', '--port', '0']);
    await receiver.until(() => receiver.stdout().includes('listening on'), 'the receiver listens', WAIT_MS);
    const printed = /\(key sha256 ([0-9a-f]+)\)/.exec(receiver.stdout())?.[1];
    const logged = child.logLine('webhook signing key ready')?.publicKeySha256;
    const der = execFileSync('openssl', ['pkey', '-in', path.join(dataDir, 'webhook-key.pem'), '-pubout', '-outform', 'DER']);
    const fromOpenssl = /([0-9a-f]{64})\s*$/.exec(execFileSync('openssl', ['dgst', '-sha256'], { input: der }).toString('utf8'))?.[1];
    expect(printed).toMatch(/^[0-9a-f]{64}$/);
    expect([logged, fromOpenssl]).toEqual([printed, printed]);
    expect(await receiver.stop()).toBe(0);
  });

  it('when the server restarts under events --follow, then it says so once, follows on, prints the event made after the restart and leaks no listener', { timeout: 90_000 }, async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const receiver = start(['webhooks', 'receive', '--port', '0']);
      await receiver.until(() => receiver.stdout().includes('listening on'), 'the receiver listens', WAIT_MS);
      const receiverUrl = /listening on (http:\/\/127\.0\.0\.1:[0-9]+\/)/.exec(receiver.stdout())?.[1] ?? '';
      await client.ok('POST', '/v2/webhook', { eventType: 'FUNDING_WEBHOOK', url: receiverUrl });
      const before = await deposit('RESTART-1');
      await receiver.until(() => receiver.stdout().includes(`record ${before} (DEPOSIT) → 2  signature ok`), 'the first event arrives', WAIT_MS);

      const follower = start(['webhooks', 'events', '--follow', '--interval', String(FOLLOW_INTERVAL_MS)]);
      await follower.until(() => /new FUNDING_WEBHOOK [0-9a-f]{32} {2}user \d+ {2}object \d+ → 2/.test(follower.stdout()), 'follow prints the known event', WAIT_MS);

      // The same address after the restart: what a BOURSE_URL names stays put.
      const port = new URL(child.url).port;
      expect(await child.kill('SIGTERM')).toEqual({ code: 0, signal: null });
      await follower.until(() => follower.stderr().includes('the server is away'), 'follow notices the server is gone', WAIT_MS);
      child = await startChildServer({ dataDir, env: { PORT: port } });
      await follower.until(() => follower.stderr().includes('the server is back'), 'follow notices the server is back', WAIT_MS);

      const after = await deposit('RESTART-2');
      await receiver.until(() => receiver.stdout().includes(`record ${after} (DEPOSIT) → 2  signature ok`), 'the event after the restart arrives', WAIT_MS);
      await follower.until(() => new RegExp(`new FUNDING_WEBHOOK [0-9a-f]{32} {2}user \\d+ {2}object ${after} → 2`).test(follower.stdout()), 'follow prints the event made after the restart', WAIT_MS);
      await follower.until(() => /attempt 1 {2}SUCCESS {2}HTTP 200/.test(follower.stdout().split(`object ${after}`)[1] ?? ''), 'follow prints its delivery', WAIT_MS);

      // A draining server answers 503 (-1016), a stopped one refuses the connection: one notice for both.
      expect(follower.stderr().match(/the server is away: /g)).toHaveLength(1);
      expect(follower.stderr().match(/the server is back/g)).toHaveLength(1);
      expect(follower.stdout()).not.toMatch(/away|back/);
      expect(await follower.stop()).toBe(0);
      expect(await receiver.stop()).toBe(0);
      expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
