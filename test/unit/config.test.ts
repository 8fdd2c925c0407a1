import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig: BOURSE_CORE_THREAD', () => {
  it('when it is not set, then the core runs on the HTTP thread', () => {
    expect(loadConfig({}).coreThread).toBe('inline');
  });

  it.each(['worker', 'inline'] as const)('when it is %s, then that is the placement', (value) => {
    expect(loadConfig({ BOURSE_CORE_THREAD: value }).coreThread).toBe(value);
  });

  it.each(['', 'Worker', 'thread', 'INLINE'])('when it is "%s", then the start is refused with a ConfigError', (value) => {
    expect(() => loadConfig({ BOURSE_CORE_THREAD: value })).toThrow(ConfigError);
    expect(() => loadConfig({ BOURSE_CORE_THREAD: value })).toThrow(`BOURSE_CORE_THREAD must be inline or worker, got ${value}`);
  });
});

describe('loadConfig: BOURSE_ENGINE_TIMEOUT_MS', () => {
  it('when it is not set, then requests wait 10 s for the core (docs/spot-api.md "Errors", -1007)', () => {
    expect(loadConfig({}).engineTimeoutMs).toBe(10_000);
  });

  it('when it is a positive integer, then that is the wait', () => {
    expect(loadConfig({ BOURSE_ENGINE_TIMEOUT_MS: '250' }).engineTimeoutMs).toBe(250);
  });

  it.each(['0', '-5', '1.5', 'soon'])('when it is "%s", then the start is refused with a ConfigError', (value) => {
    expect(() => loadConfig({ BOURSE_ENGINE_TIMEOUT_MS: value })).toThrow('BOURSE_ENGINE_TIMEOUT_MS must be a positive integer');
  });
});

describe('loadConfig: BOURSE_MAX_PENDING_COMMANDS', () => {
  it('when it is not set, then at most 10000 commands wait for the core', () => {
    expect(loadConfig({}).maxPendingCommands).toBe(10_000);
  });

  it('when it is 250, then that is the bound', () => {
    expect(loadConfig({ BOURSE_MAX_PENDING_COMMANDS: '250' }).maxPendingCommands).toBe(250);
  });

  it.each(['0', '-1', '1.5', 'many', '1000001'])('when it is "%s", then the start is refused with a ConfigError', (value) => {
    expect(() => loadConfig({ BOURSE_MAX_PENDING_COMMANDS: value })).toThrow('BOURSE_MAX_PENDING_COMMANDS must be an integer from 1 to 1000000');
  });
});
