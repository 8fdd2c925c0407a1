import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { captureIo, runAgainst, startFakeAdmin, type FakeAdmin } from './fake-admin.js';

const TOKEN = 'tok-123';
let fake: FakeAdmin;

beforeAll(async () => {
  fake = await startFakeAdmin();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.answer = () => ({ body: {} });
});

function run(...argv: string[]) {
  return runAgainst(fake, TOKEN, argv);
}

function sent() {
  return fake.requests.map((request) => ({
    method: request.method,
    url: request.url,
    body: request.body === '' ? undefined : (JSON.parse(request.body) as unknown),
  }));
}

describe('bourse commands on the wire', () => {
  const cases: { argv: string[]; method: string; url: string; body?: unknown }[] = [
    { argv: ['user', 'create'], method: 'POST', url: '/admin/v1/users', body: {} },
    {
      argv: ['user', 'create', '--email', 'a@b.io', '--type', 'merchant'],
      method: 'POST',
      url: '/admin/v1/users',
      body: { email: 'a@b.io', type: 'merchant' },
    },
    { argv: ['subaccount', 'create', '12', '--name', 'bot'], method: 'POST', url: '/admin/v1/users/12/sub-accounts', body: { name: 'bot' } },
    { argv: ['key', 'create', '12'], method: 'POST', url: '/admin/v1/users/12/api-keys', body: {} },
    {
      argv: ['key', 'create', '12', '--account-index', '2', '--permissions', 'trade, USER_DATA', '--ip', '1.2.3.4,10.0.0.0/8', '--label', 'bot'],
      method: 'POST',
      url: '/admin/v1/users/12/api-keys',
      body: { accountIndex: 2, permissions: ['TRADE', 'USER_DATA'], ipWhitelist: ['1.2.3.4', '10.0.0.0/8'], label: 'bot' },
    },
    { argv: ['key', 'list', '12'], method: 'GET', url: '/admin/v1/users/12/api-keys' },
    { argv: ['key', 'revoke', 'abc/DEF'], method: 'DELETE', url: '/admin/v1/api-keys/abc%2FDEF' },
    {
      argv: ['deposit', '7', 'btc', '0.10000000', '--tx-id', '0xfeed'],
      method: 'POST',
      url: '/admin/v1/deposits',
      body: { accountId: '7', asset: 'BTC', amount: '0.10000000', txId: '0xfeed' },
    },
    { argv: ['withdrawal', 'approve', '31', '--tx-id', 'tx9'], method: 'POST', url: '/admin/v1/withdrawals/31/approve', body: { txId: 'tx9' } },
    { argv: ['withdrawal', 'approve', '31'], method: 'POST', url: '/admin/v1/withdrawals/31/approve', body: {} },
    {
      argv: ['withdrawal', 'reject', '31', '--reason', 'address on a sanctions list'],
      method: 'POST',
      url: '/admin/v1/withdrawals/31/reject',
      body: { reason: 'address on a sanctions list' },
    },
    {
      argv: ['asset', 'add', 'usdt', '--precision', '8', '--kind', 'crypto', '--full-name', 'Tether USD', '--chains', 'trc20,ERC20', '--withdraw-fee', '1', '--min-withdraw', '10.0'],
      method: 'POST',
      url: '/admin/v1/assets',
      body: { asset: 'USDT', precision: 8, kind: 'crypto', fullName: 'Tether USD', chains: ['TRC20', 'ERC20'], withdrawFee: '1', minWithdraw: '10.0' },
    },
    {
      argv: ['symbol', 'add', 'btcusdt', '--base', 'BTC', '--quote', 'usdt', '--tick-size', '0.01', '--step-size', '0.000001', '--min-notional', '1', '--max-price', '10000000', '--max-qty', '1000', '--min-qty', '0.000001', '--min-price', '0.01'],
      method: 'POST',
      url: '/admin/v1/symbols',
      body: {
        symbol: 'BTCUSDT',
        baseAsset: 'BTC',
        quoteAsset: 'USDT',
        tickSize: '0.01',
        stepSize: '0.000001',
        minQty: '0.000001',
        minNotional: '1',
        minPrice: '0.01',
        maxPrice: '10000000',
        maxQty: '1000',
      },
    },
    { argv: ['symbol', 'halt', 'BTCUSDT'], method: 'PATCH', url: '/admin/v1/symbols/BTCUSDT', body: { status: 'HALT' } },
    { argv: ['symbol', 'resume', 'btcusdt'], method: 'PATCH', url: '/admin/v1/symbols/BTCUSDT', body: { status: 'TRADING' } },
    { argv: ['symbol', 'break', 'BTCUSDT'], method: 'PATCH', url: '/admin/v1/symbols/BTCUSDT', body: { status: 'BREAK' } },
    { argv: ['fees', 'set', '7', '--maker', '0.0008'], method: 'PATCH', url: '/admin/v1/accounts/7', body: { makerFeeRate: '0.0008' } },
    {
      argv: ['fees', 'set', '7', '--maker', '0', '--taker', '0.00100'],
      method: 'PATCH',
      url: '/admin/v1/accounts/7',
      body: { makerFeeRate: '0', takerFeeRate: '0.00100' },
    },
    { argv: ['ban', 'list'], method: 'GET', url: '/admin/v1/bans' },
    { argv: ['ban', 'lift', '2001:db8::1'], method: 'DELETE', url: '/admin/v1/bans/2001%3Adb8%3A%3A1' },
    { argv: ['config', 'get'], method: 'GET', url: '/admin/v1/trading/config' },
    { argv: ['payments', 'config', 'get'], method: 'GET', url: '/admin/v1/payments/config' },
    { argv: ['verify'], method: 'GET', url: '/admin/v1/verify' },
  ];

  for (const { argv, method, url, body } of cases) {
    it(`when \`bourse ${argv.join(' ')}\`, then ${method} ${url} ${JSON.stringify(body) ?? 'without a body'}`, async () => {
      fake.answer = () => ({ body: { ok: true } });
      const result = await run(...argv);
      expect(result.stderr).toBe('');
      expect(result.exitCode).toBe(0);
      expect(sent()).toEqual([{ method, url, body }]);
    });
  }

  it('when a command sends a body, then it is JSON with the bearer token from BOURSE_ADMIN_TOKEN', async () => {
    await run('deposit', '7', 'BTC', '1.5');
    const [request] = fake.requests;
    expect(request.headers.authorization).toBe('Bearer tok-123');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.accept).toBe('application/json');
    expect(request.body).toBe('{"accountId":"7","asset":"BTC","amount":"1.5"}');
  });

  it('when a command sends no body, then it sends no content-type', async () => {
    await run('key', 'list', '12');
    expect(fake.requests[0].headers['content-type']).toBeUndefined();
    expect(fake.requests[0].headers.authorization).toBe('Bearer tok-123');
  });

  it('when `config set` names a numeric key, then the number is sent as a JSON number and a decimal key as a string', async () => {
    fake.answer = (request) =>
      request.method === 'GET'
        ? { body: { requestWeightPerMinute: 3000, defaultMakerFeeRate: '0.001', banStrikes: 20 } }
        : { body: { requestWeightPerMinute: 6000, defaultMakerFeeRate: '0.0008', banStrikes: 20 } };
    const result = await run('config', 'set', 'requestWeightPerMinute=6000', 'defaultMakerFeeRate=0.0008');
    expect(result.exitCode).toBe(0);
    expect(sent()).toEqual([
      { method: 'GET', url: '/admin/v1/trading/config', body: undefined },
      { method: 'PATCH', url: '/admin/v1/trading/config', body: { requestWeightPerMinute: 6000, defaultMakerFeeRate: '0.0008' } },
    ]);
    expect(fake.requests[1].body).toBe('{"requestWeightPerMinute":6000,"defaultMakerFeeRate":"0.0008"}');
    expect(result.stdout).toBe('requestWeightPerMinute  6000\ndefaultMakerFeeRate     0.0008\nbanStrikes              20\n');
  });

  it('when `payments config set` is run, then it patches the payments config', async () => {
    fake.answer = () => ({ body: { quoteTtlMs: 30000 } });
    const result = await run('payments', 'config', 'set', 'quoteTtlMs=45000', '--json');
    expect(result.exitCode).toBe(0);
    expect(sent()[1]).toEqual({ method: 'PATCH', url: '/admin/v1/payments/config', body: { quoteTtlMs: 45000 } });
    expect(result.stdout).toBe('{"quoteTtlMs":30000}\n');
  });

  it('when `config set` names an unknown key, then nothing is patched and the exit code is 1', async () => {
    fake.answer = () => ({ body: { banStrikes: 20 } });
    const result = await run('config', 'set', 'banStrike=3');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe("error: unknown config key 'banStrike' (known: banStrikes)\n");
    expect(sent().map((request) => request.method)).toEqual(['GET']);
  });

  it('when `fees set` has neither rate, then no request is sent and the exit code is 1', async () => {
    const result = await run('fees', 'set', '7');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe('error: fees set needs --maker, --taker or both\n');
    expect(fake.requests).toEqual([]);
  });

  it('when a required argument is missing, then commander reports it, nothing is sent and the exit code is 1', async () => {
    const result = await run('deposit', '7', 'BTC');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("error: missing required argument 'amount'");
    expect(fake.requests).toEqual([]);
  });

  it('when --type is not user or merchant, then nothing is sent and the exit code is 1', async () => {
    const result = await run('user', 'create', '--type', 'admin');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("error: option '--type <type>' argument 'admin' is invalid. Allowed choices are user, merchant.");
    expect(fake.requests).toEqual([]);
  });

  it('when --account-index is not a whole number, then nothing is sent and the exit code is 1', async () => {
    const result = await run('key', 'create', '12', '--account-index', '1.5');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('expected a whole number');
    expect(fake.requests).toEqual([]);
  });

  it('when --help is asked, then the usage goes to stdout and the exit code is 0', async () => {
    const result = await run('key', '--help');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Usage: bourse key [options] [command]');
    expect(fake.requests).toEqual([]);
  });
});

describe('bourse serve', () => {
  it('when `serve` is run, then the server is started in-process and no request is sent', async () => {
    let started = 0;
    const captured = captureIo({});
    const exitCode = await runCli(['serve'], captured.io, {
      startServer: async () => {
        started += 1;
      },
    });
    expect(exitCode).toBe(0);
    expect(started).toBe(1);
    expect(captured.stdout()).toBe('');
    expect(fake.requests).toEqual([]);
  });
});
