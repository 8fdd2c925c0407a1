import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBourse, type CliRun } from '../support/cli-run.js';
import { request, SpotClient } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('the bourse CLI against a real server', () => {
  let t: TestServer;

  /** One `bourse …` invocation with the server's URL and token in its environment. */
  const bourse = (argv: string[], env: Record<string, string> = {}): Promise<CliRun> => runBourse(t, argv, env);
  /** `bourse --json …`: exit 0 and one line of JSON on stdout. */
  const json = async <T>(argv: string[]): Promise<T> => {
    const run = await bourse(['--json', ...argv]);
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    expect(run.stdout.endsWith('\n')).toBe(true);
    expect(run.stdout.trimEnd()).not.toContain('\n');
    return JSON.parse(run.stdout) as T;
  };

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t.stop());

  it('when a user, a key and a deposit are made with --json, then the key trades against the real API with those funds', async () => {
    const user = await json<{ userId: string; accountId: string }>(['user', 'create', '--email', 'cli@example.com']);
    expect(user).toEqual({ userId: expect.stringMatching(/^[0-9]+$/), accountId: expect.stringMatching(/^[0-9]+$/) });
    const key = await json<{ apiKey: string; secretKey: string; permissions: string[] }>(['key', 'create', user.userId, '--permissions', 'trade,user_data', '--label', 'cli']);
    expect(key.permissions).toEqual(['TRADE', 'USER_DATA']);
    expect(await json(['deposit', user.accountId, 'usdt', '12.50', '--tx-id', 'cli-tx'])).toEqual({ depositId: expect.stringMatching(/^[0-9]+$/) });
    const client = new SpotClient(t.url, key.apiKey, key.secretKey);
    const account = (await client.signed('GET', '/openapi/v1/account')).body as { canWithdraw: boolean; balances: { asset: string; total: string }[] };
    expect(account.canWithdraw).toBe(false);
    expect(account.balances.find((b) => b.asset === 'USDT')).toMatchObject({ total: '12.5', free: '12.5' });
    const order = await client.signed('POST', '/openapi/v1/order', { symbol: 'ETHUSDT', side: 'BUY', type: 'LIMIT', quantity: '0.1', price: '125' });
    expect(order.body).toMatchObject({ status: 'NEW' });
  });

  it('when --json follows the command, then the output is the same JSON', async () => {
    const run = await bourse(['user', 'create', '--json']);
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ userId: expect.any(String), accountId: expect.any(String) });
  });

  it('when a user is created without --json, then a readable key-value listing is printed', async () => {
    const run = await bourse(['user', 'create']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^userId {2,}[0-9]+\naccountId {2}[0-9]+\n$/);
  });

  it('when a key is created without --json, then the secret is shown once with a warning', async () => {
    const user = await json<{ userId: string }>(['user', 'create']);
    const run = await bourse(['key', 'create', user.userId]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^apiKey +[A-Za-z0-9]{64}$/m);
    expect(run.stdout).toMatch(/^secretKey +[A-Za-z0-9]{64}$/m);
    expect(run.stdout.endsWith('(store the secretKey now: it is not shown again)\n')).toBe(true);
  });

  it('when a key is revoked, then the API refuses it at once', async () => {
    const user = await json<{ userId: string }>(['user', 'create']);
    const key = await json<{ apiKey: string; secretKey: string }>(['key', 'create', user.userId]);
    const client = new SpotClient(t.url, key.apiKey, key.secretKey);
    expect((await client.signed('GET', '/openapi/v1/account')).status).toBe(200);
    expect((await bourse(['key', 'revoke', key.apiKey])).exitCode).toBe(0);
    expect((await client.signed('GET', '/openapi/v1/account')).body).toMatchObject({ code: -2015 });
  });

  it('when an asset and a symbol are added, then A3 lists the symbol; halt makes A11 refuse -1151 and resume restores it', async () => {
    expect(await json(['asset', 'add', 'doge', '--precision', '8', '--full-name', 'Dogecoin'])).toEqual({ asset: 'DOGE', precision: 8 });
    await json(['symbol', 'add', 'dogeusdt', '--base', 'doge', '--quote', 'usdt', '--tick-size', '0.00001', '--step-size', '1', '--min-notional', '1']);
    const info = (await request(`${t.url}/openapi/v1/exchange`)).body as { symbols: { symbol: string; status: string; filters: unknown[] }[] };
    expect(info.symbols.find((s) => s.symbol === 'DOGEUSDT')).toMatchObject({
      status: 'TRADING',
      baseAsset: 'DOGE',
      quoteAsset: 'USDT',
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.00001', maxPrice: '10000000', tickSize: '0.00001' },
        { filterType: 'LOT_SIZE', minQty: '1', maxQty: '1000000', stepSize: '1' },
        { filterType: 'MIN_NOTIONAL', minNotional: '1' },
      ],
    });

    const user = await json<{ userId: string; accountId: string }>(['user', 'create']);
    await json(['deposit', user.accountId, 'USDT', '100']);
    const key = await json<{ apiKey: string; secretKey: string }>(['key', 'create', user.userId]);
    const client = new SpotClient(t.url, key.apiKey, key.secretKey);
    const order = { symbol: 'DOGEUSDT', side: 'BUY', type: 'LIMIT', quantity: '100', price: '0.1' };

    expect((await bourse(['symbol', 'halt', 'dogeusdt'])).exitCode).toBe(0);
    expect((await client.signed('POST', '/openapi/v1/order', order)).body).toEqual({ code: -1151, msg: 'Symbol is not open for trading.' });
    expect((await bourse(['symbol', 'resume', 'DOGEUSDT'])).exitCode).toBe(0);
    expect((await client.signed('POST', '/openapi/v1/order', order)).body).toMatchObject({ symbol: 'DOGEUSDT', status: 'NEW' });
  });

  it('when a symbol breaks the listing rule, then exit 1 with the server code on stderr and nothing on stdout', async () => {
    const run = await bourse(['symbol', 'add', 'BTCEUR', '--base', 'BTC', '--quote', 'EUR', '--tick-size', '0', '--step-size', '0.0001', '--min-notional', '1']);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error -1130: Data sent for paramter '[a-zA-Z]+' is not valid\./);
  });

  it('when a withdrawal is approved through the CLI, then the API shows it sent with the txId', async () => {
    const user = await json<{ userId: string; accountId: string }>(['user', 'create']);
    await json(['deposit', user.accountId, 'ETH', '1']);
    const key = await json<{ apiKey: string; secretKey: string }>(['key', 'create', user.userId]);
    const client = new SpotClient(t.url, key.apiKey, key.secretKey);
    const withdrawal = await client.signed('POST', '/openapi/v1/withdraw', { tokenId: 'ETH', address: '0xabc', withdrawQuantity: '0.5', clientOrderId: 'cli-w' });
    const orderId = (withdrawal.body as { orderId: string }).orderId;
    expect((await bourse(['withdrawal', 'approve', orderId, '--tx-id', '0xdead'])).exitCode).toBe(0);
    const detail = await client.signed('GET', '/openapi/v1/withdraw/detail', { orderId });
    expect(detail.body).toMatchObject({ status: 6, txid: '0xdead', quantity: '0.5' });
  });

  it('when verify runs on a balanced ledger, then "ledger ok" and exit 0; with --json the report', async () => {
    expect(await bourse(['verify'])).toEqual({ exitCode: 0, stdout: 'ledger ok\n', stderr: '' });
    const report = await json<{ ok: boolean; checkedAt: number; details: { asset: string }[] }>(['verify']);
    expect(report.ok).toBe(true);
    expect(report.details.map((d) => d.asset)).toEqual(expect.arrayContaining(['BTC', 'ETH', 'USDT', 'DOGE']));
  });

  it('when config get runs with --json, then it prints the trading config', async () => {
    expect(await json(['config', 'get'])).toMatchObject({ requestWeightPerMinute: 3000, ordersPerSecond: 20, defaultMakerFeeRate: '0.001' });
  });

  it('when the server refuses a deposit to an unknown account, then exit 1 and its {code,msg} on stderr', async () => {
    const run = await bourse(['deposit', '999999', 'BTC', '1']);
    expect(run).toEqual({ exitCode: 1, stdout: '', stderr: 'error -1000: account 999999 does not exist.\n' });
  });

  it('when the token is wrong, then exit 1 with -2015', async () => {
    const run = await bourse(['user', 'create'], { BOURSE_ADMIN_TOKEN: 'wrong' });
    expect(run).toEqual({ exitCode: 1, stdout: '', stderr: 'error -2015: Invalid admin token.\n' });
  });

  it('when no server listens at BOURSE_URL, then exit 2 and a message naming the address', async () => {
    const closed = await startTestServer();
    const url = closed.url;
    await closed.stop();
    const run = await bourse(['verify'], { BOURSE_URL: url });
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(url);
  });
});
