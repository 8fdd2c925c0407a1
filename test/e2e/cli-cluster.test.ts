import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBourse } from '../support/cli-run.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface ClusterAnswer {
  nodes: { url: string; role: string; term: number; seq: number; lagMs: number; lastHeartbeat: number }[];
}

describe('bourse cluster against a SQLite server', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t.stop());

  it('when the nodes are listed, then one row: this server, the leader of term 0 at its last seq, its heartbeat as an ISO time', async () => {
    const seq = t.server.exchange.core.lastSeq;
    const run = await runBourse(t, ['cluster']);
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^url +role +term +seq +lagMs +lastHeartbeat$/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^${t.url.replace(/[.]/g, '\\.')} +leader +0 +${seq} +0 +\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$`));
  });

  it('when --json is given, then the server answer as is, with the heartbeat in ms', async () => {
    const before = Date.now();
    const run = await runBourse(t, ['--json', 'cluster']);
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    const answer = JSON.parse(run.stdout) as ClusterAnswer;
    expect(answer).toEqual({ nodes: [{ url: t.url, role: 'leader', term: 0, seq: t.server.exchange.core.lastSeq, lagMs: 0, lastHeartbeat: expect.any(Number) }] });
    expect(answer.nodes[0].lastHeartbeat).toBeGreaterThanOrEqual(before);
    expect(run.stdout.trimEnd()).not.toContain('\n');
  });

  it('when the token is wrong, then the refusal on stderr and exit 1', async () => {
    const run = await runBourse({ url: t.url, adminToken: 'not-the-token' }, ['cluster']);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('-2015');
  });
});
