/**
 * How long a signed request stays good (docs/spot-api.md "Timestamp and recvWindow",
 * docs/merchant-payments.md "Getting a token"): from its `timestamp` for `recvWindow` ms, and it
 * may be stamped up to 1 s ahead of the server's clock. One rule for the spot API's orders (at the
 * edge and again when the core takes them) and for /v2 tokens.
 */
export const DEFAULT_RECV_WINDOW_MS = 5000;
export const MAX_RECV_WINDOW_MS = 60_000;
/** How far a client's clock may run ahead of the server's. */
const MAX_CLOCK_LEAD_MS = 1000;

/** True when a request stamped `timestampMs`, with `recvWindowMs` (default 5000), may still be taken at `nowMs`. */
export function insideRecvWindow(timestampMs: number, recvWindowMs: number | undefined, nowMs: number): boolean {
  return timestampMs <= nowMs + MAX_CLOCK_LEAD_MS && nowMs - timestampMs <= (recvWindowMs ?? DEFAULT_RECV_WINDOW_MS);
}
