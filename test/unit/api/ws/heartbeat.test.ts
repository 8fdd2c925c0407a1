import { describe, expect, it } from 'vitest';
import { clientPingNumber, pongText, serverPingText } from '../../../../src/api/ws/heartbeat.js';

describe('heartbeat texts of both streams', () => {
  it.each([
    ['{"ping":1700000000000}', 1700000000000],
    ['{"ping":0.5,"other":1}', 0.5],
    ['{"ping":"1700000000000"}', undefined],
    ['{"ping":null}', undefined],
    ['{"pong":1}', undefined],
    ['[1]', undefined],
    ['"ping"', undefined],
    ['null', undefined],
  ])('when the client sends %s, then the number answered is %s (undefined: the server time)', (text, expected) => {
    expect(clientPingNumber(JSON.parse(text))).toBe(expected);
  });

  it('when a text is not JSON (a bare ping), then there is no client number', () => {
    expect(clientPingNumber(undefined)).toBeUndefined();
  });

  it('when the server pings or answers, then the texts are {"ping":<ms>} and {"pong":<n>}', () => {
    expect(serverPingText(1700000000000)).toBe('{"ping":1700000000000}');
    expect(pongText(42)).toBe('{"pong":42}');
  });
});
