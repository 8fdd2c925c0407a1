/**
 * docs/merchant-payments.md "Walkthrough: an on-ramp order, from the token to its webhook", run as the
 * page has it against a real Bourse with its demo data and demo market maker (as after `npm start`):
 * the page's receiver command (`bourse webhooks receive`, on a free port), then every `sh` block of the
 * section in one bash, then its `python` block with python3. The bash part gets a token, registers
 * the receiver, sees `MX` refused and `Mexico` quoted, places the on-ramp, has the sandbox pay it and
 * reads it released with the amounts the page explains; the receiver gets events 10, 40, 50, 60
 * verified with the key whose fingerprint the bash part printed. The Python part borrows that
 * webhook, verifies the events of its own order itself and puts the webhook back.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPO, runChild } from '../support/child-run.js';
import { startBourseReceive, type RunningBourse } from '../support/cli-run.js';
import { MerchantClient } from '../support/merchant-client.js';
import { startTestServer, type TestServer } from '../support/server.js';

const PAGE = path.join(REPO, 'docs/merchant-payments.md');
const SECTION = 'Walkthrough: an on-ramp order, from the token to its webhook';
const RUN_DEADLINE_MS = 60_000;

interface Block {
  lang: string;
  code: string;
}

/** The fenced blocks of the `## <heading>` section (its `###` subsections included), in page order. */
function sectionBlocks(markdown: string, heading: string): Block[] {
  const lines = markdown.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const blocks: Block[] = [];
  let open: Block | undefined;
  for (const line of lines.slice(start + 1)) {
    if (open === undefined && line.startsWith('## ')) break;
    const fence = /^```(\w*)$/.exec(line);
    if (fence !== null && open === undefined) open = { lang: fence[1], code: '' };
    else if (fence !== null && open !== undefined) {
      blocks.push(open);
      open = undefined;
    } else if (open !== undefined) open.code += `${line}\n`;
  }
  return blocks;
}

type Envelope = { code: number; msg: string; detail?: string; data: Record<string, unknown> };

describe('docs/merchant-payments.md "Walkthrough: an on-ramp order, from the token to its webhook", run as written', () => {
  const blocks = sectionBlocks(readFileSync(PAGE, 'utf8'), SECTION);
  let t: TestServer;
  let client: MerchantClient;
  let receiver: RunningBourse & { url: string };
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await startTestServer({ BOURSE_DEMO_MARKET_MAKER: '1' });
    client = await MerchantClient.connect(t.url, t.demo.merchantApiKey, t.demo.merchantSecretKey);
    // As right after `npm start`: the walkthrough begins once the demo market maker has asks on USDTMXN.
    // No event announces the maker's first quotes to this test: polled, as a reader would retry.
    const quote = async (): Promise<number> => (await client.call('GET', '/v2/user/crypto-quote', { country: 'Mexico', from: 'MXN', to: 'USDT' })).code;
    await vi.waitFor(async () => expect(await quote()).toBe(200), { timeout: 30_000, interval: 100 });

    // The page's second terminal: its command, on a free port rather than 9000.
    const command = blocks.map((b) => /^\$ npx bourse (webhooks receive .*)$/m.exec(b.code)?.[1]).find((c) => c !== undefined);
    expect(command).toBe('webhooks receive --port 9000');
    receiver = await startBourseReceive({ BOURSE_URL: t.url, BOURSE_DATA: t.dataDir });
    env = { BOURSE_URL: t.url, BOURSE_DATA: t.dataDir };
  });
  afterAll(async () => {
    await receiver.stop();
    await t.stop();
  });

  it('when its curl + openssl blocks run in bash, then the order is released at the quoted price and the receiver gets events 10, 40, 50, 60 signed with the key the page fingerprints', { timeout: RUN_DEADLINE_MS + 10_000 }, async () => {
    const script = blocks.filter((b) => b.lang === 'sh').map((b) => b.code).join('\n');
    // --norc: with sockets for stdio, bash would read ~/.bashrc as for a remote shell.
    const bash = await runChild('bash', ['--norc', '-e', '-o', 'pipefail', '-c', script], { env: { ...env, RECEIVER: receiver.url }, input: '', deadlineMs: RUN_DEADLINE_MS });
    expect(bash.stderr).toBe('');
    expect(bash.exitCode).toBe(0);
    const lines = bash.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(10);
    const answers = [0, 1, 3, 4, 5, 6, 7, 8, 9].map((i) => JSON.parse(lines[i]) as Envelope);
    const [token, webhook, countries, mx, quote, created, paid, detail, events] = answers;

    expect(token).toMatchObject({ code: 200, data: { token: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    expect(webhook).toMatchObject({ code: 200, data: { eventType: 'ORDER_WEBHOOK', url: receiver.url, status: 10 } });
    // The fingerprint of the answer's publicKey is the one the receiver printed (OpenSSL 3 writes "SHA2-256(stdin)= …", 1.1 "(stdin)= …").
    const fingerprint = /^(?:SHA2-256)?\(stdin\)= ([0-9a-f]{64})$/.exec(lines[2])?.[1];
    expect(receiver.output()).toContain(`(key sha256 ${fingerprint})`);

    expect(countries.data).toEqual([
      { country: 'Mexico', abbr: 'MX' },
      { country: 'United States', abbr: 'US' },
    ]);
    expect(mx).toEqual({ code: -5057, msg: 'COUNTRY_AND_FIAT_NOT_SUPPORT', detail: 'MXN is not the fiat of MX; its country is Mexico, as /v2/base/countrys names it', data: null });
    expect(quote).toMatchObject({ code: 200, data: { price: expect.stringMatching(/^0\.\d{8}$/), quoteId: expect.stringMatching(/^[0-9a-f]{32}$/) } });
    expect(created).toMatchObject({ code: 200, data: { orderId: expect.any(Number) } });
    const orderId = String(created.data.orderId);
    expect(paid).toEqual({ code: 200, msg: 'SUCCESS', data: { result: 'ORDER_PAID', orderId, txId: 0 } });
    expect(detail).toMatchObject({
      code: 200,
      data: { orderId, orderType: 'fiat_to_crypto', merchantId: Number(t.demo.merchantId), paymentId: 58, country: 'Mexico', fiat: 'MXN', crypto: 'USDT', fiatAmount: '1000.00', fiatFee: '1.00', orderStatus: 60, quoteId: quote.data.quoteId },
    });
    expect(detail.data.paymentInfo).toEqual({ 'Cuenta CLABE': expect.stringMatching(/^706180\d{12}$/), 'Beneficiary Name': 'Demo Merchant', Reference: orderId });
    // The page's sum: (1000.00 − 1.00) ÷ orderPrice, rounded down to 4 decimals.
    const priceTicks = BigInt(String(detail.data.orderPrice).replace('.', ''));
    const cryptoAtoms = (99_900n * 10n ** 6n) / priceTicks;
    expect(detail.data.cryptoAmount).toBe(`${cryptoAtoms / 10_000n}.${String(cryptoAtoms % 10_000n).padStart(4, '0')}`);
    expect(events).toMatchObject({ code: 200, data: { currentPage: 1, size: 10, total: 4 } });
    expect((events.data.record as { objectStatus: string }[]).map((e) => e.objectStatus)).toEqual(['60', '50', '40', '10']);

    await t.server.webhooks.idle();
    const received = [...receiver.output().matchAll(new RegExp(`attempt 1 {2}order ${orderId} → (\\d+) {2}signature ok`, 'g'))].map((m) => m[1]);
    expect(received).toEqual(['10', '40', '50', '60']);
  });

  it('when its Python block runs with python3 after that, then it borrows the webhook, verifies the events of its own order and puts the webhook back', { timeout: RUN_DEADLINE_MS + 10_000 }, async () => {
    const [python] = blocks.filter((b) => b.lang === 'python');
    const [hook] = await client.ok<{ webhookId: string; url: string; status: number }[]>('GET', '/v2/webhooks');
    const py = await runChild('python3', ['-'], { env, input: python.code, deadlineMs: RUN_DEADLINE_MS });
    expect(py.stderr).toBe('');
    expect(py.exitCode).toBe(0);
    const out = py.stdout;
    expect(out).toMatch(/^token [0-9a-f-]{36}$/m);
    expect(out).toContain(`webhook ${hook.webhookId} borrowed from ${receiver.url} until the end of this script\n`);
    const orderId = /^order (\d+) status 40 pay to \{'Cuenta CLABE': '706180\d{12}', 'Beneficiary Name': 'Demo Merchant', 'Reference': '\1'\}$/m.exec(out)?.[1];
    expect(orderId).toBeDefined();
    expect(out).toContain('pay-in ORDER_PAID\n');
    expect(out).toMatch(new RegExp(`^order ${orderId} status 60 \\d+\\.\\d{4} USDT at \\d+\\.\\d{4} MXN/USDT$`, 'm'));
    const verified = [...out.matchAll(new RegExp(`^event [0-9a-f]{32} order ${orderId} status (\\d+) signature verified$`, 'gm'))].map((m) => m[1]);
    expect(verified).toEqual(['10', '40', '50', '60']);
    expect(out).toMatch(new RegExp(`webhook ${hook.webhookId} back to ${receiver.url.replace(/\./g, '\\.')}\n$`));

    expect(await client.ok('GET', '/v2/webhooks')).toEqual([{ ...hook }]);
    expect(receiver.output()).not.toContain(`order ${orderId} →`);
  });
});
