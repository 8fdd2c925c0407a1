/**
 * The CLI sends exactly what the operator typed: amounts and rates as the decimal strings typed,
 * config numbers only when JSON carries them as the same number, else a usage error and no PATCH.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configPatch } from '../../../src/cli/config-values.js';
import { runAgainst, startFakeAdmin, type FakeAdmin } from './fake-admin.js';

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
  return runAgainst(fake, 'tok', argv);
}

describe('bourse sends decimals exactly as typed', () => {
  it.each([
    [['deposit', '7', 'BTC', '12345678.123456789'], '{"accountId":"7","asset":"BTC","amount":"12345678.123456789"}'],
    [['deposit', '7', 'BTC', '9007199254740993'], '{"accountId":"7","asset":"BTC","amount":"9007199254740993"}'],
    [['deposit', '9007199254740993', 'BTC', '1'], '{"accountId":"9007199254740993","asset":"BTC","amount":"1"}'],
    [['fees', 'set', '7', '--maker', '0.0010000000000000001'], '{"makerFeeRate":"0.0010000000000000001"}'],
    [
      ['asset', 'add', 'xyz', '--precision', '8', '--withdraw-fee', '12345678.123456789'],
      '{"asset":"XYZ","precision":8,"withdrawFee":"12345678.123456789"}',
    ],
    [
      ['symbol', 'add', 'xyzusdt', '--base', 'XYZ', '--quote', 'USDT', '--tick-size', '0.30000000000000001', '--step-size', '9007199254740993'],
      '{"symbol":"XYZUSDT","baseAsset":"XYZ","quoteAsset":"USDT","tickSize":"0.30000000000000001","stepSize":"9007199254740993"}',
    ],
  ])('when `bourse %j` runs, then the body is exactly %s', async (argv, body) => {
    expect((await run(...argv)).exitCode).toBe(0);
    expect(fake.requests.map((request) => request.body)).toEqual([body]);
  });
});

describe('config set: numbers exactly or refused', () => {
  const current = {
    requestWeightPerMinute: 3000,
    defaultMakerFeeRate: '0.001',
    webhook: { timeoutMs: 5000, retryGapsMs: [1000, 5000] },
    retryGapsMs: [1000, 5000],
  };

  it.each([
    ['requestWeightPerMinute=6000', '{"requestWeightPerMinute":6000}'],
    ['requestWeightPerMinute=9007199254740991', '{"requestWeightPerMinute":9007199254740991}'],
    // The same number: JSON writes 6000.50 as 6000.5.
    ['requestWeightPerMinute=6000.50', '{"requestWeightPerMinute":6000.5}'],
    ['defaultMakerFeeRate=0.0010000000000000001', '{"defaultMakerFeeRate":"0.0010000000000000001"}'],
    ['webhook={"timeoutMs":4000,"retryGapsMs":[1000,60000]}', '{"webhook":{"timeoutMs":4000,"retryGapsMs":[1000,60000]}}'],
    ['webhook={"timeoutMs":4e3}', '{"webhook":{"timeoutMs":4000}}'],
  ])('when the assignment is %s, then the PATCH body is %s', (assignment, body) => {
    expect(JSON.stringify(configPatch(current, [assignment]))).toBe(body);
  });

  it.each([
    // Before: sent as 9007199254740992 / 6000 / 5000, another number than typed.
    ['requestWeightPerMinute=9007199254740993', "config key 'requestWeightPerMinute' takes a number, got '9007199254740993'"],
    ['requestWeightPerMinute=6000.00000000000001', "config key 'requestWeightPerMinute' takes a number, got '6000.00000000000001', which JSON would not carry exactly"],
    ['webhook={"timeoutMs":5000.0000000000001}', "config key 'webhook' has a number at webhook.timeoutMs that JSON would not carry exactly"],
    ['retryGapsMs=[1000,9007199254740993]', "config key 'retryGapsMs' has a number at retryGapsMs[1] that JSON would not carry exactly"],
    ['webhook={"timeoutMs":1,"timeoutMs":2}', "config key 'webhook' takes a JSON object, got '{\"timeoutMs\":1,\"timeoutMs\":2}'"],
  ])('when the assignment is %s, then it is refused with "%s"', (assignment, message) => {
    expect(() => configPatch(current, [assignment])).toThrow(message);
  });

  it('when `config set` is given a number JSON would round, then no PATCH is sent and the exit code is 1', async () => {
    fake.answer = () => ({ body: { requestWeightPerMinute: 3000 } });
    const result = await run('config', 'set', 'requestWeightPerMinute=6000.00000000000001');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('which JSON would not carry exactly');
    expect(fake.requests.map((request) => request.method)).toEqual(['GET']);
  });
});
