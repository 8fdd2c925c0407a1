import { describe, expect, it } from 'vitest';
import { formatJsonLine, formatKeyValues, formatReadable, formatTable, formatVerify, readableTimes } from '../../../src/cli/format.js';

describe('format', () => {
  it('when JSON is pretty-printed, then formatJsonLine joins it on one line and keeps spaces inside strings', () => {
    expect(formatJsonLine('{\n  "msg": "two  spaces",\n  "n": [1,\n 2]\n}\n')).toBe('{"msg": "two  spaces","n": [1,2]}\n');
  });

  it('when key-values are formatted, then the values line up two spaces after the longest key', () => {
    expect(formatKeyValues([['a', '1'], ['longer', '2'], ['empty', '']])).toEqual(['a       1', 'longer  2', 'empty']);
  });

  it('when rows have different keys, then the table has the union of columns in first-seen order', () => {
    expect(formatTable([{ ip: '1.2.3.4', until: 1700000000000 }, { ip: '::1', strikes: 3 }])).toEqual([
      'ip       until          strikes',
      '1.2.3.4  1700000000000',
      '::1                     3',
    ]);
  });

  it('when an object nests objects and lists of objects, then nested keys are dotted and lists become tables', () => {
    const answer = {
      ok: false,
      limits: { maxOrder: '5000', window: { ms: 900000 } },
      chains: ['TRC20', 'ERC20'],
      details: [{ asset: 'BTC', mismatch: '0.1' }],
    };
    expect(formatReadable(answer)).toBe(
      'ok                false\n' +
        'limits.maxOrder   5000\n' +
        'limits.window.ms  900000\n' +
        'chains            TRC20,ERC20\n' +
        '\n' +
        'details:\n' +
        'asset  mismatch\n' +
        'BTC    0.1\n',
    );
  });

  it('when an object holds only a list of objects, then the output starts with its heading', () => {
    expect(formatReadable({ bans: [{ ip: '1.2.3.4' }] })).toBe('bans:\nip\n1.2.3.4\n');
  });

  it('when the answer is empty, then a word says so', () => {
    expect(formatReadable({})).toBe('ok\n');
    expect(formatReadable([])).toBe('(none)\n');
  });

  it('when a list holds scalars, then each is printed on its own line', () => {
    expect(formatReadable(['1.2.3.4', '::1'])).toBe('1.2.3.4\n::1\n');
  });
});

describe('readable times', () => {
  it('when a member named as a time holds ms, then the readable form shows ISO UTC and --json numbers stay', () => {
    expect(formatReadable([{ id: '1', time: 1700000000000, updateTime: 0 }])).toBe('id  time                      updateTime\n1   2023-11-14T22:13:20.000Z  0\n');
    expect(formatReadable({ createdAt: 1700000000000, count: 1700000000000, until: 1700000000001 })).toBe(
      'createdAt  2023-11-14T22:13:20.000Z\ncount      1700000000000\nuntil      2023-11-14T22:13:20.001Z\n',
    );
    expect(readableTimes({ a: [{ checkedAt: 1700000000000 }], time: '1700000000000' })).toEqual({ a: [{ checkedAt: '2023-11-14T22:13:20.000Z' }], time: '1700000000000' });
  });
});

describe('verify --replay', () => {
  it('when the replay reaches the same state hash, then one more ok line; when not, the hashes and NOT ok', () => {
    expect(formatVerify({ ok: true, details: [], replay: { ok: true, stateHash: 'ab', replayHash: 'ab' } })).toBe('ledger ok\njournal replay ok (state hash ab)\n');
    expect(formatVerify({ ok: false, details: [{ asset: 'BTC', total: '1' }], replay: { ok: false, stateHash: 'ab', replayHash: 'cd' } })).toBe(
      'ledger NOT ok\njournal replay NOT ok\nstateHash   ab\nreplayHash  cd\n',
    );
  });
});
