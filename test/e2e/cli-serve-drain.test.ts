import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '../support/child-server.js';

describe('`bourse serve` and signals', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-cli-serve-'));
  let child: ChildServer | undefined;

  afterAll(async () => {
    await child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('when `bourse serve` gets %s, then it drains, snapshots and exits 0 like `npm start`', async (signal) => {
    const first = await startChildServer({ dataDir, entry: ['dist/cli/main.js', 'serve'] });
    child = first;
    // The first start printed where the generated token is, never the token itself.
    expect(first.plainLines.join('\n')).not.toContain(first.adminToken);

    expect(await first.kill(signal)).toEqual({ code: 0, signal: null });
    expect(first.plainLines).toContain(`${signal}: draining`);
    expect(first.logLine('Bourse stopped')).toBeDefined();

    // The snapshot taken while stopping holds everything: a restart replays nothing.
    const second = await startChildServer({ dataDir, entry: ['dist/cli/main.js', 'serve'] });
    child = second;
    const recovered = second.logLine('state recovered');
    expect(recovered).toMatchObject({ replayed: 0 });
    expect(recovered?.snapshotSeq).toBe(recovered?.seq);
    expect(await second.kill('SIGTERM')).toEqual({ code: 0, signal: null });
  }, 60_000);
});
