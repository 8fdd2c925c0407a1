/**
 * Story: the operator turns stop and iceberg orders on and off with `bourse config set`, in the
 * spec's spelling (`config set algoOrders true`) and the CLI's own (`algoOrders=false`), against a
 * real server; a value that is not exactly `true`/`false`, or a limit that is not a whole number,
 * is refused with a message and exit 1, and nothing changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBourse, type CliRun } from '../support/cli-run.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface AlgoConfig {
  algoOrders: boolean;
  maxAlgoOrdersPerSymbol: number;
  maxAlgoOrdersPerAccount: number;
  maxIcebergParts: number;
}

describe('bourse config set algoOrders against a real server', () => {
  let t: TestServer;

  const bourse = (...argv: string[]): Promise<CliRun> => runBourse(t, argv);
  /** `bourse --json config get`: exit 0 and the trading config. */
  const configGet = async (): Promise<AlgoConfig> => {
    const run = await bourse('--json', 'config', 'get');
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    return JSON.parse(run.stdout) as AlgoConfig;
  };

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t.stop());

  it('when `config set algoOrders true` runs, then the option is on and `config get` shows it; `algoOrders=false` turns it off again', async () => {
    expect(await configGet()).toMatchObject({ algoOrders: false, maxAlgoOrdersPerSymbol: 5, maxAlgoOrdersPerAccount: 100, maxIcebergParts: 10 });

    const on = await bourse('config', 'set', 'algoOrders', 'true');
    expect(on).toMatchObject({ exitCode: 0, stderr: '' });
    expect(on.stdout).toMatch(/^algoOrders +true$/m);
    expect((await configGet()).algoOrders).toBe(true);
    const readable = await bourse('config', 'get');
    expect(readable.stdout).toMatch(/^algoOrders +true$/m);

    expect(await bourse('--json', 'config', 'set', 'algoOrders=false')).toMatchObject({ exitCode: 0, stderr: '' });
    expect((await configGet()).algoOrders).toBe(false);
  });

  it('when the limits are set in both spellings, then each is sent as a JSON number and `config get` shows it', async () => {
    const run = await bourse('--json', 'config', 'set', 'maxAlgoOrdersPerSymbol', '7', 'maxAlgoOrdersPerAccount=70', 'maxIcebergParts', '20');
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toMatchObject({ maxAlgoOrdersPerSymbol: 7, maxAlgoOrdersPerAccount: 70, maxIcebergParts: 20 });
    expect(await configGet()).toMatchObject({ maxAlgoOrdersPerSymbol: 7, maxAlgoOrdersPerAccount: 70, maxIcebergParts: 20 });
  });

  it.each([
    [['algoOrders', 'yes'], "error: config key 'algoOrders' takes true or false, got 'yes'\n"],
    [['algoOrders', 'TRUE'], "error: config key 'algoOrders' takes true or false, got 'TRUE'\n"],
    [['algoOrders=1'], "error: config key 'algoOrders' takes true or false, got '1'\n"],
    [['algoOrders'], "error: expected key=value, got 'algoOrders' with no value after it\n"],
    [['maxIcebergParts', '1.5'], "error -1100: Illegal characters found in parameter 'maxIcebergParts'; legal range is '1-9007199254740991'.\n"],
    [['maxIcebergParts=0'], "error -1130: Data sent for paramter 'maxIcebergParts' is not valid. (legal range is 1-9007199254740991)\n"],
  ])('when `config set %j` runs, then exit 1 with the message on stderr and the config unchanged', async (settings, stderr) => {
    const before = await configGet();
    expect(await bourse('config', 'set', ...settings)).toEqual({ exitCode: 1, stdout: '', stderr });
    expect(await configGet()).toEqual(before);
  });
});
