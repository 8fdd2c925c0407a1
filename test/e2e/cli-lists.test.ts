import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBourse, type CliRun } from '../support/cli-run.js';
import { Operator } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('the bourse CLI lists against a real server', () => {
  let t: TestServer;
  let op: Operator;

  const bourse = (...argv: string[]): Promise<CliRun> => runBourse(t, argv);
  const json = async <T>(...argv: string[]): Promise<T> => {
    const run = await bourse('--json', ...argv);
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    return JSON.parse(run.stdout) as T;
  };

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
  });
  afterAll(async () => t.stop());

  it('when users are listed, then a table shows each user with its accounts in one cell', async () => {
    const user = await json<{ userId: string; accountId: string }>('user', 'create', '--email', 'lists@example.com');
    const sub = await json<{ accountId: string }>('subaccount', 'create', user.userId, '--name', 'savings');
    const run = await bourse('user', 'list');
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^userId +email +type +accounts$/);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${user.userId} +lists@example\\.com +user +${user.accountId} main; ${sub.accountId} #1 savings$`)));
    const listed = await json<{ userId: string; accounts: unknown[] }[]>('user', 'list');
    expect(listed.find((u) => u.userId === user.userId)?.accounts).toHaveLength(2);
  });

  it('when a second user has the same e-mail, then the CLI exits non-zero with the server refusal', async () => {
    await json('user', 'create', '--email', 'twice@example.com');
    const run = await bourse('user', 'create', '--email', 'TWICE@example.com');
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toContain('-1130');
    expect(run.stderr).toContain('email');
  });

  it("when a user's balances are shown, then a table per account and asset", async () => {
    const user = await json<{ userId: string; accountId: string }>('user', 'create');
    await json('deposit', user.accountId, 'usdt', '12.50');
    const run = await bourse('user', 'balances', user.userId);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^accountId +accountIndex +asset +free +locked +total\n/);
    expect(run.stdout).toMatch(new RegExp(`^${user.accountId} +0 +USDT +12\\.5 +0 +12\\.5$`, 'm'));
    expect(await json('user', 'balances', user.userId)).toEqual([{ accountId: user.accountId, accountIndex: 0, asset: 'USDT', free: '12.5', locked: '0', total: '12.5' }]);
    const unknown = await bourse('user', 'balances', '999999');
    expect(unknown.exitCode).not.toBe(0);
  });

  it('when symbols and assets are listed, then tables of the catalogue', async () => {
    const symbols = await bourse('symbol', 'list');
    expect(symbols.exitCode).toBe(0);
    expect(symbols.stdout).toMatch(/^symbol +status +baseAsset +quoteAsset +tickSize/);
    expect(symbols.stdout).toMatch(/^ETHUSDT +TRADING +ETH +USDT /m);
    const assets = await bourse('asset', 'list');
    expect(assets.exitCode).toBe(0);
    expect(assets.stdout).toMatch(/^asset +precision +kind +fullName/);
    expect(assets.stdout).toMatch(/^USDT +[0-9]+ +crypto /m);
  });

  it('when withdrawals are listed, then the pending one shows with its id and an ISO time, and approve takes that id', async () => {
    const owner = await op.member({ USDT: '1000' });
    const answer = await owner.client.signed('POST', '/openapi/v1/withdraw', { tokenId: 'USDT', chainType: 'TRC20', address: 'TXYZabc123', withdrawQuantity: '100', clientOrderId: 'cli-list' });
    const orderId = (answer.body as { orderId: string }).orderId;
    const run = await bourse('withdrawal', 'list', '--status', 'pending');
    expect(run.exitCode).toBe(0);
    const row = run.stdout.split('\n').find((line) => line.startsWith(`${orderId} `));
    expect(row).toMatch(new RegExp(`^${orderId} +${owner.accountId} +${owner.userId} +PENDING +USDT +100 +1 +TRC20 +TXYZabc123 +\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z`));
    // --json keeps the server's ms numbers.
    const listed = await json<{ withdrawalId: string; time: unknown }[]>('withdrawal', 'list', '--status', 'PENDING', '--limit', '5');
    expect(listed.find((w) => w.withdrawalId === orderId)?.time).toEqual(expect.any(Number));
    expect(await json('withdrawal', 'approve', orderId, '--tx-id', '0xcli')).toMatchObject({ withdrawalId: orderId });
    const after = await json<{ withdrawalId: string }[]>('withdrawal', 'list', '--status', 'PENDING');
    expect(after.some((w) => w.withdrawalId === orderId)).toBe(false);
    const bad = await bourse('withdrawal', 'list', '--status', 'done');
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain('PENDING, SENT or REJECTED');
  });

  it('when verify --replay runs, then the journal replays and the ledger is ok', async () => {
    const run = await bourse('verify', '--replay');
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    expect(run.stdout).toMatch(/^ledger ok\njournal replay ok \(state hash [0-9a-f]+\)\n$/);
    const answer = await json<{ ok: boolean; replay?: { ok: boolean } }>('verify', '--replay');
    expect(answer).toMatchObject({ ok: true, replay: { ok: true } });
    expect((await bourse('verify')).stdout).toBe('ledger ok\n');
  });

  it('when help is shown, then it names shipped docs only and lists the new commands', async () => {
    const help = await bourse('--help');
    expect(help.stdout).not.toMatch(/spec\/|\.\.\/shared|operator\.md/);
    const serveHelp = await bourse('serve', '--help');
    expect(serveHelp.stdout).toContain('docs/operating.md');
    expect((await bourse('user', '--help')).stdout).toMatch(/list[\s\S]*balances <userId>/);
    expect((await bourse('withdrawal', '--help')).stdout).toContain('list [options]');
  });
});
