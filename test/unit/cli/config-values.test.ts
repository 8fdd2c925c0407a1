import { describe, expect, it } from 'vitest';
import { configPatch } from '../../../src/cli/config-values.js';

const current = {
  requestWeightPerMinute: 3000,
  defaultTakerFeeRate: '0.001',
  sandbox: true,
  retryScheduleMs: [1000, 5000],
};

describe('configPatch', () => {
  it('when values are assigned, then each takes the type of the current value', () => {
    expect(
      configPatch(current, ['requestWeightPerMinute=6000', 'defaultTakerFeeRate=0.00080', 'sandbox=false', 'retryScheduleMs=[1000,60000]']),
    ).toEqual({ requestWeightPerMinute: 6000, defaultTakerFeeRate: '0.00080', sandbox: false, retryScheduleMs: [1000, 60000] });
  });

  it('when a value contains "=", then only the first "=" splits key from value', () => {
    expect(configPatch({ note: '' }, ['note=a=b'])).toEqual({ note: 'a=b' });
  });

  it.each([
    ['requestWeightPerMinute=6k', "error: config key 'requestWeightPerMinute' takes a number, got '6k'"],
    ['requestWeightPerMinute=1e3', "error: config key 'requestWeightPerMinute' takes a number, got '1e3'"],
    ['requestWeightPerMinute=99999999999999999', "error: config key 'requestWeightPerMinute' takes a number, got '99999999999999999'"],
    ['sandbox=yes', "error: config key 'sandbox' takes true or false, got 'yes'"],
    ['retryScheduleMs=1000,5000', "error: config key 'retryScheduleMs' takes a JSON array, got '1000,5000'"],
    ['=5', "error: expected key=value, got '=5'"],
    ['requestWeightPerMinute', "error: expected key=value, got 'requestWeightPerMinute'"],
  ])('when the assignment is %s, then it is refused with "%s"', (assignment, message) => {
    expect(() => configPatch(current, [assignment])).toThrow(message);
  });

  it('when a key is given twice, then it is refused', () => {
    expect(() => configPatch(current, ['sandbox=true', 'sandbox=false'])).toThrow("error: config key 'sandbox' given twice");
  });

  it('when the server config is not an object, then it is refused as an unexpected answer', () => {
    expect(() => configPatch([], ['a=1'])).toThrow('error: the server answered the config request without a JSON object');
  });
});
