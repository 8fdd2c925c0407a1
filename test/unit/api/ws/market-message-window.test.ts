import { describe, expect, it } from 'vitest';
import { MessageWindow } from '../../../../src/api/ws/message-window.js';

describe('message window (50 client messages per 10 s)', () => {
  it('when 50 messages arrive at once, then all pass and the 51st does not', () => {
    const window = new MessageWindow(50, 10_000);
    for (let i = 0; i < 50; i++) expect(window.admit(1000)).toBe(true);
    expect(window.admit(1000)).toBe(false);
  });

  it('when the oldest of the last 50 is 10 s old, then one more passes, and the next waits for the second oldest', () => {
    const window = new MessageWindow(50, 10_000);
    expect(window.admit(0)).toBe(true);
    for (let i = 0; i < 49; i++) expect(window.admit(5000)).toBe(true);
    expect(window.admit(9999)).toBe(false);
    expect(window.admit(10_000)).toBe(true);
    expect(window.admit(14_999)).toBe(false);
    expect(window.admit(15_000)).toBe(true);
  });

  it('when the limit is not a positive count, then it is refused', () => {
    expect(() => new MessageWindow(0, 10_000)).toThrow(RangeError);
  });
});
