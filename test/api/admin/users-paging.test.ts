/**
 * `GET /admin/v1/users` pages by user id (docs/operating.md "Users, keys and sub-accounts"):
 * `fromUserId` (inclusive) and `limit` (default 100, at most 1000, as the other operator lists),
 * users in id order; `bourse user list --from --limit` asks for the same pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBourse } from '../../support/cli-run.js';
import { Operator } from '../../support/fixtures.js';
import { startTestServer, type TestServer } from '../../support/server.js';

interface UserRow {
  userId: string;
  email: string;
}

describe('operator user list paging', () => {
  let t: TestServer;
  let op: Operator;
  /** Ids of the users this file made, in creation order. */
  const made: string[] = [];

  const list = (query: string): Promise<UserRow[]> => op.ok<UserRow[]>('GET', `/users${query}`);

  beforeAll(async () => {
    t = await startTestServer();
    op = new Operator(t);
    // More than one default page, whatever the demo data holds.
    for (let i = 0; i < 101; i++) made.push((await op.ok<{ userId: string }>('POST', '/users', { email: `page${i}@example.com` })).userId);
  });
  afterAll(async () => t.stop());

  it('when no paging is asked, then the first 100 users come in id order', async () => {
    const users = await list('');
    expect(users).toHaveLength(100);
    const ids = users.map((u) => Number(u.userId));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('when pages of 2 are walked from fromUserId, then each starts after the last and together they hold every user once', async () => {
    const everyone = await list('?limit=1000');
    expect(everyone.length).toBeGreaterThan(101);
    const walked: UserRow[] = [];
    let from = 0;
    // Each page holds 2 users, so the walk ends within everyone.length / 2 + 1 pages.
    for (let pages = 0; pages <= everyone.length / 2 + 1; pages++) {
      const page = await list(`?fromUserId=${from}&limit=2`);
      walked.push(...page);
      if (page.length < 2) break;
      from = Number(page[1].userId) + 1;
    }
    expect(walked).toEqual(everyone);
  });

  it('when fromUserId names a user, then the page starts with that user', async () => {
    const page = await list(`?fromUserId=${made[50]}&limit=3`);
    expect(page.map((u) => [u.userId, u.email])).toEqual([50, 51, 52].map((i) => [made[i], `page${i}@example.com`]));
  });

  it('when fromUserId is past the last user, then the page is empty', async () => {
    expect(await list(`?fromUserId=${Number(made[100]) + 1}`)).toEqual([]);
  });

  it.each([
    ['limit', 'limit=0'],
    ['limit', 'limit=1001'],
    ['limit', 'limit=ten'],
    ['fromUserId', 'fromUserId=-1'],
    ['fromUserId', 'fromUserId=1.5'],
  ])('when %s is out of range (%s), then 400 -1130 names it', async (name, query) => {
    const answer = await op.admin.send('GET', `/users?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ code: -1130, msg: `Data sent for paramter '${name}' is not valid.` });
  });

  it('when bourse user list is given --from and --limit, then it prints that page', async () => {
    const run = await runBourse(t, ['user', 'list', '--from', made[10], '--limit', '2', '--json']);
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    expect((JSON.parse(run.stdout) as UserRow[]).map((u) => u.userId)).toEqual([made[10], made[11]]);
  });
});
