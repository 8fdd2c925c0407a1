import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { captureIo, startFakeAdmin, type FakeAdmin } from './fake-admin.js';
import { freePort } from '../../support/free-port.js';

let fake: FakeAdmin;
let dataDir: string;

beforeAll(async () => {
  fake = await startFakeAdmin();
  dataDir = await mkdtemp(join(tmpdir(), 'bourse-cli-'));
});
afterAll(async () => {
  await fake.close();
  await rm(dataDir, { recursive: true, force: true });
});
beforeEach(() => {
  fake.requests.length = 0;
});

async function run(env: Record<string, string>, ...argv: string[]) {
  const captured = captureIo(env);
  const exitCode = await runCli(argv, captured.io);
  return { exitCode, stdout: captured.stdout(), stderr: captured.stderr() };
}

const withToken = (): Record<string, string> => ({ BOURSE_URL: fake.url, BOURSE_ADMIN_TOKEN: 'tok-123' });

describe('bourse output', () => {
  it('when --json is given, then the server answer is printed as is on one line', async () => {
    fake.answer = () => ({ body: '{"userId":"12",\n  "accountId":"34", "note": "a  b"}\n' });
    const result = await run(withToken(), 'user', 'create', '--json');
    expect(result).toEqual({ exitCode: 0, stdout: '{"userId":"12","accountId":"34", "note": "a  b"}\n', stderr: '' });
  });

  it('when --json comes before the command, then it applies too', async () => {
    fake.answer = () => ({ body: '{"balance":"1.50"}' });
    const result = await run(withToken(), '--json', 'deposit', '7', 'BTC', '1.50');
    expect(result.stdout).toBe('{"balance":"1.50"}\n');
  });

  it('when an object is answered, then it is printed as aligned key-value lines', async () => {
    fake.answer = () => ({ body: { userId: '12', accountId: '34' } });
    const result = await run(withToken(), 'user', 'create');
    expect(result.stdout).toBe('userId     12\naccountId  34\n');
  });

  it('when a key is created, then the secret is shown with a reminder that it is shown once', async () => {
    fake.answer = () => ({ body: { apiKey: 'k1', secretKey: 's1', permissions: ['TRADE', 'USER_DATA'] } });
    const result = await run(withToken(), 'key', 'create', '12');
    expect(result.stdout).toBe(
      'apiKey       k1\nsecretKey    s1\npermissions  TRADE,USER_DATA\n(store the secretKey now: it is not shown again)\n',
    );
  });

  it('when a list is answered, then it is printed as a table', async () => {
    fake.answer = () => ({
      body: [
        { apiKey: 'k1', accountIndex: 0, permissions: ['TRADE'], label: 'bot' },
        { apiKey: 'k22', accountIndex: 1, permissions: [], label: '' },
      ],
    });
    const result = await run(withToken(), 'key', 'list', '12');
    expect(result.stdout).toBe(
      'apiKey  accountIndex  permissions  label\n' + 'k1      0             TRADE        bot\n' + 'k22     1\n',
    );
  });

  it('when the ledger balances, then verify prints "ledger ok" and exits 0', async () => {
    fake.answer = () => ({ body: { ok: true, checkedAt: 1700000000000, details: [] } });
    expect(await run(withToken(), 'verify')).toEqual({ exitCode: 0, stdout: 'ledger ok\n', stderr: '' });
  });

  it('when the ledger does not balance, then verify prints the mismatching entries and exits 1', async () => {
    fake.answer = () => ({
      body: {
        ok: false,
        checkedAt: 1700000000000,
        details: [
          { asset: 'BTC', total: '10', deposits: '10', withdrawals: '0' },
          { asset: 'USDT', total: '99', deposits: '100', withdrawals: '0', mismatch: '-1' },
          { accountId: '7', asset: 'USDT', balance: '99', flows: '100', mismatch: '-1' },
        ],
      },
    });
    const result = await run(withToken(), 'verify');
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe(
      'ledger NOT ok\n' +
        'asset  total  deposits  withdrawals  mismatch  accountId  balance  flows\n' +
        'USDT   99     100       0            -1\n' +
        'USDT                                 -1        7          99       100\n',
    );
  });

  it('when the ledger does not balance and --json is given, then the answer is printed and the exit code is 1', async () => {
    fake.answer = () => ({ body: '{"ok":false,"checkedAt":1,"details":[]}' });
    expect(await run(withToken(), 'verify', '--json')).toEqual({ exitCode: 1, stdout: '{"ok":false,"checkedAt":1,"details":[]}\n', stderr: '' });
  });
});

