import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig: BOURSE_WS_MAX_UNREAD_BYTES (docs/websocket.md "Limits")', () => {
  it('when it is not set, then a WebSocket client may leave 4 MiB unread', () => {
    expect(loadConfig({}).wsMaxUnreadBytes).toBe(4 * 1024 * 1024);
  });

  it('when it is 262144, then that is the bound', () => {
    expect(loadConfig({ BOURSE_WS_MAX_UNREAD_BYTES: '262144' }).wsMaxUnreadBytes).toBe(262_144);
  });

  it.each(['0', '65535', '1.5', 'lots', '1073741825'])('when it is "%s", then the start is refused with a ConfigError', (value) => {
    expect(() => loadConfig({ BOURSE_WS_MAX_UNREAD_BYTES: value })).toThrow(ConfigError);
    expect(() => loadConfig({ BOURSE_WS_MAX_UNREAD_BYTES: value })).toThrow('BOURSE_WS_MAX_UNREAD_BYTES must be an integer from 65536 to 1073741824');
  });
});
