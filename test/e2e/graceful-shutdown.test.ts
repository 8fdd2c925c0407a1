import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findLostAcknowledgements, verifyWithReplay } from '../support/ack-check.js';
import { AckLog } from '../support/ack-log.js';
import { startChildServer, type ChildServer } from '../support/child-server.js';
import { startOrderLoad } from '../support/order-load.js';
import { CORE_THREADS } from '../support/server.js';
import { createFundedTrader, demoTrader, liftRateLimits } from '../support/trading-setup.js';

const SEED = 20_260_602;
const LOOPS = 12;
/** SIGTERM goes out once this many commands are answered, with every loop still sending. */
const ACKNOWLEDGED_BEFORE_SIGTERM = 200;

describe.each(CORE_THREADS)('SIGTERM under concurrent order load (core thread %s)', (coreThread) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bourse-drain-'));
  let child: ChildServer | undefined;

  afterAll(async () => {
    await child?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when SIGTERM arrives with requests in flight, then each is answered or cut off, the process exits 0 and a restart replays nothing and loses nothing', async () => {
    const log = new AckLog();
    const first = await startChildServer({ dataDir, env: { BOURSE_CORE_THREAD: coreThread } });
    child = first;
    await liftRateLimits(first.url, first.adminToken);
    const traders = [
      demoTrader(first.demo),
      await createFundedTrader(first.url, first.adminToken, 'second', [
        ['BTC', '10'],
        ['ETH', '100'],
        ['USDT', '1000000'],
      ]),
    ];

    const load = startOrderLoad({ url: first.url, traders, loops: LOOPS, seed: SEED, round: 1, log });
    await load.acknowledged(ACKNOWLEDGED_BEFORE_SIGTERM);
    const exit = await first.kill('SIGTERM');
    load.stop();
    const outcome = await load.done;
    console.log(
      `${outcome.requests} requests: ${outcome.acknowledged} acknowledged, ${outcome.connectionErrors} cut off, errors ${JSON.stringify([...outcome.errorAnswers])}`,
    );

    expect(exit).toEqual({ code: 0, signal: null });
    expect(first.logLine('Bourse stopped')).toBeDefined();
    // Draining may refuse with -1016; any other server error, or an answer without {code,msg}, is a failure.
    expect(outcome.malformed).toEqual([]);
    expect([...outcome.errorAnswers.keys()].filter((key) => key.startsWith('5') && key !== '503 -1016')).toEqual([]);
    expect(outcome.acknowledged).toBeGreaterThanOrEqual(ACKNOWLEDGED_BEFORE_SIGTERM);

    const second = await startChildServer({ dataDir, env: { BOURSE_CORE_THREAD: coreThread } });
    child = second;
    await liftRateLimits(second.url, second.adminToken);
    const recovered = second.logLine('state recovered');
    // The snapshot taken while stopping holds everything: nothing is left to replay.
    expect(recovered).toMatchObject({ replayed: 0 });
    expect(recovered?.snapshotSeq).toBe(recovered?.seq);
    expect(await findLostAcknowledgements(second.url, traders, log, 1)).toEqual([]);
    expect(await verifyWithReplay(second.url, second.adminToken)).toMatchObject({ ok: true, replay: { ok: true } });
    expect(await second.kill('SIGTERM')).toEqual({ code: 0, signal: null });
  }, 60_000);
});