describe('bourse errors', () => {
  it('when the server refuses with {code,msg}, then stderr reads "error <code>: <msg>" and the exit code is 1', async () => {
    fake.answer = () => ({ status: 400, body: { code: -1131, msg: 'Balance insufficient' } });
    const result = await run(withToken(), 'withdrawal', 'approve', '31', '--json');
    expect(result).toEqual({ exitCode: 1, stdout: '', stderr: 'error -1131: Balance insufficient\n' });
  });

  it('when the server answers an error without {code,msg}, then the status is reported and the exit code is 1', async () => {
    fake.answer = () => ({ status: 502, body: '<html>Bad Gateway</html>' });
    const result = await run(withToken(), 'ban', 'list');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`error: ${fake.url}/admin/v1/bans answered HTTP 502 Bad Gateway with a body that is not JSON\n`);
  });

  it('when nothing listens at BOURSE_URL, then the URL is named and the exit code is 2', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const result = await run({ BOURSE_URL: url, BOURSE_ADMIN_TOKEN: 't' }, 'verify');
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `cannot reach the Bourse server at ${url} (ECONNREFUSED); is it running? BOURSE_URL sets the address\n`,
    });
  });

  it('when BOURSE_URL is not an http URL, then the exit code is 2 and nothing is sent', async () => {
    const result = await run({ BOURSE_URL: 'localhost:8080', BOURSE_ADMIN_TOKEN: 't' }, 'verify');
    expect(result).toEqual({ exitCode: 2, stdout: '', stderr: 'BOURSE_URL is not an http(s) URL: localhost:8080\n' });
  });
});

describe('bourse admin token', () => {
  it('when BOURSE_ADMIN_TOKEN is unset, then the token is read from <BOURSE_DATA>/admin-token', async () => {
    await writeFile(join(dataDir, 'admin-token'), 'file-token\n', { mode: 0o600 });
    fake.answer = () => ({ body: [] });
    const result = await run({ BOURSE_URL: fake.url, BOURSE_DATA: dataDir }, 'ban', 'list');
    expect(result).toEqual({ exitCode: 0, stdout: '(none)\n', stderr: '' });
    expect(fake.requests[0].headers.authorization).toBe('Bearer file-token');
  });

  it('when both are present, then BOURSE_ADMIN_TOKEN wins over the file', async () => {
    await writeFile(join(dataDir, 'admin-token'), 'file-token\n', { mode: 0o600 });
    await run({ BOURSE_URL: fake.url, BOURSE_DATA: dataDir, BOURSE_ADMIN_TOKEN: 'env-token' }, 'ban', 'list');
    expect(fake.requests[0].headers.authorization).toBe('Bearer env-token');
  });

  it('when there is no token at all, then the exit code is 2, the places looked are named and nothing is sent', async () => {
    const emptyDir = join(dataDir, 'empty');
    const result = await run({ BOURSE_URL: fake.url, BOURSE_DATA: emptyDir }, 'verify');
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `no admin token: set BOURSE_ADMIN_TOKEN, or BOURSE_DATA to the server's data directory (no token in ${join(emptyDir, 'admin-token')})\n`,
    });
    expect(fake.requests).toEqual([]);
  });
});
