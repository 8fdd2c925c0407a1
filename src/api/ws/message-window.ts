/**
 * "At most `max` messages in any `windowMs`" for one socket (docs/websocket.md "Market stream": 50 in 10 s), as a ring
 * of the last `max` arrival times: bounded memory, O(1) per message.
 */
export class MessageWindow {
  private readonly times: number[] = [];
  private oldest = 0;

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`max must be a positive count: ${max}`);
  }

  /** Records a message arriving at `nowMs`; false when it is one too many for the window. */
  admit(nowMs: number): boolean {
    if (this.times.length < this.max) {
      this.times.push(nowMs);
      return true;
    }
    if (nowMs - this.times[this.oldest] < this.windowMs) return false;
    this.times[this.oldest] = nowMs;
    this.oldest = (this.oldest + 1) % this.max;
    return true;
  }
}
