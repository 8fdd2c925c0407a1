import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig: BOURSE_SANDBOX (docs/operating.md "Merchant payments settings")', () => {
  it('when it is not set, then the sandbox is on (Bourse mostly serves as a test bed)', () => {
    expect(loadConfig({}).sandbox).toBe(true);
  });

  it.each([
    ['1', true],
    ['0', false],
  ])('when it is %s, then sandbox is %s', (value, expected) => {
    expect(loadConfig({ BOURSE_SANDBOX: value }).sandbox).toBe(expected);
  });

  it.each(['', 'true', 'yes', '2'])('when it is "%s", then the start is refused with a ConfigError naming it', (value) => {
    expect(() => loadConfig({ BOURSE_SANDBOX: value })).toThrow(ConfigError);
    expect(() => loadConfig({ BOURSE_SANDBOX: value })).toThrow(`BOURSE_SANDBOX must be 0 or 1, got ${value}`);
  });
});
